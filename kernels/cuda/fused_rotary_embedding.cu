/* fused_rotary_embedding on CUDA: the q rotation and the v-cache store of
 * decoding_fused_rotary_embedding_kernel, one block per (head, token) program. */
#include "tlc.cuh"

__global__ void fr_q_kernel(float *q, const float *cosb, const float *sinb, int64_t qts, int64_t qhs, int64_t hds,
                            int64_t cts, int64_t cst, int64_t half) {
    int64_t h = blockIdx.x, t = blockIdx.y;
    for (int64_t j = threadIdx.x; j < half; j += blockDim.x) {
        int64_t o0 = t * qts + h * qhs + j * hds, o1 = o0 + half * hds;
        float q0 = q[o0], q1 = q[o1], c = cosb[t * cts + j * cst], s = sinb[t * cts + j * cst];
        q[o0] = q0 * c - q1 * s;
        q[o1] = q0 * s + q1 * c;
    }
}

__global__ void fr_v_kernel(const float *v, float *vc, const int32_t *bt, const int32_t *cl, int64_t G, int64_t kts,
                            int64_t khs, int64_t hds, int64_t vcb, int64_t vch, int64_t vcs, int64_t vcd, int64_t bts,
                            int64_t btb, int64_t bsz, int64_t D) {
    int64_t h = blockIdx.x, t = blockIdx.y;
    if (h % G != 0) return;
    int64_t kh = h / G, past = (int64_t)cl[t] - 1, blk = bt[t * bts + (past / bsz) * btb];
    for (int64_t d = threadIdx.x; d < D; d += blockDim.x)
        vc[blk * vcb + kh * vch + (past % bsz) * vcs + d * vcd] = v[t * kts + kh * khs + d * hds];
}

static int launch_q(const td_abi_launch *L) {
    fr_q_kernel<<<tlc_grid(L), tlc_threads(TLC_I(L, 5)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, const float), TLC_I(L, 0), TLC_I(L, 1),
        TLC_I(L, 2), TLC_I(L, 3), TLC_I(L, 4), TLC_I(L, 5));
    return tlc_check(L, "decoding_fused_rotary_embedding_kernel (q)");
}
static int launch_v(const td_abi_launch *L) {
    fr_v_kernel<<<tlc_grid(L), tlc_threads(TLC_I(L, 11)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_PTR(L, 2, const int32_t), TLC_PTR(L, 3, const int32_t),
        TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 3), TLC_I(L, 4), TLC_I(L, 5), TLC_I(L, 6), TLC_I(L, 7),
        TLC_I(L, 8), TLC_I(L, 9), TLC_I(L, 10), TLC_I(L, 11));
    return tlc_check(L, "decoding_fused_rotary_embedding_kernel (v cache)");
}

TD_KERNEL(td_kc_fused_rotary_q) = {"fused_rotary_embedding.decoding_fused_rotary_embedding_q_correctness", "triton",
                                   TD_ABI_CUDA, NULL, NULL, NULL, 6, 3, launch_q, NULL};
TD_KERNEL(td_kc_fused_rotary_v) = {"fused_rotary_embedding.decoding_fused_rotary_embedding_vcache_chain_correctness",
                                   "triton", TD_ABI_CUDA, NULL, NULL, NULL, 12, 4, launch_v, NULL};
