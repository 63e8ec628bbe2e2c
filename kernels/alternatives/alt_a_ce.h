/* The cross-entropy forward program (flash-attention's cross_entropy_fwd_kernel, the
 * statement of cross_entropy1 / cross_entropy2 / cross_entropy_ops) written again, with
 * the log-sum-exp and the loss evaluated differently from the port (reduce_tl.h):
 *
 *   - the block's log-sum-exp online: one pass in chunks of C with a running max and a
 *     running sum rescaled by exp(m_old - m_new), then log(s) + m (the port: tl.max,
 *     exp, tl.sum tree, log);
 *   - the smoothing sum of the block's logits left to right (the port: a tree);
 *   - the smoothing terms associated as smoothing * (sum / total) (the port:
 *     (smoothing * sum) / total): two roundings either way, another association;
 *   - the exp a parameter (expf, aa_exp_tl or the ex2.approx model).
 * The branch structure is the spec's (ceLossLocal): ignored label -> 0; the label in
 * this block -> lse_term - smoothing*sum/total - (1-smoothing)*z_label (or
 * lse_term - z_label without smoothing); elsewhere smoothing*(lse_term - sum/total) or 0;
 * plus lse_square_scale*lse*lse unless SPLIT, where lse_term = 0. */
#ifndef TD_ALT_A_CE_H
#define TD_ALT_A_CE_H

#include "alt_a_softmax.h"

typedef struct aa_ce_layout {
    int p_smoothing, p_scale, p_lss, p_ignored, p_total, p_csi, p_ncols, p_nrows, p_stride, p_block, p_has_smoothing,
        p_split;
    int r_loss, r_lse, r_zloss, r_logits, r_labels; /* p_scale, r_zloss: -1 when absent */
} aa_ce_layout;

/* The loss of one (row, block) given its lse and the smoothing sum of its logits. */
static inline float aa_ce_loss(const td_abi_launch *L, const aa_ce_layout *y, int64_t row, int64_t blk, float lse,
                               float sum_logits) {
    float smoothing = TL_R(L, y->p_smoothing), lss = TL_R(L, y->p_lss);
    int64_t B = TL_I(L, y->p_block), n_cols = TL_I(L, y->p_ncols), total = TL_I(L, y->p_total);
    int has_smoothing = TL_I(L, y->p_has_smoothing) != 0, split = TL_I(L, y->p_split) != 0;
    int64_t label = tl_load_int(L, y->r_labels, row);
    if (label == TL_I(L, y->p_ignored)) return 0.0f;
    label -= TL_I(L, y->p_csi);
    float lse_term = split ? 0.0f : lse, loss;
    int64_t lo = blk * B, hi = lo + B < n_cols ? lo + B : n_cols;
    if (label >= lo && label < hi) {
        float g = tl_load(L, y->r_logits, row * TL_I(L, y->p_stride) + label);
        if (y->p_scale >= 0) g = g * TL_R(L, y->p_scale);
        if (has_smoothing)
            loss = lse_term - smoothing * (sum_logits / (float)total) - (1.0f - smoothing) * g;
        else
            loss = lse_term - g;
    } else {
        loss = has_smoothing ? smoothing * (lse_term - sum_logits / (float)total) : 0.0f;
    }
    if (!split) loss = loss + lss * lse * lse;
    return loss;
}

static inline int aa_ce_fwd(const td_abi_launch *L, const aa_ce_layout *y, int64_t C, aa_expfn ex) {
    int64_t n_cols = TL_I(L, y->p_ncols), n_rows = TL_I(L, y->p_nrows), stride = TL_I(L, y->p_stride);
    int64_t B = TL_I(L, y->p_block);
    float *z;
    TL_ALLOC(L, z, B);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (uint32_t blk = 0; blk < L->grid[1]; blk++) {
            int64_t lo = (int64_t)blk * B, w = n_cols - lo < B ? n_cols - lo : B;
            float sum_logits = 0.0f;
            for (int64_t j = 0; j < w; j++) {
                z[j] = tl_load(L, y->r_logits, (int64_t)row * stride + lo + j);
                if (y->p_scale >= 0) z[j] = z[j] * TL_R(L, y->p_scale);
                sum_logits = sum_logits + z[j];
            }
            float m, s;
            aa_online_ms(z, w, C, ex, &m, &s);
            float lse = logf(s) + m;
            int64_t out = (int64_t)blk * n_rows + row;
            tl_store(L, y->r_lse, out, lse, tl_f32());
            float loss = aa_ce_loss(L, y, row, blk, lse, sum_logits);
            tl_store(L, y->r_loss, out, loss, tl_f32());
            if (y->r_zloss >= 0 && !TL_I(L, y->p_split)) {
                int ignored = tl_load_int(L, y->r_labels, row) == TL_I(L, y->p_ignored);
                tl_store(L, y->r_zloss, out, ignored ? 0.0f : TL_R(L, y->p_lss) * lse * lse, tl_f32());
            }
        }
    free(z);
    return 0;
}

#endif
