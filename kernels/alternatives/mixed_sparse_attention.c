/* mixed_sparse_attention, alternatives.
 *
 * Epilogue, alt_reciprocal: acc * (1 / l) with the reciprocal formed once per row (what a
 * compiler makes of `acc /= l_i[:, None]` under fast-math, and what hand-written epilogues
 * do), lanes visited column by column and programs in reverse.  Admissible: the
 * contract's division is any division an implementation may make; the reciprocal-multiply
 * is within 2u + u^2 of the quotient (oracle/shadow.c div_local). */
#include "alt_common.h"

enum { ME_H, ME_SQZ, ME_SQH, ME_SOM, ME_SOK, ME_BM, ME_BD };
enum { ME_ACC, ME_L, ME_SEQ, ME_OUT };

static int reciprocal(const td_abi_launch *L) {
    int64_t h = TL_I(L, ME_H), bm = TL_I(L, ME_BM), bd = TL_I(L, ME_BD);
    for (int64_t p1 = (int64_t)L->grid[1] - 1; p1 >= 0; p1--) {
        int64_t seqlen = tl_load_int(L, ME_SEQ, p1 / h);
        int64_t qo = p1 / h * TL_I(L, ME_SQZ) + p1 % h * TL_I(L, ME_SQH);
        int64_t rows = (int64_t)L->grid[0] * bm;
        for (int64_t d = 0; d < bd; d++)
            for (int64_t m = 0; m < rows && m < seqlen; m++) {
                float rcp = 1.0f / tl_load(L, ME_L, m);
                int64_t o = qo + m * TL_I(L, ME_SOM) + d * TL_I(L, ME_SOK);
                if (tl_fault(L, ME_ACC, o, 1, 1, 0) || tl_fault(L, ME_OUT, o, 1, 1, 0)) return 1;
                tl_store(L, ME_OUT, o, tl_load(L, ME_ACC, o) * rcp, tl_f32());
            }
    }
    return 0;
}

TD_KERNEL(td_a_msa_epilogue) = {"mixed_sparse_attention.mixed_sparse_attention_epilogue_io_correctness",
                                "alt_reciprocal", TD_ABI_HOST, NULL, NULL, NULL, 7, 4, reciprocal, NULL};

/* Closed form, alt_two_pass: the row's key list is gathered first (the 8 block iterations'
 * keys, an unused iteration's lanes as zero keys with score exactly 0 and value 0, then the
 * column keys), every score formed with an FMA chain from the last head lane down, the
 * exact row maximum taken once, the weights exp2(s - m) formed at that final scale (no
 * rescaling), cast to fp16 for the P.V product, summed last key first, P.V an FMA chain
 * last key first, then one division and the fp16 store.  Admissible: any blocking and order
 * of the kept keys, P rounded at any scale, dots in any order (attn_online_common.h). */
enum { MA_BM, MA_BN, MA_BD, MA_NCTX, MA_Z, MA_H, MA_NR, MA_NS, MA_NV, MA_SQZ, MA_SQH, MA_SQM, MA_SQK, MA_SKZ, MA_SKH,
       MA_SKN, MA_SKK, MA_SVZ, MA_SVH, MA_SVN, MA_SVK, MA_SOZ, MA_SOH, MA_SOM, MA_SOK, MA_SCALE, MA_NP };
enum { MA_Q, MA_K, MA_V, MA_SEQ, MA_BCNT, MA_BOFF, MA_CCNT, MA_COLS, MA_OUT, MA_NRG };
#define MA_MAXK (9 * 64)

/* the row's kept keys (-1: a masked zero key) in any order; returns their count */
static int64_t ma_keys(const td_abi_launch *L, int64_t t, int64_t row, int64_t *keys) {
    int64_t bn = TL_I(L, MA_BN), nb = tl_load_int(L, MA_BCNT, t), nc = tl_load_int(L, MA_CCNT, t), n = 0;
    for (int64_t c = 0; c < nc && c < 16; c++) keys[n++] = tl_load_int(L, MA_COLS, t * TL_I(L, MA_NV) + c);
    for (int64_t b = 7; b >= 0; b--) {
        int64_t start = b < nb ? tl_load_int(L, MA_BOFF, t * TL_I(L, MA_NS) + b) : 0;
        for (int64_t j = 0; j < bn && start + j <= row; j++) keys[n++] = b < nb ? start + j : -1;
    }
    return n;
}

static void ma_row(const td_abi_launch *L, int64_t qo, int64_t kb, int64_t oo, int64_t n, const int64_t *keys, float *s,
                   float *p) {
    int64_t bd = TL_I(L, MA_BD);
    float qk_scale = (float)L->params[MA_SCALE].r * 1.44269504f, m = -INFINITY, l = 0.0f;
    for (int64_t i = 0; i < n; i++) {
        s[i] = 0.0f;
        if (keys[i] >= 0)
            for (int64_t e = bd - 1; e >= 0; e--) {
                float q16 = (float)td_decode(TD_F16, td_encode_f32(alt_f16(), tl_load(L, MA_Q, qo + e) * qk_scale));
                s[i] = fmaf(q16, tl_load(L, MA_K, kb + keys[i] * TL_I(L, MA_SKN) + e), s[i]);
            }
        m = s[i] > m ? s[i] : m;
    }
    for (int64_t i = n - 1; i >= 0; i--) {
        float w = exp2f(s[i] - m);
        l += w;
        p[i] = (float)td_decode(TD_F16, td_encode_f32(alt_f16(), w));
    }
    for (int64_t d = 0; d < bd; d++) {
        float acc = 0.0f;
        for (int64_t i = n - 1; i >= 0; i--)
            if (keys[i] >= 0) acc = fmaf(p[i], tl_load(L, MA_V, kb + keys[i] * TL_I(L, MA_SVN) + d), acc);
        tl_store(L, MA_OUT, oo + d, acc / l, alt_f16());
    }
}

static int two_pass(const td_abi_launch *L) {
    int64_t bm = TL_I(L, MA_BM), h = TL_I(L, MA_H), keys[MA_MAXK];
    float s[MA_MAXK], p[MA_MAXK];
    if (TL_I(L, MA_BN) > 64) return 1;
    for (int64_t p1 = 0; p1 < (int64_t)L->grid[1]; p1++)
        for (int64_t p0 = 0; p0 < (int64_t)L->grid[0]; p0++) {
            int64_t seqlen = tl_load_int(L, MA_SEQ, p1 / h), t = p1 * TL_I(L, MA_NR) + p0;
            int64_t qb = p1 / h * TL_I(L, MA_SQZ) + p1 % h * TL_I(L, MA_SQH);
            int64_t kb = p1 / h * TL_I(L, MA_SKZ) + p1 % h * TL_I(L, MA_SKH);
            for (int64_t row = p0 * bm; row < (p0 + 1) * bm && row < seqlen; row++) {
                int64_t n = ma_keys(L, t, row, keys);
                ma_row(L, qb + row * TL_I(L, MA_SQM), kb, qb + row * TL_I(L, MA_SOM), n, keys, s, p);
            }
        }
    return 0;
}

TD_KERNEL(td_a_msa_cf) = {"mixed_sparse_attention.mixed_sparse_attention_output_closed_form_summary_general",
                          "alt_two_pass", TD_ABI_HOST, "q=fp16:rne:inf;p=fp16:rne:inf;store=fp16:rne:inf", NULL, NULL,
                          MA_NP, MA_NRG, two_pass, NULL};
