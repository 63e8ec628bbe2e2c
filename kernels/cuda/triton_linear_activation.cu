/* triton_linear_activation on CUDA: kernel_fma (K_LOAD_MASK_NEEDED = True, SPLIT_K = 1):
 * one thread per output lane; acc = bias[n] (exact), the K loop of matmul_tlc.cuh (fp16
 * operands, binary32 accumulator, no tensor cores), ACT_INPUTS stored before the
 * activation, which uses CUDA's full-precision tanhf / erff (the "cuda" math model)
 * with __fmul_rn / __fadd_rn / __fdiv_rn for the binary32 arithmetic. */
#include "matmul_tlc.cuh"

enum { P_M, P_N, P_SMO, P_SNO, P_SAIM, P_SAIN, P_SAM, P_SAK, P_SBN, P_SBK, P_BM, P_GM, P_BN, P_BK, P_NKB, P_HB,
       P_SAVE, P_ACT, NP };
enum { R_C, R_ACT, R_A, R_B, R_BIAS };
enum { ACT_NONE = 0, ACT_TANH, ACT_GELU, ACT_FAST_GELU, ACT_RELU };

struct tla_args {
    int64_t v[NP];
};

__device__ float activation(int act, float x) {
    switch (act) {
    case ACT_TANH: return tanhf(x);
    case ACT_GELU: return __fmul_rn(__fmul_rn(x, 0.5f), __fadd_rn(1.0f, erff(__fdiv_rn(x, 1.41421356237309504880f))));
    case ACT_FAST_GELU: {
        float cube = __fmul_rn(__fmul_rn(__fmul_rn(0.044715f, x), x), x);
        float t = tanhf(__fmul_rn(0.797884560802865355879892f, __fadd_rn(x, cube)));
        return __fmul_rn(__fmul_rn(0.5f, x), __fadd_rn(1.0f, t));
    }
    case ACT_RELU: return x > 0.0f ? x : 0.0f;
    default: return x;
    }
}

__global__ void kernel_fma(float *C, float *ACT, const __half *A, const __half *B, const __half *bias, tla_args a) {
    const int64_t *v = a.v;
    int64_t M = v[P_M], N = v[P_N], BM = v[P_BM], BN = v[P_BN], BK = v[P_BK], GM = v[P_GM], T = v[P_NKB];
    int64_t grid_m = (M + BM - 1) / BM, grid_n = (N + BN - 1) / BN, width = GM * grid_n, pid = blockIdx.x;
    int64_t group_idx = pid / width;
    int64_t group_size = grid_m - group_idx * GM < GM ? grid_m - group_idx * GM : GM;
    int64_t bm = group_idx * GM + pid % group_size, bn = (pid % width) / group_size;
    for (int64_t l = threadIdx.x; l < BM * BN; l += blockDim.x) {
        int64_t m = (bm * BM + l / BN) % M, n = (bn * BN + l % BN) % N;
        float acc = v[P_HB] && n < N ? __half2float(bias[n]) : 0.0f;
        acc = mmc_kloop(A, m * v[P_SAM], v[P_SAK], B, n * v[P_SBN], v[P_SBK], BK * T, (int)BK, T, acc);
        if (v[P_SAVE]) ACT[m * v[P_SAIM] + n * v[P_SAIN]] = acc;
        float out = activation((int)v[P_ACT], acc);
        if (m < M && n < N) C[m * v[P_SMO] + n * v[P_SNO]] = out;
    }
}

static int launch(const td_abi_launch *L) {
    tla_args a;
    for (int i = 0; i < NP; i++) a.v[i] = TLC_I(L, i);
    if (mmc_check_bk(L, a.v[P_BK])) return 1;
    kernel_fma<<<tlc_grid(L), tlc_threads(a.v[P_BM] * a.v[P_BN]), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_C, float), TLC_PTR(L, R_ACT, float), TLC_PTR(L, R_A, const __half), TLC_PTR(L, R_B, const __half),
        TLC_PTR(L, R_BIAS, const __half), a);
    return tlc_check(L, "kernel_fma");
}

TD_KERNEL(td_kc_tla_summary) = {"triton_linear_activation.triton_linear_activation_output_summary_general", "triton",
                                TD_ABI_CUDA, NULL, "cuda", NULL, 18, 5, launch, NULL};
TD_KERNEL(td_kc_tla_io) = {"triton_linear_activation.triton_linear_activation_io_correctness", "triton", TD_ABI_CUDA,
                           NULL, "cuda", NULL, 18, 5, launch, NULL};
