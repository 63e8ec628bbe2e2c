/* Alternatives for fast_ce_loss (unsloth's fast cross entropy forward, softcapping off;
 * contracts/fast_ce_loss.c): lse = log sum exp(s(x_j)) over the row's first
 * min(BLOCK, V) logits, s(x) = LOGIT_SCALE * x when DO_LOGIT_SCALING (a binary32
 * product), and the label's scaled logit gathered wherever it lies in the row.
 *
 *   alt_online32_approx  (cross_entropy_forward_correctness) the log-sum-exp online:
 *                 one pass in chunks of 32 with a running max and a running sum rescaled
 *                 by exp(m_old - m_new) (aa_online_ms), the exp compiled tl.exp's
 *                 ex2.approx.f32 model (aa_exp_approx), lse = m + log(s) with the log
 *                 compiled tl.log's lg2.approx.f32 model (aa_log_lg2approx); loss =
 *                 lse - s(x_label), 0 for label -100.  Admissible: online softmax, the
 *                 "triton" math model's exp and log (inside "any").
 *   alt_twopass_exp2   (chunked_cross_entropy_forward_output_summary) only chunk 0 does
 *                 work (every other chunk stores nothing, so its sums are skipped): max,
 *                 then exp as exp2f of the rounded product with log2 e (aa_exp_tl) summed
 *                 in 4 contiguous pieces combined last first, lse = log2(s) * ln 2 + m
 *                 (aa_log_lg2); loss = -s(x_label) (a negation: exact, as -1.0 * x), 0 for
 *                 label -100.  Admissible: any order, exp via exp2, log via log2; the
 *                 stores are the contract's (logsumexp[row * N_CHUNKS], loss[row]).
 * Labels are int64, read as int32 like the kernel's .to(tl.int32). */
#include <stdlib.h>

#include "alt_a_kl.h"
#include "alt_a_softmax.h"

enum { P_V, P_STRIDE, P_BLOCK, P_SOFTCAP, P_SCALE, P_DO_SCALE };
enum { PC_V, PC_NCHUNKS, PC_STRIDE, PC_SOFTCAP, PC_SCALE, PC_DO_SCALE, PC_N };
enum { R_LOGITS, R_LOSS, R_LSE, R_LABELS };

/* z[j] = s(x[base + j]) for j < w; the label's s(x), or NAN for label -100 */
static float fce_load_row(const td_abi_launch *L, int64_t base, int64_t w, int do_scale, float scale, int32_t label,
                          float *z) {
    for (int64_t j = 0; j < w; j++) {
        float x = tl_load(L, R_LOGITS, base + j);
        z[j] = do_scale ? scale * x : x;
    }
    if (label == -100) return NAN;
    float g = tl_load(L, R_LOGITS, base + label);
    return do_scale ? scale * g : g;
}

static int fce_fwd_online(const td_abi_launch *L) {
    int64_t V = TL_I(L, P_V), stride = TL_I(L, P_STRIDE), B = TL_I(L, P_BLOCK), w = V < B ? V : B;
    int do_scale = TL_I(L, P_DO_SCALE) != 0;
    float scale = TL_R(L, P_SCALE), *z = malloc((size_t)(w > 0 ? w : 1) * sizeof *z);
    if (!z) return 1;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int32_t label = (int32_t)tl_load_int(L, R_LABELS, row);
        float g = fce_load_row(L, (int64_t)row * stride, w, do_scale, scale, label, z), m, s;
        aa_online_ms(z, w, 32, aa_exp_approx, &m, &s);
        float lse = m + aa_log_lg2approx(s);
        tl_store(L, R_LSE, row, lse, tl_f32());
        tl_store(L, R_LOSS, row, label == -100 ? 0.0f : lse - g, tl_f32());
    }
    free(z);
    return 0;
}

static int fce_chunked_twopass(const td_abi_launch *L) {
    int64_t V = TL_I(L, PC_V), chunks = TL_I(L, PC_NCHUNKS), stride = TL_I(L, PC_STRIDE), B = TL_I(L, PC_N) + 1;
    int64_t w = V < B ? V : B;
    int do_scale = TL_I(L, PC_DO_SCALE) != 0;
    float scale = TL_R(L, PC_SCALE), *z = malloc((size_t)(w > 0 ? w : 1) * sizeof *z);
    if (!z) return 1;
    if (L->grid[1] == 0) w = 0; /* no chunk 0 program: nothing is stored */
    for (uint32_t row = 0; w > 0 && row < L->grid[0]; row++) {
        int32_t label = (int32_t)tl_load_int(L, R_LABELS, row);
        float g = fce_load_row(L, (int64_t)row * stride, w, do_scale, scale, label, z);
        float m = aa_max_seq(z, w);
        for (int64_t j = 0; j < w; j++) z[j] = aa_exp_tl(z[j] - m);
        float lse = aa_log_lg2(aa_sum_split(z, w, 4)) + m;
        tl_store(L, R_LOSS, row, label == -100 ? 0.0f : -g, tl_f32());
        tl_store(L, R_LSE, (int64_t)row * chunks, lse, tl_f32());
    }
    free(z);
    return 0;
}

TD_KERNEL(td_a_fast_ce_forward_online) = {"fast_ce_loss.cross_entropy_forward_correctness", "alt_online32_approx",
                                          TD_ABI_HOST, NULL, NULL, NULL, 6, 4, fce_fwd_online, NULL};
TD_KERNEL(td_a_fast_ce_chunked_twopass) = {"fast_ce_loss.chunked_cross_entropy_forward_output_summary",
                                           "alt_twopass_exp2", TD_ABI_HOST, NULL, NULL, NULL, 7, 4,
                                           fce_chunked_twopass, NULL};
