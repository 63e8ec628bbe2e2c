/* rbe_triton_transform on CUDA: one block per program (blockIdx.x = pid_batch,
 * blockIdx.y = pid), a thread per lane (i, jj) of the BSM x BSK/2 tile; powf, cosf, sinf
 * (libdevice's accurate functions, as tl.extra.cuda.libdevice.pow and tl.cos / tl.sin). */
#include "tlc.cuh"

struct rbe_args {
    int64_t M, K, sxb, sxm, sxn, sob, som, son, start, dim, bsm, bsk;
    float theta;
};

__global__ void rbe_kernel(const float *x, float *out, rbe_args a) {
    int64_t gk = (a.K + a.bsk - 1) / a.bsk, half = a.bsk / 2;
    for (int64_t l = threadIdx.x; l < a.bsm * half; l += blockDim.x) {
        int64_t row = (blockIdx.y / gk) * a.bsm + l / half, col = (blockIdx.y % gk) * a.bsk + 2 * (l % half);
        if (row >= a.M || col >= a.K) continue;
        const float *xp = x + blockIdx.x * a.sxb + row * a.sxm + col * a.sxn;
        float *op = out + blockIdx.x * a.sob + row * a.som + col * a.son;
        float re = xp[0], im = col + 1 < a.K ? xp[1] : 0.0f;
        float fr = (float)(col % a.dim) / (float)a.dim;
        float f = (float)(a.start + row) / powf(a.theta, fr);
        float c = cosf(f), s = sinf(f);
        op[0] = re * c - im * s;
        if (col + 1 < a.K) op[1] = re * s + im * c;
    }
}

static int launch(const td_abi_launch *L) {
    rbe_args a;
    a.M = TLC_I(L, 0), a.K = TLC_I(L, 1), a.sxb = TLC_I(L, 2), a.sxm = TLC_I(L, 3), a.sxn = TLC_I(L, 4);
    a.sob = TLC_I(L, 5), a.som = TLC_I(L, 6), a.son = TLC_I(L, 7), a.start = TLC_I(L, 8), a.theta = TLC_R(L, 9);
    a.dim = TLC_I(L, 10), a.bsm = TLC_I(L, 11), a.bsk = TLC_I(L, 12);
    rbe_kernel<<<dim3(L->grid[0], L->grid[1], 1), tlc_threads(a.bsm * (a.bsk / 2)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), a);
    return tlc_check(L, "rbe_kernel");
}

TD_KERNEL(td_kc_rbe_triton_transform) = {"rbe_triton_transform.rbe_triton_transform_output_summary_general", "triton",
                                         TD_ABI_CUDA, NULL, NULL, NULL, 13, 2, launch, NULL};
