/* context_attn_nopad on CUDA: _fwd_kernel, one block per (batch, head, start_m) program,
 * one thread per query row of the BLOCK_M tile (each thread carries its row's m_i, l_i
 * and acc through the KV loop, in the program's order of operations). */
#include "attn2_tlc.cuh"

enum { P_SM, P_RS, P_HS, P_BLK, P_DM, P_NT, NP };
enum { R_Q, R_K, R_V, R_START, R_SEQLEN, R_OUT, NR };
#define MAX_D 128
#define MAX_BN 128

static __global__ void fwd_kernel(a2_args a) {
    int64_t b = blockIdx.x, h = blockIdx.y, sm = blockIdx.z;
    int64_t rs = A2_I(a, P_RS), hs = A2_I(a, P_HS), BM = A2_I(a, P_BLK), BN = BM, D = A2_I(a, P_DM);
    float sm_scale = A2_R(a, P_SM);
    int64_t seqlen = A2_LDI(a, R_SEQLEN, b), start = A2_LDI(a, R_START, b);
    int64_t block_start = BM * sm, block_mask = block_start < seqlen ? 1 : 0;
    float q[MAX_D], acc[MAX_D], qk[MAX_BN], p[MAX_BN];
    for (int64_t i = threadIdx.x; i < BM; i += blockDim.x) {
        int64_t row = block_start + i;
        for (int64_t d = 0; d < D; d++) q[d] = row < seqlen ? A2_LD(a, R_Q, (start + row) * rs + h * hs + d) : 0.0f;
        for (int64_t d = 0; d < D; d++) acc[d] = 0.0f;
        float m_i = -INFINITY, l_i = 0.0f;
        for (int64_t start_n = 0; start_n < block_mask * (sm + 1) * BM; start_n += BN) {
            for (int64_t n = 0; n < BN; n++) {
                float s = 0.0f; /* tl.dot(q, k): fp16 products exact, binary32 sum */
                for (int64_t d = 0; d < D; d++) {
                    float k = start_n + n < seqlen ? A2_LD(a, R_K, (start + start_n + n) * rs + h * hs + d) : 0.0f;
                    s = __fadd_rn(s, __fmul_rn(q[d], k));
                }
                s = __fmul_rn(s, sm_scale);
                qk[n] = row >= start_n + n ? s : -INFINITY;
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
            for (int64_t n = 0; n < BN; n++) p[n] = a2_rn16(__fmul_rn(p[n], p_scale)); /* p.to(v.dtype) */
            float acc_scale = __fmul_rn(__fdiv_rn(l_i, l_i_new), alpha);
            for (int64_t d = 0; d < D; d++) {
                float dot = 0.0f; /* tl.dot(p, v) */
                for (int64_t n = 0; n < BN; n++) {
                    float v = start_n + n < seqlen ? A2_LD(a, R_V, (start + start_n + n) * rs + h * hs + d) : 0.0f;
                    dot = __fadd_rn(dot, __fmul_rn(p[n], v));
                }
                acc[d] = __fadd_rn(__fmul_rn(acc[d], acc_scale), dot);
            }
            l_i = l_i_new;
            m_i = m_i_new;
        }
        if (row < seqlen)
            for (int64_t d = 0; d < D; d++) A2_ST(a, R_OUT, (start + row) * rs + h * hs + d, acc[d]);
    }
}

static int launch(const td_abi_launch *L) {
    if (L->params[P_DM].i > MAX_D || L->params[P_BLK].i > MAX_BN) {
        snprintf(L->err, L->errlen, "BLOCK_DMODEL / BLOCK_N beyond the port's tiles (%d / %d)", MAX_D, MAX_BN);
        return 1;
    }
    a2_args a;
    if (a2_pack(L, &a)) return 1;
    fwd_kernel<<<tlc_grid(L), tlc_threads(A2_I(a, P_BLK)), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "fwd_kernel");
}

TD_KERNEL(td_kc_ctx_nopad) = {"context_attn_nopad.context_attn_nopad_output_summary_general", "triton", TD_ABI_CUDA,
                              NULL, NULL, NULL, NP - 1, NR, launch, NULL};
TD_KERNEL(td_kc_ctx_nopad_io) = {"context_attn_nopad.context_attn_nopad_io_correctness", "triton", TD_ABI_CUDA,
                                 "store=fp16:rne:inf", NULL, NULL, NP, NR, launch, NULL};
