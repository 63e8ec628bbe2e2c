/* vector_addition_custom on CUDA: `_add_kernel`, one block per program. */
#include "elementwise_tlc.cuh"

enum { P_SIZE, P_BLOCK };
enum { R_A, R_B, R_C };

__global__ void vector_addition_custom_add_kernel(const float *A, const float *Bp, float *C, int64_t size,
                                                  int64_t BLOCK) {
    for (int64_t j = threadIdx.x; j < BLOCK; j += blockDim.x) {
        int64_t offs = (int64_t)blockIdx.x * BLOCK + j;
        if (offs < size) C[offs] = __fadd_rn(A[offs], Bp[offs]);
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0; /* size 0: cdiv(0, BLOCK) = 0 programs */
    int64_t BLOCK = TLC_I(L, P_BLOCK);
    vector_addition_custom_add_kernel<<<tlc_grid(L), tlc_threads(BLOCK), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const float), TLC_PTR(L, R_B, const float), TLC_PTR(L, R_C, float), TLC_I(L, P_SIZE), BLOCK);
    return tlc_check(L, "_add_kernel");
}

TD_KERNEL(td_kc_vector_addition_custom) = {"vector_addition_custom.add_kernel_correctness", "triton", TD_ABI_CUDA,
                                           NULL, NULL, NULL, 2, 3, launch, NULL};
