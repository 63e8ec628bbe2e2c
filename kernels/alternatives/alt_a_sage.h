/* Alternatives of the SageAttention-style forward kernels (attention_forward_triton,
 * attention_fwd_triton2, attn_fwd_causal, attn_fwd_triton): per query row m of head
 * program pid1 (rows m < N_CTX, lanes d < HEAD_ACTIVE),
 *     out[m, d] = sum_n 2^S[m,n] V[n,d] / sum_n 2^S[m,n],
 *     S[m,n] = (sum_{e<HEAD_ACTIVE} Q[m,e] K[n,e]) * q_scale(m) * k_scale(n / BLOCK_N)
 * over every key (causal: n <= m), every tensor at base(pid1) + row * HEAD_DIM + lane.
 * BLOCK_N enters only through k_scale's indexing (part of the contract); the online
 * softmax runs over blocks of C keys in either direction (alt_a_attn.h), the dots as
 * FMA chains, exp2 as the host's exp2f or the ex2.approx model (2 ulp off). */
#ifndef TD_ALT_A_SAGE_H
#define TD_ALT_A_SAGE_H

#include "alt_a_attn.h"

enum { SGA_Q, SGA_K, SGA_V, SGA_QS, SGA_KS, SGA_OUT };

typedef struct sga_geo {
    int64_t sqz, sqh, H, N, HD, BM, BN, HA;
    int causal, v16; /* keys n <= m only; V converted to fp16 before the P.V product */
} sga_geo;

typedef struct sga_alt {
    int64_t C;
    int reverse;
    aa_expfn ex;
} sga_alt;

static inline int sga_run(const td_abi_launch *L, const sga_geo *g, const sga_alt *a) {
    const int64_t N = g->N, HA = g->HA;
    float *s, *v, *o, *p;
    uint8_t *keep;
    TL_ALLOC(L, s, N + N * HA + HA + a->C);
    v = s + N, o = v + N * HA, p = o + HA;
    TL_ALLOC(L, keep, N);
    const td_profile out = alt_out(L, SGA_OUT);
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
        const int64_t base = p1 / g->H * g->sqz + p1 % g->H * g->sqh;
        for (int64_t n = 0; n < N; n++)
            for (int64_t d = 0; d < HA; d++) {
                float x = tl_load(L, SGA_V, base + n * g->HD + d);
                v[n * HA + d] = g->v16 ? aat_f16(x) : x;
            }
        const int64_t rows = (int64_t)L->grid[0] * g->BM < N ? (int64_t)L->grid[0] * g->BM : N;
        for (int64_t m = 0; m < rows; m++) {
            const float qs = tl_load(L, SGA_QS, p1 * ((N + g->BM - 1) / g->BM) + m / g->BM);
            for (int64_t n = 0; n < N; n++) {
                float dot = 0.0f;
                for (int64_t e = 0; e < HA; e++)
                    dot = fmaf(tl_load(L, SGA_Q, base + m * g->HD + e), tl_load(L, SGA_K, base + n * g->HD + e), dot);
                s[n] = dot * qs * tl_load(L, SGA_KS, p1 * ((N + g->BN - 1) / g->BN) + n / g->BN);
                keep[n] = (uint8_t)(!g->causal || n <= m);
            }
            aat_row R = {N, s, keep, a->C, a->reverse, 1, 1, a->ex};
            aat_row_run(&R, v, HA, o, p);
            for (int64_t d = 0; d < HA; d++) tl_store(L, SGA_OUT, base + m * g->HD + d, o[d], out);
        }
    }
    free(s), free(keep);
    return 0;
}

#endif
