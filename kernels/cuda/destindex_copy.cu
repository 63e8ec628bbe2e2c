/* destindex_copy on CUDA: one block per token; the threads copy the nope row then the
 * rope row (head 0, whole blocks) to cache row Dest_loc[t]. */
#include "tlc.cuh"

enum {
    P_SKN_BS, P_SKN_H, P_SKN_D, P_SKR_BS, P_SKR_H, P_SKR_D, P_SON_BS, P_SON_H, P_SON_D, P_SOR_BS, P_SOR_H, P_SOR_D,
    P_HN, P_HR, P_BDN, P_BDR
};
enum { R_KN, R_KR, R_DEST, R_ON, R_OR };

struct dcopy_stream {
    const float *in;
    float *out;
    int64_t sin_bs, sin_d, sout_bs, sout_d, B;
};

__global__ void destindex_copy_kernel(dcopy_stream nope, dcopy_stream rope, const int64_t *dest_loc) {
    int64_t t = blockIdx.x, dest = dest_loc[t];
    for (int64_t j = threadIdx.x; j < nope.B; j += blockDim.x)
        nope.out[dest * nope.sout_bs + j * nope.sout_d] = nope.in[t * nope.sin_bs + j * nope.sin_d];
    for (int64_t j = threadIdx.x; j < rope.B; j += blockDim.x)
        rope.out[dest * rope.sout_bs + j * rope.sout_d] = rope.in[t * rope.sin_bs + j * rope.sin_d];
}

static int launch(const td_abi_launch *L) {
    dcopy_stream n = {TLC_PTR(L, R_KN, const float), TLC_PTR(L, R_ON, float), TLC_I(L, P_SKN_BS), TLC_I(L, P_SKN_D),
                      TLC_I(L, P_SON_BS), TLC_I(L, P_SON_D), TLC_I(L, P_BDN)};
    dcopy_stream r = {TLC_PTR(L, R_KR, const float), TLC_PTR(L, R_OR, float), TLC_I(L, P_SKR_BS), TLC_I(L, P_SKR_D),
                      TLC_I(L, P_SOR_BS), TLC_I(L, P_SOR_D), TLC_I(L, P_BDR)};
    int64_t B = n.B > r.B ? n.B : r.B;
    destindex_copy_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        n, r, TLC_PTR(L, R_DEST, const int64_t));
    return tlc_check(L, "destindex_copy");
}

TD_KERNEL(td_kc_destindex_copy) = {"destindex_copy.destindex_copy_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                                   16, 5, launch, NULL};
