/* lightning_attention: Lightning Attention-2 without decay, the forward tile scan and the
 * backward's gradient store (catalogue part 3, src lines 6652-6760).
 *
 *   lightning_attention_output_summary_general (hBM : BLOCK_MODEL <= e) (hPrev : KVPrev =
 *     kvClosed(m)) (hK, hV: KTrans, VTile the staged block-m tiles): the forward and both
 *     backward surfaces lower; KVOut[a*BM + c] = kvStepSpec = kvClosed(m+1)[a, c] =
 *     sum_{r < (m+1)*BLOCK, r < n} K[r, a] V[r, c]; OInter[r*BM + c] = oInterDotSpec =
 *     sum_a Q[r, a] KVPrev[a, c]; Out[bodyOutOffset] = fwdOutClosed(row = m*BLOCK + r, c) =
 *     sum_{r' <= row} (sum_a Q[row, a] K[r', a]) V[r', c]  (writeIf row < n).
 *   lightning_attention_bwd_grad_store_io_correctness (hOutInj), Masked3DTileKernelIO_1:
 *     Out[p0*n*width + (p1*BLOCK + r)*width + c] = GradPre[same], mask p1*BLOCK + r < n.
 *   lightning_attention_bwd_grad_store_io_correctnessR: the same |=[R, .real].
 *
 * Checked against bench/tritonbench_g/lightning_attention (the .py and
 * LightningAttention.lean): _fwd_kernel's grid is (b*h, cdiv(e, BLOCK_MODEL)); Q, K are
 * [b*h, n, d], V, Out [b*h, n, e], contiguous; per block i: q, k_trans, v loaded with the
 * row mask (other 0), qk = q k^T, qk = where(index >= 0, qk, 0) (index = row - col in
 * signed int32: the causal mask, diagonal kept), o = qk v + q kv, the masked store, THEN
 * kv += k^T v.  So o of block m reads kvClosed(m) (rows < m*BLOCK) and fwdOutClosed is
 * the causal linear attention (checked, the Lean's bodyStepSpec_eq_fwdOutClosed).  The
 * source is LightningAttention2NoDecay: no decay anywhere (the comments' "decay" are
 * leftovers), checked.  Reading of kvClosed: the Lean sums K rows < m*BLOCK unmasked
 * (past n for a tail block: the next head's rows); the kernel masks rows >= n (other 0),
 * and the catalogue row states r < n: the contract takes r < n.  Channels are not masked
 * in the kernel: a program whose e_offset + BM passes e reads and writes the next row's
 * cells (another program's), so the launch is race-free only for e % BLOCK_MODEL == 0;
 * the generator takes e = BM * NE (the wrapper's BM = min(next_pow2(e), 32) gives that for
 * e a power of two or a multiple of 32).  d and BM are powers of two (tl.arange); the
 * GPU's tl.dot also needs each dimension >= 16 (the interpreter does not; the contract's
 * dims are symbolic).  The staged tiles KTrans, VTile, KVPrev are the kernel's registers
 * in a full launch (scratch); KVOut and OInter are stored per program at
 * (p0 * NE + p1) * tile (the Lean's slices have one program's tile at offset 0).  The
 * backward grid is (b*h, NUM_BLOCK); DO, DQ, DK, DV are the backward's: the summary's
 * launch is the forward (they stay untouched).  gradStore: shape [BLOCK, WIDTH], offsets
 * p0*n*width + (p1*BLOCK + r)*width + c, mask row < n (and c < WIDTH, always true).
 *
 * Error model (Out): every admissible evaluation is a nesting of dot products: the
 * kernel's (intra block: (q k^T) v, d-1 + BLOCK-1 additions; inter: q (sum of the blocks'
 * k^T v), n_prev - 1 + d - 1 additions; + their sum), the flat (Q K^T) V, Q (K^T V), any
 * block size, any order, FMA: each term q_a k_{r,a} v_{r,c} goes through at most two
 * products and d + row additions, so
 *     |err| <= gamma_{d+row+2} S3 + eta (row+1+d)(d+1)(1 + max|q| + max|v|),
 *     S3 = sum_a |q_{row,a}| sum_{r <= row} |k_{r,a}| |v_{r,c}|
 * (Higham ASNA 3.5 for the nested sums; eta per product that may underflow, then scaled
 * by at most one more operand).  The spec evaluates sum_a q_a KV_row[a, c] with KV the
 * running k v prefix (memoised: O(d) per lane) and widens by this term (its own charges
 * for the sequential prefix are kept: the bound is at most about twice the minimal).
 * KVOut: a sum of N = min((m+1) BLOCK, n) products in any order: gamma_N sum |k v| + N eta.
 * OInter: sum_a q_a kvClosed(m)[a, c]: gamma_{d + m BLOCK + 1} the same way.  Stores
 * binary32 exact.  tl.dot's default TF32 (allow_tf32, sm_80+) rounds each operand to 10
 * bits (2^-11 relative): outside this binary32 model, as for the other fp32-dot contracts
 * (a TF32 kernel must declare it; the contract is over the reals, evaluated in binary32).
 * gradStore: a copy, tolerance 0; R.round .real on binary32 Out is the exact store.
 * Special values: finite inputs |x| <= 8 (summary; S3 <= 4096*32*64: finite), any finite
 * binary32 (store).
 */
#include "gen.h"
#include "gen_far.h"
#include "gen_large.h"

enum { P_B, P_H, P_N, P_D, P_E, P_BLOCK, P_NUMBLOCK, P_BM, P_M, NP };
enum { R_Q, R_K, R_V, R_OUT, R_DO, R_DQ, R_DK, R_DV, R_KVPREV, R_KTRANS, R_VTILE, R_KVOUT, R_OINTER, NR };
enum { O_OUT, O_KVOUT, O_OINTER };
enum { PG_N, PG_WIDTH, PG_BLOCK, PG_WIDTHB, NPG }; /* gradStore: n, width, BLOCK, WIDTH */
enum { RG_GRADPRE, RG_OUT, NRG };

#define TD_SPEC_FILE "lightning_attention.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"_b", TD_P_INT},    {"h", TD_P_INT},     {"n", TD_P_INT},
                                         {"d", TD_P_INT},     {"e", TD_P_INT},     {"BLOCK", TD_P_INT},
                                         {"NUM_BLOCK", TD_P_INT}, {"BLOCK_MODEL", TD_P_INT}, {"m", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"Q", TD_F32, TD_R_IN},          {"K", TD_F32, TD_R_IN},          {"V", TD_F32, TD_R_IN},
    {"Out", TD_F32, TD_R_OUT},       {"DO", TD_F32, TD_R_IN},         {"DQ", TD_F32, TD_R_SCRATCH},
    {"DK", TD_F32, TD_R_SCRATCH},    {"DV", TD_F32, TD_R_SCRATCH},    {"KVPrev", TD_F32, TD_R_SCRATCH},
    {"KTrans", TD_F32, TD_R_SCRATCH}, {"VTile", TD_F32, TD_R_SCRATCH}, {"KVOut", TD_F32, TD_R_OUT},
    {"OInter", TD_F32, TD_R_OUT}};
static const td_param_decl params_g[NPG] = {
    {"n", TD_P_INT}, {"width", TD_P_INT}, {"BLOCK", TD_P_INT}, {"WIDTH", TD_P_INT}};
static const td_region_decl regions_g[NRG] = {{"GradPre", TD_F32, TD_R_IN}, {"Out", TD_F32, TD_R_OUT}};

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Shape: BLOCK, d, BM powers of two, e = BM * NE, n from the block boundaries (1, B-1, B,
 * B+1, 2B+1, 3B) or, one case in 8, the wrapper's launch (BLOCK 64, BM = min(next_pow2(e),
 * 32)) on 2048..4096 rows of one head with d, e <= 2 */
static void gen_shape(td_producer *p, td_case *c) {
    int long_seq = td_prod_u32(p, 0, 7) == 0;
    int64_t BLOCK = td_gen_pow2(p, 0, 6), d = td_gen_pow2(p, 0, long_seq ? 1 : 4), BM = td_gen_pow2(p, 0, long_seq ? 1 : 5);
    int64_t NE = td_prod_u32(p, 1, long_seq ? 1 : 3), BH = td_prod_u32(p, 1, 3), B = BH == 2 ? 2 : 1;
    uint32_t ni = td_prod_u32(p, 0, 5), nl = td_prod_u32(p, 2048, 4096);
    int64_t ns[6] = {1, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK + 1, 3 * BLOCK}, n = ns[ni] > 0 ? ns[ni] : 1;
    if (long_seq) BLOCK = 64, n = nl, BH = 1, B = 1;
    while (BM * NE * d * n * BH > 20000) { /* the spec's k^T v prefix: n d e b h memoised steps a case */
        if (NE > 1) NE--;
        else if (d > 1) d /= 2;
        else if (BM > 1) BM /= 2;
        else break;
    }
    c->p[P_B].i = B, c->p[P_H].i = BH / B, c->p[P_N].i = n, c->p[P_D].i = d, c->p[P_E].i = BM * NE;
    c->p[P_BLOCK].i = BLOCK, c->p[P_NUMBLOCK].i = cdiv(n, BLOCK), c->p[P_BM].i = BM;
    c->grid[0] = (uint32_t)BH, c->grid[1] = (uint32_t)NE, c->grid[2] = 1;
    c->classes |= (n % BLOCK ? TD_BC(TD_BC_TAIL) : TD_BC(TD_BC_EXACT_MULTIPLE)) |
                  (n == BLOCK - 1 ? TD_BC(TD_BC_TAIL_BELOW) : 0) | (n == BLOCK + 1 ? TD_BC(TD_BC_TAIL_ABOVE) : 0) |
                  (BLOCK >= 4 * n ? TD_BC(TD_BC_BLOCK_GT_N) : 0) | (n > BLOCK ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (n == 1 ? TD_BC(TD_BC_SEQ_SINGLE) : 0) | (BH * NE == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0);
}

static void gen(td_producer *p, td_case *c) {
    gen_shape(p, c);
    int64_t n = c->p[P_N].i, d = c->p[P_D].i, e = c->p[P_E].i, BH = c->grid[0], G = BH * c->grid[1];
    int64_t BLOCK = c->p[P_BLOCK].i, BM = c->p[P_BM].i;
    c->p[P_M].i = td_prod_u32(p, 0, (uint32_t)(c->p[P_NUMBLOCK].i - 1));
    size_t nd = (size_t)(BH * n * d), ne = (size_t)(BH * n * e);
    td_case_alloc(c, R_Q, nd), td_case_alloc(c, R_K, nd), td_case_alloc(c, R_V, ne), td_case_alloc(c, R_OUT, ne + 3);
    td_case_alloc(c, R_DO, ne), td_case_alloc(c, R_DQ, nd), td_case_alloc(c, R_DK, nd), td_case_alloc(c, R_DV, ne);
    td_case_alloc(c, R_KVPREV, (size_t)(G * d * BM)), td_case_alloc(c, R_KTRANS, (size_t)(G * d * BLOCK));
    td_case_alloc(c, R_VTILE, (size_t)(G * BLOCK * BM)), td_case_alloc(c, R_KVOUT, (size_t)(G * d * BM) + 3);
    td_case_alloc(c, R_OINTER, (size_t)(G * BLOCK * BM) + 3);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    td_vgen_fill(&g, c, R_Q), td_vgen_fill(&g, c, R_K), td_vgen_fill(&g, c, R_V), td_vgen_fill(&g, c, R_DO);
    c->classes |= c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0;
}

static int pow2(int64_t x) { return x > 0 && !(x & (x - 1)); }

static const char *check(const td_case *c) {
    for (int i = 0; i < NP; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t n = c->p[P_N].i, d = c->p[P_D].i, e = c->p[P_E].i, BLOCK = c->p[P_BLOCK].i, BM = c->p[P_BM].i;
    int64_t BH = c->p[P_B].i * c->p[P_H].i, G = BH * (int64_t)c->grid[1];
    if (!pow2(BLOCK) || !pow2(d) || !pow2(BM)) return "BLOCK, d, BLOCK_MODEL are powers of two (tl.arange)";
    if (BM > e) return "hBM: BLOCK_MODEL <= e";
    if (e % BM) return "e % BLOCK_MODEL == 0 (unmasked channels: the programs' stores are disjoint)";
    if (n <= 0 || c->p[P_NUMBLOCK].i != cdiv(n, BLOCK)) return "NUM_BLOCK = cdiv(n, BLOCK), n > 0";
    if (c->p[P_M].i >= c->p[P_NUMBLOCK].i) return "m < NUM_BLOCK (block m inside the sequence)";
    if (c->grid[0] != (uint32_t)BH || c->grid[1] != (uint32_t)(e / BM) || c->grid[2] != 1)
        return "grid = (b*h, cdiv(e, BLOCK_MODEL))";
    size_t nd = (size_t)(BH * n * d), ne = (size_t)(BH * n * e);
    if (c->r[R_Q].len < nd || c->r[R_K].len < nd || c->r[R_V].len < ne || c->r[R_OUT].len < ne)
        return "Q, K [b*h, n, d]; V, Out [b*h, n, e]";
    if (c->r[R_KVPREV].len < (size_t)(G * d * BM) || c->r[R_KTRANS].len < (size_t)(G * d * BLOCK) ||
        c->r[R_VTILE].len < (size_t)(G * BLOCK * BM) || c->r[R_KVOUT].len < (size_t)(G * d * BM) ||
        c->r[R_OINTER].len < (size_t)(G * BLOCK * BM))
        return "the staged tiles: one per program";
    for (int r = R_Q; r <= R_V; r++) /* (a large case: its window heads; every other value reads 0) */
        for (uint64_t i = td_large_next(c, r, 0); i < c->r[r].len; i = td_large_next(c, r, i + 1))
            if (!(fabs(td_get(c, r, (size_t)i)) <= 8)) return "Q, K, V finite, |x| <= 8 (the domain the error model uses)";
    return NULL;
}

static void add(td_wset *ws, uint32_t o, int reg, int64_t off, uint32_t p0, uint32_t p1, int64_t a, int64_t b,
                int64_t j) {
    td_olane l = {.o = o, .region = (uint32_t)reg, .off = (uint64_t)off, .pid = {p0, p1, 0}, .j = (uint64_t)j,
                  .idx = {p0, a, b}};
    td_wset_add(ws, &l);
}

/* A large case: the heads of its windows; the other heads' lanes only counted. */
static void writes(const td_case *c, td_wset *ws) {
    int64_t n = c->p[P_N].i, d = c->p[P_D].i, e = c->p[P_E].i, BLOCK = c->p[P_BLOCK].i, BM = c->p[P_BM].i;
    int64_t NE = c->grid[1];
    uint64_t seen = 0;
    for (uint32_t p0 = (uint32_t)td_large_row_next(c, 0); p0 < c->grid[0];
         p0 = (uint32_t)td_large_row_next(c, (uint64_t)p0 + 1), seen++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++) {
            int64_t g = p0 * NE + p1;
            for (int64_t row = 0; row < n; row++) /* increasing rows: the spec's prefix memo fills in order */
                for (int64_t cc = 0; cc < BM; cc++)
                    add(ws, O_OUT, R_OUT, p0 * n * e + row * e + p1 * BM + cc, p0, p1, row, p1 * BM + cc, cc);
            for (int64_t a = 0; a < d; a++)
                for (int64_t cc = 0; cc < BM; cc++)
                    add(ws, O_KVOUT, R_KVOUT, g * d * BM + a * BM + cc, p0, p1, a, p1 * BM + cc, a * BM + cc);
            for (int64_t r = 0; r < BLOCK; r++)
                for (int64_t cc = 0; cc < BM; cc++)
                    add(ws, O_OINTER, R_OINTER, g * BLOCK * BM + r * BM + cc, p0, p1, r, p1 * BM + cc, r * BM + cc);
        }
    if (c->nwin) ws->dropped += (c->grid[0] - seen) * (uint64_t)(n * e + NE * (d + BLOCK) * BM);
}

/* The large tier (gen_large.h, td_rows_large): more than 2^31 / (n*e) heads (grid[0] =
 * b*h), so off_bh * n * e (and off_bh * n * d) passes 2^31 (off_bh an int32 program id,
 * n, d, e constexprs: an int32 product; nothing in the signature bounds b*h*n*e).
 * Row-block off_bh is [n, d] of Q, K, [n, e] of V, Out and the NE staged tiles of each
 * (KVPrev, KTrans, VTile, KVOut, OInter: tile g = off_bh * NE + off_e); DO, DQ, DK, DV
 * are the backward's and stay as drawn.  The forward recomputes every block of a head:
 * per Out element BLOCK multiply-adds of o_intra, d of o_inter, d of the kv update and
 * BLOCK d / BLOCK_MODEL of q k^T, 2^31 times over: at the drawn BLOCK (up to 64) and d
 * (up to 16) up to ~10^3 per element, hours on the host.  So a large case takes BLOCK =
 * d = 1 (a block per row, NUM_BLOCK = n, m kept: m < cdiv(n, BLOCK0) <= n; Q, K keep the
 * first n values of each head's rows, in the domain), e, BLOCK_MODEL and n as drawn:
 * about 4 operations per Out element, a minute of CPU per case (fused_recurrent_hgrn's
 * large case: 45 s).  A head of fewer than TD_ROWS_LARGE_MIN_LEN Out elements is
 * lengthened in rows (zero rows). */
static void large(td_producer *p, td_case *c) {
    int64_t n0 = c->p[P_N].i, d0 = c->p[P_D].i, e = c->p[P_E].i, BM = c->p[P_BM].i, NE = c->grid[1], n = n0;
    if (n * e < TD_ROWS_LARGE_MIN_LEN) n = (TD_ROWS_LARGE_MIN_LEN + e - 1) / e;
    const td_rows_region rr[] = {
        {R_Q, (uint64_t)n, (uint64_t)(n0 * d0)},  {R_K, (uint64_t)n, (uint64_t)(n0 * d0)},
        {R_V, (uint64_t)(n * e), (uint64_t)(n0 * e)}, {R_OUT, (uint64_t)(n * e), 0},
        {R_KVPREV, (uint64_t)(NE * BM), 0},        {R_KTRANS, (uint64_t)NE, 0},
        {R_VTILE, (uint64_t)(NE * BM), 0},         {R_KVOUT, (uint64_t)(NE * BM), 0},
        {R_OINTER, (uint64_t)(NE * BM), 0}};
    uint64_t R;
    if (td_rows_large(p, c, c->grid[0], rr, (int)(sizeof rr / sizeof rr[0]), &R) != 0) return;
    c->p[P_N].i = n, c->p[P_D].i = 1, c->p[P_BLOCK].i = 1, c->p[P_NUMBLOCK].i = n;
    c->p[P_B].i = 1, c->p[P_H].i = (int64_t)R;
    c->grid[0] = (uint32_t)R;
    c->classes &= ~(TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_BLOCK_GT_N) |
                    TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_MULTI_TILE));
    c->classes |= TD_BC(TD_BC_EXACT_MULTIPLE) | (n == 2 ? TD_BC(TD_BC_TAIL_ABOVE) : 0) | /* gen_shape's rules at BLOCK 1 */
                  (n > 1 ? TD_BC(TD_BC_MULTI_TILE) : TD_BC(TD_BC_SEQ_SINGLE));
}

/* ---- the gradient store ---- */
static void gen_g(td_producer *p, td_case *c) {
    int64_t BLOCK = td_gen_pow2(p, 0, 6), WIDTH = td_gen_pow2(p, 0, 5), width = WIDTH + (td_prod_bool(p) ? 0 : td_prod_u32(p, 1, 9));
    int64_t BH = td_prod_u32(p, 1, 3);
    int64_t n = (int64_t)td_gen_count(p, (uint64_t)BLOCK, (uint64_t)(60000 / (width * BH)), &c->classes);
    c->p[PG_N].i = n, c->p[PG_WIDTH].i = width, c->p[PG_BLOCK].i = BLOCK, c->p[PG_WIDTHB].i = WIDTH;
    c->grid[0] = (uint32_t)BH, c->grid[1] = (uint32_t)cdiv(n, BLOCK), c->grid[2] = 1;
    td_case_alloc(c, RG_GRADPRE, (size_t)(BH * n * width)), td_case_alloc(c, RG_OUT, (size_t)(BH * n * width) + 3);
    c->classes |= (width > WIDTH ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (c->grid[1] > 1 ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (BH * c->grid[1] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, RG_GRADPRE);
}
static const char *check_g(const td_case *c) {
    for (int i = 0; i < NPG; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t n = c->p[PG_N].i, width = c->p[PG_WIDTH].i, BLOCK = c->p[PG_BLOCK].i, WIDTH = c->p[PG_WIDTHB].i;
    if (!pow2(BLOCK) || !pow2(WIDTH)) return "BLOCK, WIDTH are powers of two (tl.arange)";
    if (WIDTH > width) return "hOutInj: WIDTH <= width (rows do not overlap)";
    if (n <= 0 || c->grid[1] != (uint32_t)cdiv(n, BLOCK) || c->grid[0] == 0 || c->grid[2] != 1)
        return "grid = (b*h, cdiv(n, BLOCK)), n > 0";
    size_t sz = (size_t)c->grid[0] * (size_t)(n * width);
    if (c->r[RG_GRADPRE].len < sz || c->r[RG_OUT].len < sz) return "GradPre, Out hold [b*h, n, width]";
    return NULL;
}
static void writes_g(const td_case *c, td_wset *ws) {
    int64_t n = c->p[PG_N].i, width = c->p[PG_WIDTH].i, BLOCK = c->p[PG_BLOCK].i, WIDTH = c->p[PG_WIDTHB].i;
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (int64_t r = 0; r < BLOCK; r++)
                for (int64_t cc = 0; cc < WIDTH; cc++) {
                    int64_t row = p1 * BLOCK + r;
                    if (row >= n) continue;
                    td_olane l = {.region = RG_OUT, .off = (uint64_t)(p0 * n * width + row * width + cc),
                                  .pid = {p0, p1, 0}, .j = (uint64_t)(r * WIDTH + cc)};
                    td_wset_add(ws, &l);
                }
}

/* The far tier (gen_far.h) of the gradient stores: GradPre and Out are read and written
 * at one offset p0*n*width + (p1*BLOCK + r)*width + c, the original's off_bh * n * d +
 * block_offset * d (width is d or e there: constexprs times an int32 program id, an
 * int32 product; the pointer then adds the row's block_offset * d, another).  A far case
 * keeps the b*h >= 2 heads (b*h <= 3: a region spans at most 2 * 2^31 elements, 16 GiB
 * reserved) and their first n' = min(n, 128 / (b*h)) rows (at most 128 rows, a page or
 * two each committed), and moves every row
 * to the row stride width' whose last head starts 2^31 + d in ((b*h - 1) * n' * width' >=
 * 2^31 + d: the head base itself passes 2^31, as the int32 product wraps; td_far_reslab
 * with one row per slab: each row's WIDTH cells copied, both regions still holding the
 * whole [b*h, n', width'] tensor, Out a sparse output).  One head, or a width' past
 * int32 (where Triton would form the offsets in int64), has no far case. */
static void far_g(td_producer *p, td_case *c) {
    static const int regs[2] = {RG_GRADPRE, RG_OUT};
    int64_t BH = c->grid[0], n = c->p[PG_N].i, width = c->p[PG_WIDTH].i, BLOCK = c->p[PG_BLOCK].i;
    int64_t WIDTH = c->p[PG_WIDTHB].i, n2 = n < 128 / BH ? n : 128 / BH;
    if (BH < 2 || n2 <= 0 || BLOCK <= 0 || WIDTH <= 0 || WIDTH > width) return;
    int64_t w2 = td_far_tile_stride(p, (BH - 1) * n2 + 1, WIDTH); /* (BH - 1) * n2 * w2 >= 2^31 + d */
    if (w2 > INT32_MAX || td_far_reslab(c, regs, 2, BH * n, BH * n2, WIDTH, width, w2)) return;
    c->p[PG_N].i = n2, c->p[PG_WIDTH].i = w2;
    c->grid[1] = (uint32_t)cdiv(n2, BLOCK);
    const uint64_t shape = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) |
                           TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) |
                           TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE);
    if (n2 != n) { /* the shape classes of the rows kept, as gen_g marks them (BH >= 2: never one program) */
        c->classes &= ~shape;
        td_gen_mark_shape((uint64_t)n2, (uint64_t)BLOCK, c->grid[1], &c->classes);
    }
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

#define LA_GRAD_COMMON                                                                                            \
    .file = "lightning_attention", .family = "linear-attention", .io_class = "Masked3DTileKernelIO_1 (gradStoreIO)", \
    .nparams = NPG, .params = params_g, .nregions = NRG, .regions = regions_g, .sv = TD_SV_REAL,                   \
    .sv_note = "finite inputs; a copy", .error_model = "a copy: tolerance 0",                                       \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),                          \
    .gen = gen_g, .far = far_g, .check = check_g, .writes = writes_g, TD_SPECS(la_grad)

const td_contract td_c_lightning_attention_grad = {
    .id = "lightning_attention.lightning_attention_bwd_grad_store_io_correctness",
    .kind = "exact",
    .formula = "Out[p0*n*width + (p1*BLOCK+r)*width + c] = GradPre[same]  (mask p1*BLOCK + r < n)",
    LA_GRAD_COMMON,
};
const td_contract td_c_lightning_attention_grad_r = {
    .id = "lightning_attention.lightning_attention_bwd_grad_store_io_correctnessR",
    .kind = "rounding",
    .formula = "Out[idx] = R.round(.real)(GradPre[idx])  (.real: the binary32 store is exact)",
    LA_GRAD_COMMON,
};

/* The intent (lightning_attention.spec.h): causal linear attention without decay or
 * normalisation; KVOut / OInter are its running k^T v state and that state's product
 * with the block's queries. */
static const td_intent intent = {
    .operation = "causal linear attention (no decay, no normalisation): O = (Q K^T masked to s <= t) V, "
                 "equivalently o_t = q_t sum_{s <= t} k_s^T v_s",
    .definition = "Qin et al. 2024, Lightning Attention-2, eq. for the no-decay case (lambda = 1): "
                  "O = [(Q K^T) ⊙ M] V with the causal mask M; Katharopoulos et al. 2020 (identity feature map, "
                  "without the normaliser)",
    TD_SPECS(la_intent),
};

const td_contract td_c_lightning_attention_summary = {
    .id = "lightning_attention.lightning_attention_output_summary_general",
    .file = "lightning_attention",
    .family = "linear-attention",
    .io_class = "ComputeCorrect over TileIndex (kv step, o_inter, loop body) + 3 lowerings",
    .kind = "exact",
    .formula = "Out[row, c] = sum_{r <= row} (sum_a Q[row,a] K[r,a]) V[r,c]; KVOut = sum_{r < min((m+1)BLOCK, n)} "
               "K[r,:]^T V[r,:]; OInter[r, c] = sum_a Q[m BLOCK + r, a] kvClosed(m)[a, c]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8: every sum finite",
    .error_model = "any nesting of the dot products (intra/inter blocks, any block size and order, FMA): "
                   "gamma_{d+row+2} sum |q k v| + underflow; KVOut gamma_N sum |k v|",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) |
               TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_BLOCK_GT_N) |
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_VALUES_SPECIAL),
    /* no .far: offsets off_bh * n * d / off_bh * n * e (sizes only, shared with the outputs): an
     * offset >= 2^31 needs dense outputs of 2^31 elements: the large tier's (`large`) */
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(la_summary),
    .intent = &intent,
};
