/* fast_ce_loss mutants. */
#include "../host/reduce_tl.h"

enum { P_V, P_STRIDE, P_BLOCK, P_SOFTCAP, P_SCALE, P_DO_SCALE };
enum { PC_V, PC_NCHUNKS, PC_STRIDE, PC_SOFTCAP, PC_SCALE, PC_DO_SCALE, PC_N };
enum { R_LOGITS, R_LOSS, R_LSE, R_LABELS };

enum { FWD_MASKED_LABEL, FWD_NO_MAX_SHIFT, FWD_OFFSET_I32 };

/* _cross_entropy_forward with a seeded bug */
static int forward_bug(const td_abi_launch *L, int bug) {
    int64_t V = TL_I(L, P_V), stride = TL_I(L, P_STRIDE), B = TL_I(L, P_BLOCK);
    int do_scale = TL_I(L, P_DO_SCALE) != 0;
    float scale = TL_R(L, P_SCALE);
    float *z, *e;
    TL_ALLOC(L, z, B);
    TL_ALLOC(L, e, B);
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t base = (int64_t)row * stride;
        if (bug == FWD_OFFSET_I32) { /* logits_ptr += row_idx * logits_row_stride, in int32 */
            base = tl_i32((int64_t)row * tl_i32(stride));
            if (tl_fault(L, R_LOGITS, base, V < B ? V : B, 1, row)) {
                free(z), free(e);
                return 1;
            }
        }
        int32_t label = (int32_t)tl_load_int(L, R_LABELS, row);
        for (int64_t j = 0; j < B; j++) {
            float x = j < V ? tl_load(L, R_LOGITS, base + j) : -INFINITY;
            z[j] = do_scale ? scale * x : x;
        }
        float logsumexp;
        if (bug == FWD_NO_MAX_SHIFT) {
            for (int64_t j = 0; j < B; j++) e[j] = expf(z[j]);
            logsumexp = logf(tl_sum(e, B));
        } else {
            logsumexp = rtl_lse(z, e, B);
        }
        float loss;
        if (bug == FWD_MASKED_LABEL) {
            /* x = tl.load(logits_ptr + label_idx, mask=label_idx != -100, other=0.0): no branch */
            float x = label != -100 ? tl_load(L, R_LOGITS, base + label) : 0.0f;
            if (do_scale) x = scale * x;
            loss = logsumexp - x;
        } else if (label != -100) {
            float x = tl_load(L, R_LOGITS, base + label);
            if (do_scale) x = scale * x;
            loss = logsumexp - x;
        } else {
            loss = 0.0f;
        }
        tl_store(L, R_LSE, row, logsumexp, tl_f32());
        tl_store(L, R_LOSS, row, loss, tl_f32());
    }
    free(z);
    free(e);
    return 0;
}
static int fwd_masked_label(const td_abi_launch *L) { return forward_bug(L, FWD_MASKED_LABEL); }
static int fwd_no_max_shift(const td_abi_launch *L) { return forward_bug(L, FWD_NO_MAX_SHIFT); }
/* the row offset in int32, as unsloth's kernel had it before its .to(tl.int64): the far
 * tier's rows past 2^31 elements (contracts/gen_far.h) */
static int fwd_offset_int32(const td_abi_launch *L) { return forward_bug(L, FWD_OFFSET_I32); }

enum { CH_FULL_LOSS, CH_LSE_OFFSET, CH_OFFSET_I32 };

static int chunked_bug(const td_abi_launch *L, int bug) {
    int64_t V = TL_I(L, PC_V), chunks = TL_I(L, PC_NCHUNKS), stride = TL_I(L, PC_STRIDE), B = TL_I(L, PC_N) + 1;
    int do_scale = TL_I(L, PC_DO_SCALE) != 0;
    float scale = TL_R(L, PC_SCALE);
    float *z, *e;
    TL_ALLOC(L, z, B);
    TL_ALLOC(L, e, B);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (uint32_t chunk = 0; chunk < L->grid[1]; chunk++) {
            int64_t base = (int64_t)row * stride;
            if (bug == CH_OFFSET_I32) { /* logits_ptr += row_idx * logits_row_stride, in int32 */
                base = tl_i32((int64_t)row * tl_i32(stride));
                if (tl_fault(L, R_LOGITS, base, V, 1, row)) {
                    free(z), free(e);
                    return 1;
                }
            }
            int32_t label = (int32_t)tl_load_int(L, R_LABELS, row);
            for (int64_t j = 0; j < B; j++) {
                int64_t col = (int64_t)chunk * B + j;
                float x = col < V ? tl_load(L, R_LOGITS, base + col) : -INFINITY;
                z[j] = do_scale ? scale * x : x;
            }
            float logsumexp = rtl_lse(z, e, B);
            if (chunk != 0) continue;
            float loss = 0.0f;
            if (label != -100) {
                float x = tl_load(L, R_LOGITS, base + label);
                if (do_scale) x = scale * x;
                loss = bug == CH_FULL_LOSS ? logsumexp - x : -1.0f * x;
            }
            tl_store(L, R_LOSS, row, loss, tl_f32());
            int64_t at = bug == CH_LSE_OFFSET ? (int64_t)row + chunk : (int64_t)row * chunks + chunk;
            tl_store(L, R_LSE, at, logsumexp, tl_f32());
        }
    free(z);
    free(e);
    (void)chunks;
    return 0;
}
static int ch_full_loss(const td_abi_launch *L) { return chunked_bug(L, CH_FULL_LOSS); }
static int ch_lse_offset(const td_abi_launch *L) { return chunked_bug(L, CH_LSE_OFFSET); }
/* the row offset in int32 (as fwd_offset_int32): the far tier's rows past 2^31 elements */
static int ch_offset_int32(const td_abi_launch *L) { return chunked_bug(L, CH_OFFSET_I32); }

TD_KERNEL(td_m_fast_ce_masked_label) = {"fast_ce_loss.cross_entropy_forward_correctness", "mut_ignore_masked_load",
                                        TD_ABI_HOST, NULL, "libm",
                                        "label logit loaded with mask=label!=-100, other=0: ignored rows get lse", 6,
                                        4, fwd_masked_label, NULL};
TD_KERNEL(td_m_fast_ce_no_shift) = {"fast_ce_loss.cross_entropy_forward_correctness", "mut_no_max_shift",
                                    TD_ABI_HOST, NULL, "libm", "logsumexp = log(sum(exp(x))) without the max shift",
                                    6, 4, fwd_no_max_shift, NULL};
TD_KERNEL(td_m_fast_ce_ch_full_loss) = {"fast_ce_loss.chunked_cross_entropy_forward_output_summary",
                                        "mut_full_loss_in_chunk0", TD_ABI_HOST, NULL, "libm",
                                        "chunk 0 stores logsumexp - x (the host adds the lse again)", 7, 4,
                                        ch_full_loss, NULL};
TD_KERNEL(td_m_fast_ce_ch_offset) = {"fast_ce_loss.chunked_cross_entropy_forward_output_summary",
                                     "mut_lse_offset", TD_ABI_HOST, NULL, "libm",
                                     "logsumexp stored at row + chunk instead of row * N_CHUNKS + chunk", 7, 4,
                                     ch_lse_offset, NULL};
TD_KERNEL(td_m_fast_ce_i32) = {"fast_ce_loss.cross_entropy_forward_correctness", "mut_offset_int32", TD_ABI_HOST, NULL,
                              "libm", "row_idx * logits_row_stride computed in int32 (wraps beyond 2^31 elements)", 6, 4,
                              fwd_offset_int32, NULL};
TD_KERNEL(td_m_fast_ce_ch_i32) = {"fast_ce_loss.chunked_cross_entropy_forward_output_summary", "mut_offset_int32",
                                 TD_ABI_HOST, NULL, "libm",
                                 "row_idx * logits_row_stride computed in int32 (wraps beyond 2^31 elements)", 7, 4,
                                 ch_offset_int32, NULL};
