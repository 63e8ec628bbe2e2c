/* apply_penalty: _fwd_kernel_apply_penalty, one program per batch row, in place on
 * Logits.  Parameters: stride_logit_b, stride_logit_s, BLOCK_P.  Regions: Logits,
 * presence_penalty, freqency_penalty, repetition_penalty, p_token_ids, p_token_counts,
 * p_cumsum_seq_len (int32). */
#include "tl.h"

enum { P_STRIDE_B, P_STRIDE_S, P_BLOCK };
enum { R_LOGITS, R_PRES, R_FREQ, R_REP, R_IDS, R_CNTS, R_CUMSUM };

static void program(const td_abi_launch *L, uint32_t b) {
    int64_t B = TL_I(L, P_BLOCK), sb = TL_I(L, P_STRIDE_B);
    float freq = tl_load(L, R_FREQ, b), pres = tl_load(L, R_PRES, b), rep = tl_load(L, R_REP, b);
    int64_t start = tl_load_int(L, R_CUMSUM, b), end = tl_load_int(L, R_CUMSUM, (int64_t)b + 1);
    for (int64_t j = 0; j < B; j++) {
        int64_t k = start + j;
        if (k >= end) continue; /* cur_batch_id_offset < cur_batch_end_index */
        int64_t id = tl_load_int(L, R_IDS, k);
        float cnt = (float)tl_load_int(L, R_CNTS, k); /* int32 * fp32 promotes to fp32 */
        float x = tl_load(L, R_LOGITS, b * sb + id);
        float rep_logit = x > 0 ? x / rep : x * rep;
        float freq_logit = rep_logit - cnt * freq;
        tl_store(L, R_LOGITS, b * sb + id, freq_logit - pres, tl_f32());
    }
}

static int apply_penalty_kernel(const td_abi_launch *L) {
    for (uint32_t b = 0; b < L->grid[0]; b++) program(L, b);
    return 0;
}

TD_KERNEL(td_k_apply_penalty) = {"apply_penalty.apply_penalty_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                                 3, 7, apply_penalty_kernel, NULL};
