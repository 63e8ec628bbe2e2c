/* The generator, preconditions and write set of the RMS-normalised matmul contracts
 * (rms_matmul_rbe_common.h says what the kernel computes and why the domain is what it is). */
#include "rms_matmul_rbe_common.h"

#include <math.h>

#include "gen_far.h"

static int64_t rmr_cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t rmr_pad(td_producer *p, uint64_t *classes) {
    int64_t pad = td_prod_u32(p, 0, 2) == 0 ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    if (pad) *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    return pad;
}

/* X [nb, M, K] row-major or column-major per batch, padded; returns its extent */
static int64_t rmr_x_layout(td_producer *p, td_case *c, const rmr_idx *ix, int64_t nb, int64_t M, int64_t K) {
    int64_t sxm, sxk, sxb;
    if (td_prod_u32(p, 0, 2) == 0) sxk = M + rmr_pad(p, &c->classes), sxm = 1, sxb = K * sxk;
    else sxm = K + rmr_pad(p, &c->classes), sxk = 1, sxb = M * sxm;
    sxb += rmr_pad(p, &c->classes);
    c->p[ix->p_sxb].i = sxb, c->p[ix->p_sxm].i = sxm, c->p[ix->p_sxk].i = sxk;
    return (nb - 1) * sxb + (M - 1) * sxm + (K - 1) * sxk + 1;
}

/* W_o [K, N] row-major or column-major, OUT_o [nb, M, N] row-major with son = 1 and a
 * row stride >= max(N, BN) (hbnle); allocates both */
static void rmr_out_layout(td_producer *p, td_case *c, const rmr_idx *ix, int o, int64_t nb, int64_t M, int64_t N,
                           int64_t K, int64_t BN, size_t slack) {
    int64_t swk, swn;
    if (td_prod_u32(p, 0, 2) == 0) swn = K + rmr_pad(p, &c->classes), swk = 1;
    else swk = N + rmr_pad(p, &c->classes), swn = 1;
    int64_t som = (N > BN ? N : BN) + rmr_pad(p, &c->classes);
    int64_t sob = M * som + rmr_pad(p, &c->classes);
    c->p[ix->p_swk[o]].i = swk, c->p[ix->p_swn[o]].i = swn;
    c->p[ix->p_sob[o]].i = sob, c->p[ix->p_som[o]].i = som, c->p[ix->p_son[o]].i = 1;
    td_case_alloc(c, ix->r_w[o], (size_t)((K - 1) * swk + (N - 1) * swn + 1));
    td_case_alloc(c, ix->r_out[o], (size_t)((nb - 1) * sob + (M - 1) * som + N) + slack);
}

void td_rmr_gen(td_producer *p, td_case *c, const rmr_idx *ix) {
    int64_t BM = td_gen_pow2(p, 0, 4), BN = td_gen_pow2(p, 0, 4), BK = td_gen_pow2(p, 0, 5);
    int64_t nkb = td_prod_u32(p, 1, 4);
    while (nkb > 1 && BK * nkb > 64) nkb--;
    int64_t K = BK * nkb, nb = td_prod_u32(p, 1, 2);
    uint64_t cls = 0; /* the tail classes of M against BM and N against BN; the grid's own below */
    int64_t M = (int64_t)td_gen_count(p, (uint64_t)BM, 12, &cls);
    int64_t N = (int64_t)td_gen_count(p, (uint64_t)BN, 24, &cls);
    c->classes |= cls & (TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) |
                         TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_TAIL));
    if (nkb > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    int e = (int)td_prod_u32(p, 3, 30);
    double mant = (double)td_prod_u32(p, 0, 1023);
    c->p[ix->p_eps].r = ldexp(1.0 + mant / 1024.0, -e);
    c->p[ix->p_m].i = M, c->p[ix->p_n].i = N, c->p[ix->p_k].i = K;
    c->p[ix->p_bm].i = BM, c->p[ix->p_bn].i = BN, c->p[ix->p_bk].i = BK, c->p[ix->p_nkb].i = nkb;
    int64_t srms = td_prod_u32(p, 0, 3) == 0 ? 2 : 1;
    if (srms > 1) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    c->p[ix->p_srms].i = srms;
    td_case_alloc(c, ix->r_x, (size_t)rmr_x_layout(p, c, ix, nb, M, K));
    td_case_alloc(c, ix->r_rms, (size_t)((K - 1) * srms + 1));
    size_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, 8) : 0;
    for (int o = 0; o < ix->nout; o++) rmr_out_layout(p, c, ix, o, nb, M, N, K, BN, slack);
    c->grid[0] = (uint32_t)nb, c->grid[1] = (uint32_t)(rmr_cdiv(M, BM) * rmr_cdiv(N, BN)), c->grid[2] = 1;
    if (nb * c->grid[1] == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (M == 1 && N == 1 && nb == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    td_vgen gx, gw;
    td_vgen_init(&gx, p, c, TD_VM_ALL, RMR_BOUND_X);
    td_vgen_fill(&gx, c, ix->r_x);
    td_vgen_init(&gw, p, c, TD_VM_ALL, RMR_BOUND_W);
    td_vgen_fill(&gw, c, ix->r_rms);
    for (int o = 0; o < ix->nout; o++) td_vgen_fill(&gw, c, ix->r_w[o]);
}

/* (of a sparse X, a far case's, only the written pages: td_region_abs_le) */
static const char *rmr_values(const td_case *c, int reg, double bound) {
    return td_region_abs_le(c, reg, bound) ? NULL : "finite values, |x| <= 2^10, |rms_w|, |w| <= 8";
}

static int64_t rmr_span(int64_t a, int64_t sa, int64_t b, int64_t sb) { return (a - 1) * sa + (b - 1) * sb + 1; }

const char *td_rmr_check(const td_case *c, const rmr_idx *ix) {
#define P(k) c->p[ix->k].i
    int64_t M = P(p_m), N = P(p_n), K = P(p_k), nb = c->grid[0];
    if (P(p_bm) < 1 || P(p_bn) < 1 || P(p_bk) < 1 || P(p_nkb) < 1) return "block sizes and numKBlocks > 0";
    if (K != P(p_bk) * P(p_nkb)) return "hK: K = BK * numKBlocks";
    if (M < 1 || N < 1) return "M, N > 0 (offs % M, cdiv(N, BN))";
    double eps = c->p[ix->p_eps].r;
    if (!(eps > 0) || (double)(float)eps != eps) return "EPS a binary32 value > 0 (mean + EPS > 0)";
    if (c->grid[1] != (uint32_t)(rmr_cdiv(M, P(p_bm)) * rmr_cdiv(N, P(p_bn))) || c->grid[2] != 1 || nb < 1)
        return "grid = (batch, cdiv(M, BM) * cdiv(N, BN))";
    if (c->r[ix->r_x].len < (size_t)((nb - 1) * P(p_sxb) + rmr_span(M, P(p_sxm), K, P(p_sxk))) ||
        c->r[ix->r_rms].len < (size_t)((K - 1) * P(p_srms) + 1))
        return "X and RMS hold every lane the loads read";
    for (int o = 0; o < ix->nout; o++) {
        if (P(p_son[o]) != 1) return "hcn: son = 1";
        if (P(p_bn) > P(p_som[o])) return "hbnle: BN <= som";
        if (c->r[ix->r_w[o]].len < (size_t)rmr_span(K, P(p_swk[o]), N, P(p_swn[o])) ||
            c->r[ix->r_out[o]].len < (size_t)((nb - 1) * P(p_sob[o]) + (M - 1) * P(p_som[o]) + N))
            return "W and OUT hold every lane";
        const char *e = rmr_values(c, ix->r_w[o], RMR_BOUND_W);
        if (e) return e;
    }
    const char *e = rmr_values(c, ix->r_x, RMR_BOUND_X);
    return e ? e : rmr_values(c, ix->r_rms, RMR_BOUND_W);
#undef P
}

void td_rmr_writes(const td_case *c, td_wset *ws, const rmr_idx *ix) {
    int64_t M = c->p[ix->p_m].i, N = c->p[ix->p_n].i, BM = c->p[ix->p_bm].i, BN = c->p[ix->p_bn].i;
    int64_t gn = rmr_cdiv(N, BN);
    for (int o = 0; o < ix->nout; o++)
        for (uint32_t b = 0; b < c->grid[0]; b++)
            for (uint32_t pid = 0; pid < c->grid[1]; pid++)
                for (int64_t i = 0; i < BM; i++)
                    for (int64_t j = 0; j < BN; j++) {
                        int64_t m = (pid / gn) * BM + i, n = (pid % gn) * BN + j;
                        if (m >= M || n >= N) continue; /* out_mask */
                        int64_t off = b * c->p[ix->p_sob[o]].i + m * c->p[ix->p_som[o]].i + n * c->p[ix->p_son[o]].i;
                        td_olane l = {.o = (uint32_t)o,
                                      .region = (uint32_t)ix->r_out[o],
                                      .off = (uint64_t)off,
                                      .pid = {b, pid, 0},
                                      .j = (uint64_t)(i * BN + j),
                                      .idx = {b, m, n, o}};
                        td_wset_add(ws, &l);
                    }
}

void td_rmr_far(td_producer *p, td_case *c, const rmr_idx *ix) {
    int64_t nb = c->grid[0], w = rmr_span(c->p[ix->p_m].i, c->p[ix->p_sxm].i, c->p[ix->p_k].i, c->p[ix->p_sxk].i);
    int reg = ix->r_x, stride = ix->p_sxb;
    if (nb < 2 || nb > TD_FAR_MAX_ROWS || c->p[stride].i < w) return; /* one batch; interleaved batches */
    if (td_far_rows_n(p, c, 1, &reg, &stride, nb, &w)) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}
