/* Alternatives for flash_decode2_phi (the Phi stage-2 decode slices, head lanes
 * d < head_dim).
 *
 *   masked accumulator, alt_fma_ex2approx  one step of the stage-2 recurrence with both
 *                 exps the ex2.approx.f32 model after the binary32 multiply by log2 e
 *                 (compiled tl.exp), and both updates contracted into FMAs:
 *                 acc' = fmaf(exp_logic, tv, acc * old_scale),
 *                 sum' = fmaf(sum, old_scale, exp_logic).
 *                 Admissible: the compiled exp, FMA contraction.
 *   normalization, alt_rcp  Out = Acc * (1/SumExp).  Admissible: reciprocal-multiply.
 *   running max (MaxTrace[(b*H + h)*(n+1) + k] = max of Mid_O_LogExpSum[b*eb + h*eh + j],
 *   j < k, entry 0 = -inf; exact, tolerance 0): the port folds left to right with fmaxf,
 *   storing after each step.  The trace is a prefix-max scan, and max is associative and
 *   exact, so any scan computes the same values:
 *     alt_scan_hs     a Hillis-Steele inclusive scan (log2 n rounds, element k taking
 *                     max(x[k - 2^r], x[k]) as a comparison-and-select, each round from the
 *                     previous round's buffer: the shape of tl.associative_scan), then
 *                     one store per entry; programs walked last to first.
 *     alt_scan_2lvl   a two-level (blocked) scan: prefix maxima inside chunks of 2, then
 *                     each chunk offset by the max of the chunks before it (fmaxf), the
 *                     trace stored from its last entry down.
 * Parameters and regions as kernels/host/flash_decode2_phi.c. */
#include "alt_a_num.h"

enum { S_MID_OB, S_MID_OH, S_MID_OS, S_MID_OD, S_E_B, S_E_H, S_E_S, S_OBS, S_OH, S_OD, S_N };
enum { A_HD = S_N, A_BSEQ, A_BD, A_K, A_ACC_B, A_ACC_H, A_ACC_D, A_SUM_B, A_SUM_H, A_LOGIC_B, A_LOGIC_H, A_NP };
enum { AR_SEQLEN, AR_MID, AR_E, AR_ACCIN, AR_SUMIN, AR_MAX, AR_NEWMAX, AR_ACCOUT, AR_SUMOUT, AR_OUT, AR_N };
enum { N_HD = S_N, N_BSEQ, N_BD, N_ACC_B, N_ACC_H, N_ACC_D, N_SUM_B, N_SUM_H, N_NP };
enum { NR_SEQLEN, NR_MID, NR_E, NR_ACC, NR_SUM, NR_OUT, NR_N };

static int fdp_acc(const td_abi_launch *L) {
    int64_t BD = TL_I(L, A_BD), hd = TL_I(L, A_HD), k = TL_I(L, A_K), w = hd < BD ? hd : BD;
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            float tlogic = tl_load(L, AR_E, b * TL_I(L, S_E_B) + h * TL_I(L, S_E_H) + k);
            int64_t lo = b * TL_I(L, A_LOGIC_B) + h * TL_I(L, A_LOGIC_H);
            float nm = tl_load(L, AR_NEWMAX, lo);
            float old_scale = aa_exp_approx(tl_load(L, AR_MAX, lo) - nm), e = aa_exp_approx(tlogic - nm);
            for (int64_t d = 0; d < w; d++) {
                float tv = tl_load(L, AR_MID, b * TL_I(L, S_MID_OB) + h * TL_I(L, S_MID_OH) + k * TL_I(L, S_MID_OS) +
                                                  d * TL_I(L, S_MID_OD));
                int64_t ao = b * TL_I(L, A_ACC_B) + h * TL_I(L, A_ACC_H) + d * TL_I(L, A_ACC_D);
                tl_store(L, AR_ACCOUT, ao, fmaf(e, tv, tl_load(L, AR_ACCIN, ao) * old_scale), tl_f32());
            }
            int64_t so = b * TL_I(L, A_SUM_B) + h * TL_I(L, A_SUM_H);
            tl_store(L, AR_SUMOUT, so, fmaf(tl_load(L, AR_SUMIN, so), old_scale, e), tl_f32());
        }
    return 0;
}

static int fdp_norm_rcp(const td_abi_launch *L) {
    int64_t BD = TL_I(L, N_BD), hd = TL_I(L, N_HD), w = hd < BD ? hd : BD;
    td_profile st = {TL_FMT(L, NR_OUT), TD_RNE, TD_OVF_INF, false};
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            float r = 1.0f / tl_load(L, NR_SUM, b * TL_I(L, N_SUM_B) + h * TL_I(L, N_SUM_H));
            for (int64_t d = 0; d < w; d++) {
                float acc = tl_load(L, NR_ACC, b * TL_I(L, N_ACC_B) + h * TL_I(L, N_ACC_H) + d * TL_I(L, N_ACC_D));
                tl_store(L, NR_OUT, b * TL_I(L, S_OBS) + h * TL_I(L, S_OH) + d * TL_I(L, S_OD), acc * r, st);
            }
        }
    return 0;
}

TD_KERNEL(td_a_fd2_phi_acc_fma) = {"flash_decode2_phi.flash_decode2_phi_masked_accumulator_output_summary_general",
                                   "alt_fma_ex2approx", TD_ABI_HOST, NULL, NULL, NULL, A_NP, AR_N, fdp_acc, NULL};
TD_KERNEL(td_a_fd2_phi_norm_rcp) = {"flash_decode2_phi.flash_decode2_phi_normalization_output_summary_general",
                                    "alt_rcp", TD_ABI_HOST, NULL, NULL, NULL, N_NP, NR_N, fdp_norm_rcp, NULL};

/* running-max trace */
enum { X_HD = S_N, X_BSEQ, X_BD, X_BNS, X_NP };
enum { XR_SEQLEN, XR_MID, XR_E, XR_OUT, XR_TRACE, XR_N };

static void fdp_load_logits(const td_abi_launch *L, int64_t b, int64_t n, int64_t h, float *x) {
    for (int64_t k = 0; k < n; k++) x[k] = tl_load(L, XR_E, b * TL_I(L, S_E_B) + h * TL_I(L, S_E_H) + k);
}
static void fdp_scan_hs(float *x, float *y, int64_t n) {
    for (int64_t w = 1; w < n; w *= 2) {
        for (int64_t k = 0; k < n; k++) y[k] = k >= w && x[k - w] > x[k] ? x[k - w] : x[k];
        memcpy(x, y, (size_t)n * sizeof *x);
    }
}
static void fdp_scan_2lvl(float *x, int64_t n) {
    const int64_t C = 2; /* up to 3 chunks: block_n_size <= 6 in the domain */
    for (int64_t lo = 0; lo < n; lo += C) /* prefix maxima inside each chunk */
        for (int64_t k = lo + 1; k < lo + C && k < n; k++) x[k] = fmaxf(x[k - 1], x[k]);
    float carry = -INFINITY; /* then each chunk offset by the chunks before it */
    for (int64_t lo = 0; lo < n; lo += C) {
        float last = x[(lo + C < n ? lo + C : n) - 1];
        for (int64_t k = lo; k < lo + C && k < n; k++) x[k] = fmaxf(carry, x[k]);
        carry = fmaxf(carry, last);
    }
}
static int fdp_trace(const td_abi_launch *L, int hs) {
    const int64_t n = TL_I(L, X_BNS), B = L->grid[0], H = L->grid[1];
    float *x;
    TL_ALLOC(L, x, 2 * n + 1);
    for (int64_t p = B * H - 1; p >= 0; p--) {
        const int64_t b = p / H, h = p % H, row = p * (n + 1);
        fdp_load_logits(L, b, n, h, x);
        if (hs) fdp_scan_hs(x, x + n, n);
        else fdp_scan_2lvl(x, n);
        if (hs) {
            tl_store(L, XR_TRACE, row, -INFINITY, tl_f32());
            for (int64_t k = 0; k < n; k++) tl_store(L, XR_TRACE, row + k + 1, x[k], tl_f32());
        } else {
            for (int64_t k = n - 1; k >= 0; k--) tl_store(L, XR_TRACE, row + k + 1, x[k], tl_f32());
            tl_store(L, XR_TRACE, row, -INFINITY, tl_f32());
        }
    }
    free(x);
    return 0;
}
static int fdp_trace_hs(const td_abi_launch *L) { return fdp_trace(L, 1); }
static int fdp_trace_2l(const td_abi_launch *L) { return fdp_trace(L, 0); }

#define FDP_MAX "flash_decode2_phi.flash_decode2_phi_running_max_output_summary_general"
TD_KERNEL(td_a_fd2_phi_max_hs) = {FDP_MAX, "alt_scan_hs", TD_ABI_HOST, NULL, NULL, NULL, X_NP, XR_N, fdp_trace_hs,
                                  NULL};
TD_KERNEL(td_a_fd2_phi_max_2l) = {FDP_MAX, "alt_scan_2lvl", TD_ABI_HOST, NULL, NULL, NULL, X_NP, XR_N, fdp_trace_2l,
                                  NULL};
