/* Host helpers shared by the reduction and loss kernels: Triton's value+index
 * reduction, the log-sum-exp of a tile, and the cross-entropy forward program that
 * cross_entropy1, cross_entropy2 and cross_entropy_ops share (the latter two are the
 * same Triton source).  Only tl.h and rounding.h: a kernel does not know the oracle. */
#ifndef TD_REDUCE_TL_H
#define TD_REDUCE_TL_H

#include "tl.h"

/* tl.max(x, axis, return_indices=True, return_indices_tie_break_left=True) and
 * tl.argmax: a pairwise tree whose combine keeps the left (smaller index) operand
 * unless the right one is strictly greater.  Tiles hold no NaN (masked lanes are
 * -inf), so the result is the first maximum.  *idx is relative to x. */
static inline float rtl_argmax_range(const float *x, int64_t lo, int64_t n, int64_t *idx) {
    if (n == 1) {
        *idx = lo;
        return x[lo];
    }
    int64_t h = n / 2, ia, ib;
    float a = rtl_argmax_range(x, lo, h, &ia), b = rtl_argmax_range(x, lo + h, n - h, &ib);
    if (b > a) {
        *idx = ib;
        return b;
    }
    *idx = ia;
    return a;
}
static inline float rtl_argmax(const float *x, int64_t n, int64_t *idx) {
    if (n <= 0) {
        *idx = 0;
        return -INFINITY;
    }
    return rtl_argmax_range(x, 0, n, idx);
}

/* lse = tl.log(tl.sum(tl.exp(z - m), 0)) + m with m = tl.max(z, 0), over a B-lane
 * tile whose masked lanes hold -inf; e is a scratch tile of B lanes. */
static inline float rtl_lse(const float *z, float *e, int64_t B) {
    float m = tl_max(z, B);
    for (int64_t j = 0; j < B; j++) e[j] = expf(z[j] - m);
    return logf(tl_sum(e, B)) + m;
}

/* binary32 -> binary16 (RNE) -> binary32: what a tile held in fp16 keeps */
static inline float rtl_f16(float v) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return (float)td_decode(TD_F16, td_encode_f32(p, v));
}

/* ---- cross_entropy_fwd_kernel (flash-attention's cross entropy) ----
 * Parameter and region indices of one contract's layout, the flags of its Triton
 * source (scaled: the logits are multiplied by logit_scale; zloss: the z_loss
 * output exists) and, for the mutants, the seeded bug. */
enum {
    RTL_CE_OK = 0,
    RTL_CE_IGNORE_NOT_SKIPPED, /* the `label_idx == ignored_index` branch is missing */
    RTL_CE_NO_MAX_SHIFT,       /* lse = log(sum(exp(z))): no max subtraction */
    RTL_CE_LABEL_UNSCALED,     /* the gathered label logit is not multiplied by logit_scale */
    RTL_CE_SUM_UNMASKED,       /* sum_logits sums the -inf padded tile (no tl.where) */
    RTL_CE_F16_SUM,            /* the exp tile is summed in binary16 */
    RTL_CE_NO_CLASS_OFFSET,    /* class_start_idx is not subtracted from the label */
    RTL_CE_OFFSET_I32          /* row_idx * logits_row_stride formed in int32 (wraps beyond 2^31) */
};
typedef struct rtl_ce_layout {
    int p_smoothing, p_logit_scale, p_lss, p_ignored, p_total, p_csi, p_ncols, p_nrows, p_stride, p_block,
        p_has_smoothing, p_split;
    int r_loss, r_lse, r_zloss, r_logits, r_labels; /* p_logit_scale, r_zloss: -1 when absent */
} rtl_ce_layout;

static inline int rtl_ce_fwd(const td_abi_launch *L, const rtl_ce_layout *y, int bug) {
    float smoothing = TL_R(L, y->p_smoothing), lss = TL_R(L, y->p_lss);
    float scale = y->p_logit_scale >= 0 ? TL_R(L, y->p_logit_scale) : 1.0f;
    int64_t ignored = TL_I(L, y->p_ignored), total = TL_I(L, y->p_total), csi = TL_I(L, y->p_csi);
    int64_t n_cols = TL_I(L, y->p_ncols), n_rows = TL_I(L, y->p_nrows), stride = TL_I(L, y->p_stride);
    int64_t B = TL_I(L, y->p_block);
    int has_smoothing = TL_I(L, y->p_has_smoothing) != 0, split = TL_I(L, y->p_split) != 0;
    float *z, *e, *w;
    TL_ALLOC(L, z, B);
    TL_ALLOC(L, e, B);
    TL_ALLOC(L, w, B);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (uint32_t blk = 0; blk < L->grid[1]; blk++) {
            int64_t base = (int64_t)row * stride; /* logits_ptr + row_idx * logits_row_stride */
            if (bug == RTL_CE_OFFSET_I32) {
                int64_t c0 = (int64_t)blk * B, nc = n_cols - c0 < B ? n_cols - c0 : B;
                base = tl_i32((int64_t)row * tl_i32(stride));
                if (tl_fault(L, y->r_logits, base + c0, nc, 1, row)) {
                    free(z), free(e), free(w);
                    return 1;
                }
            }
            int64_t label = tl_load_int(L, y->r_labels, row);
            for (int64_t j = 0; j < B; j++) {
                int64_t col = (int64_t)blk * B + j;
                float x = col < n_cols ? tl_load(L, y->r_logits, base + col) : -INFINITY; /* other=-inf */
                z[j] = y->p_logit_scale >= 0 ? x * scale : x;
            }
            float sum_logits = 0.0f;
            if (has_smoothing) {
                for (int64_t j = 0; j < B; j++)
                    w[j] = (bug == RTL_CE_SUM_UNMASKED || (int64_t)blk * B + j < n_cols) ? z[j] : 0.0f;
                sum_logits = tl_sum(w, B);
            }
            float lse;
            if (bug == RTL_CE_NO_MAX_SHIFT) {
                for (int64_t j = 0; j < B; j++) e[j] = expf(z[j]);
                lse = logf(tl_sum(e, B));
            } else if (bug == RTL_CE_F16_SUM) {
                float m = tl_max(z, B);
                for (int64_t j = 0; j < B; j++) e[j] = rtl_f16(expf(z[j] - m));
                float s = 0.0f; /* a binary16 accumulator */
                for (int64_t j = 0; j < B; j++) s = rtl_f16(s + e[j]);
                lse = logf(s) + m;
            } else {
                lse = rtl_lse(z, e, B);
            }
            int64_t out = (int64_t)blk * n_rows + row;
            tl_store(L, y->r_lse, out, lse, tl_f32());
            float loss, z_loss = 0.0f;
            if (label == ignored && bug != RTL_CE_IGNORE_NOT_SKIPPED) {
                loss = 0.0f;
                z_loss = 0.0f;
            } else {
                if (bug != RTL_CE_NO_CLASS_OFFSET) label -= csi;
                float lse_term = split ? 0.0f : lse;
                int64_t hi = (blk + 1) * B < n_cols ? (blk + 1) * B : n_cols;
                if (label >= (int64_t)blk * B && label < hi) {
                    float g = tl_load(L, y->r_logits, base + label);
                    if (y->p_logit_scale >= 0 && bug != RTL_CE_LABEL_UNSCALED) g = g * scale;
                    if (has_smoothing)
                        loss = lse_term - smoothing * sum_logits / (float)total - (1.0f - smoothing) * g;
                    else
                        loss = lse_term - g;
                } else {
                    loss = has_smoothing ? smoothing * (lse_term - sum_logits / (float)total) : 0.0f;
                }
                if (!split) {
                    z_loss = lss * lse * lse;
                    loss += z_loss;
                }
            }
            tl_store(L, y->r_loss, out, loss, tl_f32());
            if (y->r_zloss >= 0 && !split) tl_store(L, y->r_zloss, out, z_loss, tl_f32());
        }
    free(z);
    free(e);
    free(w);
    return 0;
}

#endif
