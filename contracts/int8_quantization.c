/* int8_quantization (catalogue part 1, src lines 5551-5574)
 *
 *   per_block_int8_correctness (hB: 0 < BLK*C, hRegions: XInt8 != Scale):
 *     perBlockInt8IO ⊨ fun xs ys => (fun j => perBlockInt8ValSpec xs ys j, fun j => ys j)
 *     perBlockInt8ValSpec = preScale * xs j / ys j  (ys = ScalePre[off_b*scale_stride + off_blk])
 *     Masked2DKernelIO_2x2: B = BLK*C, pid0 = off_blk, pid1 = off_b;
 *     read1 = write1 = off_b*L*C + off_blk*BLK*C + j; read2 = write2 = off_b*scale_stride + off_blk;
 *     mask off_blk*BLK + j/C < L; writeMask2 j = 0 (the unmasked scalar Scale store).
 *
 * The reading, checked against bench/tritonbench_g/int8_quantization (.py: SageAttention's
 * q_kernel_per_block_int8 / k_kernel_per_block_int8, and Int8Quantization.lean): Lean
 * takes the per-block scale as an input (the kernel's own tl.max over the tile reads the
 * masked-off rows of a tail block, undefined memory: a real defect, see below) and
 * erases the rounding.  The kernel stores, per active lane,
 *     v = (preScale * x) / scale;  v += 0.5 * where(v >= 0, 1, -1);  XInt8 = v.to(tl.int8)
 * i.e. a binary32 addition of the sign-dependent half, then fptosi (cvt.rzi.s8.f32:
 * truncation toward zero, saturating).  On the reals trunc(v + sign(v)/2) is v rounded
 * half AWAY from zero; the kernel's binary32 addition may differ from that only where
 * v + 1/2 rounds (v = 0.49999997 gives 1.0): that addition's rounding is charged by the
 * error model, so both the kernel and an exact half-away rounding (alt_roundf) pass.
 * So the spec is: cast "store" = int8:rtz:sat of N(add)(v, +-1/2), Scale[...] = ScalePre[...].
 * preScale: the K kernel's 1, the Q kernel's C**-0.5 * 1.44269504 as binary32, or a
 * power of two.
 *
 * Scales: per block (one per BLK rows of a batch).  ScalePre is what the original kernel
 * computes, RN32(RN32(max|preScale x|) / 127) over the block's VALID rows (the Python
 * kernel's own max also reads the masked-off rows of a tail block: the defect Lean
 * names, outside this slice; rowwise_quantization_triton has it as a mutant), or a
 * power of two at or above it (the rounding ties: x = k/2 * scale makes v an exact
 * .5, and a division by a power of two is exact in every implementation -- IEEE
 * division, x * rcp(b) (rcp of a power of two is exact), Triton's div.full.f32 -- unless
 * the quotient is subnormal, so there the spec is the exact product x * 2^-e).
 * Preconditions beyond Lean's: ScalePre finite, 0 or normal (>= 2^-126: an implementation
 * may form 1/scale, which must be a binary32; a block whose absmax/127 would be subnormal
 * is scaled by 2^64 in the generator), with |preScale x| / scale <= 127.25
 * on every active lane (the host's scale gives <= 127 (1 + 2^-22)), so v + 1/2 never
 * leaves int8 (fptosi out of range is undefined in LLVM); ScalePre = 0 only for an
 * all-zero block: the kernel's 0/0 = NaN converts to 0 (PTX cvt: NaN -> 0), which is
 * Lean's x / 0 = 0: the contract DEFINES 0 there (zero blocks are generated).
 *
 * Error model (shadow-derived): preScale * x, u|p| (exact for 1 and powers of two); the
 * division: the backend's division budget (any implementation, a * (1/b) included),
 * exact where the divisor is a power of two as above; the addition of +-1/2: u|v + 1/2|;
 * the store: the integers of the interval.  The exact ties (v = k + 1/2 exactly, no
 * rounding anywhere) are therefore decided exactly: half away from zero. */
#include "gen.h"
#include "gen_large.h"

enum { P_L, P_C, P_BLK, P_SSTRIDE, P_PRESCALE, NP };
enum { R_X, R_SPRE, R_XI8, R_SCALE, NR };
enum { C_STORE };

#define TD_SPEC_FILE "int8_quantization.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"L", TD_P_INT},
                                         {"C", TD_P_INT},
                                         {"BLK", TD_P_INT},
                                         {"scale_stride", TD_P_INT},
                                         {"preScale", TD_P_REAL}};
static const td_region_decl regions[NR] = {{"X", TD_F32, TD_R_IN},
                                           {"ScalePre", TD_F32, TD_R_IN},
                                           {"XInt8", TD_I8, TD_R_OUT},
                                           {"Scale", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "int8:rtz:sat", "x_int8.to(tl.int8) after the +-0.5 bias (fptosi: truncation, saturating)"}};

/* rows of block (b, k) that are valid: min(BLK, L - k*BLK) */
static int64_t valid_rows(const td_case *c, int64_t k) {
    int64_t L = c->p[P_L].i, BLK = c->p[P_BLK].i, r = L - k * BLK;
    return r < BLK ? r : BLK;
}

/* the block's scale as the original kernel computes it (over its valid rows) */
static float block_scale(const td_case *c, int64_t b, int64_t k) {
    int64_t L = c->p[P_L].i, C = c->p[P_C].i, BLK = c->p[P_BLK].i;
    float pre = (float)c->p[P_PRESCALE].r, m = 0.0f;
    for (int64_t e = 0; e < valid_rows(c, k) * C; e++)
        m = fmaxf(m, fabsf(pre * (float)td_get(c, R_X, (size_t)(b * L * C + k * BLK * C + e))));
    return m / 127.0f;
}

static void gen_values(td_producer *p, td_case *c, int64_t nb, int64_t nblk) {
    int64_t L = c->p[P_L].i, C = c->p[P_C].i, BLK = c->p[P_BLK].i;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p60);
    td_vgen_fill(&g, c, R_X);
    for (int64_t b = 0; b < nb; b++)
        for (int64_t k = 0; k < nblk; k++) {
            size_t base = (size_t)(b * L * C + k * BLK * C), n = (size_t)(valid_rows(c, k) * C);
            size_t at = (size_t)(b * c->p[P_SSTRIDE].i + k);
            uint64_t mode = td_rng_below(&g.rng, 5);
            if (mode == 0) { /* a zero block */
                for (size_t e = 0; e < n; e++) td_set(c, R_X, base + e, 0.0);
            } else if (mode == 1) { /* exact ties: scale 2^e, x = h/2 * 2^e / preScale (preScale a power of two) */
                int ex = (int)td_rng_below(&g.rng, 40) - 20;
                for (size_t e = 0; e < n; e++) {
                    double h = (double)td_rng_below(&g.rng, 509) - 254.0; /* v = h/2 in [-127, 127] */
                    td_set(c, R_X, base + e, (double)(float)(ldexp(h / 2, ex) / c->p[P_PRESCALE].r));
                }
                c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
            }
            float s = block_scale(c, b, k);
            if (s > 0 && s < 0x1p-126f) /* a subnormal scale (1/scale beyond binary32): the block scaled up, exactly */
                for (size_t e = 0; e < n; e++) td_set(c, R_X, base + e, 0x1p64 * td_get(c, R_X, base + e));
            s = block_scale(c, b, k);
            if (s < 0x1p-126f && mode != 0) { /* max|x|/127 underflows: the block made zero (scale 0 only there) */
                for (size_t e = 0; e < n; e++) td_set(c, R_X, base + e, 0.0);
            }
            s = block_scale(c, b, k);
            if (mode == 1 || (s > 0 && td_rng_below(&g.rng, 4) == 0)) { /* a power of two >= the scale */
                int ex;
                double fr = frexp((double)s, &ex);
                s = s > 0 ? (float)ldexp(1.0, fr == 0.5 ? ex - 1 : ex) : 0.0f;
            }
            td_set(c, R_SPRE, at, (double)s);
        }
}

static void gen(td_producer *p, td_case *c) {
    int64_t C = td_gen_pow2(p, 0, 6), BLK = td_gen_pow2(p, 0, 5);
    int64_t L = (int64_t)td_gen_count(p, (uint64_t)BLK, (uint64_t)(4096 / C > BLK ? 4096 / C : BLK), &c->classes);
    int64_t nb = 1 + td_prod_u32(p, 0, 2), nblk = (L + BLK - 1) / BLK;
    int64_t sstride = nblk + td_prod_u32(p, 0, 2); /* scale rows longer than the block count */
    if (nblk * BLK * C * nb > 16384) nb = 1;
    static const double pre_menu[4] = {1.0, 0.5, 4.0, 0.0};
    double pre = pre_menu[td_prod_u32(p, 0, 3)];
    if (pre == 0) pre = (double)(float)(pow((double)C, -0.5) * 1.44269504); /* the Q kernel's */
    c->p[P_L].i = L;
    c->p[P_C].i = C;
    c->p[P_BLK].i = BLK;
    c->p[P_SSTRIDE].i = sstride;
    c->p[P_PRESCALE].r = pre;
    c->grid[0] = (uint32_t)nblk;
    c->grid[1] = (uint32_t)nb;
    c->grid[2] = 1;
    /* td_gen_count marked L's shape against BLK; lanes are L*C per batch, programs nblk*nb */
    if (C > 1 || nb > 1) c->classes &= ~TD_BC(TD_BC_SINGLE_LANE);
    if (nb > 1) c->classes = (c->classes & ~TD_BC(TD_BC_ONE_PROGRAM)) | TD_BC(TD_BC_MULTI_TILE);
    if (sstride > nblk) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    size_t slack = td_prod_bool(p) ? (size_t)(BLK * C) : 0; /* the tail block's masked rows have cells */
    td_case_alloc(c, R_X, (size_t)(nb * L * C) + slack);
    td_case_alloc(c, R_XI8, (size_t)(nb * L * C) + slack);
    td_case_alloc(c, R_SPRE, (size_t)(nb * sstride));
    td_case_alloc(c, R_SCALE, (size_t)(nb * sstride));
    gen_values(p, c, nb, nblk);
}

static const char *check(const td_case *c) {
    int64_t L = c->p[P_L].i, C = c->p[P_C].i, BLK = c->p[P_BLK].i, ss = c->p[P_SSTRIDE].i;
    int64_t nblk = c->grid[0], nb = c->grid[1];
    double pre = c->p[P_PRESCALE].r;
    if (!(BLK * C > 0) || BLK < 0) return "hB: 0 < BLK * C";
    if ((BLK & (BLK - 1)) || (C & (C - 1))) return "BLK, C powers of two (tl.arange)";
    if (L < 1 || nblk != (L + BLK - 1) / BLK || nb < 1 || c->grid[2] != 1) return "grid = (cdiv(L, BLK), batches)";
    if (ss < nblk) return "scale_stride >= the block count (scale rows do not overlap)";
    if ((double)(float)pre != pre || !isfinite(pre)) return "preScale : a finite binary32 constant";
    if (c->r[R_X].len < (size_t)(nb * L * C) || c->r[R_XI8].len < (size_t)(nb * L * C)) return "X, XInt8 hold B*L*C";
    if (c->r[R_SPRE].len < (size_t)(nb * ss) || c->r[R_SCALE].len < (size_t)(nb * ss)) return "scale rows";
    /* (a large case: its window blocks; every other element reads 0, a zero block) */
    for (uint64_t e = td_large_next(c, R_X, 0); e < c->r[R_X].len; e = td_large_next(c, R_X, e + 1))
        if (!isfinite(td_get(c, R_X, (size_t)e))) return "X holds real (finite) values";
    for (int64_t b = 0; b < nb; b++)
        for (uint64_t u = td_large_row_next(c, 0); u < (uint64_t)nblk; u = td_large_row_next(c, u + 1)) {
            int64_t k = (int64_t)u; /* (a large case: its window blocks) */
            double s = td_get(c, R_SPRE, (size_t)(b * ss + k));
            if (!(s >= 0) || !isfinite(s)) return "ScalePre finite and >= 0";
            if (s > 0 && s < 0x1p-126) return "ScalePre 0 or normal (>= 2^-126: its reciprocal is a binary32)";
            for (int64_t e = 0; e < valid_rows(c, k) * C; e++) {
                double px = fabs((double)(float)(pre * td_get(c, R_X, (size_t)(b * L * C + k * BLK * C + e))));
                if (s == 0 && px != 0) return "ScalePre = 0 only for an all-zero block";
                if (s > 0 && px / s > 127.25) return "|preScale x| / scale <= 127.25 (the int8 range)";
            }
        }
    return NULL; /* hRegions: XInt8 and Scale are distinct regions */
}

/* Block (b, k)'s valid lanes and its scale.  A large case: the blocks of its windows; the
 * others (full blocks: the tail is the last, in a window) only counted. */
static void writes(const td_case *c, td_wset *ws) {
    int64_t L = c->p[P_L].i, C = c->p[P_C].i, BLK = c->p[P_BLK].i, ss = c->p[P_SSTRIDE].i;
    uint64_t seen = 0;
    for (uint32_t b = 0; b < c->grid[1]; b++)
        for (uint32_t k = (uint32_t)td_large_row_next(c, 0); k < c->grid[0];
             k = (uint32_t)td_large_row_next(c, (uint64_t)k + 1), seen++) {
            for (int64_t j = 0; j < BLK * C; j++) {
                if (!((int64_t)k * BLK + j / C < L)) continue;
                td_olane l = {.o = 0, .region = R_XI8, .off = (uint64_t)(b * L * C + (int64_t)k * BLK * C + j),
                              .pid = {k, b, 0}, .j = (uint64_t)j, .idx = {b, k}};
                td_wset_add(ws, &l);
            }
            td_olane s = {.o = 1, .region = R_SCALE, .off = (uint64_t)(b * ss + k), .pid = {k, b, 0}, .idx = {b, k}};
            td_wset_add(ws, &s);
        }
    if (c->nwin) ws->dropped += (c->grid[0] - seen) * (uint64_t)(BLK * C + 1);
}

static const char *intent_gap(const td_case *c) {
    int64_t ss = c->p[P_SSTRIDE].i;
    for (uint32_t b = 0; b < c->grid[1]; b++) /* (a large case: its window blocks; the others read 0) */
        for (uint32_t k = (uint32_t)td_large_row_next(c, 0); k < c->grid[0];
             k = (uint32_t)td_large_row_next(c, (uint64_t)k + 1))
            if (td_get(c, R_SPRE, (size_t)(b * ss + k)) != (double)block_scale(c, b, k))
                return "ScalePre is not the block's absmax / 127 (a power-of-two scale)";
    return NULL;
}
static const td_intent intent = {
    .operation = "per-block symmetric int8 quantization: round-half-away(preScale x / scale), scale = "
                 "max|preScale x| / 127 over the block",
    .definition = "SageAttention per_block_int8: x_int8 = round(x / scale) (half away from zero), scale = "
                  "absmax / 127 per block of BLK rows",
    TD_SPECS(pbi_intent),
    .gap = intent_gap,
};

/* The large tier (gen_large.h, td_rows_large): the original forms x_offset + offs_m * C +
 * offs_k = off_b*L*C + (off_blk*BLK + i)*C + k in int32 (program ids and L are int32 in
 * Triton, BLK and C constexprs): past 2^31 elements of a batch the block base wraps.  A
 * large case is one batch of more than 2^31 / (BLK*C) blocks; a row-block is a block:
 * BLK*C elements of X and XInt8, one ScalePre and one Scale (scale_stride = the block
 * count, so the scale rows stay dense).  Batch 0's full blocks repeat; with none (L < BLK)
 * the block of its first 2^floor(log2 L) rows, under the drawn block's scale (a bound for
 * any subset of its rows: |preScale x| / scale <= 127.25 holds, and a zero scale still
 * comes with zero rows).  A block narrower than TD_ROWS_LARGE_MIN_LEN is widened by zero
 * rows (BLK times a power of two: a zero row leaves the block's max; C, and with it the Q
 * kernel's preScale, is kept).  The last
 * block is then cut to a tail (L = R*BLK - m, 0 <= m < BLK): its valid rows are a prefix
 * of a full block, which keeps the same two preconditions. */
static int large_tail(td_producer *p, td_case *c, uint64_t B) {
    uint64_t m = 0;
    if (B > 1) switch (td_prod_u32(p, 0, 3)) {
        case 0: m = 0; break;
        case 1: m = 1; break;
        case 2: m = B - 1; break;
        default: m = td_prod_u32(p, 0, (uint32_t)(B - 1)); break;
        }
    c->classes &= ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_BELOW) |
                    TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_STRIDE_GT_ROW));
    if (m == 0) c->classes |= TD_BC(TD_BC_EXACT_MULTIPLE);
    else
        c->classes |= TD_BC(TD_BC_TAIL) | (m == 1 ? TD_BC(TD_BC_TAIL_BELOW) : 0) |
                      (m == B - 1 ? TD_BC(TD_BC_TAIL_ABOVE) : 0);
    return (int)m;
}

static void large(td_producer *p, td_case *c) {
    int64_t L0 = c->p[P_L].i, C = c->p[P_C].i, BLK0 = c->p[P_BLK].i;
    uint64_t R0 = (uint64_t)(L0 / BLK0), f = 1, R;
    if (R0 == 0) { /* one tail block: its first 2^floor(log2 L) rows under its scale, repeated */
        BLK0 = 1;
        while (2 * BLK0 <= L0) BLK0 *= 2;
        R0 = 1;
    }
    while ((uint64_t)(BLK0 * C) * f < TD_ROWS_LARGE_MIN_LEN) f *= 2;
    uint64_t B = (uint64_t)BLK0 * f;
    td_rows_region rr[4] = {
        {R_X, B * (uint64_t)C, (uint64_t)(BLK0 * C)}, {R_SPRE, 1, 1}, {R_XI8, B * (uint64_t)C, 0}, {R_SCALE, 1, 0}};
    if (td_rows_large(p, c, R0, rr, 4, &R) != 0) return; /* (no address space: no large case) */
    int64_t m = large_tail(p, c, B);
    c->p[P_L].i = (int64_t)(R * B) - m;
    c->p[P_BLK].i = (int64_t)B;
    c->p[P_SSTRIDE].i = (int64_t)R;
    c->grid[0] = (uint32_t)R;
    c->grid[1] = 1;
}

/* .far: none -- read = write = off_b*L*C + off_blk*BLK*C + j over the whole contiguous tensor: an offset
 * beyond 2^31 means 2^31 elements and a dense output of as many (the large tier: `large`). */
const td_contract td_c_per_block_int8 = {
    .id = "int8_quantization.per_block_int8_correctness",
    .file = "int8_quantization",
    .family = "quantization",
    .io_class = "Masked2DKernelIO_2x2 (perBlockInt8IO)",
    .kind = "rounding",
    .formula = "XInt8[j] = int8(trunc(v + sign(v)/2)), v = preScale * X[j] / ScalePre[blk] (0 if the scale is 0); "
               "Scale[blk] = ScalePre[blk]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .ncasts = 1,
    .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = "finite X; ScalePre = 0 only for an all-zero block, DEFINED as 0 (Lean x/0 = 0; the kernel's NaN "
               "converts to 0); |v| <= 127.25 (no int8 overflow)",
    .error_model = "preScale*x u|p|; the division's budget (exact by a power of two); the +-1/2 addition u|v+1/2|; "
                   "the int8 store admits the integers of the interval; Scale copied exactly",
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) |
               TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) |
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |
               TD_BC(TD_BC_STRIDE_GT_ROW),
    .gen = gen,
    .check = check,
    .writes = writes,
    .large = large,
    TD_SPECS(pbi),
    .intent = &intent,
};
