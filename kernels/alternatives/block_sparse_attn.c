/* block_sparse_attn, alternatives.
 *
 * Stores, alt_row_major: one pass per output row instead of per (program, slice): for
 * every (batch, head) from the last to the first and every row m < total_seq_len, the
 * row's 2 * BLOCK_D cells are written in one sweep (Acc's BLOCK_D values, then Acc2's),
 * without tiling rows into BLOCK_M blocks.  Admissible: the same cells receive the same
 * values, and no slice reads Out, so the order of the writes cannot matter. */
#include "alt_common.h"

enum { BS_NH, BS_SEQ, BS_SAB, BS_SAH, BS_SAM, BS_SAD, BS_SOB, BS_SOH, BS_SOM, BS_BM, BS_BD };
enum { BS_ACC, BS_ACC2, BS_OUT };

static int row_major(const td_abi_launch *L) {
    int64_t nh = TL_I(L, BS_NH), seq = TL_I(L, BS_SEQ), bd = TL_I(L, BS_BD);
    int64_t nbh = (int64_t)L->grid[1];
    for (int64_t bh = nbh - 1; bh >= 0; bh--) {
        int64_t b = bh / nh, h = bh % nh;
        for (int64_t m = 0; m < seq; m++) {
            int64_t a = b * TL_I(L, BS_SAB) + h * TL_I(L, BS_SAH) + m * TL_I(L, BS_SAM);
            int64_t o = b * TL_I(L, BS_SOB) + h * TL_I(L, BS_SOH) + m * TL_I(L, BS_SOM);
            for (int64_t e = 0; e < 2 * bd; e++) {
                int reg = e < bd ? BS_ACC : BS_ACC2;
                int64_t ai = a + (e % bd) * TL_I(L, BS_SAD);
                if (tl_fault(L, reg, ai, 1, 1, 0) || tl_fault(L, BS_OUT, o + e, 1, 1, 0)) return 1;
                tl_store(L, BS_OUT, o + e, tl_load(L, reg, ai), tl_f32());
            }
        }
    }
    return 0;
}

TD_KERNEL(td_a_bsa_stores_io) = {"block_sparse_attn.block_sparse_attn_output_stores_io_correctness", "alt_row_major",
                                 TD_ABI_HOST, NULL, NULL, NULL, 11, 3, row_major, NULL};
TD_KERNEL(td_a_bsa_stores_io_r) = {"block_sparse_attn.block_sparse_attn_output_stores_io_correctnessR",
                                   "alt_row_major", TD_ABI_HOST, "store=fp32:rne:inf", NULL, NULL, 11, 3, row_major,
                                   NULL};

/* Closed form, alt_fa2_reverse: the FlashAttention-2 recurrence instead of the kernel's
 * normalise-every-step one (acc = acc * alpha + exp(s - m_new) . v, l = l * alpha + sum,
 * one division at the end), the selected blocks visited in reverse CSR order, each
 * score a fused multiply-add chain over the 2 * BLOCK_D lanes, one query row at a time.
 * Admissible: the contract's value is the softmax over the selected causal keys, which
 * does not depend on the blocking, the block order, the normalisation schedule or the
 * order of a dot product's additions. */
enum { BF_BM, BF_BD, BF_BN, BF_NH, BF_NKV, BF_NL, BF_SEQ, BF_RSH, BF_CSH, BF_SQB, BF_SQH, BF_SQM, BF_SKB, BF_SKH,
       BF_SKN, BF_SVB, BF_SVH, BF_SVN, BF_SOB, BF_SOH, BF_SOM, BF_SCALE };
enum { BF_OUT, BF_Q, BF_K, BF_V, BF_R, BF_C };

static void fa2_row(const td_abi_launch *L, int64_t qo, int64_t kb, int64_t vb, int64_t row, int64_t lh,
                    int64_t s, int64_t e, float *acc) {
    int64_t bn = TL_I(L, BF_BN), dim = 2 * TL_I(L, BF_BD);
    float m = -INFINITY, l = 0.0f, scale = TL_R(L, BF_SCALE);
    for (int64_t d = 0; d < dim; d++) acc[d] = 0.0f;
    for (int64_t t = e - 1; t >= s; t--) {
        int64_t start_n = tl_load_int(L, BF_C, lh * TL_I(L, BF_CSH) + t) * bn;
        for (int64_t j = 0; j < bn; j++) {
            int64_t key = start_n + j;
            if (key > row) continue;
            float dot = 0.0f;
            for (int64_t x = 0; x < dim; x++)
                dot = fmaf(tl_load(L, BF_Q, qo + x), tl_load(L, BF_K, kb + key * TL_I(L, BF_SKN) + x), dot);
            float sc = dot * scale, mn = sc > m ? sc : m;
            float alpha = expf(m - mn), pj = expf(sc - mn);
            l = l * alpha + pj;
            for (int64_t d = 0; d < dim; d++)
                acc[d] = acc[d] * alpha + pj * tl_load(L, BF_V, vb + key * TL_I(L, BF_SVN) + d);
            m = mn;
        }
    }
    for (int64_t d = 0; d < dim; d++) acc[d] /= l;
}

static int fa2_reverse(const td_abi_launch *L) {
    int64_t nh = TL_I(L, BF_NH), bm = TL_I(L, BF_BM), seq = TL_I(L, BF_SEQ), dim = 2 * TL_I(L, BF_BD);
    float acc[64];
    if (dim > 64) {
        snprintf(L->err, L->errlen, "alt_fa2_reverse holds at most 64 head lanes");
        return TD_ABI_NOT_COVERED;
    }
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
        int64_t h = p1 % nh, b = p1 / nh, kvh = h / (nh / TL_I(L, BF_NKV)), lh = h % TL_I(L, BF_NL);
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
            int64_t s = tl_load_int(L, BF_R, lh * TL_I(L, BF_RSH) + p0);
            int64_t e = tl_load_int(L, BF_R, lh * TL_I(L, BF_RSH) + p0 + 1);
            for (int64_t i = 0; i < bm && (int64_t)p0 * bm + i < seq; i++) {
                int64_t row = (int64_t)p0 * bm + i;
                fa2_row(L, b * TL_I(L, BF_SQB) + h * TL_I(L, BF_SQH) + row * TL_I(L, BF_SQM),
                        b * TL_I(L, BF_SKB) + kvh * TL_I(L, BF_SKH), b * TL_I(L, BF_SVB) + kvh * TL_I(L, BF_SVH), row,
                        lh, s, e, acc);
                int64_t o = b * TL_I(L, BF_SOB) + h * TL_I(L, BF_SOH) + row * TL_I(L, BF_SOM);
                for (int64_t d = 0; d < dim; d++) tl_store(L, BF_OUT, o + d, acc[d], tl_f32());
            }
        }
    }
    return 0;
}

TD_KERNEL(td_a_bsa_cf) = {"block_sparse_attn.block_sparse_attn_output_closed_form_summary_general", "alt_fa2_reverse",
                          TD_ABI_HOST, NULL, NULL, NULL, 22, 6, fa2_reverse, NULL};
