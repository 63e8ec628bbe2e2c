/* fused_recurrent_delta, output step on CUDA: one block per program (i_v, i_k, i_bh),
 * one thread per value lane jv summing its BK products (masked to 0) in order. */
#include "tlc.cuh"

__global__ static void frd_out(const float *hn, const float *q, float *o, int64_t t, int64_t sqk, int64_t svo,
                               int64_t K, int64_t V, int64_t BK, int64_t BV) {
    int64_t BH = gridDim.z, p2 = blockIdx.z, p1 = blockIdx.y;
    for (int64_t jv = threadIdx.x; jv < BV; jv += blockDim.x) {
        int64_t v = blockIdx.x * BV + jv;
        if (v >= V) continue;
        float acc = 0.0f;
        for (int64_t jk = 0; jk < BK && p1 * BK + jk < K; jk++) {
            int64_t k = p1 * BK + jk;
            acc = __fadd_rn(acc, __fmul_rn(hn[p2 * K * V + k * V + v], q[p2 * sqk + k + t * K]));
        }
        o[(p2 + p1 * BH) * svo + v + t * V] = acc;
    }
}
static int launch(const td_abi_launch *L) {
    frd_out<<<tlc_grid(L), tlc_threads(TLC_I(L, 8)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, float), TLC_I(L, 0), TLC_I(L, 1),
        TLC_I(L, 2), TLC_I(L, 5), TLC_I(L, 6), TLC_I(L, 7), TLC_I(L, 8));
    return tlc_check(L, "frd_out");
}
TD_KERNEL(td_kc_frd_out) = {"fused_recurrent_delta.fused_recurrent_delta_output_step_io_correctness", "triton",
                            TD_ABI_CUDA, NULL, NULL, NULL, 9, 3, launch, NULL};
