/* apply_penalty mutants: the penalty's sign convention and the window bounds. */
#include "../host/tl.h"

enum { P_STRIDE_B, P_STRIDE_S, P_BLOCK };
enum { R_LOGITS, R_PRES, R_FREQ, R_REP, R_IDS, R_CNTS, R_CUMSUM };

enum { BUG_ALWAYS_DIVIDE, BUG_WINDOW_INCLUSIVE, BUG_NEXT_ROW_SCALARS, BUG_COUNT_IGNORED };

static void row(const td_abi_launch *L, uint32_t b, int bug) {
    int64_t B = TL_I(L, P_BLOCK), sb = TL_I(L, P_STRIDE_B);
    /* the next row's scalars (pid + 1), clamped to the last row so no read leaves the buffer */
    int64_t sr = (bug == BUG_NEXT_ROW_SCALARS && b + 1 < L->grid[0]) ? (int64_t)b + 1 : (int64_t)b;
    float freq = tl_load(L, R_FREQ, sr), pres = tl_load(L, R_PRES, sr), rep = tl_load(L, R_REP, sr);
    int64_t start = tl_load_int(L, R_CUMSUM, b), end = tl_load_int(L, R_CUMSUM, (int64_t)b + 1);
    /* `<=`: one id past the window, only where it exists in the id buffer */
    if (bug == BUG_WINDOW_INCLUSIVE && end < (int64_t)TL_LEN(L, R_IDS)) end++;
    for (int64_t j = 0; j < B && start + j < end; j++) {
        int64_t k = start + j, id = tl_load_int(L, R_IDS, k);
        if (id >= sb) continue; /* keeps the extra id inside the row */
        float cnt = bug == BUG_COUNT_IGNORED ? 1.0f : (float)tl_load_int(L, R_CNTS, k);
        float x = tl_load(L, R_LOGITS, b * sb + id);
        float r = (bug == BUG_ALWAYS_DIVIDE || x > 0) ? x / rep : x * rep;
        tl_store(L, R_LOGITS, b * sb + id, r - cnt * freq - pres, tl_f32());
    }
}

static int run(const td_abi_launch *L, int bug) {
    for (uint32_t b = 0; b < L->grid[0]; b++) row(L, b, bug);
    return 0;
}
/* x / rep for negative logits too: a negative logit moves toward 0 (is rewarded) */
static int always_divide(const td_abi_launch *L) { return run(L, BUG_ALWAYS_DIVIDE); }
/* mask k <= end: the next row's first listed token is penalized in this row too */
static int window_inclusive(const td_abi_launch *L) { return run(L, BUG_WINDOW_INCLUSIVE); }
/* penalty scalars loaded at cur_batch + 1 */
static int next_row_scalars(const td_abi_launch *L) { return run(L, BUG_NEXT_ROW_SCALARS); }
/* frequency penalty applied once per token, not count times (presence twice, in effect) */
static int count_ignored(const td_abi_launch *L) { return run(L, BUG_COUNT_IGNORED); }

/* The row base cur_batch * stride_logit_b formed in int32 (tl_i32), as Triton forms it
 * for an int32 stride: below 2^31 elements the port; beyond, a listed id's offset is
 * negative (a device fault) or lands in another row. */
static int offset_int32(const td_abi_launch *L) {
    int64_t B = TL_I(L, P_BLOCK), sb = TL_I(L, P_STRIDE_B);
    for (uint32_t b = 0; b < L->grid[0]; b++) {
        int64_t base = tl_i32((int64_t)b * tl_i32(sb));
        float freq = tl_load(L, R_FREQ, b), pres = tl_load(L, R_PRES, b), rep = tl_load(L, R_REP, b);
        int64_t start = tl_load_int(L, R_CUMSUM, b), end = tl_load_int(L, R_CUMSUM, (int64_t)b + 1);
        for (int64_t j = 0; j < B && start + j < end; j++) {
            int64_t id = tl_load_int(L, R_IDS, start + j);
            if (tl_fault(L, R_LOGITS, base + id, 1, 1, b)) return 1;
            float cnt = (float)tl_load_int(L, R_CNTS, start + j), x = tl_load(L, R_LOGITS, base + id);
            float r = x > 0 ? x / rep : x * rep;
            tl_store(L, R_LOGITS, base + id, r - cnt * freq - pres, tl_f32());
        }
    }
    return 0;
}

#define AP "apply_penalty.apply_penalty_correctness"
TD_KERNEL(td_m_ap_always_divide) = {AP, "mut_negative_divided", TD_ABI_HOST, NULL, NULL,
                                    "x / rep for every logit (negative logits not multiplied)", 3, 7, always_divide,
                                    NULL};
TD_KERNEL(td_m_ap_window_inclusive) = {AP, "mut_window_inclusive", TD_ABI_HOST, NULL, NULL,
                                       "mask start + j <= end: a token not in the window penalized", 3, 7,
                                       window_inclusive, NULL};
TD_KERNEL(td_m_ap_next_row) = {AP, "mut_next_row_scalars", TD_ABI_HOST, NULL, NULL,
                               "penalties loaded for batch row pid + 1", 3, 7, next_row_scalars, NULL};
TD_KERNEL(td_m_ap_count_ignored) = {AP, "mut_count_ignored", TD_ABI_HOST, NULL, NULL,
                                    "frequency penalty not multiplied by the token count", 3, 7, count_ignored, NULL};
TD_KERNEL(td_m_ap_offset_int32) = {AP, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                   "cur_batch * stride_logit_b computed in int32 (wraps beyond 2^31)", 3, 7, offset_int32,
                                   NULL};
