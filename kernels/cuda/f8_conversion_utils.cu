/* f8_conversion_utils on CUDA: fp16 -> e5m2 with the saturating conversion Triton
 * emits on Hopper (cvt.rn.satfinite), and the exact e5m2 -> fp16 widening. */
#include "tlc.cuh"

enum { P_N, P_BLOCK };
enum { R_Y, R_X };

__global__ void kernel_f16_to_f8(__nv_fp8_storage_t *y, const __half_raw *x, int64_t n, int64_t B) {
    int64_t base = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (base + j < n) y[base + j] = __nv_cvt_halfraw_to_fp8(x[base + j], __NV_SATFINITE, __NV_E5M2);
}

__global__ void kernel_f8_to_f16(__half_raw *y, const __nv_fp8_storage_t *x, int64_t n, int64_t B) {
    int64_t base = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (base + j < n) y[base + j] = __nv_cvt_fp8_to_halfraw(x[base + j], __NV_E5M2);
}

static int launch_f16_to_f8(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    kernel_f16_to_f8<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Y, __nv_fp8_storage_t), TLC_PTR(L, R_X, const __half_raw), TLC_I(L, P_N), B);
    return tlc_check(L, "kernel_f16_to_f8");
}

static int launch_f8_to_f16(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    kernel_f8_to_f16<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Y, __half_raw), TLC_PTR(L, R_X, const __nv_fp8_storage_t), TLC_I(L, P_N), B);
    return tlc_check(L, "kernel_f8_to_f16");
}

TD_KERNEL(td_kc_f16_to_f8) = {"f8_conversion_utils.f16_to_f8_io_correctness", "triton", TD_ABI_CUDA,
                              "store=e5m2:rne:sat", NULL, NULL, 2, 2, launch_f16_to_f8, NULL};
TD_KERNEL(td_kc_f8_to_f16) = {"f8_conversion_utils.f8_to_f16_io_correctness", "triton", TD_ABI_CUDA,
                              "store=fp16:rne:inf", NULL, NULL, 2, 2, launch_f8_to_f16, NULL};
