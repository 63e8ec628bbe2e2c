/* The matmul family's K loop on CUDA, shared by the CUDA ports.
 *
 * Model (the same as the host kernels, kernels/host/matmul_tl.h, so the contracts'
 * error model in contracts/matmul_common.h covers both): no tensor cores.  One thread
 * per output lane of a program's tile; a K step multiplies the BK operand pairs on
 * the CUDA cores with __fmul_rn (one IEEE binary32 rounding each, never contracted
 * into an FMA), sums the BK products with the pairwise tree of Triton's tl.sum
 * (__fadd_rn; BK is a power of two, so the bottom-up pairing below is the host's
 * recursive halving), and adds the tile sum to the accumulator with __fadd_rn.
 * A tensor-core port (mma.sync / wgmma: exact products, but alignment and
 * accumulation of a k-group that may truncate, Fasi, Higham, Mikaitis & Pranesh,
 * "Numerical behavior of NVIDIA tensor cores", PeerJ CS 2021) would need its own
 * error model; these ports do not use one. */
#ifndef TD_MATMUL_TLC_CUH
#define TD_MATMUL_TLC_CUH

#include "tlc.cuh"

#define MMC_MAX_BK 128

__device__ __forceinline__ float mmc_ld(const float *p, int64_t o) { return p[o]; }
__device__ __forceinline__ float mmc_ld(const __half *p, int64_t o) { return __half2float(p[o]); }
/* fp8 e4m3fn operands (every e4m3 value is a binary16 value: the widening is exact) */
struct mmc_e4m3 {
    __nv_fp8_storage_t v;
};
__device__ __forceinline__ float mmc_ld(const mmc_e4m3 *p, int64_t o) {
    __half_raw h = __nv_cvt_fp8_to_halfraw(p[o].v, __NV_E4M3);
    return __half2float(__half(h));
}

/* tl.sum over a power-of-two number of lanes, pairwise. */
__device__ __forceinline__ float mmc_tree(float *p, int n) {
    for (int s = 1; s < n; s *= 2)
        for (int i = 0; i + s < n; i += 2 * s) p[i] = __fadd_rn(p[i], p[i + s]);
    return p[0];
}

/* One lane's K loop: acc + sum_t tree_e A[a0 + k*sak] * B[b0 + k*sbk], k = t*BK + e;
 * lanes with k >= K or a masked operand (a0 < 0, b0 < 0) hold 0. */
template <class TA, class TB>
__device__ float mmc_kloop(const TA *A, int64_t a0, int64_t sak, const TB *B, int64_t b0, int64_t sbk, int64_t K,
                           int BK, int64_t T, float acc) {
    float p[MMC_MAX_BK];
    for (int64_t t = 0; t < T; t++) {
        for (int e = 0; e < BK; e++) {
            int64_t k = t * BK + e;
            p[e] = (a0 >= 0 && b0 >= 0 && k < K) ? __fmul_rn(mmc_ld(A, a0 + k * sak), mmc_ld(B, b0 + k * sbk)) : 0.0f;
        }
        acc = __fadd_rn(acc, mmc_tree(p, BK));
    }
    return acc;
}

/* The tutorial's grouped program order (contracts/matmul_common.h, mm_swizzle). */
__device__ __forceinline__ void mmc_swizzle(int64_t pid, int64_t M, int64_t N, int64_t BM, int64_t BN, int64_t GM,
                                            int simple, int64_t *pm, int64_t *pn) {
    int64_t nm = (M + BM - 1) / BM, nn = (N + BN - 1) / BN, nig = GM * nn;
    int64_t gid = pid / nig, fpm = gid * GM;
    int64_t gsm = nm - fpm < GM ? nm - fpm : GM;
    if (gsm < 1) gsm = 1;
    *pm = fpm + (simple ? pid % gsm : (pid % nig) % gsm);
    *pn = (pid % nig) / gsm;
}

__device__ __forceinline__ float mmc_leaky(float x) { return x >= 0.0f ? x : __fmul_rn(0.01f, x); }

/* Block sizes the ports accept (their per-thread tile buffer). */
static inline int mmc_check_bk(const td_abi_launch *L, int64_t BK) {
    if (BK < 1 || BK > MMC_MAX_BK || (BK & (BK - 1))) {
        snprintf(L->err, L->errlen, "BLOCK_K = %lld: this port takes powers of two up to %d", (long long)BK,
                 MMC_MAX_BK);
        return 1;
    }
    return 0;
}

#endif
