/* kv_cache_copy on CUDA: one block per (sequence, head); the threads store the x-split
 * SPLIT_X (lanes d < HEAD_DIM) of the key and value at the last slot of the paged caches. */
#include "tlc.cuh"

enum {
    P_SPLIT, P_SKT, P_SKH, P_SKD, P_SVT, P_SVH, P_SVD, P_SKCB, P_SKCH, P_SKCX, P_SKCS, P_SVCB, P_SVCH, P_SVCS, P_SVCD,
    P_SBTS, P_SBTB, P_BS, P_HD, P_X, NP
};
enum { R_K, R_V, R_KC, R_VC, R_BT, R_LEN };

struct kvc_args {
    int64_t q[NP];
};

__global__ void kv_cache_copy_kernel(const float *K, const float *V, float *KC, float *VC, const int64_t *bt,
                                     const int64_t *len, kvc_args a) {
    const int64_t *q = a.q;
    int64_t b = blockIdx.x, h = blockIdx.y, past = len[b] - 1, slot = past % q[P_BS];
    int64_t blk = bt[b * q[P_SBTS] + (past / q[P_BS]) * q[P_SBTB]];
    for (int64_t j = threadIdx.x; j < q[P_X]; j += blockDim.x) {
        int64_t d = q[P_SPLIT] * q[P_X] + j;
        if (d >= q[P_HD]) continue;
        KC[blk * q[P_SKCB] + h * q[P_SKCH] + q[P_SPLIT] * q[P_SKCX] + slot * q[P_SKCS] + j] =
            K[b * q[P_SKT] + h * q[P_SKH] + d * q[P_SKD]];
        VC[blk * q[P_SVCB] + h * q[P_SVCH] + slot * q[P_SVCS] + d * q[P_SVCD]] =
            V[b * q[P_SVT] + h * q[P_SVH] + d * q[P_SVD]];
    }
}

static int launch(const td_abi_launch *L) {
    kvc_args a;
    for (int i = 0; i < NP; i++) a.q[i] = TLC_I(L, i);
    kv_cache_copy_kernel<<<tlc_grid(L), tlc_threads(a.q[P_X]), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_K, const float), TLC_PTR(L, R_V, const float), TLC_PTR(L, R_KC, float), TLC_PTR(L, R_VC, float),
        TLC_PTR(L, R_BT, const int64_t), TLC_PTR(L, R_LEN, const int64_t), a);
    return tlc_check(L, "copy_to_kvcache_seqlen1");
}

TD_KERNEL(td_kc_kv_cache_copy) = {"kv_cache_copy.kv_cache_copy_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                                  20, 6, launch, NULL};
