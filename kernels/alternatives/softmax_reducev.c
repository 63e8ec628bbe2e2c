/* Alternatives for softmax_reducev (LightLLM's fused token softmax + P.V, grid (batch,
 * head): Out[b,h,d] = sum_j softmax_j(l_j) V[loc_j, h, d] over the L_b tokens of request
 * b, l_j = Logics[h*slh + (start_b + j)*slb], loc_j = BLoc[b*sb + (mil - L_b + j)*ss]).
 *
 *   alt_twopass_fma (genuine)  three sweeps of the request instead of one online sweep:
 *                 the max of the logits, then the denominator left to right, then each
 *                 output lane as an FMA chain sum_j fmaf(p_j, V_j, acc) with
 *                 p_j = exp(l_j - max), finally acc / den.  Admissible: the two-pass
 *                 softmax, FMA, any summation order.
 *   alt_online3_ex2approx (io)  the online recurrence with blocks of 3 tokens (not a
 *                 power of two, not BLOCK_N), every exp the ex2.approx.f32 model after
 *                 the binary32 multiply by log2 e (compiled tl.exp), out = acc * (1/sum).
 *                 Admissible: another KV block size, the compiled exp,
 *                 reciprocal-multiply.
 * Parameters: mil, the ten strides, BLOCK_DMODEL, BLOCK_N, other_kv_index (+ mr for the
 * genuine contract).  Regions: Logics, V, Out, BLoc, B_Start_Loc, B_Seqlen. */
#include "alt_a_num.h"

enum { P_MIL, P_SLH, P_SLB, P_SVBS, P_SVH, P_SVD, P_SOB, P_SOH, P_SOD, P_SB, P_SS, P_BD, P_BN, P_OTHER, P_MR, NP };
enum { R_LOGICS, R_V, R_OUT, R_BLOC, R_START, R_SEQLEN, NR };

typedef struct srv_row {
    int64_t b, h, n, start, bloc0;
} srv_row;

static float srv_logit(const td_abi_launch *L, const srv_row *r, int64_t j) {
    return tl_load(L, R_LOGICS, r->h * TL_I(L, P_SLH) + (r->start + j) * TL_I(L, P_SLB));
}
static float srv_v(const td_abi_launch *L, const srv_row *r, int64_t j, int64_t d) {
    int64_t loc = tl_load_int(L, R_BLOC, r->bloc0 + j * TL_I(L, P_SS));
    return tl_load(L, R_V, loc * TL_I(L, P_SVBS) + r->h * TL_I(L, P_SVH) + d * TL_I(L, P_SVD));
}

/* out[0..BD) for one (b, h), two-pass */
static void srv_twopass(const td_abi_launch *L, const srv_row *r, float *out) {
    float m = -INFINITY, den = 0.0f;
    for (int64_t j = 0; j < r->n; j++) m = fmaxf(m, srv_logit(L, r, j));
    for (int64_t j = 0; j < r->n; j++) den = den + expf(srv_logit(L, r, j) - m);
    for (int64_t d = 0; d < TL_I(L, P_BD); d++) {
        float acc = 0.0f;
        for (int64_t j = 0; j < r->n; j++) acc = fmaf(expf(srv_logit(L, r, j) - m), srv_v(L, r, j, d), acc);
        out[d] = acc / den;
    }
}

/* out[0..BD) for one (b, h), online in blocks of 3 with the ex2.approx model */
static void srv_online3(const td_abi_launch *L, const srv_row *r, float *out) {
    int64_t BD = TL_I(L, P_BD);
    float m = -INFINITY, sum = 0.0f;
    for (int64_t d = 0; d < BD; d++) out[d] = 0.0f;
    for (int64_t j0 = 0; j0 < r->n; j0 += 3) {
        int64_t n = r->n - j0 < 3 ? r->n - j0 : 3;
        float bm = -INFINITY;
        for (int64_t j = 0; j < n; j++) bm = fmaxf(bm, srv_logit(L, r, j0 + j));
        float mn = fmaxf(m, bm), sc = m == mn ? 1.0f : aa_exp_approx(m - mn);
        sum = sum * sc;
        for (int64_t d = 0; d < BD; d++) out[d] = out[d] * sc;
        for (int64_t j = 0; j < n; j++) {
            float p = aa_exp_approx(srv_logit(L, r, j0 + j) - mn);
            sum = sum + p;
            for (int64_t d = 0; d < BD; d++) out[d] = out[d] + p * srv_v(L, r, j0 + j, d);
        }
        m = mn;
    }
    float rs = 1.0f / sum;
    for (int64_t d = 0; d < BD; d++) out[d] = out[d] * rs;
}

static int srv_run(const td_abi_launch *L, int online) {
    int64_t BD = TL_I(L, P_BD), mil = TL_I(L, P_MIL);
    td_profile st = {TL_FMT(L, R_OUT), TD_RNE, TD_OVF_INF, false};
    float *out;
    TL_ALLOC(L, out, BD);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            srv_row r = {b, h, tl_load_int(L, R_SEQLEN, b), tl_load_int(L, R_START, b), 0};
            r.bloc0 = b * TL_I(L, P_SB) + (mil - r.n) * TL_I(L, P_SS);
            if (online) srv_online3(L, &r, out);
            else srv_twopass(L, &r, out);
            for (int64_t d = 0; d < BD; d++)
                tl_store(L, R_OUT, b * TL_I(L, P_SOB) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD), out[d], st);
        }
    free(out);
    return 0;
}

static int srv_genuine(const td_abi_launch *L) { return srv_run(L, 0); }
static int srv_io(const td_abi_launch *L) { return srv_run(L, 1); }

TD_KERNEL(td_a_softmax_reducev_twopass_fma) = {"softmax_reducev.softmax_reducev_genuine_output_compute_correct_general",
                                               "alt_twopass_fma", TD_ABI_HOST, NULL, NULL, NULL, NP, NR, srv_genuine,
                                               NULL};
TD_KERNEL(td_a_softmax_reducev_io_online3) = {"softmax_reducev.softmax_reducev_io_correctness",
                                              "alt_online3_ex2approx", TD_ABI_HOST, "store=fp32:rne:inf", NULL, NULL,
                                              NP - 1, NR, srv_io, NULL};
