/* attention_score: _score_kernel on the CPU, program by program (start_n = pid0, off_hz =
 * pid1), with the catalogue's launch flags (SLIDING_WINDOW, COMPLEMENT_SLIDING_WINDOW,
 * IS_EVEN_M, IS_EVEN_N) = (1, 0, 1, 1) and BLOCK_M = BLOCK_N: the K tile and every Q tile
 * loaded without a boundary check, the window mask in int32 arithmetic, the store masked by
 * o_range < NKV_CTX.  Regions Q, K (fp16), M (fp32), Out (fp16).  Parameters: 11 strides,
 * Z, H, H_KV, N_CTX, ROUND_CTX, NKV_CTX, swo, sws, BN, BD, sm_scale. */
#include "attn_online_tl.h"

enum { P_SQZ, P_SQH, P_SQM, P_SQK, P_SKZ, P_SKH, P_SKN, P_SKK, P_SOZ, P_SOH, P_SON,
       P_Z, P_H, P_HKV, P_NCTX, P_ROUND, P_NKV, P_SWO, P_SWS, P_BN, P_BD, P_SM };
enum { R_Q, R_K, R_M, R_OUT };

/* the mutants' switches (kernels/mutants/attention_score.c) */
#define AS_MUT_WINDOW 1u  /* dist <= size */
#define AS_MUT_GQA 2u     /* off_hkv = off_h % H_KV */
#define AS_MUT_STORE 4u   /* the store mask dropped */
#define AS_MUT_MSTRIDE 8u /* m_ptrs = M + off_hz * N_CTX */
int td_hk_attention_score(const td_abi_launch *L, unsigned mut);

/* one program: o[j] = sum over the query blocks of the column sums of the masked p tile */
static int as_program(const td_abi_launch *L, unsigned mut, int64_t start_n, int64_t off_hz, float *k, float *q,
                      float *col, float *o) {
    const int64_t H = TL_I(L, P_H), HKV = TL_I(L, P_HKV), BN = TL_I(L, P_BN), BD = TL_I(L, P_BD);
    const int64_t off_z = off_hz / H, off_h = off_hz % H;
    const int64_t off_hkv = (mut & AS_MUT_GQA) ? off_h % HKV : off_h / (H / HKV);
    const int64_t q_off = off_z * TL_I(L, P_SQZ) + off_h * TL_I(L, P_SQH);
    const int64_t k_off = off_z * TL_I(L, P_SKZ) + off_hkv * TL_I(L, P_SKH);
    const int64_t m_base = off_hz * ((mut & AS_MUT_MSTRIDE) ? TL_I(L, P_NCTX) : TL_I(L, P_ROUND));
    for (int64_t d = 0; d < BD; d++) /* K tile [BD, BN], IS_EVEN_N: no boundary check */
        for (int64_t n = 0; n < BN; n++)
            k[d * BN + n] = tl_load(L, R_K, k_off + d * TL_I(L, P_SKK) + (start_n * BN + n) * TL_I(L, P_SKN));
    float qk_scale = TL_R(L, P_SM);
    qk_scale *= 1.4426950408889634f;
    for (int64_t n = 0; n < BN; n++) o[n] = 0.0f;
    for (int64_t start_m = 0; start_m < TL_I(L, P_ROUND); start_m += BN) {
        for (int64_t i = 0; i < BN; i++)
            for (int64_t d = 0; d < BD; d++)
                q[i * BD + d] = tl_load(L, R_Q, q_off + (start_m + i) * TL_I(L, P_SQM) + d * TL_I(L, P_SQK));
        for (int64_t n = 0; n < BN; n++) {
            for (int64_t i = 0; i < BN; i++) {
                float dot = 0.0f; /* qk = zeros; qk += tl.dot(q, k); qk = qk * qk_scale */
                for (int64_t d = 0; d < BD; d++) dot += q[i * BD + d] * k[d * BN + n];
                float qk = dot * qk_scale;
                const int64_t dist = i - n + start_m - start_n * BN + TL_I(L, P_SWO);
                const int mask = dist >= 0 && ((mut & AS_MUT_WINDOW) ? dist <= TL_I(L, P_SWS) : dist < TL_I(L, P_SWS));
                float p = exp2f(qk - tl_load(L, R_M, m_base + start_m + i));
                col[i] = mask ? p : 0.0f; /* tl.where(mask, p, 0) */
            }
            o[n] += tl_sum(col, BN); /* tl.sum(p, axis=0) */
        }
    }
    const int64_t o_off = off_z * TL_I(L, P_SOZ) + off_h * TL_I(L, P_SOH);
    for (int64_t n = 0; n < BN; n++) {
        const int64_t o_range = n + start_n * BN;
        if (!(mut & AS_MUT_STORE) && o_range >= TL_I(L, P_NKV)) continue;
        if (tl_fault(L, R_OUT, o_off + o_range, 1, 1, (uint32_t)start_n)) return 1;
        tl_store(L, R_OUT, o_off + o_range, o[n], at_prof(TD_F16));
    }
    return 0;
}

int td_hk_attention_score(const td_abi_launch *L, unsigned mut) {
    const int64_t BN = TL_I(L, P_BN), BD = TL_I(L, P_BD);
    float *k, *q, *col, *o;
    TL_ALLOC(L, k, BD * BN);
    TL_ALLOC(L, q, BN * BD);
    TL_ALLOC(L, col, BN);
    TL_ALLOC(L, o, BN);
    int rc = 0;
    for (uint32_t p1 = 0; p1 < L->grid[1] && !rc; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0] && !rc; p0++) rc = as_program(L, mut, p0, p1, k, q, col, o);
    free(k), free(q), free(col), free(o);
    return rc;
}

static int launch(const td_abi_launch *L) { return td_hk_attention_score(L, 0); }

#define AS_CASTS "store=fp16:rne:inf"
TD_KERNEL(td_k_attention_score_os) = {"attention_score.attention_score_python_case1_output_summary_general", "triton",
                                      TD_ABI_HOST, AS_CASTS, NULL, NULL, 22, 4, launch, NULL};
TD_KERNEL(td_k_attention_score_io) = {"attention_score.attention_score_case1_io_correctness", "triton", TD_ABI_HOST,
                                      AS_CASTS, NULL, NULL, 22, 4, launch, NULL};
