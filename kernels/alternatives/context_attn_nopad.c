/* Alternatives for context_attn_nopad (LightLLM's causal prefill attention over packed
 * variable-length sequences: Out[start_b + i, h, :] = sum_{j <= i} softmax_j(sm_scale *
 * q_i.k_j) V[start_b + j, h, :], rows i < seqlen_b of the query blocks the grid covers).
 *
 *   alt_fa2_kv8_exp2 (summary and io)  one query row at a time; the port normalises the
 *                 running output at every KV block and rounds P to binary16 before P.V
 *                 (FlashAttention-1 style); this kernel keeps P in binary32 (fp32
 *                 accumulation of the fp16 inputs), accumulates the unnormalised output
 *                 with rescaling by exp(m_old - m_new) (FlashAttention-2 style) over
 *                 blocks of 8 keys (not BLOCK_N; the causal diagonal falls inside another
 *                 block), each q.k dot an FMA chain, exp as exp2f of the binary32 product
 *                 x * log2 e, and divides once at the end by multiplying with 1/l.  The
 *                 genuine contract is real-valued, so dropping the kernel-side fp16
 *                 rounding of P is admissible; the io contract keeps its fp16 store.
 * Parameters: sm_scale, rs, hs, BLK, DM (+ NT for io).  Regions: Q, K, V, B_Start_Loc,
 * B_Seqlen, Out. */
#include "alt_a_num.h"

enum { P_SM, P_RS, P_HS, P_BLK, P_DM, P_NT, NP };
enum { R_Q, R_K, R_V, R_START, R_SEQLEN, R_OUT, NR };

/* one query row gi (absolute index start + i) of head h into o[0..D) */
static void can_row(const td_abi_launch *L, int64_t start, int64_t i, int64_t h, float *o) {
    int64_t rs = TL_I(L, P_RS), hs = TL_I(L, P_HS), D = TL_I(L, P_DM);
    float sm = TL_R(L, P_SM), m = -INFINITY, l = 0.0f, s[8];
    for (int64_t d = 0; d < D; d++) o[d] = 0.0f;
    for (int64_t j0 = 0; j0 <= i; j0 += 8) {
        int64_t n = i + 1 - j0 < 8 ? i + 1 - j0 : 8;
        float bm = -INFINITY;
        for (int64_t j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int64_t d = 0; d < D; d++)
                acc = fmaf(tl_load(L, R_Q, (start + i) * rs + h * hs + d), tl_load(L, R_K, (start + j0 + j) * rs + h * hs + d),
                           acc);
            s[j] = acc * sm;
            bm = fmaxf(bm, s[j]);
        }
        float mn = fmaxf(m, bm), alpha = m == mn ? 1.0f : aa_exp_tl(m - mn);
        l = l * alpha;
        for (int64_t d = 0; d < D; d++) o[d] = o[d] * alpha;
        for (int64_t j = 0; j < n; j++) {
            float p = aa_exp_tl(s[j] - mn);
            l = l + p;
            for (int64_t d = 0; d < D; d++) o[d] = fmaf(p, tl_load(L, R_V, (start + j0 + j) * rs + h * hs + d), o[d]);
        }
        m = mn;
    }
    float r = 1.0f / l;
    for (int64_t d = 0; d < D; d++) o[d] = o[d] * r;
}

static int can_fa2(const td_abi_launch *L) {
    int64_t rs = TL_I(L, P_RS), hs = TL_I(L, P_HS), BM = TL_I(L, P_BLK), D = TL_I(L, P_DM);
    td_profile st = {TL_FMT(L, R_OUT), TD_RNE, TD_OVF_INF, false};
    float *o;
    TL_ALLOC(L, o, D);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t seqlen = tl_load_int(L, R_SEQLEN, b), start = tl_load_int(L, R_START, b);
            int64_t rows = (int64_t)L->grid[2] * BM < seqlen ? (int64_t)L->grid[2] * BM : seqlen;
            for (int64_t i = 0; i < rows; i++) {
                can_row(L, start, i, h, o);
                for (int64_t d = 0; d < D; d++) tl_store(L, R_OUT, (start + i) * rs + h * hs + d, o[d], st);
            }
        }
    free(o);
    return 0;
}

TD_KERNEL(td_a_ctx_nopad_fa2_kv8) = {"context_attn_nopad.context_attn_nopad_output_summary_general", "alt_fa2_kv8_exp2",
                                     TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, can_fa2, NULL};
TD_KERNEL(td_a_ctx_nopad_io_fa2_kv8) = {"context_attn_nopad.context_attn_nopad_io_correctness", "alt_fa2_kv8_exp2",
                                        TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR, can_fa2, NULL};
