/* The row slice of flash-attn's rotary_kernel on CUDA (rotary_transform,
 * rotary_transform_ops): one block per program (pid0 = row block, pid1 = batch, pid2 =
 * head unless HEAD_IDX is a parameter), a thread per lane j < BLOCK_HALF; the program of
 * kernels/host/rotary_row_tl.h. */
#ifndef TD_ROTARY_ROW_TLC_CUH
#define TD_ROTARY_ROW_TLC_CUH

#include "tlc.cuh"

struct rr_args {
    int64_t so, seqlen, rdh, sro, sob, sos, soh, sod, sxb, sxs, sxh, sxd, bm, bh; /* the row parameters */
    int64_t head;   /* HEAD_IDX, or -1: the head is blockIdx.z */
    int varlen;
};

__global__ void rotary_row_kernel(float *out, const float *x, const float *cosv, const float *sinv, const int32_t *cu,
                                  rr_args a) {
    int64_t head = a.head >= 0 ? a.head : (int64_t)blockIdx.z;
    int64_t xb, ob, seqlen = a.seqlen;
    if (a.varlen) {
        int64_t start = cu[blockIdx.y];
        seqlen = cu[blockIdx.y + 1] - start;
        xb = start * a.sxs + head * a.sxh, ob = start * a.sos + head * a.soh;
    } else {
        xb = (int64_t)blockIdx.y * a.sxb + head * a.sxh, ob = (int64_t)blockIdx.y * a.sob + head * a.soh;
    }
    int64_t rm = (int64_t)blockIdx.x * a.bm;
    if (rm >= seqlen) return;
    int64_t rm_cs = rm + a.so;
    for (int64_t j = threadIdx.x; j < a.bh; j += blockDim.x) {
        bool tm = rm_cs < a.sro && j < a.rdh;
        float c = tm ? cosv[rm_cs * a.rdh + j] : 1.0f, s = tm ? sinv[rm_cs * a.rdh + j] : 0.0f;
        float x0 = x[xb + rm * a.sxs + j * a.sxd], x1 = x[xb + rm * a.sxs + (j + a.rdh) * a.sxd];
        out[ob + rm * a.sos + j * a.sod] = x0 * c - x1 * s;
        out[ob + rm * a.sos + (j + a.rdh) * a.sod] = x0 * s + x1 * c;
    }
}

/* p0: the first row parameter; head_p / varlen_p: HEAD_IDX / IS_VARLEN or -1 */
static inline int rotary_row_launch(const td_abi_launch *L, int p0, int head_p, int varlen_p) {
    rr_args a;
    a.so = TLC_I(L, p0), a.seqlen = TLC_I(L, p0 + 1), a.rdh = TLC_I(L, p0 + 2), a.sro = TLC_I(L, p0 + 3);
    a.sob = TLC_I(L, p0 + 4), a.sos = TLC_I(L, p0 + 5), a.soh = TLC_I(L, p0 + 6), a.sod = TLC_I(L, p0 + 7);
    a.sxb = TLC_I(L, p0 + 8), a.sxs = TLC_I(L, p0 + 9), a.sxh = TLC_I(L, p0 + 10), a.sxd = TLC_I(L, p0 + 11);
    a.bm = TLC_I(L, p0 + 12), a.bh = TLC_I(L, p0 + 13);
    a.head = head_p >= 0 ? TLC_I(L, head_p) : -1;
    a.varlen = varlen_p >= 0 && TLC_I(L, varlen_p) != 0;
    const int32_t *cu = varlen_p >= 0 ? TLC_PTR(L, 4, const int32_t) : nullptr;
    rotary_row_kernel<<<tlc_grid(L), tlc_threads(a.bh), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, const float), cu,
        a);
    return tlc_check(L, "rotary_row_kernel");
}

#endif
