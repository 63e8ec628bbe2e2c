/* context_attn_bloom on CUDA: _fwd_kernel with the prompt cache and the token table,
 * natural exp normalised every KV block, head lanes d >= head_dim masked; one block per
 * (batch, head, start_m) program, one thread per query row of the BLOCK_M tile,
 * kv_group_num = 1. */
#include "ctx_pc_tlc.cuh"

enum { NP = 20, NR = 9 };

static __global__ void bloom_kernel(a2_args a, cpc_lay t) {
    int64_t hd = A2_I(a, P_H), D = A2_I(a, P_BD), BM = A2_I(a, P_BM), BN = A2_I(a, P_BN);
    float sm_scale = A2_R(a, P_SM);
    int64_t cur_batch = blockIdx.x, cur_head = blockIdx.y, start_m = blockIdx.z;
    int64_t start = A2_LDI(a, R_START, cur_batch), plen = A2_LDI(a, t.r_plen, cur_batch);
    int64_t seq = A2_LDI(a, R_SEQLEN, cur_batch) - plen, req = A2_LDI(a, t.r_reqidx, cur_batch);
    int64_t block_start = BM * start_m, block_mask = block_start < seq ? 1 : 0;
    int64_t ea = (start_m + 1) * BM + plen, eb = seq + plen;
    int64_t block_end_loc = ea < eb ? ea : eb;
    float q[MAX_D], acc[MAX_D], qk[MAX_BN], p[MAX_BN];
    for (int64_t i = threadIdx.x; i < BM; i += blockDim.x) {
        int64_t offs_m = block_start + i;
        for (int64_t d = 0; d < D; d++)
            q[d] = offs_m < seq && d < hd ? A2_LD(a, R_Q, (start + offs_m) * A2_I(a, P_SQBS) + cur_head * A2_I(a, P_SQH) +
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
                    float k = live && d < hd ? A2_LD(a, R_K, cpc_off(a, t, t.p_sk, 0, kv_loc, cur_head, d)) : 0.0f;
                    s = __fadd_rn(s, __fmul_rn(q[d], k));
                }
                s = __fmul_rn(s, sm_scale);
                qk[n] = offs_m + plen >= start_n + n ? s : -100000000.0f;
            }
            float m_ij = -INFINITY;
            for (int64_t n = 0; n < BN; n++) m_ij = qk[n] > m_ij ? qk[n] : m_ij;
            for (int64_t n = 0; n < BN; n++) p[n] = expf(__fsub_rn(qk[n], m_ij));
            for (int64_t n = 0; n < BN; n++) qk[n] = p[n];
            float l_ij = a2_tree_sum(qk, (int)BN);
            float m_i_new = m_i > m_ij ? m_i : m_ij;
            float alpha = expf(__fsub_rn(m_i, m_i_new)), beta = expf(__fsub_rn(m_ij, m_i_new));
            float l_i_new = __fadd_rn(__fmul_rn(alpha, l_i), __fmul_rn(beta, l_ij));
            float p_scale = __fdiv_rn(beta, l_i_new);
            for (int64_t n = 0; n < BN; n++) p[n] = a2_rn16(__fmul_rn(p[n], p_scale));
            float acc_scale = offs_m + plen >= start_n ? __fmul_rn(__fdiv_rn(l_i, l_i_new), alpha) : 1.0f;
            for (int64_t d = 0; d < D; d++) {
                float dot = 0.0f;
                for (int64_t n = 0; n < BN; n++) {
                    int live = start_n + n < block_end_loc && d < hd;
                    int64_t kv_loc = live ? cpc_loc(a, t, req, start_n + n) : 0;
                    float v = live ? A2_LD(a, R_V, cpc_off(a, t, t.p_sv, 0, kv_loc, cur_head, d)) : 0.0f;
                    dot = __fadd_rn(dot, __fmul_rn(p[n], v));
                }
                acc[d] = __fadd_rn(__fmul_rn(acc[d], acc_scale), dot);
            }
            l_i = l_i_new, m_i = m_i_new;
        }
        if (offs_m < seq)
            for (int64_t d = 0; d < D && d < hd; d++)
                A2_ST(a, R_OUT, (start + offs_m) * A2_I(a, P_SOBS) + cur_head * A2_I(a, P_SOH) + d * A2_I(a, P_SOD),
                      acc[d]);
    }
}

static int launch(const td_abi_launch *L) {
    if (L->params[P_BD].i > MAX_D || L->params[P_BN].i > MAX_BN) {
        snprintf(L->err, L->errlen, "BLOCK_DMODEL / BLOCK_N beyond the port's tiles (%d / %d)", MAX_D, MAX_BN);
        return 1;
    }
    a2_args a;
    if (a2_pack(L, &a)) return 1;
    cpc_lay t = {1, 6, 9, 4, 6, 7, 8}; /* table (4, 5), K (6..8), V (9..11); Req_to_tokens, B_req_idx, plen */
    bloom_kernel<<<tlc_grid(L), tlc_threads(A2_I(a, P_BM)), 0, (cudaStream_t)L->stream>>>(a, t);
    return tlc_check(L, "bloom_kernel");
}

TD_KERNEL(td_kc_ctx_bloom) = {"context_attn_bloom.context_attn_bloom_surface_compute_correct_general", "triton",
                              TD_ABI_CUDA, NULL, NULL, NULL, NP - 1, NR, launch, NULL};
TD_KERNEL(td_kc_ctx_bloom_io) = {"context_attn_bloom.context_attn_bloom_io_correctness", "triton", TD_ABI_CUDA,
                                 "store=fp16:rne:inf", NULL, NULL, NP, NR, launch, NULL};
