/* kcache_copy_triton on CUDA (n_tokens = 1): one block per (sequence, head); the
 * threads store the x-split SPLIT_X of the key at the last slot of the paged cache. */
#include "tlc.cuh"

enum { P_SPLIT, P_SKT, P_SKH, P_SKD, P_SKCB, P_SKCH, P_SKCX, P_SKCS, P_SBTS, P_SBTB, P_BS, P_X };
enum { R_K, R_KC, R_BT, R_LEN };

struct kc_args {
    int64_t split, skt, skh, skd, skcb, skch, skcx, skcs, sbts, sbtb, bs, x;
};

__global__ void kcache_copy_kernel(const float *K, float *KC, const int64_t *bt, const int64_t *len, kc_args a) {
    int64_t b = blockIdx.x, h = blockIdx.y, past = len[b] - 1;
    int64_t blk = bt[b * a.sbts + (past / a.bs) * a.sbtb];
    int64_t base = blk * a.skcb + h * a.skch + a.split * a.skcx + (past % a.bs) * a.skcs;
    for (int64_t j = threadIdx.x; j < a.x; j += blockDim.x)
        KC[base + j] = K[b * a.skt + h * a.skh + (a.split * a.x + j) * a.skd];
}

static int launch(const td_abi_launch *L) {
    kc_args a = {TLC_I(L, P_SPLIT), TLC_I(L, P_SKT),  TLC_I(L, P_SKH),  TLC_I(L, P_SKD),
                 TLC_I(L, P_SKCB),  TLC_I(L, P_SKCH), TLC_I(L, P_SKCX), TLC_I(L, P_SKCS),
                 TLC_I(L, P_SBTS),  TLC_I(L, P_SBTB), TLC_I(L, P_BS),   TLC_I(L, P_X)};
    kcache_copy_kernel<<<tlc_grid(L), tlc_threads(a.x), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_K, const float), TLC_PTR(L, R_KC, float), TLC_PTR(L, R_BT, const int64_t),
        TLC_PTR(L, R_LEN, const int64_t), a);
    return tlc_check(L, "copy_to_kcache_seqlen_n");
}

TD_KERNEL(td_kc_kcache_copy_n1) = {"kcache_copy_triton.copy_to_kcache_seqlen_n1_correctness", "triton", TD_ABI_CUDA,
                                   NULL, NULL, NULL, 12, 4, launch, NULL};
