/* attention_llama: triton_fa's _fwd_kernel on the CPU (USE_FP8 = False), program by program
 * (start_m = pid0, head_idx = pid1).  Parameters: sm_scale, the 16 strides of Q, K, V, Out,
 * N_HEAD, H (query rows), N_CTX (keys), start_position, BLOCK_M, BLOCK_N, BLOCK_DMODEL and
 * numKVBlocks / numCausalBlocks (a proof quantity the kernel does not take).  Regions Q, K,
 * V, Out, all fp16. */
#include "attn_online_tl.h"

enum { P_SM, P_SQZ, P_SKZ = 5, P_SVZ = 9, P_SOZ = 13, P_NHEAD = 17, P_H, P_NCTX, P_SP, P_BM, P_BN, P_BD };
enum { R_Q, R_K, R_V, R_OUT };

int td_hk_attention_llama(const td_abi_launch *L, int causal, unsigned mut) {
    const float sm_scale = TL_R(L, P_SM);
    const int64_t NH = TL_I(L, P_NHEAD), H = TL_I(L, P_H), N = TL_I(L, P_NCTX), SP = TL_I(L, P_SP);
    const int64_t BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), BD = TL_I(L, P_BD);
    float *q, *k, *v, *qk, *acc, *m_prev, *l_prev, *p, *p16;
    TL_ALLOC(L, q, BM * BD);
    TL_ALLOC(L, k, BN * BD);
    TL_ALLOC(L, v, BN * BD);
    TL_ALLOC(L, qk, BM * BN);
    TL_ALLOC(L, acc, BM * BD);
    TL_ALLOC(L, m_prev, BM);
    TL_ALLOC(L, l_prev, BM);
    TL_ALLOC(L, p, BN);
    TL_ALLOC(L, p16, BN);
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
            const int64_t start_m = p0, batch_id = p1 / NH, off_hz = p1 % NH;
            const int64_t oq = batch_id * TL_I(L, P_SQZ) + off_hz * TL_I(L, P_SQZ + 1);
            int64_t ok = batch_id * TL_I(L, P_SKZ) + off_hz * TL_I(L, P_SKZ + 1);
            if (mut & AL_MUT_OFFSET_I32) { /* off_k in int32: Triton's i32 pids times the strides that fit i32 */
                ok = tl_i32(tl_i32(batch_id * tl_i32(TL_I(L, P_SKZ))) + tl_i32(off_hz * tl_i32(TL_I(L, P_SKZ + 1))));
                if (tl_fault(L, R_K, ok, 1, 1, p1)) {
                    free(q), free(k), free(v), free(qk), free(acc), free(m_prev), free(l_prev), free(p), free(p16);
                    return 1;
                }
            }
            const int64_t ov = batch_id * TL_I(L, P_SVZ) + off_hz * TL_I(L, P_SVZ + 1);
            const int64_t oo = batch_id * TL_I(L, P_SOZ) + off_hz * TL_I(L, P_SOZ + 1);
            for (int64_t i = 0; i < BM; i++) {
                const int64_t off_m = start_m * BM + i;
                m_prev[i] = -INFINITY;
                l_prev[i] = 0.0f;
                for (int64_t d = 0; d < BD; d++) {
                    acc[i * BD + d] = 0.0f;
                    q[i * BD + d] = off_m < H ? tl_load(L, R_Q, oq + off_m * TL_I(L, P_SQZ + 2) + d * TL_I(L, P_SQZ + 3))
                                              : 0.0f;
                }
            }
            const int64_t block_n_end = causal ? (start_m + 1) * BN + SP : N;
            for (int64_t start_n = 0; start_n < block_n_end; start_n += BN) {
                for (int64_t n = 0; n < BN; n++)
                    for (int64_t d = 0; d < BD; d++) {
                        int in = start_n + n < N;
                        k[n * BD + d] = in ? tl_load(L, R_K, ok + (start_n + n) * TL_I(L, P_SKZ + 2) + d * TL_I(L, P_SKZ + 3)) : 0.0f;
                        v[n * BD + d] = in ? tl_load(L, R_V, ov + (start_n + n) * TL_I(L, P_SVZ + 2) + d * TL_I(L, P_SVZ + 3)) : 0.0f;
                    }
                for (int64_t i = 0; i < BM; i++) {
                    const int64_t off_m = start_m * BM + i;
                    for (int64_t n = 0; n < BN; n++) {
                        float s = 0.0f, d = 0.0f; /* qk = zeros; qk += tl.dot(q, tl.trans(k)) */
                        for (int64_t e = 0; e < BD; e++) d += q[i * BD + e] * k[n * BD + e];
                        s += d;
                        s = n < N ? s : -INFINITY; /* where(offs_n < N_CTX, qk, -inf) */
                        s *= sm_scale;
                        if (mut & AL_MUT_SCALE_TWICE) s *= sm_scale;
                        if (causal) {
                            int keep = (mut & AL_MUT_CAUSAL_GT) ? off_m > start_n + n + SP : off_m >= start_n + n + SP;
                            s = keep ? s : -INFINITY;
                        }
                        qk[i * BN + n] = s;
                    }
                    float tmax = tl_max(qk + i * BN, BN);
                    float m_curr = tmax > m_prev[i] ? tmax : m_prev[i];
                    if (!(mut & AL_MUT_NO_RESCALE_L)) l_prev[i] *= expf(m_prev[i] - m_curr);
                    for (int64_t n = 0; n < BN; n++) p[n] = expf(qk[i * BN + n] - m_curr);
                    float l_curr = tl_sum(p, BN) + l_prev[i];
                    float l_rcp = 1.0f / l_curr;
                    for (int64_t n = 0; n < BN; n++)
                        p16[n] = (mut & AL_MUT_P_CAST_EARLY) ? at_cvt(TD_F16, p[n]) * l_rcp : at_cvt(TD_F16, p[n] * l_rcp);
                    float r = l_prev[i] * l_rcp;
                    for (int64_t d = 0; d < BD; d++) {
                        acc[i * BD + d] *= r;
                        float dot = 0.0f; /* tl.dot(p.to(fp16), v) */
                        for (int64_t n = 0; n < BN; n++) dot += p16[n] * v[n * BD + d];
                        acc[i * BD + d] += dot;
                    }
                    l_prev[i] = l_curr;
                    m_prev[i] = m_curr;
                }
            }
            for (int64_t i = 0; i < BM; i++) {
                const int64_t off_m = start_m * BM + i;
                if (off_m >= H) continue;
                for (int64_t d = 0; d < BD; d++)
                    tl_store(L, R_OUT, oo + off_m * TL_I(L, P_SOZ + 2) + d * TL_I(L, P_SOZ + 3), acc[i * BD + d],
                             at_prof(TD_F16));
            }
        }
    free(q), free(k), free(v), free(qk), free(acc), free(m_prev), free(l_prev), free(p), free(p16);
    return 0;
}

static int launch_nc(const td_abi_launch *L) { return td_hk_attention_llama(L, 0, 0); }
static int launch_c(const td_abi_launch *L) { return td_hk_attention_llama(L, 1, 0); }

#define AL_CASTS "p=fp16:rne:inf;store=fp16:rne:inf"
TD_KERNEL(td_k_attention_llama_nc) = {"attention_llama.attention_llama_fwd_closed_form_correct", "triton",
                                      TD_ABI_HOST, AL_CASTS, NULL, NULL, 25, 4, launch_nc, NULL};
TD_KERNEL(td_k_attention_llama_c) = {"attention_llama.attention_llama_fwd_causal_closed_form_correct", "triton",
                                     TD_ABI_HOST, AL_CASTS, NULL, NULL, 25, 4, launch_c, NULL};
