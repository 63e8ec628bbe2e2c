/* matmul_dequantize: three int4-dequantizing kernels of one file (catalogue part 2,
 * src lines 6978-7050): matmul4_kernel (GPTQ: scale, then subtract the pre-scaled zero
 * point), matmul_kernel (subtract the zero point, then scale; fp16 operands and
 * output) and dequantize_kernel (the weight alone).
 *
 *   matmul_dequantize_dequantize_exec_genuine (hInj : idx -> fpbAddr stride_fpbk
 *     stride_fpbn BK BN pid0 pid1 idx injective): for every tile lane with
 *     k = pid0*BK + i < K and n = pid1*BN + j < N,
 *       fpb[k*sfk + n*sfn] = dequantSpec k n
 *         = (((b[(k/8)*sbk + n*sbn] >> 4(k%8)) & 15) - ((zp[(k/gs)*sbzpk + (n/8)*sbzpn] >> 4(n%8)) & 15))
 *           * scale[(k/gs)*sbsk + n*sbsn].
 *
 * The [named] readings, checked against the original (VeriTile
 * bench/tritonbench_g/matmul_dequantize/matmul_dequantize.py and MatmulDequantize.lean:
 * the three surfaces, dequantSpec, accSpec/bDequant/groupRow, i4AccSpec/i4BDequant, the
 * headlines).
 * dequantize: the Lean file says, and the sources confirm, that this dequantize_kernel
 * is byte-identical to matmul_dequant_int4's; dequantSpec is that contract's spec, so
 * this contract shares its parameter list, generator, checker, write set, spec and
 * intent (contracts/mdi4_common.h; reading, error model -- the exact nibble difference,
 * one binary32 product -- and special values derived in contracts/matmul_dequant_int4.c).
 *
 *   matmul_dequantize_matmul4_exec_genuine (hInj): c[cAddr] = accSpec row col, the
 *   GPTQ matmul4_kernel; the Lean file calls it the matmul_dequantize_int4 port's twin
 *   (the sources differ in a .to(a.dtype) and a dead cast), so it shares that
 *   contract's parameters, generator, checker, write set, spec and intent
 *   (contracts/gptq4_common.h, where the statement, the reading, the preconditions from
 *   the source's WARNING lines and the error model are derived).
 *
 *   matmul_dequantize_matmul_exec_genuine (hK : K = BK * numKBlocks) (hBK8 : BK % 8 = 0)
 *     (hpid1 : pid1 = 0) (hInj : cAddr injective): for every lane with row < M, col < N
 *     (grouped order, pid_m = first_pid_m + pid % group_size_m),
 *       C[scm*row + scn*col] = MemCell.of .fp16 (fp16 (i4AccSpec row col)),
 *       i4AccSpec = sum_{k<K} a[row*sam + k*sak] * ((bNib(k, col) - zpNib(k / gs, col)) * bs[(k/gs)*sbsk + col*sbsn]),
 *       bNib = (b[(k/8)*sbk + col*sbn] >> 4(k%8)) & 15, zpNib = (bzp[(k/gs)*sbzpk + (col/8)*sbzpn] >> 4(col%8)) & 15.
 * matmul: the SPLIT_K = 1 arm (hpid1); rows / columns loaded at % M / % N, unmasked
 * loads (hK: K a multiple of BK); per step the scale / zero-point rows of each lane
 * (offs_k + k*BK) // group_size (per lane: group sizes below BK, and ones that do not
 * divide K, are legal); b_ptrs advance by BK*stride_bk // 8 (exact under hBK8).  The
 * kernel then does `b = ((int_b - int_bzp) * bs).to(tl.float16)` and
 * `tl.dot(a.to(tl.float16), b.to(tl.float16))` into a binary32 accumulator, and stores
 * `accumulator.to(tl.float16)`.  The Lean model keeps the casts as events of
 * placeholder-identity semantics (the stored value is fp16 of the exact i4AccSpec).
 * The contract takes a, bs and C in fp16 (the test's x, scales and output): a.to(fp16)
 * is then exact, the product (q - zp) * bs is exact in binary32 (a 5-bit integer times
 * an 11-bit significand) and its .to(fp16) is a rounding the kernel makes and the
 * statement erases: charged (N(kround_to) fp16, the reference unrounded).  b and bzp
 * are int32 regions of any bit pattern (the Lean .nat containers and the kernel's
 * arithmetic shifts agree after & 0xF).
 * Error model (u = 2^-24, u16 = 2^-11): the nibble difference exact; the weight's fp16
 * rounding u16|w| (no subnormal part: w is a multiple of the fp16 quantum of bs, so a
 * w below 2^-14 is an fp16 subnormal exactly); each a*w an exact binary32 product of
 * two fp16 values (charged by the shadow only where inexact) or fused into an FMA; the
 * K-sum in any order, gamma_{K-1} sum|a_k w_k| (Higham, ASNA 2nd ed., 3.1 and 4.2: the
 * shadow's any-order accumulator: split-K, tree or sequential); the store
 * fp16:rne:inf, the shadow's interval-aware cast.  Special values: finite fp16
 * activations, |bs| < 16, nibble differences in [-15, 15]: |sum| < 2^31, finite in
 * binary32; the fp16 store overflows to inf where the value rounds there (TD_SV_IEEE).
 */
#include "mdi4_common.h"
#include "gptq4_common.h"

const td_contract td_c_matmul_dequantize_matmul4 = {
    .id = "matmul_dequantize.matmul_dequantize_matmul4_exec_genuine", .file = "matmul_dequantize",
    G4_CONTRACT_FIELDS,
};

const td_contract td_c_matmul_dequantize_dequantize = {
    .id = "matmul_dequantize.matmul_dequantize_dequantize_exec_genuine",
    .file = "matmul_dequantize", .family = "elementwise", .kind = "exact",
    .io_class = "exec-existential over TileIndex [BK,BN] (no IO class)",
    .formula = "fpb[k*sfk + n*sfn] = (((b[(k/8)*sbk + n*sbn] >> 4(k%8)) & 15) - "
               "((zp[(k/gs)*sbzpk + (n/8)*sbzpn] >> 4(n%8)) & 15)) * scale[(k/gs)*sbsk + n*sbsn]",
    .nparams = NP, .params = params, .nregions = NR, .regions = regions, .sv = TD_SV_REAL,
    .sv_note = "nibble differences in [-15, 15] and finite scales |s| < 16: every product finite",
    .error_model = "exact integer nibble difference, one binary32 product",
    .classes = (TD_BCLASSES_TILED & ~TD_BC(TD_BC_VALUES_LARGE)) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen, .far = far, .check = check, .writes = writes,
    TD_SPECS(mdi4),
    .intent = &mdi4_intent,
};

/* ---- matmul_kernel: names MQ_* (the dequantize contract's are P_*, R_*) ---- */
enum { MQ_M, MQ_N, MQ_K, MQ_SAM, MQ_SAK, MQ_SBK, MQ_SBN, MQ_SCM, MQ_SCN, MQ_SBSK, MQ_SBSN, MQ_SBZK, MQ_SBZN, MQ_GS,
       MQ_BM, MQ_BN, MQ_BK, MQ_GM, MQ_NKB, MQ_NP };
enum { MQ_RA, MQ_RC, MQ_RBS, MQ_RB, MQ_RBZP, MQ_NR };
enum { MQ_C_STORE };

static const int mq_map[MMF_COUNT] = {
    [MMF_M] = MQ_M,     [MMF_N] = MQ_N,     [MMF_K] = MQ_K,     [MMF_BM] = MQ_BM,   [MMF_BN] = MQ_BN,
    [MMF_BK] = MQ_BK,   [MMF_T] = MQ_NKB,   [MMF_GM] = MQ_GM,   [MMF_SAM] = MQ_SAM, [MMF_SAK] = MQ_SAK,
    [MMF_SBK] = -1,     [MMF_SBN] = -1,     [MMF_SCM] = MQ_SCM, [MMF_SCN] = MQ_SCN};
static const mm_2d mq_d2 = {MM_SWZ_SIMPLE, MM_IDX_WRAP, MM_IDX_WRAP, MQ_RA, MQ_RBS, MQ_RC};
static const td_profile mq_f16 = {TD_F16, TD_RNE, TD_OVF_INF, false}; /* the weight's .to(tl.float16) */

#define TD_SPEC_FILE "matmul_dequantize.spec.h"
#include "spec_instantiate.h"

static const td_param_decl mq_params[MQ_NP] = {
    {"M", TD_P_INT},           {"N", TD_P_INT},          {"K", TD_P_INT},          {"stride_am", TD_P_INT},
    {"stride_ak", TD_P_INT},   {"stride_bk", TD_P_INT},  {"stride_bn", TD_P_INT},  {"stride_cm", TD_P_INT},
    {"stride_cn", TD_P_INT},   {"stride_bsk", TD_P_INT}, {"stride_bsn", TD_P_INT}, {"stride_bzpk", TD_P_INT},
    {"stride_bzpn", TD_P_INT}, {"group_size", TD_P_INT}, {"BM", TD_P_INT},         {"BN", TD_P_INT},
    {"BK", TD_P_INT},          {"GM", TD_P_INT},         {"numKBlocks", TD_P_INT}};
static const td_region_decl mq_regions[MQ_NR] = {{"a_ptr", TD_F16, TD_R_IN},  {"c_ptr", TD_F16, TD_R_OUT},
                                                 {"bs_ptr", TD_F16, TD_R_IN}, {"b_ptr", TD_I32, TD_R_IN},
                                                 {"bzp_ptr", TD_I32, TD_R_IN}};
static const td_cast_decl mq_casts[1] = {{"store", "fp16:rne:inf", "c = accumulator.to(tl.float16), the masked store"}};

/* the group size: the test's 32 and 128-like powers of two, 1, sizes that do not
 * divide K (3, 5) and any size up to K + 8 (one group, or a partial last one) */
static int64_t mq_group(td_producer *p, int64_t K, uint64_t *cls) {
    static const int64_t g[6] = {1, 8, 16, 32, 3, 5};
    int64_t gs = td_prod_u32(p, 0, 7) < 6 ? g[td_prod_u32(p, 0, 5)] : (int64_t)td_prod_u32(p, 1, (uint32_t)K + 8);
    if (K % gs) *cls |= TD_BC(TD_BC_TAIL); /* a partial last group */
    return gs;
}

static void mq_gen(td_producer *p, td_case *c) {
    td_rng r;
    c->seed = td_prod_u64(p);
    td_rng_seed(&r, c->seed);
    mm_shape s;
    mm_shape_opts o = {.bm_lo = 0, .bm_hi = 4, .bn_lo = 0, .bn_hi = 4, .bk_lo = 3, .bk_hi = 5, .max_mn = 40,
                       .max_T = 4, .c_any = 1, .group = 1, .work = 1 << 15};
    mm_gen_shape(p, c, &o, 0, &s);
    int64_t gs = mq_group(p, s.K, &c->classes);
    int64_t kw = s.K / 8, kg = mm_cdiv(s.K, gs), nz = mm_cdiv(s.N, 8), pad = td_prod_bool(p) ? 3 : 0;
    mm_shape_put(c, mq_map, &s);
    int64_t sbk = s.N + pad, sbn = 1;
    if (td_prod_u32(p, 0, 3) == 0) sbk = 1, sbn = kw + pad; /* column-major packed weights */
    int64_t v[6] = {sbk, sbn, s.N + pad, 1, nz + pad, 1};
    int at[6] = {MQ_SBK, MQ_SBN, MQ_SBSK, MQ_SBSN, MQ_SBZK, MQ_SBZN};
    for (int i = 0; i < 6; i++) c->p[at[i]].i = v[i];
    c->p[MQ_GS].i = gs;
    c->grid[0] = (uint32_t)(mm_cdiv(s.M, s.BM) * mm_cdiv(s.N, s.BN));
    td_case_alloc(c, MQ_RA, mm_span(s.M, s.K, s.sam, s.sak));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F16));
    mm_fill_view(&g, c, MQ_RA, s.M, s.K, s.sam, s.sak);
    int mb = td_prod_u32(p, 0, 7) < 5 ? 0 : (int)td_prod_u32(p, 1, 3), mz = (int)td_prod_u32(p, 0, 3);
    if (mz) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL); /* zero points 0, 15 or 8 throughout */
    mdi4_fill_words(&r, c, MQ_RB, kw, s.N, sbk, sbn, mb);
    mdi4_fill_words(&r, c, MQ_RBZP, kg, nz, nz + pad, 1, mz);
    int smode = (int)td_prod_u32(p, 0, IMM_S_COUNT - 1);
    td_case_alloc(c, MQ_RBS, mm_span(kg, s.N, s.N + pad, 1));
    for (int64_t i = 0; i < kg; i++)
        for (int64_t j = 0; j < s.N; j++)
            td_set(c, MQ_RBS, (size_t)(i * (s.N + pad) + j), mm_snap(TD_F16, imm_scale(&r, smode, 1)));
    td_case_alloc(c, MQ_RC, mm_span(s.M, s.N, s.scm, s.scn) + (td_prod_bool(p) ? (size_t)s.BN : 0));
}

static const char *mq_check(const td_case *c) {
    mm_shape s;
    mm_shape_get(c, mq_map, &s);
    for (int k = 0; k < MQ_NP; k++)
        if (c->p[k].i < 0) return "parameters are Nat";
    if (s.BM <= 0 || s.BN <= 0 || s.BK <= 0 || s.GM <= 0 || s.M <= 0 || s.N <= 0) return "BM, BN, BK, GM, M, N > 0";
    if (s.K != s.BK * s.T) return "hK: K = BK * numKBlocks";
    if (s.BK % 8) return "hBK8: BK % 8 = 0";
    int64_t gs = c->p[MQ_GS].i;
    if (gs <= 0) return "group_size > 0 (// group_size)";
    if ((int64_t)c->grid[0] != mm_cdiv(s.M, s.BM) * mm_cdiv(s.N, s.BN) || c->grid[1] != 1 || c->grid[2] != 1)
        return "hpid1: grid = (cdiv(M, BM) * cdiv(N, BN), 1)";
    if (!((s.scn == 1 && s.scm >= s.N) || (s.scm == 1 && s.scn >= s.M))) return "hInj: C's active cells distinct";
    if (c->r[MQ_RA].len < mm_span(s.M, s.K, s.sam, s.sak)) return "a holds the rows read";
    if (c->r[MQ_RC].len < mm_span(s.M, s.N, s.scm, s.scn)) return "c holds the write window";
    int64_t kg = mm_cdiv(s.K, gs);
    if (c->r[MQ_RB].len < mm_span(s.K / 8, s.N, c->p[MQ_SBK].i, c->p[MQ_SBN].i)) return "b holds K/8 packed rows";
    if (c->r[MQ_RBS].len < mm_span(kg, s.N, c->p[MQ_SBSK].i, c->p[MQ_SBSN].i)) return "bs holds the groups' scales";
    if (c->r[MQ_RBZP].len < mm_span(kg, mm_cdiv(s.N, 8), c->p[MQ_SBZK].i, c->p[MQ_SBZN].i))
        return "bzp holds the zero points";
    if (!imm_scales_ok(c, MQ_RBS)) return "scales finite, |s| < 16";
    return NULL;
}

/* Offsets beyond 2^31: a's rows at a stride_am near 2^31 (mm_far_2d; rows load at % M).
 * The kernel's offs_am[:, None] * stride_am is int32 arithmetic in Triton. */
static void mq_far(td_producer *p, td_case *c) { mm_far_2d(p, c, mq_map, &mq_d2); }

static void mq_writes(const td_case *c, td_wset *ws) {
    mm_shape s;
    mm_shape_get(c, mq_map, &s);
    mm_writes_2d(c, ws, &s, &mq_d2);
}

static const td_intent mq_intent = {
    .operation = "C = fp16(A @ W), W[k, n] = (q[k, n] - zp[k // group_size, n]) * scale[k // group_size, n]",
    .definition = "torch.mm of fp16 A and the group-wise dequantized int4 weight (GPTQ/AWQ-style), the exact "
                  "product rounded once to fp16; the weight's fp16 rounding the kernel makes is charged as in the spec",
    TD_SPECS(mq_intent),
};

const td_contract td_c_matmul_dequantize_matmul = {
    .id = "matmul_dequantize.matmul_dequantize_matmul_exec_genuine",
    .file = "matmul_dequantize", .family = "matmul", .kind = "rounding",
    .io_class = "exec-existential over TileIndex [BM,BN], MemCell.of .fp16",
    .formula = "C[scm*row + scn*col] = fp16(sum_{k<K} a[row,k] * ((nib(b[k/8, col], k%8) - nib(bzp[k/gs, col/8], "
               "col%8)) * bs[k/gs, col]))",
    .nparams = MQ_NP, .params = mq_params, .nregions = MQ_NR, .regions = mq_regions, .ncasts = 1, .casts = mq_casts,
    .sv = TD_SV_IEEE,
    .sv_note = "finite fp16 activations, |scale| < 16: binary32 sums finite; the fp16 store overflows to inf where "
               "the value rounds there",
    .error_model = "exact nibble difference; the kernel's fp16 rounding of the weight (charged); exact fp16 "
                   "products; a K-sum in any order; fp16 store cast",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = mq_gen, .far = mq_far, .check = mq_check, .writes = mq_writes,
    TD_SPECS(mq),
    .intent = &mq_intent,
};
