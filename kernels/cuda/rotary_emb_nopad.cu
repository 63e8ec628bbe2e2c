/* rotary_emb_nopad on CUDA: rotary_embedding_kernel (one block per (head, token block))
 * or fused_rotary_embedding_kernel_v2 (one block per (head, token); heads >= Q_HEAD_NUM
 * return), as the wrapper chooses (parameter 42, FUSED_V2). */
#include "tlc.cuh"

struct np_args {
    int64_t qts, qhs, kts, khs, hds, cts, cs, T, QH, G, HD, BT, cb, ch, cbs, cd, bts, btb, bsz;
};

__device__ void np_rot(const float *src, int64_t o0, int64_t o1, float *dst, int64_t d0, int64_t d1, float c, float s) {
    float x0 = src[o0], x1 = src[o1];
    dst[d0] = x0 * c - x1 * s;
    dst[d1] = x0 * s + x1 * c;
}

__global__ void nopad_kernel(float *q, float *k, const float *cosb, const float *sinb, np_args a) {
    int64_t h = blockIdx.x, half = a.HD / 2;
    for (int64_t e = threadIdx.x; e < a.BT * half; e += blockDim.x) {
        int64_t t = (int64_t)blockIdx.y * a.BT + e / half, i = e % half;
        if (t >= a.T) continue;
        float c = cosb[t * a.cts + i * a.cs], s = sinb[t * a.cts + i * a.cs];
        int64_t qo = t * a.qts + h * a.qhs + i * a.hds;
        np_rot(q, qo, qo + half * a.hds, q, qo, qo + half * a.hds, c, s);
        if (h % a.G == 0) {
            int64_t ko = t * a.kts + (h / a.G) * a.khs + i * a.hds;
            np_rot(k, ko, ko + half * a.hds, k, ko, ko + half * a.hds, c, s);
        }
    }
}

__global__ void v2_kernel(float *q, const float *k, const float *cosb, const float *sinb, float *kvc, const int32_t *bt,
                          const int32_t *cl, np_args a) {
    int64_t h = blockIdx.x, t = blockIdx.y, half = a.HD / 2;
    if (h >= a.QH) return;
    int64_t past = (int64_t)cl[t] - 1, blk = bt[t * a.bts + (past / a.bsz) * a.btb];
    int64_t base = blk * a.cb + h * a.ch + (past % a.bsz) * a.cbs;
    for (int64_t i = threadIdx.x; i < half; i += blockDim.x) {
        float c = cosb[t * a.cts + i * a.cs], s = sinb[t * a.cts + i * a.cs];
        int64_t qo = t * a.qts + h * a.qhs + i * a.hds, ko = t * a.kts + h * a.khs + i * a.hds;
        np_rot(k, ko, ko + half * a.hds, kvc, base + i * a.cd, base + (i + half) * a.cd, c, s);
        np_rot(q, qo, qo + half * a.hds, q, qo, qo + half * a.hds, c, s);
    }
}

static int launch(const td_abi_launch *L) {
    np_args a = {TLC_I(L, 0),  TLC_I(L, 1),  TLC_I(L, 2),  TLC_I(L, 3),  TLC_I(L, 4),  TLC_I(L, 5),  TLC_I(L, 6),
                 TLC_I(L, 7),  TLC_I(L, 8),  TLC_I(L, 9),  TLC_I(L, 10), TLC_I(L, 11), TLC_I(L, 35), TLC_I(L, 36),
                 TLC_I(L, 37), TLC_I(L, 38), TLC_I(L, 39), TLC_I(L, 40), TLC_I(L, 41)};
    cudaStream_t st = (cudaStream_t)L->stream;
    if (TLC_I(L, 42))
        v2_kernel<<<tlc_grid(L), tlc_threads(a.HD / 2), 0, st>>>(
            TLC_PTR(L, 0, float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, const float),
            TLC_PTR(L, 4, float), TLC_PTR(L, 5, const int32_t), TLC_PTR(L, 6, const int32_t), a);
    else
        nopad_kernel<<<tlc_grid(L), tlc_threads(a.BT * (a.HD / 2)), 0, st>>>(
            TLC_PTR(L, 0, float), TLC_PTR(L, 1, float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, const float), a);
    return tlc_check(L, "rotary_embedding_kernel / fused_rotary_embedding_kernel_v2");
}

TD_KERNEL(td_kc_rotary_emb_nopad) = {"rotary_emb_nopad.rotary_emb_nopad_output_summary_general", "triton", TD_ABI_CUDA,
                                     NULL, NULL, NULL, 43, 7, launch, NULL};
