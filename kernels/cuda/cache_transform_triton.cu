/* cache_transform_triton on CUDA.  Decoding: one block per (sequence, hidden block),
 * masked by s < NUM_SEQS and hid < HIDDEN_DIM.  Prefill: one block per token
 * idx = p0*BLOCK_SIZE + p1; its source row idx - max(where(cumsum <= idx, cumsum, 0)),
 * stored when idx < total_length. */
#include "tlc.cuh"

enum { PD_CS, PD_HS, PD_HID, PD_NSEQ, PD_BH };
enum { PP_CS, PP_HS, PP_TOTAL, PP_HID, PP_N, PP_BS };
enum { R_COS, R_SIN, R_IDX, R_COUT, R_SOUT };

struct ct_io {
    const float *cos, *sin;
    const int64_t *idx;
    float *cout, *sout;
    int64_t cs, hs;
};

__global__ void ct_decoding_kernel(ct_io io, int64_t hid, int64_t nseq, int64_t bh) {
    int64_t s = blockIdx.x, hb = blockIdx.y;
    if (s >= nseq) return;
    int64_t ori = io.idx[s];
    for (int64_t i = threadIdx.x; i < bh; i += blockDim.x) {
        int64_t h = hb * bh + i;
        if (h < hid) {
            io.cout[s * io.cs + h * io.hs] = io.cos[ori * io.cs + h * io.hs];
            io.sout[s * io.cs + h * io.hs] = io.sin[ori * io.cs + h * io.hs];
        }
    }
}

__global__ void ct_prefill_kernel(ct_io io, int64_t total, int64_t hid, int64_t n, int64_t bs) {
    int64_t idx = (int64_t)blockIdx.x * bs + blockIdx.y, m = 0;
    for (int64_t k = 0; k < n; k++) {
        int64_t v = io.idx[k];
        m = v <= idx && v > m ? v : m;
    }
    if (idx >= total) return;
    for (int64_t i = threadIdx.x; i < hid; i += blockDim.x) {
        io.cout[idx * io.cs + i * io.hs] = io.cos[(idx - m) * io.cs + i * io.hs];
        io.sout[idx * io.cs + i * io.hs] = io.sin[(idx - m) * io.cs + i * io.hs];
    }
}

static ct_io io_of(const td_abi_launch *L, int p_cs) {
    ct_io io = {TLC_PTR(L, R_COS, const float), TLC_PTR(L, R_SIN, const float), TLC_PTR(L, R_IDX, const int64_t),
                TLC_PTR(L, R_COUT, float), TLC_PTR(L, R_SOUT, float), TLC_I(L, p_cs), TLC_I(L, p_cs + 1)};
    return io;
}

static int launch_dec(const td_abi_launch *L) {
    ct_decoding_kernel<<<tlc_grid(L), tlc_threads(TLC_I(L, PD_BH)), 0, (cudaStream_t)L->stream>>>(
        io_of(L, PD_CS), TLC_I(L, PD_HID), TLC_I(L, PD_NSEQ), TLC_I(L, PD_BH));
    return tlc_check(L, "decoding_cache_kernel");
}
static int launch_pre(const td_abi_launch *L) {
    ct_prefill_kernel<<<tlc_grid(L), tlc_threads(TLC_I(L, PP_HID)), 0, (cudaStream_t)L->stream>>>(
        io_of(L, PP_CS), TLC_I(L, PP_TOTAL), TLC_I(L, PP_HID), TLC_I(L, PP_N), TLC_I(L, PP_BS));
    return tlc_check(L, "prefill_cache_kernel");
}

TD_KERNEL(td_kc_ct_decoding) = {"cache_transform_triton.decoding_cache_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                NULL, 5, 5, launch_dec, NULL};
TD_KERNEL(td_kc_ct_prefill) = {"cache_transform_triton.prefill_cache_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                               NULL, 6, 5, launch_pre, NULL};
