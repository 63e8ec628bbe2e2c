/* max_reduction on CUDA: max_kernel_1 (one block per program, tl.max as a shared-memory
 * tree) and max_kernel (one block per (pid_m, pid_k); each row of the [BLOCK_M, BLOCK_N]
 * tile reduced by the value+index tree, first maximum kept). */
#include "reduce_tlc.cuh"

enum { P1_M, P1_BLOCK };
enum { R1_INP, R1_MID };
enum { P_M, P_N, P_K, P_BM, P_BN };
enum { R_INP, R_VAL, R_IDX };

__global__ void max_kernel_1(const float *inp, float *mid, int64_t M, int64_t B) {
    RTLC_SMEM(smem);
    float *x = (float *)smem;
    int64_t pid = blockIdx.x;
    for (int64_t i = threadIdx.x; i < B; i += blockDim.x) {
        int64_t off = pid * B + i;
        x[i] = off < M ? inp[off] : -INFINITY;
    }
    float v = rtlc_tree_max(x, B);
    if (threadIdx.x == 0) mid[pid] = v;
}

__global__ void max_kernel(const float *inp, float *out_value, int64_t *out_index, int64_t M, int64_t N, int64_t K,
                           int64_t BM, int64_t BN) {
    RTLC_SMEM(smem);
    float *x = (float *)smem;
    int *xi = (int *)(x + BN);
    int64_t pm = blockIdx.x, pk = blockIdx.y;
    for (int64_t i = 0; i < BM; i++) {
        int64_t m = pm * BM + i;
        for (int64_t n = threadIdx.x; n < BN; n += blockDim.x) {
            x[n] = (m < M && n < N) ? inp[m * N * K + n * K + pk] : -INFINITY;
            xi[n] = (int)n;
        }
        int idx;
        float v = rtlc_tree_argmax(x, xi, BN, &idx);
        if (threadIdx.x == 0 && m < M) {
            out_value[m * K + pk] = v;
            out_index[m * K + pk] = idx;
        }
    }
}

static int launch_1(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P1_BLOCK);
    max_kernel_1<<<tlc_grid(L), tlc_threads(B), (size_t)B * sizeof(float), (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R1_INP, const float), TLC_PTR(L, R1_MID, float), TLC_I(L, P1_M), B);
    return tlc_check(L, "max_kernel_1");
}

static int launch(const td_abi_launch *L) {
    int64_t BN = TLC_I(L, P_BN);
    max_kernel<<<tlc_grid(L), tlc_threads(BN), (size_t)BN * (sizeof(float) + sizeof(int)), (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_INP, const float), TLC_PTR(L, R_VAL, float), TLC_PTR(L, R_IDX, int64_t), TLC_I(L, P_M),
        TLC_I(L, P_N), TLC_I(L, P_K), TLC_I(L, P_BM), BN);
    return tlc_check(L, "max_kernel");
}

TD_KERNEL(td_kc_max_kernel_1) = {"max_reduction.max_kernel_1_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 2,
                                 2, launch_1, NULL};
TD_KERNEL(td_kc_max_kernel) = {"max_reduction.max_kernel_output_summary", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 5, 3,
                               launch, NULL};
