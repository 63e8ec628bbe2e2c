/* The prompt-cache prefill attentions of LightLLM on CUDA (context_attn_llama,
 * context_attn_fwd, context_attn_bloom): their shared parameter and region positions,
 * the K/V addressing (token table or per-batch cache), and the base-2 kernel of llama and
 * fwd (_fwd_kernel / _fwd_kernel_int8kv: one block per (start_m, batch * H) program, one
 * thread per query row of the BLOCK_M tile, kv_group_num = 1). */
#ifndef TD_CTX_PC_TLC_CUH
#define TD_CTX_PC_TLC_CUH

#include "attn2_tlc.cuh"

enum { P_SM, P_SQBS, P_SQH, P_SQD, P_SOBS = 12, P_SOH, P_SOD, P_H, P_BD, P_BM, P_BN, P_NT };
enum { R_Q, R_K, R_V, R_OUT, R_START, R_SEQLEN };
#define MAX_D 128
#define MAX_BN 128

/* where K/V rows come from (kernels/host/ctx_pc_tl.h's ctxpc_tl) */
struct cpc_lay {
    int gather, p_sk, p_sv, p_sreq, r_req, r_reqidx, r_plen;
};
__device__ __forceinline__ int64_t cpc_loc(const a2_args &a, const cpc_lay &t, int64_t req, int64_t n) {
    return t.gather ? A2_LDI(a, t.r_req, A2_I(a, t.p_sreq) * req + A2_I(a, t.p_sreq + 1) * n) : n;
}
__device__ __forceinline__ int64_t cpc_off(const a2_args &a, const cpc_lay &t, int ps, int64_t b, int64_t loc,
                                           int64_t head, int64_t d) {
    if (t.gather) return loc * A2_I(a, ps) + head * A2_I(a, ps + 1) + d * A2_I(a, ps + 2);
    return b * A2_I(a, ps) + head * A2_I(a, ps + 1) + loc * A2_I(a, ps + 2) + d * A2_I(a, ps + 3);
}

static __global__ void cpc_deferred_kernel(a2_args a, cpc_lay t) {
    int64_t H = A2_I(a, P_H), D = A2_I(a, P_BD), BM = A2_I(a, P_BM), BN = A2_I(a, P_BN);
    float sm_scale = A2_R(a, P_SM);
    int64_t start_m = blockIdx.x, cur_bh = blockIdx.y, cur_batch = cur_bh / H, cur_head = cur_bh % H;
    int64_t cur_kv_head = cur_head / 1;
    int64_t start = A2_LDI(a, R_START, cur_batch), prompt_cache_len = A2_LDI(a, t.r_plen, cur_batch);
    int64_t seq = A2_LDI(a, R_SEQLEN, cur_batch) - prompt_cache_len;
    int64_t req = t.gather ? A2_LDI(a, t.r_reqidx, cur_batch) : 0;
    int64_t block_start = BM * start_m, block_mask = block_start < seq ? 1 : 0;
    int64_t ea = block_start + BM + prompt_cache_len, eb = seq + prompt_cache_len;
    int64_t block_end_loc = ea < eb ? ea : eb;
    float q[MAX_D], acc[MAX_D], qk[MAX_BN], p[MAX_BN];
    for (int64_t i = threadIdx.x; i < BM; i += blockDim.x) {
        int64_t offs_m = block_start + i;
        for (int64_t d = 0; d < D; d++)
            q[d] = offs_m < seq ? A2_LD(a, R_Q, (start + offs_m) * A2_I(a, P_SQBS) + cur_head * A2_I(a, P_SQH) +
                                                    d * A2_I(a, P_SQD))
                                : 0.0f;
        for (int64_t d = 0; d < D; d++) acc[d] = 0.0f;
        float m_i = -INFINITY, l_i = 0.0f;
        for (int64_t start_n = 0; start_n < block_mask * block_end_loc; start_n += BN) {
            for (int64_t n = 0; n < BN; n++) {
                int live = start_n + n < block_end_loc;
                int64_t kv_loc = live ? cpc_loc(a, t, req, start_n + n) : 0;
                float s = 0.0f;
                for (int64_t d = 0; d < D; d++) {
                    float k = live ? A2_LD(a, R_K, cpc_off(a, t, t.p_sk, cur_batch, kv_loc, cur_kv_head, d)) : 0.0f;
                    s = __fadd_rn(s, __fmul_rn(q[d], k));
                }
                qk[n] = offs_m + prompt_cache_len >= start_n + n ? __fmul_rn(s, sm_scale) : -1.0e8f;
            }
            float mx = -INFINITY;
            for (int64_t n = 0; n < BN; n++) mx = qk[n] > mx ? qk[n] : mx;
            float m_ij = m_i > mx ? m_i : mx;
            for (int64_t n = 0; n < BN; n++) p[n] = exp2f(__fsub_rn(qk[n], m_ij));
            for (int64_t n = 0; n < BN; n++) qk[n] = p[n];
            float l_ij = a2_tree_sum(qk, (int)BN);
            float alpha = exp2f(__fsub_rn(m_i, m_ij));
            l_i = __fadd_rn(__fmul_rn(l_i, alpha), l_ij);
            for (int64_t n = 0; n < BN; n++) p[n] = a2_rn16(p[n]);
            for (int64_t d = 0; d < D; d++) {
                float s = __fmul_rn(acc[d], alpha);
                for (int64_t n = 0; n < BN; n++) {
                    int live = start_n + n < block_end_loc;
                    int64_t kv_loc = live ? cpc_loc(a, t, req, start_n + n) : 0;
                    float v = live ? A2_LD(a, R_V, cpc_off(a, t, t.p_sv, cur_batch, kv_loc, cur_kv_head, d)) : 0.0f;
                    s = __fadd_rn(s, __fmul_rn(p[n], v));
                }
                acc[d] = s;
            }
            m_i = m_ij;
        }
        if (offs_m < seq)
            for (int64_t d = 0; d < D; d++)
                A2_ST(a, R_OUT, (start + offs_m) * A2_I(a, P_SOBS) + cur_head * A2_I(a, P_SOH) + d * A2_I(a, P_SOD),
                      __fdiv_rn(acc[d], l_i));
    }
}

static inline int cpc_launch(const td_abi_launch *L, cpc_lay t) {
    if (L->params[P_BD].i > MAX_D || L->params[P_BN].i > MAX_BN) {
        snprintf(L->err, L->errlen, "BLOCK_DMODEL / BLOCK_N beyond the port's tiles (%d / %d)", MAX_D, MAX_BN);
        return 1;
    }
    a2_args a;
    if (a2_pack(L, &a)) return 1;
    cpc_deferred_kernel<<<tlc_grid(L), tlc_threads(A2_I(a, P_BM)), 0, (cudaStream_t)L->stream>>>(a, t);
    return tlc_check(L, "cpc_deferred_kernel");
}

#endif
