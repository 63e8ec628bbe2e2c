/* triton_argmax on CUDA: argmax_kernel_1 (one block per program), argmax_kernel_2 (one
 * block) and the dim kernel argmax_kernel (one block per (pid_m, pid_k), the BLOCK_N chunk
 * loop), INT64_INDEX false; value+index reductions as shared-memory trees (first maximum). */
#include "reduce_tlc.cuh"

enum { P1_M, P1_BLOCK };
enum { R1_INP, R1_VAL, R1_IDX };
enum { P2_SIZE, P2_BLOCK };
enum { R2_VAL, R2_IDX, R2_OUT };
enum { PD_M, PD_N, PD_K, PD_BM, PD_BN };
enum { RD_INP, RD_OUT };

__global__ void argmax_kernel_1(const float *inp, float *mid_value, int64_t *mid_index, int64_t M, int64_t B) {
    RTLC_SMEM(smem);
    float *x = (float *)smem;
    int *xi = (int *)(x + B);
    int pid = (int)blockIdx.x;
    for (int64_t i = threadIdx.x; i < B; i += blockDim.x) {
        int64_t off = (int64_t)pid * B + i;
        x[i] = off < M ? inp[off] : -INFINITY;
        xi[i] = (int)i;
    }
    int idx;
    float v = rtlc_tree_argmax(x, xi, B, &idx);
    if (threadIdx.x == 0) {
        mid_value[pid] = v;
        mid_index[pid] = idx + pid * (int)B; /* int32 (INT64_INDEX false) */
    }
}

__global__ void argmax_kernel_2(const float *mid_value, const int64_t *mid_index, int64_t *out, int64_t size,
                                int64_t B) {
    RTLC_SMEM(smem);
    float *x = (float *)smem;
    int *xi = (int *)(x + B);
    for (int64_t i = threadIdx.x; i < B; i += blockDim.x) {
        x[i] = i < size ? mid_value[i] : -INFINITY;
        xi[i] = (int)i;
    }
    int index_val;
    rtlc_tree_argmax(x, xi, B, &index_val);
    if (threadIdx.x == 0) out[0] = mid_index[index_val];
}

__global__ void argmax_kernel(const float *inp, int64_t *out_index, int64_t M, int64_t N, int64_t K, int64_t BM,
                              int64_t BN) {
    RTLC_SMEM(smem);
    float *x = (float *)smem;
    int *xi = (int *)(x + BN);
    int64_t pm = blockIdx.x, pk = blockIdx.y;
    for (int64_t i = 0; i < BM; i++) {
        int64_t m = pm * BM + i;
        float max_value = -INFINITY;
        int64_t argmax_value = 0;
        for (int64_t start = 0; start < N; start += BN) {
            for (int64_t n = threadIdx.x; n < BN; n += blockDim.x) {
                x[n] = (m < M && start + n < N) ? inp[m * N * K + (start + n) * K + pk] : -INFINITY;
                xi[n] = (int)n;
            }
            int local_argmax;
            float local_max = rtlc_tree_argmax(x, xi, BN, &local_argmax);
            if (local_max > max_value) {
                max_value = local_max;
                argmax_value = start + local_argmax;
            }
        }
        if (threadIdx.x == 0 && m < M) out_index[m * K + pk] = argmax_value;
    }
}

static int launch_1(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P1_BLOCK);
    argmax_kernel_1<<<tlc_grid(L), tlc_threads(B), (size_t)B * (sizeof(float) + sizeof(int)),
                      (cudaStream_t)L->stream>>>(TLC_PTR(L, R1_INP, const float), TLC_PTR(L, R1_VAL, float),
                                                 TLC_PTR(L, R1_IDX, int64_t), TLC_I(L, P1_M), B);
    return tlc_check(L, "argmax_kernel_1");
}
static int launch_2(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P2_BLOCK);
    argmax_kernel_2<<<1, tlc_threads(B), (size_t)B * (sizeof(float) + sizeof(int)), (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R2_VAL, const float), TLC_PTR(L, R2_IDX, const int64_t), TLC_PTR(L, R2_OUT, int64_t),
        TLC_I(L, P2_SIZE), B);
    return tlc_check(L, "argmax_kernel_2");
}
static int launch_dim(const td_abi_launch *L) {
    int64_t BN = TLC_I(L, PD_BN);
    argmax_kernel<<<tlc_grid(L), tlc_threads(BN), (size_t)BN * (sizeof(float) + sizeof(int)),
                    (cudaStream_t)L->stream>>>(TLC_PTR(L, RD_INP, const float), TLC_PTR(L, RD_OUT, int64_t),
                                               TLC_I(L, PD_M), TLC_I(L, PD_N), TLC_I(L, PD_K), TLC_I(L, PD_BM), BN);
    return tlc_check(L, "argmax_kernel");
}

TD_KERNEL(td_kc_argmax1_value) = {"triton_argmax.argmax_kernel_1_value_compute_correct", "triton", TD_ABI_CUDA, NULL,
                                  NULL, NULL, 2, 3, launch_1, NULL};
TD_KERNEL(td_kc_argmax1_index) = {"triton_argmax.argmax_kernel_1_index_compute_correct", "triton", TD_ABI_CUDA, NULL,
                                  NULL, NULL, 2, 3, launch_1, NULL};
TD_KERNEL(td_kc_argmax1_io) = {"triton_argmax.argmax_kernel_1_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                               NULL, 2, 3, launch_1, NULL};
TD_KERNEL(td_kc_argmax2) = {"triton_argmax.argmax_kernel_2_compute_correct", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                            2, 3, launch_2, NULL};
TD_KERNEL(td_kc_argmax_dim) = {"triton_argmax.argmax_kernel_dim_single_block_compute_correct", "triton", TD_ABI_CUDA,
                               NULL, NULL, NULL, 5, 2, launch_dim, NULL};
