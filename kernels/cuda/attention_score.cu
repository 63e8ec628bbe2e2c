/* attention_score on CUDA: _score_kernel with the catalogue's flags (1, 0, 1, 1) and
 * BLOCK_M = BLOCK_N, one block per program (start_n, off_hz), a thread per key column of the
 * program's block, the arithmetic of kernels/host/attention_score.c (tl.dot as a binary32
 * loop, p = exp2f(qk - m) under the int32 window mask, tl.sum over the BLOCK_M rows of a
 * query block as the pairwise tree, the fp16 store masked by o_range < NKV_CTX).  Q, K,
 * Out fp16; M fp32. */
#include "attn_online_tlc.cuh"

enum { P_SQZ, P_SQH, P_SQM, P_SQK, P_SKZ, P_SKH, P_SKN, P_SKK, P_SOZ, P_SOH, P_SON,
       P_Z, P_H, P_HKV, P_NCTX, P_ROUND, P_NKV, P_SWO, P_SWS, P_BN, P_BD, P_SM };
enum { R_Q, R_K, R_M, R_OUT };

struct as_dev {
    float sm_scale;
    int64_t s[11];
    int64_t H, HKV, round, nkv, swo, sws, bn, bd;
};

__global__ void as_score_kernel(const __half *Q, const __half *K, const float *M, __half *Out, as_dev g) {
    const int64_t start_n = blockIdx.x, off_hz = blockIdx.y, off_z = off_hz / g.H, off_h = off_hz % g.H;
    const int64_t off_hkv = off_h / (g.H / g.HKV);
    const int64_t q_off = off_z * g.s[0] + off_h * g.s[1], k_off = off_z * g.s[4] + off_hkv * g.s[5];
    const float qk_scale = __fmul_rn(g.sm_scale, 1.4426950408889634f);
    for (int64_t n = threadIdx.x; n < g.bn; n += blockDim.x) {
        float k[AT_CU_MAX], col[AT_CU_MAX], o = 0.0f;
        for (int64_t d = 0; d < g.bd; d++) k[d] = at_ld(K, k_off + d * g.s[7] + (start_n * g.bn + n) * g.s[6]);
        for (int64_t start_m = 0; start_m < g.round; start_m += g.bn) {
            for (int64_t i = 0; i < g.bn; i++) {
                float dot = 0.0f;
                for (int64_t d = 0; d < g.bd; d++)
                    dot = __fadd_rn(dot, __fmul_rn(at_ld(Q, q_off + (start_m + i) * g.s[2] + d * g.s[3]), k[d]));
                const float qk = __fmul_rn(dot, qk_scale);
                const int64_t dist = i - n + start_m - start_n * g.bn + g.swo;
                const float p = exp2f(__fsub_rn(qk, M[off_hz * g.round + start_m + i]));
                col[i] = (dist >= 0 && dist < g.sws) ? p : 0.0f;
            }
            o = __fadd_rn(o, at_tree_sum(col, g.bn));
        }
        const int64_t o_range = n + start_n * g.bn;
        if (o_range < g.nkv) at_st(Out, off_z * g.s[8] + off_h * g.s[9] + o_range, o);
    }
}

static int launch(const td_abi_launch *L) {
    as_dev g;
    g.sm_scale = TLC_R(L, P_SM);
    for (int k = 0; k < 11; k++) g.s[k] = TLC_I(L, P_SQZ + k);
    g.H = TLC_I(L, P_H), g.HKV = TLC_I(L, P_HKV), g.round = TLC_I(L, P_ROUND), g.nkv = TLC_I(L, P_NKV);
    g.swo = TLC_I(L, P_SWO), g.sws = TLC_I(L, P_SWS), g.bn = TLC_I(L, P_BN), g.bd = TLC_I(L, P_BD);
    if (at_too_wide(L, g.bd, "BLOCK_DMODEL") || at_too_wide(L, g.bn, "BLOCK_N")) return 1;
    as_score_kernel<<<tlc_grid(L), at_threads(g.bn), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Q, const __half), TLC_PTR(L, R_K, const __half), TLC_PTR(L, R_M, const float),
        TLC_PTR(L, R_OUT, __half), g);
    return tlc_check(L, "attention_score _score_kernel");
}

#define AS_CASTS "store=fp16:rne:inf"
TD_KERNEL(td_kc_attention_score_os) = {"attention_score.attention_score_python_case1_output_summary_general", "triton",
                                       TD_ABI_CUDA, AS_CASTS, NULL, NULL, 22, 4, launch, NULL};
TD_KERNEL(td_kc_attention_score_io) = {"attention_score.attention_score_case1_io_correctness", "triton", TD_ABI_CUDA,
                                       AS_CASTS, NULL, NULL, 22, 4, launch, NULL};
