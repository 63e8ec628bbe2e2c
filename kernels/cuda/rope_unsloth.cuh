/* Unsloth's `_rope_embedding` in CUDA C (fast_rope_embedding, rope_embedding): one block
 * per program (row, group), threads over the columns i < head_dim/2; each thread loads
 * both halves of its pair before storing either, head by head over the group.  nvcc
 * may contract q1*c - q2*s into an FMA: an admissible evaluation (rope_common.spec.h). */
#ifndef TD_ROPE_UNSLOTH_CUH
#define TD_ROPE_UNSLOTH_CUH

#include "tlc.cuh"

__global__ void rope_unsloth_kernel(float *Q, const float *cosb, const float *sinb, int64_t qs, int64_t cs, int64_t ss,
                                    int64_t seq, int64_t hd, int64_t nh, int64_t G, int64_t B, int bwd) {
    int64_t row = blockIdx.x, half = hd / 2, pos = row % seq;
    int64_t h0 = (int64_t)blockIdx.y * G, h1 = h0 + G < nh ? h0 + G : nh;
    for (int64_t i = threadIdx.x; i < B && i < half; i += blockDim.x) {
        float c = cosb[pos * cs + i], s = sinb[pos * ss + i];
        if (bwd) s = -s;
        for (int64_t k = h0; k < h1; k++) {
            int64_t o1 = row * qs + k * hd + i, o2 = o1 + half;
            float q1 = Q[o1], q2 = Q[o2];
            Q[o1] = q1 * c - q2 * s;
            Q[o2] = q2 * c + q1 * s;
        }
    }
}

/* one launch per rotated region t < ntgt (regions 0..ntgt-1, cos = ntgt, sin = ntgt+1) */
static inline int rope_unsloth_launch(const td_abi_launch *L, int ntgt, const int *bwd, int64_t G, int p_block,
                                      const char *what) {
    int64_t B = TLC_I(L, p_block);
    for (int t = 0; t < ntgt; t++)
        rope_unsloth_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
            TLC_PTR(L, t, float), TLC_PTR(L, ntgt, const float), TLC_PTR(L, ntgt + 1, const float), TLC_I(L, 0),
            TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 3), TLC_I(L, 4), TLC_I(L, 5), G, B, bwd[t]);
    return tlc_check(L, what);
}

#endif
