/* destindex_copy_kv2 on CUDA: one block per token, threads over the
 * [BLOCK_HEAD, BLOCK_DMODEL] tile, masked to head_num heads. */
#include "tlc.cuh"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_HEADS, P_BD, P_BH };
enum { R_K, R_DEST, R_OUT };

__global__ void destindex_copy_kv2_kernel(const float *K, const int64_t *dest_loc, float *Out, int64_t skbs,
                                          int64_t skh, int64_t skd, int64_t sobs, int64_t soh, int64_t sod,
                                          int64_t H, int64_t BD, int64_t BH) {
    int64_t t = blockIdx.x, dest = dest_loc[t];
    for (int64_t j = threadIdx.x; j < BH * BD; j += blockDim.x) {
        int64_t h = j / BD, d = j % BD;
        if (h < H) Out[dest * sobs + h * soh + d * sod] = K[t * skbs + h * skh + d * skd];
    }
}

static int launch(const td_abi_launch *L) {
    int64_t BD = TLC_I(L, P_BD), BH = TLC_I(L, P_BH);
    destindex_copy_kv2_kernel<<<tlc_grid(L), tlc_threads(BH * BD), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_K, const float), TLC_PTR(L, R_DEST, const int64_t), TLC_PTR(L, R_OUT, float),
        TLC_I(L, P_SKBS), TLC_I(L, P_SKH), TLC_I(L, P_SKD), TLC_I(L, P_SOBS), TLC_I(L, P_SOH), TLC_I(L, P_SOD),
        TLC_I(L, P_HEADS), BD, BH);
    return tlc_check(L, "destindex_copy_kv2");
}

TD_KERNEL(td_kc_destindex_copy_kv2) = {"destindex_copy_kv2.fwd_kernel_destindex_copy_kv_correctness", "triton",
                                       TD_ABI_CUDA, NULL, NULL, NULL, 9, 3, launch, NULL};
