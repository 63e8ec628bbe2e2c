/* Alternatives for the prompt-cache prefill attentions (context_attn_fwd,
 * context_attn_bloom): Out[start + gi, h, d] = sum_{j <= gi + plen} w_j V[key j, h, d] /
 * sum_j w_j, w_j = 2^(s_j) (fwd: sm_scale carries log2 e) or e^(s_j) (bloom), s_j =
 * sm_scale * q_gi . k_j over the head lanes the kernel reads, rows gi < B_Seqlen - plen
 * of the query blocks the grid covers.  Written independently of the ports' tile loops:
 * one query row at a time, each dot an FMA chain, the keys in blocks of C whatever
 * BLOCK_N is, in either direction, P cast to fp16 before P.V at the running max of that
 * blocking (aat_row_run: FlashAttention-2, normalised once, out = acc * (1/l)).  The
 * ports normalise at the end (fwd) or every block (bloom) with KV blocks of BLOCK_N:
 * another blocking of the same sums is admissible under the any-blocking bound. */
#ifndef TD_ALT_CTX_PC_H
#define TD_ALT_CTX_PC_H

#include "../host/ctx_pc_tl.h"
#include "alt_a_attn.h"

typedef struct acp_alt {
    const ctxpc_tl *t;
    int bloom; /* grid (batch, head, m), head_dim lanes; else (m, batch * H, 1) */
    int64_t C;
    int reverse;
    aa_expfn ex;
} acp_alt;

/* the scores of row gi (batch b, head h) against keys 0 .. n-1, and their values */
static inline void acp_scores(const td_abi_launch *L, const acp_alt *A, int64_t b, int64_t h, int64_t gi, int64_t n,
                       int64_t dm, float *s, float *v) {
    int64_t start = tl_load_int(L, CR_START, b), req = A->t->gather ? tl_load_int(L, A->t->r_reqidx, b) : 0;
    float sm = TL_R(L, CP_SM);
    for (int64_t j = 0; j < n; j++) {
        int64_t loc = ctxpc_kv_loc(L, A->t, req, j);
        float dot = 0.0f;
        for (int64_t e = 0; e < dm; e++)
            dot = fmaf(tl_load(L, CR_Q, (start + gi) * TL_I(L, CP_SQBS) + h * TL_I(L, CP_SQH) + e * TL_I(L, CP_SQD)),
                       tl_load(L, CR_K, ctxpc_kv_off(L, A->t, A->t->p_sk, b, loc, h, e, 0)), dot);
        s[j] = dot * sm;
        for (int64_t d = 0; d < dm; d++) v[j * dm + d] = tl_load(L, CR_V, ctxpc_kv_off(L, A->t, A->t->p_sv, b, loc, h, d, 0));
    }
}

static inline int acp_run(const td_abi_launch *L, const acp_alt *A) {
    int64_t BM = TL_I(L, CP_BM), BD = TL_I(L, CP_BD);
    int64_t H = A->bloom ? (int64_t)L->grid[1] : TL_I(L, CP_H);
    int64_t nb = A->bloom ? (int64_t)L->grid[0] : (int64_t)L->grid[1] / H;
    int64_t rows = (int64_t)(A->bloom ? L->grid[2] : L->grid[0]) * BM;
    int64_t dm = A->bloom && TL_I(L, CP_H) < BD ? TL_I(L, CP_H) : BD, nmax = 0;
    for (int64_t b = 0; b < nb; b++) nmax = tl_load_int(L, CR_SEQLEN, b) > nmax ? tl_load_int(L, CR_SEQLEN, b) : nmax;
    int64_t cmax = A->C < nmax ? A->C : nmax; /* a block never holds more keys than a row */
    float *s = calloc((size_t)(nmax + nmax * dm + dm + cmax + 1), sizeof *s);
    if (!s) {
        snprintf(L->err, L->errlen, "out of memory");
        return 1;
    }
    float *v = s + nmax, *o = v + nmax * dm, *p = o + dm;
    for (int64_t b = 0; b < nb; b++) {
        int64_t start = tl_load_int(L, CR_START, b), plen = tl_load_int(L, A->t->r_plen, b);
        int64_t nq = tl_load_int(L, CR_SEQLEN, b) - plen;
        for (int64_t h = 0; h < H; h++)
            for (int64_t gi = 0; gi < nq && gi < rows; gi++) {
                acp_scores(L, A, b, h, gi, gi + plen + 1, dm, s, v);
                aat_row R = {gi + plen + 1, s, NULL, A->C, A->reverse, 1, 0, A->ex};
                aat_row_run(&R, v, dm, o, p);
                for (int64_t d = 0; d < dm; d++)
                    tl_store(L, CR_OUT, (start + gi) * TL_I(L, CP_SOBS) + h * TL_I(L, CP_SOH) + d * TL_I(L, CP_SOD), o[d],
                             alt_f16());
            }
    }
    free(s);
    return 0;
}

#endif
