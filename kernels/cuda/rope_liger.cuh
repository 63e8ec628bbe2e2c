/* Liger's `_triton_rope` in CUDA C (rope_transform, rope_backward_transform): one block
 * per row, threads over (head, column) of q then k; each thread loads both halves of its
 * pair before storing either.  nvcc may contract into FMAs: admissible (rope_common.spec.h). */
#ifndef TD_ROPE_LIGER_CUH
#define TD_ROPE_LIGER_CUH

#include "tlc.cuh"

__global__ void rope_liger_kernel(float *X, const float *cosb, const float *sinb, int64_t rs, int64_t cs, int64_t ss,
                                  int64_t sl, int64_t H, int64_t hd, int bwd) {
    int64_t row = blockIdx.x, half = hd / 2, cr = row % sl;
    for (int64_t e = threadIdx.x; e < H * half; e += blockDim.x) {
        int64_t h = e / half, i = e % half, o1 = row * rs + h * hd + i, o2 = o1 + half;
        float c = cosb[cr * cs + i], s = sinb[cr * ss + i], a = X[o1], b = X[o2];
        X[o1] = bwd ? a * c + b * s : a * c - b * s;
        X[o2] = bwd ? b * c - a * s : b * c + a * s;
    }
}

static inline int rope_liger_launch(const td_abi_launch *L, int bwd) {
    int64_t hd = TLC_I(L, 8), nqh = TLC_I(L, 6), nkh = TLC_I(L, 7);
    for (int w = 0; w < 2; w++) {
        int64_t H = w ? nkh : nqh;
        rope_liger_kernel<<<tlc_grid(L), tlc_threads(H * (hd / 2)), 0, (cudaStream_t)L->stream>>>(
            TLC_PTR(L, w, float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, const float), TLC_I(L, w), TLC_I(L, 2),
            TLC_I(L, 3), TLC_I(L, 4), H, hd, bwd);
    }
    return tlc_check(L, "_triton_rope");
}

#endif
