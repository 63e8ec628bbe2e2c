/* rotary_emb on CUDA: lightllm's `_rotary_kernel`, one block per (head block, token
 * block), threads over (token, head, pair) of the tile; each thread loads its pair and the
 * table columns 2i (out0) and 2i+1 (out1) before storing. */
#include "tlc.cuh"

__global__ void rotary_emb_kernel(float *X, const float *Cos, const float *Sin, int64_t bs, int64_t hs, int64_t ds,
                                  int64_t cbs, int64_t cd, int64_t sbs, int64_t sd, int64_t T, int64_t H, int64_t BH,
                                  int64_t BS, int64_t half) {
    int64_t n = BS * BH * half;
    for (int64_t e = threadIdx.x; e < n; e += blockDim.x) {
        int64_t i = e % half, h = (int64_t)blockIdx.x * BH + (e / half) % BH, t = (int64_t)blockIdx.y * BS + e / (half * BH);
        if (t >= T || h >= H) continue;
        int64_t o0 = t * bs + h * hs + 2 * i * ds, o1 = o0 + ds;
        float q0 = X[o0], q1 = X[o1];
        float c0 = Cos[t * cbs + 2 * i * cd], s0 = Sin[t * sbs + 2 * i * sd];
        float c1 = Cos[t * cbs + (2 * i + 1) * cd], s1 = Sin[t * sbs + (2 * i + 1) * sd];
        X[o0] = q0 * c0 - q1 * s0;
        X[o1] = q0 * s1 + q1 * c1;
    }
}

static int launch(const td_abi_launch *L) {
    int64_t BH = TLC_I(L, 13), BS = TLC_I(L, 14), half = TLC_I(L, 16);
    for (int w = 0; w < 2; w++)
        rotary_emb_kernel<<<tlc_grid(L), tlc_threads(BH * BS * half), 0, (cudaStream_t)L->stream>>>(
            TLC_PTR(L, w, float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, const float), TLC_I(L, w ? 3 : 0),
            TLC_I(L, w ? 4 : 1), TLC_I(L, w ? 5 : 2), TLC_I(L, 6), TLC_I(L, 7), TLC_I(L, 8), TLC_I(L, 9),
            TLC_I(L, 10), TLC_I(L, w ? 12 : 11), BH, BS, half);
    return tlc_check(L, "_rotary_kernel");
}

TD_KERNEL(td_kc_rotary_emb) = {"rotary_emb.rotary_emb_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 17,
                               4, launch, NULL};
