/* diag_ssm_triton on CUDA: the real forward and backward kernels, one block per program
 * of cdiv(batch*dim, BLOCK_SIZE), one thread per lane col of the block (the lanes are
 * independent), binary32 as the host port. */
#include "tlc.cuh"

__global__ static void dssm_fwd(const float *s0, const float *x, const float *lam, float *y, int64_t T, int64_t n,
                                int64_t dim, int64_t BS) {
    for (int64_t j = threadIdx.x; j < BS; j += blockDim.x) {
        int64_t col = blockIdx.x * BS + j;
        if (col >= n) continue;
        float s = s0[col], l = lam[col % dim];
        for (int64_t t = 0; t < T; t++) {
            s = __fadd_rn(__fmul_rn(s, l), x[t * n + col]);
            y[t * n + col] = s;
        }
    }
}

__global__ static void dssm_bwd(const float *s0, const float *lam, const float *y, float *gs_out, float *gx,
                                float *gl_out, const float *gy, int64_t T, int64_t n, int64_t dim, int64_t BS) {
    for (int64_t j = threadIdx.x; j < BS; j += blockDim.x) {
        int64_t col = blockIdx.x * BS + j;
        if (col >= n) continue;
        float l = lam[col % dim], gs = 0.0f, gl = 0.0f;
        for (int64_t t = T - 1; t >= 0; t--) {
            float sp = t > 0 ? y[(t - 1) * n + col] : s0[col];
            gs = __fadd_rn(gy[t * n + col], gs);
            gx[t * n + col] = gs;
            gl = __fadd_rn(gl, __fmul_rn(gs, sp));
            gs = __fmul_rn(gs, l);
        }
        gs_out[col] = gs;
        gl_out[col] = gl;
    }
}

static int launch_fwd(const td_abi_launch *L) {
    int64_t n = TLC_I(L, 1) * TLC_I(L, 2);
    dssm_fwd<<<tlc_grid(L), tlc_threads(TLC_I(L, 3)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, float),
        TLC_I(L, 0), n, TLC_I(L, 2), TLC_I(L, 3));
    return tlc_check(L, "dssm_fwd");
}
static int launch_bwd(const td_abi_launch *L) {
    int64_t n = TLC_I(L, 1) * TLC_I(L, 2);
    dssm_bwd<<<tlc_grid(L), tlc_threads(TLC_I(L, 3)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, float),
        TLC_PTR(L, 4, float), TLC_PTR(L, 5, float), TLC_PTR(L, 6, const float), TLC_I(L, 0), n, TLC_I(L, 2),
        TLC_I(L, 3));
    return tlc_check(L, "dssm_bwd");
}

TD_KERNEL(td_kc_dssm_fwd_sum) = {"diag_ssm_triton.diag_ssm_forward_kernel_output_summary", "triton", TD_ABI_CUDA, NULL,
                                 NULL, NULL, 4, 4, launch_fwd, NULL};
TD_KERNEL(td_kc_dssm_fwd_io) = {"diag_ssm_triton.diag_ssm_forward_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                NULL, 4, 4, launch_fwd, NULL};
TD_KERNEL(td_kc_dssm_bwd_io) = {"diag_ssm_triton.diag_ssm_backward_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                NULL, 4, 7, launch_bwd, NULL};
