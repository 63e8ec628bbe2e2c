/* softmax_flaggems: FlagGems' softmax forward and backward, one tile per program  (catalogue part 2)
 *
 *   softmax_kernel_inner_one_tile_compute_correct (N TILE_N; s):
 *     ComputeCorrect (kernel := softmax_kernel_inner_one_tile), writeIf i < N at
 *     linearOffset s N i = pid * N + i (i < TILE_N), expected softmaxFlaggemsSpec
 *   softmax_kernel_inner_one_tile_correctness (hT : 0 < TILE_N):
 *     softmaxFlaggemsInnerIO ⊨ softmaxFlaggemsSpecOf N TILE_N; MaskedKernelIO₁, read =
 *     write = pid * N, mask j < N, B = TILE_N
 *   softmax_kernel_non_inner_one_tile_compute_correct (N K TILE_N TILE_K; s;
 *     hRange : pid1 * TILE_K + TILE_K <= K): tile [TILE_N, TILE_K] at nonInnerOffset =
 *     pid0*N*K + n*K + pid1*TILE_K + c, writeIf n < N, softmax over n of column k
 *   softmax_backward_kernel_inner_one_tile_compute_correct (M N TILE_M TILE_N; s;
 *     hOffInj : innerBwdOffset injective on the whole [TILE_M, TILE_N] tile):
 *     in_grad[m, c] = out[m, c] * (out_grad[m, c] - sum_c' out[m, c'] * out_grad[m, c'])
 *     at (pid*TILE_M + r) * N + c, writeIf m < M and c < N
 *   softmax_backward_kernel_non_inner_one_tile_compute_correct (N K TILE_N TILE_K; s;
 *     hRange): the same VJP reduced over n for each column k of the non-inner tile
 * Each ComputeCorrect form is one program's statement; tilediff launches a grid of
 * programs (rows, or (pid0, pid1) tiles) each writing what its theorem speaks about.
 *
 * The kernels (bench/tritonbench_g/softmax_flaggems, the ONE_TILE_PER_CTA branches,
 * as SoftmaxFlaggems.lean transcribes them): forward: masked load with other = -inf,
 * tl.max along the reduced axis, exp(inp - m), tl.sum, e / z, masked store; backward:
 * masked loads WITHOUT other, scale = tl.sum(out * out_grad) along the reduced axis,
 * out * (out_grad - scale).  Checked against the Lean specs:
 *   - softmaxFlaggemsSpec / SpecOf / NonInnerSpec are the ⊥-padded tile softmax
 *     (reduceMax, exp, reduceSum, div) over the lanes of the TILE: the catalogue's
 *     "max_{j<N}" / "sum_{j<N}" is the whole row only when TILE_N >= N; the contract
 *     allows TILE_N < N, and then only the first TILE_N elements are reduced and
 *     written.  The specs here are over min(N, TILE_N) elements.
 *   - innerBwdSpec / nonInnerBwdSpec reduce over the WHOLE tile axis, the inactive
 *     lanes holding s.undef (a masked load without other).  On NVIDIA, Triton
 *     lowers such a load to a predicated load into a zeroed register, and the
 *     IO-level siblings in this catalogue (log_softmax's backward,
 *     Masked2DKernelIO₂.Implements) pin undef = 0; tilediff takes undef = 0 (the host
 *     kernels load 0), so inactive lanes add 0 and the scale is the sum over the
 *     active lanes c < min(N, TILE_N).  The catalogue's "sum_{n'<N}" again assumes
 *     TILE_N >= N.
 *   - hOffInj (inner backward) over the whole tile holds iff TILE_M = 1 or N >= TILE_N
 *     (row r's lanes c >= N would alias row r + 1): the generator makes one or the
 *     other and the checker verifies it.
 *
 * Error models.  Forward: the family's tile softmax (softmax_common.h), the column
 * form with stride K for the non-inner tile.  Backward: p_c = out_c * out_grad_c (one
 * rounding each), scale = tl.sum of the p_c (a pairwise tree over min(N, TILE_N)
 * terms, gamma_{ceil log2 n} sum |p_c|), out_grad - scale (one rounding, where
 * cancellation makes the relative error large but not the absolute one), times out
 * (one rounding).
 *
 * Special values: TD_SV_REAL.  Forward: exp(x - max) <= 1, the sum >= 1.  Backward:
 * |out| <= 2^10 and |out_grad| <= 2^20, so every intermediate is finite.  Empty rows
 * (N = 0) and, where the form has no hT, TILE_N = 0 write nothing.
 */
#include "softmax_common.h"
#include "gen_far.h"

enum { PI_N, PI_TILE, NPI };                            /* inner forward */
enum { PN_N, PN_K, PN_TILE_N, PN_TILE_K, NPN };         /* non-inner forward and backward */
enum { PB_M, PB_N, PB_TILE_M, PB_TILE_N, NPB };         /* inner backward */
enum { RF_OUT, RF_IN, NRF };                            /* forward regions */
enum { RB_OUT, RB_OG, RB_IG, NRB };                     /* backward regions: out, out_grad, in_grad */

#define TD_SPEC_FILE "softmax_flaggems.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_i[NPI] = {{"N", TD_P_INT}, {"TILE_N", TD_P_INT}};
static const td_param_decl params_n[NPN] = {
    {"N", TD_P_INT}, {"K", TD_P_INT}, {"TILE_N", TD_P_INT}, {"TILE_K", TD_P_INT}};
static const td_param_decl params_b[NPB] = {
    {"M", TD_P_INT}, {"N", TD_P_INT}, {"TILE_M", TD_P_INT}, {"TILE_N", TD_P_INT}};
static const td_region_decl regions_f[NRF] = {{"output_ptr", TD_F32, TD_R_OUT}, {"input_ptr", TD_F32, TD_R_IN}};
static const td_region_decl regions_b[NRB] = {
    {"out_ptr", TD_F32, TD_R_IN}, {"out_grad_ptr", TD_F32, TD_R_IN}, {"in_grad_ptr", TD_F32, TD_R_OUT}};

static int64_t slack_of(td_producer *p) { return td_prod_bool(p) ? td_prod_u32(p, 1, 16) : 0; }

/* ---- inner forward: rows at pid * N ---- */
static void gen_inner(td_producer *p, td_case *c, int allow_empty_tile) {
    int64_t T = td_gen_pow2(p, 0, 12);
    if (allow_empty_tile && td_prod_u32(p, 0, 31) == 0) T = 0; /* no hT in the ComputeCorrect form */
    int64_t N = T ? sm_gen_cols(p, T, 2 * T + 3, 1, &c->classes) : td_prod_u32(p, 0, 8);
    int64_t w = N < T ? N : T, R = td_prod_u32(p, 1, (uint32_t)sm_max_rows(w, 12)), slack = slack_of(p);
    if (N > T && T) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    c->p[PI_N].i = N;
    c->p[PI_TILE].i = T;
    c->grid[0] = (uint32_t)R;
    if (R == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    sm_vals v;
    sm_vals_init(&v, p, c, 0x1p20);
    td_case_alloc(c, RF_IN, (size_t)(R * N + slack));
    sm_fill_all(&v, c, RF_IN);
    for (int64_t r = 0; r < R; r++) sm_fill_row(&v, c, RF_IN, (uint64_t)(r * N), 1, w);
    td_case_alloc(c, RF_OUT, (size_t)(R * N + slack));
}
static void gen_inner_cc(td_producer *p, td_case *c) { gen_inner(p, c, 1); }
static void gen_inner_io(td_producer *p, td_case *c) { gen_inner(p, c, 0); }

static const char *check_inner_cc(const td_case *c) {
    int64_t N = c->p[PI_N].i, T = c->p[PI_TILE].i, w = N < T ? N : T, R = c->grid[0];
    if (N < 0 || T < 0) return "N, TILE_N : Nat";
    if (w > 0 && ((R - 1) * N + w > (int64_t)c->r[RF_IN].len || (R - 1) * N + w > (int64_t)c->r[RF_OUT].len))
        return "the regions hold every active lane's read and write";
    return NULL;
}
static const char *check_inner_io(const td_case *c) {
    if (c->p[PI_TILE].i <= 0) return "hT: 0 < TILE_N";
    return check_inner_cc(c);
}
static void writes_inner(const td_case *c, td_wset *ws) {
    int64_t N = c->p[PI_N].i, T = c->p[PI_TILE].i;
    for (uint32_t pid = 0; pid < c->grid[0]; pid++)
        for (int64_t i = 0; i < T && i < N; i++) {
            td_olane l = {.region = RF_OUT, .off = (uint64_t)(pid * N + i), .pid = {pid, 0, 0}, .j = (uint64_t)i,
                          .idx = {pid, i}};
            td_wset_add(ws, &l);
        }
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows at pid * N with N near
 * 2^31, as FlagGems' pid_m * N (int32 in Triton for N < 2^31) gets wrong.  The
 * row stride is N itself, so a far N makes the tile lie inside its row: a case of
 * N < TILE_N first takes the tile of the largest power of two <= N (the lanes it reads
 * are then the same before and after the move).  Input and output share the stride:
 * the input moves as a sparse read-only region, the output as a sparse output. */
static void far_inner(td_producer *p, td_case *c) {
    static const int regs[] = {RF_IN, RF_OUT};
    int64_t N = c->p[PI_N].i, T = c->p[PI_TILE].i, t = T;
    if (T <= 0 || N <= 0) return;
    while (t > N) t /= 2;
    c->p[PI_TILE].i = t;
    if (!td_far_rows(p, c, regs, 2, PI_N, t)) c->p[PI_TILE].i = T; /* not moved: the case as it was */
}

/* ---- non-inner tiles [TILE_N, TILE_K] at pid0*N*K + n*K + pid1*TILE_K + c ---- */
/* grid (M, KT) with KT * TILE_K <= K (hRange for every program); K may leave a partial
 * tile of columns that no program covers (they stay unwritten). */
static void gen_non_inner_shape(td_producer *p, td_case *c, int64_t *N, int64_t *K, int64_t *TN, int64_t *TK) {
    *TK = td_gen_pow2(p, 0, 6);
    *TN = td_gen_pow2(p, 0, 12 - (td_prod_u32(p, 0, 6) > 3 ? 6 : 0));
    if (*TN * *TK > 4096) *TN = 4096 / *TK;
    *N = sm_gen_cols(p, *TN, 2 * *TN + 3, 1, &c->classes);
    int64_t KT = td_prod_u32(p, 1, 4);
    int64_t rest = td_prod_bool(p) ? td_prod_u32(p, 1, (uint32_t)(*TK > 1 ? *TK - 1 : 1)) : 0;
    if (*TK == 1) rest = td_prod_bool(p) ? td_prod_u32(p, 1, 3) : 0;
    *K = KT * *TK + rest;
    int64_t w = *N < *TN ? *N : *TN;
    int64_t M = td_prod_u32(p, 1, (uint32_t)sm_max_rows(w * KT * *TK, 8));
    c->grid[0] = (uint32_t)M;
    c->grid[1] = (uint32_t)KT;
    if (M * KT == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (*N > *TN) c->classes |= TD_BC(TD_BC_MULTI_TILE);
}
static void gen_non_inner(td_producer *p, td_case *c) {
    int64_t N, K, TN, TK;
    gen_non_inner_shape(p, c, &N, &K, &TN, &TK);
    c->p[PN_N].i = N, c->p[PN_K].i = K, c->p[PN_TILE_N].i = TN, c->p[PN_TILE_K].i = TK;
    int64_t M = c->grid[0], len = M * N * K + slack_of(p), w = N < TN ? N : TN;
    sm_vals v;
    sm_vals_init(&v, p, c, 0x1p20);
    td_case_alloc(c, RF_IN, (size_t)len);
    sm_fill_all(&v, c, RF_IN);
    for (int64_t m = 0; m < M; m++)
        for (int64_t k = 0; k < K; k++) sm_fill_row(&v, c, RF_IN, (uint64_t)(m * N * K + k), K, w);
    td_case_alloc(c, RF_OUT, (size_t)len);
}
static const char *check_non_inner_shape(const td_case *c, int64_t N, int64_t K, int64_t TN, int64_t TK, int rin,
                                         int rout) {
    if (N < 0 || K < 0 || TN < 0 || TK < 0) return "N, K, TILE_N, TILE_K : Nat";
    if ((int64_t)c->grid[1] * TK > K) return "hRange: pid1 * TILE_K + TILE_K <= K for every program";
    int64_t len = (int64_t)c->grid[0] * N * K;
    if (len > (int64_t)c->r[rin].len || len > (int64_t)c->r[rout].len) return "the regions hold the M x N x K tensor";
    return NULL;
}
static const char *check_non_inner(const td_case *c) {
    return check_non_inner_shape(c, c->p[PN_N].i, c->p[PN_K].i, c->p[PN_TILE_N].i, c->p[PN_TILE_K].i, RF_IN, RF_OUT);
}
static void writes_non_inner_reg(const td_case *c, td_wset *ws, int reg) {
    int64_t N = c->p[PN_N].i, K = c->p[PN_K].i, TN = c->p[PN_TILE_N].i, TK = c->p[PN_TILE_K].i;
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (int64_t n = 0; n < TN && n < N; n++)
                for (int64_t kk = 0; kk < TK; kk++) {
                    int64_t k = p1 * TK + kk;
                    td_olane l = {.region = (uint32_t)reg, .off = (uint64_t)(p0 * N * K + n * K + k),
                                  .pid = {p0, p1, 0}, .j = (uint64_t)(n * TK + kk), .idx = {p0, n, k}};
                    td_wset_add(ws, &l);
                }
}
static void writes_non_inner(const td_case *c, td_wset *ws) { writes_non_inner_reg(c, ws, RF_OUT); }

/* Offsets beyond 2^31 (gen_far.h) of the non-inner forms: batch p0 sits at p0 * N * K
 * (no stride parameter) and the regions hold the whole M x N x K tensor, so a far case
 * keeps up to TD_FAR_MAX_ROWS - 1 batches and enlarges N, the reduced length, until batch 1
 * (or the last) starts 2^31 elements or more in, as FlagGems' pid_m * N * K (int32 in
 * Triton) gets wrong.  The tile reads TILE_N rows n of N, so TILE_N first becomes the
 * largest power of two <= N (then <= the new N), and each batch's rows n < TILE_N
 * (t * K elements) move (td_far_reslab: every region at once, the output a sparse
 * output; the rest of a batch reads as zero and is never read). */
static void far_non_inner(td_producer *p, td_case *c, const int *regs, int n) {
    int64_t M = c->grid[0], N = c->p[PN_N].i, K = c->p[PN_K].i, t = c->p[PN_TILE_N].i;
    if (M < 2 || N <= 0 || K <= 0 || t <= 0) return;
    int64_t R = M < TD_FAR_MAX_ROWS - 1 ? M : TD_FAR_MAX_ROWS - 1; /* 3 whole rows: <= 24 GiB reserved */
    while (t > N) t /= 2;
    int64_t s = td_far_stride(p, R, t * K), N2 = (s + K - 1) / K; /* the batch N2 * K >= s */
    if (td_far_reslab(c, regs, n, M, R, t * K, N * K, N2 * K)) return;
    c->p[PN_N].i = N2, c->p[PN_TILE_N].i = t;
    c->grid[0] = (uint32_t)R;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31);
}
static void far_fwd_non_inner(td_producer *p, td_case *c) {
    static const int regs[NRF] = {RF_OUT, RF_IN};
    far_non_inner(p, c, regs, NRF);
}
static void far_bwd_non_inner(td_producer *p, td_case *c) {
    static const int regs[NRB] = {RB_OUT, RB_OG, RB_IG};
    far_non_inner(p, c, regs, NRB);
}

/* ---- backward values: out like a softmax output (in [0, 1]) or from the menu (|out|
 * <= 2^10), out_grad from the menu (|g| <= 2^20) ---- */
static void fill_bwd(td_producer *p, td_case *c) {
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p20);
    int probs = td_prod_bool(p);
    for (size_t i = 0; i < c->r[RB_OUT].len; i++) {
        double o = probs ? sm_f32(td_rng_unit(&g.rng)) : td_vgen_value(&g, TD_F32);
        if (fabs(o) > 0x1p10) o = sm_f32(fmod(o, 0x1p10));
        td_set(c, RB_OUT, i, o);
    }
    td_vgen_fill(&g, c, RB_OG);
}

/* inner backward: rows pid*TILE_M + r < M, columns c < min(N, TILE_N) */
static void gen_bwd_inner(td_producer *p, td_case *c) {
    int64_t TN = td_gen_pow2(p, 0, 12), TM, N;
    if (td_prod_bool(p)) { /* TILE_M = 1: any N */
        TM = 1;
        N = sm_gen_cols(p, TN, 2 * TN + 3, 1, &c->classes);
    } else { /* N >= TILE_N: the whole tile's offsets are injective */
        TM = td_gen_pow2(p, 0, 12 - (TN > 64 ? 8 : 6));
        N = TN + (td_prod_bool(p) ? 0 : td_prod_u32(p, 1, (uint32_t)TN));
        if (N > TN) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    }
    int64_t w = N < TN ? N : TN;
    int64_t rows = td_prod_u32(p, 1, (uint32_t)sm_max_rows(w, 24));
    int64_t progs = (rows + TM - 1) / TM + (td_prod_u32(p, 0, 7) == 0); /* sometimes a surplus program */
    c->p[PB_M].i = rows, c->p[PB_N].i = N, c->p[PB_TILE_M].i = TM, c->p[PB_TILE_N].i = TN;
    c->grid[0] = (uint32_t)progs;
    if (progs == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (rows % TM) c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* masked rows in the last program */
    int64_t len = rows * N + slack_of(p);
    td_case_alloc(c, RB_OUT, (size_t)len);
    td_case_alloc(c, RB_OG, (size_t)len);
    td_case_alloc(c, RB_IG, (size_t)len);
    fill_bwd(p, c);
}
static const char *check_bwd_inner(const td_case *c) {
    int64_t M = c->p[PB_M].i, N = c->p[PB_N].i, TM = c->p[PB_TILE_M].i, TN = c->p[PB_TILE_N].i;
    if (M < 0 || N < 0 || TM < 0 || TN < 0) return "M, N, TILE_M, TILE_N : Nat";
    if (TM > 1 && TN > N)
        return "hOffInj: (pid*TILE_M + r) * N + c injective on [TILE_M, TILE_N] (TILE_M = 1 or N >= TILE_N)";
    for (int r = 0; r < NRB; r++)
        if (M * N > (int64_t)c->r[r].len) return "the regions hold the M x N tensor";
    return NULL;
}
static void writes_bwd_inner(const td_case *c, td_wset *ws) {
    int64_t M = c->p[PB_M].i, N = c->p[PB_N].i, TM = c->p[PB_TILE_M].i, TN = c->p[PB_TILE_N].i;
    for (uint32_t pid = 0; pid < c->grid[0]; pid++)
        for (int64_t r = 0; r < TM; r++) {
            int64_t m = pid * TM + r;
            if (m >= M) break;
            for (int64_t cc = 0; cc < TN && cc < N; cc++) {
                td_olane l = {.region = RB_IG, .off = (uint64_t)(m * N + cc), .pid = {pid, 0, 0},
                              .j = (uint64_t)(r * TN + cc), .idx = {m, cc}};
                td_wset_add(ws, &l);
            }
        }
}

/* Offsets beyond 2^31 (gen_far.h) of the inner backward: row m at m * N (no stride
 * parameter; the regions hold the whole M x N tensor), so a far case keeps up to
 * TD_FAR_MAX_ROWS - 1 rows and enlarges N until row 1 (or the last) starts 2^31 elements
 * or more in, as FlagGems' offsets_m[:, None] * N (int32 in Triton) gets wrong; TILE_N
 * first becomes the largest power of two <= N (hOffInj then holds: TILE_N <= the new
 * N), and the columns c < TILE_N of each row move (td_far_reslab, every region; in_grad
 * a sparse output).  The programs follow the rows kept: cdiv(rows, TILE_M). */
static void far_bwd_inner(td_producer *p, td_case *c) {
    static const int regs[NRB] = {RB_OUT, RB_OG, RB_IG};
    int64_t M = c->p[PB_M].i, N = c->p[PB_N].i, TM = c->p[PB_TILE_M].i, t = c->p[PB_TILE_N].i;
    if (M < 2 || N <= 0 || TM <= 0 || t <= 0) return;
    int64_t R = M < TD_FAR_MAX_ROWS - 1 ? M : TD_FAR_MAX_ROWS - 1; /* 3 whole rows: <= 24 GiB reserved */
    while (t > N) t /= 2;
    int64_t s = td_far_stride(p, R, t);
    if (td_far_reslab(c, regs, NRB, M, R, t, N, s)) return;
    c->p[PB_M].i = R, c->p[PB_N].i = s, c->p[PB_TILE_N].i = t;
    c->grid[0] = (uint32_t)((R + TM - 1) / TM);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | (R % TM ? TD_BC(TD_BC_FULLY_MASKED) : 0);
}

/* non-inner backward: the forward's tiles */
static void gen_bwd_non_inner(td_producer *p, td_case *c) {
    int64_t N, K, TN, TK;
    gen_non_inner_shape(p, c, &N, &K, &TN, &TK);
    c->p[PN_N].i = N, c->p[PN_K].i = K, c->p[PN_TILE_N].i = TN, c->p[PN_TILE_K].i = TK;
    int64_t len = (int64_t)c->grid[0] * N * K + slack_of(p);
    td_case_alloc(c, RB_OUT, (size_t)len);
    td_case_alloc(c, RB_OG, (size_t)len);
    td_case_alloc(c, RB_IG, (size_t)len);
    fill_bwd(p, c);
}
static const char *check_bwd_non_inner(const td_case *c) {
    const char *bad =
        check_non_inner_shape(c, c->p[PN_N].i, c->p[PN_K].i, c->p[PN_TILE_N].i, c->p[PN_TILE_K].i, RB_OUT, RB_IG);
    if (bad) return bad;
    if ((int64_t)c->grid[0] * c->p[PN_N].i * c->p[PN_K].i > (int64_t)c->r[RB_OG].len)
        return "the regions hold the M x N x K tensor";
    return NULL;
}
static void writes_bwd_non_inner(const td_case *c, td_wset *ws) { writes_non_inner_reg(c, ws, RB_IG); }

#define FWD_NOTE "exp(x - max) <= 1 and the sum >= 1: no overflow, no division by 0; N = 0 writes nothing"
#define BWD_NOTE "|out| <= 2^10, |out_grad| <= 2^20: every intermediate finite; masked lanes load 0 (s.undef = 0)"
#define FLAGGEMS_COMMON .file = "softmax_flaggems", .family = "softmax", .kind = "exact"

static const td_intent intent_fwd_inner = {
    .operation = "softmax of each row over its N entries",
    .definition = "torch.softmax(x, dim=-1) (PyTorch documentation): exp(x_i) / sum_j exp(x_j)",
    TD_SPECS(intent_inner),
};
static const td_intent intent_fwd_non_inner = {
    .operation = "softmax over the N entries of dim 1 of x[M, N, K]",
    .definition = "torch.softmax(x, dim=1) (PyTorch documentation): exp(x_i) / sum_j exp(x_j)",
    TD_SPECS(intent_non_inner),
};
static const td_intent intent_bwd_inner = {
    .operation = "the gradient of softmax over each row's N entries: out * (g - sum(out * g))",
    .definition = "the derivative of torch.softmax (PyTorch autograd: out * (g - (out * g).sum(dim)))",
    TD_SPECS(intent_bwd_inner),
};
static const td_intent intent_bwd_non_inner = {
    .operation = "the gradient of softmax over the N entries of dim 1: out * (g - sum(out * g))",
    .definition = "the derivative of torch.softmax (PyTorch autograd: out * (g - (out * g).sum(dim)))",
    TD_SPECS(intent_bwd_non_inner),
};

const td_contract td_c_flaggems_inner_cc = {
    .id = "softmax_flaggems.softmax_kernel_inner_one_tile_compute_correct",
    .io_class = "ComputeCorrect (BlockState), one program per row",
    .formula = "out[pid*N + i] = exp(x[i] - max_j x[j]) / sum_j exp(x[j] - max), j < min(N, TILE_N), "
               "x = input[pid*N + .]",
    .nparams = NPI, .params = params_i, .nregions = NRF, .regions = regions_f,
    .sv = TD_SV_REAL,
    .sv_note = FWD_NOTE "; TILE_N = 0 (no hT in this form) writes nothing",
    .error_model = "tile softmax as the kernel evaluates it: exact max, sub, exp, pairwise-tree sum, div",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_inner_cc, .far = far_inner, .check = check_inner_cc, .writes = writes_inner,
    FLAGGEMS_COMMON, TD_SPECS(fg_inner), .intent = &intent_fwd_inner,
};

const td_contract td_c_flaggems_inner_io = {
    .id = "softmax_flaggems.softmax_kernel_inner_one_tile_correctness",
    .io_class = "MaskedKernelIO_1 (softmaxFlaggemsInnerIO)",
    .formula = "out[pid*N + i] = exp(x[i] - max_j x[j]) / sum_j exp(x[j] - max), j < min(N, TILE_N), "
               "x = input[pid*N + .]",
    .nparams = NPI, .params = params_i, .nregions = NRF, .regions = regions_f,
    .sv = TD_SV_REAL,
    .sv_note = FWD_NOTE,
    .error_model = "tile softmax as the kernel evaluates it: exact max, sub, exp, pairwise-tree sum, div",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_inner_io, .far = far_inner, .check = check_inner_io, .writes = writes_inner,
    FLAGGEMS_COMMON, TD_SPECS(fg_inner), .intent = &intent_fwd_inner,
};

const td_contract td_c_flaggems_non_inner = {
    .id = "softmax_flaggems.softmax_kernel_non_inner_one_tile_compute_correct",
    .io_class = "ComputeCorrect over TileIndex [TILE_N, TILE_K], grid (M, K / TILE_K)",
    .formula = "out[p0*N*K + n*K + k] = exp(x[n] - max_n' x[n']) / sum_n' exp(x[n'] - max), n' < min(N, TILE_N), "
               "x = input[p0*N*K + . *K + k]",
    .nparams = NPN, .params = params_n, .nregions = NRF, .regions = regions_f,
    .sv = TD_SV_REAL,
    .sv_note = FWD_NOTE,
    .error_model = "column softmax as the kernel evaluates it: exact max, sub, exp, pairwise-tree sum over n, div",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_non_inner, .far = far_fwd_non_inner, .check = check_non_inner, .writes = writes_non_inner,
    FLAGGEMS_COMMON, TD_SPECS(fg_non_inner), .intent = &intent_fwd_non_inner,
};

const td_contract td_c_flaggems_bwd_inner = {
    .id = "softmax_flaggems.softmax_backward_kernel_inner_one_tile_compute_correct",
    .io_class = "ComputeCorrect over TileIndex [TILE_M, TILE_N], grid cdiv(M, TILE_M)",
    .formula = "in_grad[m, c] = out[m, c] * (out_grad[m, c] - sum_c' out[m, c'] * out_grad[m, c']), "
               "c' < min(N, TILE_N)",
    .nparams = NPB, .params = params_b, .nregions = NRB, .regions = regions_b,
    .sv = TD_SV_REAL,
    .sv_note = BWD_NOTE,
    .error_model = "products, pairwise-tree sum over the row, sub, mul: each one binary32 rounding",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_bwd_inner, .far = far_bwd_inner, .check = check_bwd_inner, .writes = writes_bwd_inner,
    FLAGGEMS_COMMON, TD_SPECS(fg_bwd_inner), .intent = &intent_bwd_inner,
};

const td_contract td_c_flaggems_bwd_non_inner = {
    .id = "softmax_flaggems.softmax_backward_kernel_non_inner_one_tile_compute_correct",
    .io_class = "ComputeCorrect over TileIndex [TILE_N, TILE_K], grid (M, K / TILE_K)",
    .formula = "in_grad[p0, n, k] = out[p0, n, k] * (out_grad[p0, n, k] - sum_n' out[p0, n', k] * "
               "out_grad[p0, n', k]), n' < min(N, TILE_N)",
    .nparams = NPN, .params = params_n, .nregions = NRB, .regions = regions_b,
    .sv = TD_SV_REAL,
    .sv_note = BWD_NOTE,
    .error_model = "products, pairwise-tree sum over n, sub, mul: each one binary32 rounding",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_bwd_non_inner, .far = far_bwd_non_inner, .check = check_bwd_non_inner, .writes = writes_bwd_non_inner,
    FLAGGEMS_COMMON, TD_SPECS(fg_bwd_non_inner), .intent = &intent_bwd_non_inner,
};
