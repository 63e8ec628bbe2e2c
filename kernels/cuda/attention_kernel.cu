/* attention_kernel on CUDA: _fwd_kernel_aligned (bias attention), one block per
 * (start_m, off_hz) program, one thread per query row of the BLOCK_M tile; fp16
 * arithmetic where Triton keeps fp16 tensors (the pre-scaled q, the bias), cuda_fp16's
 * correctly rounded __hadd / __hmul. */
#include "attn2_tlc.cuh"

enum { P_SM, P_SQH, P_SKH, P_SB0H, P_BM, P_BN, P_HD, P_BLS, P_SB0M, P_NB, NP };
enum { R_Q, R_K, R_V, R_B0, R_OUT, NR };
#define MAX_D 128
#define MAX_BN 128

static __global__ void fwd_kernel_aligned(a2_args a) {
    int64_t BM = A2_I(a, P_BM), BN = A2_I(a, P_BN), D = A2_I(a, P_HD), BLS = A2_I(a, P_BLS);
    int64_t N_CTX = BN * A2_I(a, P_NB), sb0m = A2_I(a, P_SB0M);
    int64_t start_m = blockIdx.x, off_hz = blockIdx.y;
    int64_t q_offset = off_hz * A2_I(a, P_SQH), kv_offset = off_hz * A2_I(a, P_SKH), b_offset = off_hz * A2_I(a, P_SB0H);
    float qk_scale = __fmul_rn(A2_R(a, P_SM), 1.44269504f);
    const __half c16 = __float2half_rn(1.44269504f);
    float q[MAX_D], acc[MAX_D], qk[MAX_BN], p[MAX_BN];
    for (int64_t i = threadIdx.x; i < BM; i += blockDim.x) {
        int64_t row = start_m * BM + i;
        for (int64_t d = 0; d < D; d++) q[d] = a2_rn16(__fmul_rn(A2_LD(a, R_Q, q_offset + row * D + d), qk_scale));
        for (int64_t d = 0; d < D; d++) acc[d] = 0.0f;
        float m_i = -INFINITY, l_i = 0.0f;
        for (int64_t start_n = 0; start_n < N_CTX; start_n += BN) {
            __half b0 = __float2half_rn(A2_LD(a, R_B0, b_offset + row * sb0m + start_n / BN));
            for (int64_t n = 0; n < BN; n++) {
                float s = 0.0f;
                for (int64_t d = 0; d < D; d++)
                    s = __fadd_rn(s, __fmul_rn(q[d], A2_LD(a, R_K, kv_offset + d + (start_n + n) * D)));
                __half b1 = __float2half_rn(A2_LD(a, R_B0, b_offset + row * sb0m + (n % BLS) + BLS));
                qk[n] = __fadd_rn(s, __half2float(__hmul(__hadd(b0, b1), c16)));
            }
            float mx = -INFINITY;
            for (int64_t n = 0; n < BN; n++) mx = qk[n] > mx ? qk[n] : mx;
            float m_i_new = m_i > mx ? m_i : mx;
            float alpha = exp2f(__fsub_rn(m_i, m_i_new));
            for (int64_t n = 0; n < BN; n++) p[n] = exp2f(__fsub_rn(qk[n], m_i_new));
            for (int64_t d = 0; d < D; d++) {
                float dot = 0.0f;
                for (int64_t n = 0; n < BN; n++)
                    dot = __fadd_rn(dot, __fmul_rn(a2_rn16(p[n]), A2_LD(a, R_V, kv_offset + (start_n + n) * D + d)));
                acc[d] = __fadd_rn(__fmul_rn(acc[d], alpha), dot);
            }
            for (int64_t n = 0; n < BN; n++) qk[n] = p[n];
            l_i = __fadd_rn(__fmul_rn(l_i, alpha), a2_tree_sum(qk, (int)BN));
            m_i = m_i_new;
        }
        for (int64_t d = 0; d < D; d++) A2_ST(a, R_OUT, q_offset + row * D + d, __fdiv_rn(acc[d], l_i));
    }
}

static int launch(const td_abi_launch *L) {
    if (L->params[P_HD].i > MAX_D || L->params[P_BN].i > MAX_BN) {
        snprintf(L->err, L->errlen, "HEAD / BLOCK_N beyond the port's tiles (%d / %d)", MAX_D, MAX_BN);
        return 1;
    }
    a2_args a;
    if (a2_pack(L, &a)) return 1;
    fwd_kernel_aligned<<<tlc_grid(L), tlc_threads(A2_I(a, P_BM)), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "fwd_kernel_aligned");
}

TD_KERNEL(td_kc_attention_kernel) = {"attention_kernel.attention_kernel_genuine_output_compute_correct_general",
                                     "triton", TD_ABI_CUDA, "store=fp16:rne:inf", NULL, NULL, NP, NR, launch, NULL};
TD_KERNEL(td_kc_attention_kernel_io) = {"attention_kernel.attention_kernel_io_correctness", "triton", TD_ABI_CUDA,
                                        "store=fp16:rne:inf", NULL, NULL, NP, NR, launch, NULL};
