/* attention_llama on CUDA: triton_fa's _fwd_kernel (USE_FP8 = False), one block per program
 * (start_m, head_idx), a thread per query row, the arithmetic of kernels/host/attention_llama.c.
 * Q, K, V, Out fp16. */
#include "attn_online_tlc.cuh"

enum { P_SM, P_SQZ, P_SKZ = 5, P_SVZ = 9, P_SOZ = 13, P_NHEAD = 17, P_H, P_NCTX, P_SP, P_BM, P_BN, P_BD };
enum { R_Q, R_K, R_V, R_OUT };

struct al_dev {
    float sm_scale;
    int64_t s[16]; /* q, k, v, o: (z, h, row, col) */
    int64_t nhead, H, N, sp, bm, bn, bd;
    int causal;
};

__global__ void al_fwd_kernel(const __half *Q, const __half *K, const __half *V, __half *Out, al_dev g) {
    const int64_t start_m = blockIdx.x, head_idx = blockIdx.y, batch_id = head_idx / g.nhead, off_hz = head_idx % g.nhead;
    const int64_t oq = batch_id * g.s[0] + off_hz * g.s[1], ok = batch_id * g.s[4] + off_hz * g.s[5];
    const int64_t ov = batch_id * g.s[8] + off_hz * g.s[9], oo = batch_id * g.s[12] + off_hz * g.s[13];
    for (int64_t i = threadIdx.x; i < g.bm; i += blockDim.x) {
        float q[AT_CU_MAX], acc[AT_CU_MAX], qk[AT_CU_MAX], p16[AT_CU_MAX];
        const int64_t off_m = start_m * g.bm + i;
        float m_prev = -INFINITY, l_prev = 0.0f;
        for (int64_t d = 0; d < g.bd; d++) {
            acc[d] = 0.0f;
            q[d] = off_m < g.H ? at_ld(Q, oq + off_m * g.s[2] + d * g.s[3]) : 0.0f;
        }
        const int64_t block_n_end = g.causal ? (start_m + 1) * g.bn + g.sp : g.N;
        for (int64_t start_n = 0; start_n < block_n_end; start_n += g.bn) {
            for (int64_t n = 0; n < g.bn; n++) {
                const int in = start_n + n < g.N;
                float d = 0.0f;
                for (int64_t e = 0; e < g.bd; e++)
                    d = __fadd_rn(d, __fmul_rn(q[e], in ? at_ld(K, ok + (start_n + n) * g.s[6] + e * g.s[7]) : 0.0f));
                float s = __fadd_rn(0.0f, d);
                s = n < g.N ? s : -INFINITY;
                s = __fmul_rn(s, g.sm_scale);
                if (g.causal && !(off_m >= start_n + n + g.sp)) s = -INFINITY;
                qk[n] = s;
            }
            const float tmax = at_tree_max(qk, g.bn);
            const float m_curr = tmax > m_prev ? tmax : m_prev;
            l_prev = __fmul_rn(l_prev, expf(__fsub_rn(m_prev, m_curr)));
            for (int64_t n = 0; n < g.bn; n++) qk[n] = expf(__fsub_rn(qk[n], m_curr)); /* p, in place */
            for (int64_t n = 0; n < g.bn; n++) p16[n] = qk[n];
            const float l_curr = __fadd_rn(at_tree_sum(qk, g.bn), l_prev);
            const float l_rcp = __fdiv_rn(1.0f, l_curr);
            for (int64_t n = 0; n < g.bn; n++) p16[n] = at_f16(__fmul_rn(p16[n], l_rcp));
            const float r = __fmul_rn(l_prev, l_rcp);
            for (int64_t d = 0; d < g.bd; d++) {
                float dot = 0.0f;
                for (int64_t n = 0; n < g.bn; n++) {
                    float v = start_n + n < g.N ? at_ld(V, ov + (start_n + n) * g.s[10] + d * g.s[11]) : 0.0f;
                    dot = __fadd_rn(dot, __fmul_rn(p16[n], v));
                }
                acc[d] = __fadd_rn(__fmul_rn(acc[d], r), dot);
            }
            l_prev = l_curr;
            m_prev = m_curr;
        }
        if (off_m < g.H)
            for (int64_t d = 0; d < g.bd; d++) at_st(Out, oo + off_m * g.s[14] + d * g.s[15], acc[d]);
    }
}

static int launch(const td_abi_launch *L, int causal) {
    al_dev g;
    g.sm_scale = TLC_R(L, P_SM);
    for (int k = 0; k < 16; k++) g.s[k] = TLC_I(L, P_SQZ + k);
    g.nhead = TLC_I(L, P_NHEAD), g.H = TLC_I(L, P_H), g.N = TLC_I(L, P_NCTX), g.sp = TLC_I(L, P_SP);
    g.bm = TLC_I(L, P_BM), g.bn = TLC_I(L, P_BN), g.bd = TLC_I(L, P_BD), g.causal = causal;
    if (at_too_wide(L, g.bd, "BLOCK_DMODEL") || at_too_wide(L, g.bn, "BLOCK_N")) return 1;
    al_fwd_kernel<<<tlc_grid(L), at_threads(g.bm), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Q, const __half), TLC_PTR(L, R_K, const __half), TLC_PTR(L, R_V, const __half),
        TLC_PTR(L, R_OUT, __half), g);
    return tlc_check(L, "attention_llama _fwd_kernel");
}

static int launch_nc(const td_abi_launch *L) { return launch(L, 0); }
static int launch_c(const td_abi_launch *L) { return launch(L, 1); }

#define AL_CASTS "p=fp16:rne:inf;store=fp16:rne:inf"
TD_KERNEL(td_kc_attention_llama_nc) = {"attention_llama.attention_llama_fwd_closed_form_correct", "triton",
                                       TD_ABI_CUDA, AL_CASTS, NULL, NULL, 25, 4, launch_nc, NULL};
TD_KERNEL(td_kc_attention_llama_c) = {"attention_llama.attention_llama_fwd_causal_closed_form_correct", "triton",
                                      TD_ABI_CUDA, AL_CASTS, NULL, NULL, 25, 4, launch_c, NULL};
