/* attention_fwd_triton3 on CUDA: _attn_fwd / _attn_fwd_inner with each theorem's flags (case 1
 * window, 2 complementary window, 3 none, 4 resume), one block per program (start_m, off_hz),
 * a thread per query row, the arithmetic of kernels/host/attention_fwd_triton3.c.  Q, K, V,
 * Out fp16; M, L fp32. */
#include "attn_online_tlc.cuh"

enum { P_SM, P_SQZ, P_SQH, P_SQM, P_SQK, P_SKZ, P_SKH, P_SKN, P_SKK, P_SVZ, P_SVH, P_SVK, P_SVN,
       P_SOZ, P_SOH, P_SOM, P_SON, P_Z, P_H, P_HKV, P_NCTX, P_ROUND, P_NKV, P_OFF, P_SIZE };
enum { R_Q, R_K, R_V, R_M, R_OUT, R_L };

struct t3_dev {
    float sm_scale;
    int64_t s[16];
    int64_t H, HKV, round, nkv, off, size, bm, bd, bn;
    int sw, csw, init;
};

__global__ void t3_fwd_kernel(const __half *Q, const __half *K, const __half *V, float *M, __half *Out, float *Lr,
                              t3_dev g) {
    const int64_t start_m = blockIdx.x, off_hz = blockIdx.y, off_z = off_hz / g.H, off_h = off_hz % g.H;
    const int64_t off_hkv = off_h / (g.H / g.HKV);
    const int64_t q_off = off_z * g.s[0] + off_h * g.s[1], k_off = off_z * g.s[4] + off_hkv * g.s[5];
    const int64_t v_off = off_z * g.s[8] + off_hkv * g.s[9], o_off = off_z * g.s[12] + off_h * g.s[13];
    const float qk_scale = __fmul_rn(g.sm_scale, 1.4426950408889634f);
    int64_t lo = 0, hi = g.nkv;
    if (g.sw && !g.csw) {
        lo = ((start_m * g.bm + g.off - g.size + 1) / g.bn) * g.bn;
        hi = ((((start_m + 1) * g.bm - 1) + g.off + g.bn) / g.bn) * g.bn;
        if (lo < 0) lo = 0;
        if (hi > g.nkv) hi = g.nkv;
    }
    for (int64_t i = threadIdx.x; i < g.bm; i += blockDim.x) {
        float q[AT_CU_MAX], acc[AT_CU_MAX], qk[AT_CU_MAX], p16[AT_CU_MAX];
        unsigned char mask[AT_CU_MAX];
        const int64_t row = start_m * g.bm + i, mrow = off_hz * g.round + row;
        float m_i = g.init ? -INFINITY : M[mrow], l_i = g.init ? 1.0f : Lr[mrow];
        for (int64_t d = 0; d < g.bd; d++) {
            acc[d] = g.init ? 0.0f : at_ld(Out, o_off + row * g.s[14] + d * g.s[15]);
            q[d] = at_ld(Q, q_off + row * g.s[2] + d * g.s[3]);
        }
        for (int64_t start_n = lo; start_n < hi; start_n += g.bn) {
            for (int64_t n = 0; n < g.bn; n++) {
                float d = 0.0f;
                for (int64_t e = 0; e < g.bd; e++)
                    d = __fadd_rn(d, __fmul_rn(q[e], at_ld(K, k_off + e * g.s[7] + (start_n + n) * g.s[6])));
                float s = __fmul_rn(__fadd_rn(0.0f, d), qk_scale);
                mask[n] = 1;
                if (g.sw) {
                    const int64_t dist = i - n + start_m * g.bm - start_n + g.off;
                    mask[n] = g.csw ? dist >= g.size : (dist >= 0 && dist < g.size);
                    if (!mask[n]) s = -INFINITY;
                }
                qk[n] = s;
            }
            const float tmax = at_tree_max(qk, g.bn);
            const float m_ij = m_i > tmax ? m_i : tmax;
            for (int64_t n = 0; n < g.bn; n++) {
                float p = exp2f(__fsub_rn(qk[n], m_ij));
                if (g.sw && !mask[n]) p = 0.0f;
                qk[n] = p;
                p16[n] = at_f16(p);
            }
            const float l_ij = at_tree_sum(qk, g.bn);
            const float tmp = __fsub_rn(m_i, m_ij);
            float alpha = exp2f(tmp);
            if (tmp != tmp) alpha = 1.0f;
            l_i = __fadd_rn(__fmul_rn(l_i, alpha), l_ij);
            for (int64_t d = 0; d < g.bd; d++) {
                float dot = 0.0f;
                for (int64_t n = 0; n < g.bn; n++)
                    dot = __fadd_rn(dot, __fmul_rn(p16[n], at_ld(V, v_off + (start_n + n) * g.s[10] + d * g.s[11])));
                acc[d] = __fadd_rn(__fmul_rn(acc[d], alpha), dot);
            }
            m_i = m_ij;
        }
        /* END = 1 in every theorem */
        m_i = __fadd_rn(m_i, log2f(l_i));
        M[mrow] = m_i;
        for (int64_t d = 0; d < g.bd; d++) at_st(Out, o_off + row * g.s[14] + d * g.s[15], __fdiv_rn(acc[d], l_i));
    }
}

static int launch(const td_abi_launch *L, int cas) {
    t3_dev g;
    const int ib = cas == 3 ? P_SIZE : P_SIZE + 1;
    g.sm_scale = TLC_R(L, P_SM);
    for (int k = 0; k < 16; k++) g.s[k] = TLC_I(L, P_SQZ + k);
    g.H = TLC_I(L, P_H), g.HKV = TLC_I(L, P_HKV), g.round = TLC_I(L, P_ROUND), g.nkv = TLC_I(L, P_NKV);
    g.off = TLC_I(L, P_OFF), g.size = cas == 3 ? 0 : TLC_I(L, P_SIZE);
    g.bm = TLC_I(L, ib), g.bd = TLC_I(L, ib + 1), g.bn = TLC_I(L, ib + 2);
    g.sw = cas != 3, g.csw = cas == 2, g.init = cas != 4;
    if (at_too_wide(L, g.bd, "BLOCK_DMODEL") || at_too_wide(L, g.bn, "BLOCK_N")) return 1;
    t3_fwd_kernel<<<tlc_grid(L), at_threads(g.bm), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Q, const __half), TLC_PTR(L, R_K, const __half), TLC_PTR(L, R_V, const __half),
        TLC_PTR(L, R_M, float), TLC_PTR(L, R_OUT, __half), TLC_PTR(L, R_L, float), g);
    return tlc_check(L, "attention_fwd_triton3 _attn_fwd");
}

static int launch_1(const td_abi_launch *L) { return launch(L, 1); }
static int launch_2(const td_abi_launch *L) { return launch(L, 2); }
static int launch_3(const td_abi_launch *L) { return launch(L, 3); }
static int launch_4(const td_abi_launch *L) { return launch(L, 4); }

#define T3_CASTS "p=fp16:rne:inf;store=fp16:rne:inf"
#define T3_ID(x) "attention_fwd_triton3.attention_fwd_triton3_" x
TD_KERNEL(td_kc_t3_case1_os) = {T3_ID("python_case1_output_summary_general"), "triton", TD_ABI_CUDA, T3_CASTS, NULL,
                                NULL, 28, 6, launch_1, NULL};
TD_KERNEL(td_kc_t3_case2_os) = {T3_ID("python_case2_output_summary_general"), "triton", TD_ABI_CUDA, T3_CASTS, NULL,
                                NULL, 28, 6, launch_2, NULL};
TD_KERNEL(td_kc_t3_case3_os) = {T3_ID("python_case3_output_summary_general"), "triton", TD_ABI_CUDA, T3_CASTS, NULL,
                                NULL, 27, 6, launch_3, NULL};
TD_KERNEL(td_kc_t3_case4_os) = {T3_ID("python_case4_output_summary_general"), "triton", TD_ABI_CUDA, T3_CASTS, NULL,
                                NULL, 28, 6, launch_4, NULL};
TD_KERNEL(td_kc_t3_case1_io) = {T3_ID("case1_io_correctness"), "triton", TD_ABI_CUDA, T3_CASTS, NULL, NULL, 28, 6,
                                launch_1, NULL};
TD_KERNEL(td_kc_t3_case2_io) = {T3_ID("case2_io_correctness"), "triton", TD_ABI_CUDA, T3_CASTS, NULL, NULL, 28, 6,
                                launch_2, NULL};
TD_KERNEL(td_kc_t3_case3_io) = {T3_ID("case3_io_correctness"), "triton", TD_ABI_CUDA, T3_CASTS, NULL, NULL, 27, 6,
                                launch_3, NULL};
TD_KERNEL(td_kc_t3_case4_io) = {T3_ID("case4_io_correctness"), "triton", TD_ABI_CUDA, T3_CASTS, NULL, NULL, 28, 6,
                                launch_4, NULL};
