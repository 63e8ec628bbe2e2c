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

/* Stores through the output format: binary32 exact, fp16 by cvt.rn (RNE, overflow to
 * inf: what `.to(tl.float16)` emits), e4m3fn by cvt.rn.satfinite (RNE, saturating to
 * +-448: what `.to(tl.float8e4nv)` emits on sm_89+). */
__device__ __forceinline__ void mmc_st(float *C, int64_t o, float v) { C[o] = v; }
__device__ __forceinline__ void mmc_st(__half *C, int64_t o, float v) { C[o] = __float2half_rn(v); }
__device__ __forceinline__ void mmc_st(mmc_e4m3 *C, int64_t o, float v) {
    C[o].v = __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E4M3);
}

/* ---- the 2-D grouped GEMM program (one CUDA block per program, one thread per lane) ---- */
enum { MMC_SWZ_TUTORIAL = 0, MMC_SWZ_SIMPLE = 1, MMC_SWZ_ROWMAJOR = 2 };
enum { MMC_IDX_RAW = 0, MMC_IDX_WRAP, MMC_IDX_CLAMP };
struct mmc_2d {
    int64_t M, N, K, BM, BN, BK, T, GM;
    int64_t sam, sak, sbk, sbn, scm, scn;
    int swz, rowmode, colmode, leaky;
};

__device__ __forceinline__ int64_t mmc_index(int64_t g, int64_t bound, int mode) {
    return mode == MMC_IDX_WRAP ? g % bound : mode == MMC_IDX_CLAMP ? (g < bound ? g : 0) : g;
}

template <class TA, class TB, class TC>
__global__ void mmc_gemm_2d(const TA *A, const TB *B, TC *C, mmc_2d g) {
    int64_t pm, pn, pid = blockIdx.x, nn = (g.N + g.BN - 1) / g.BN;
    if (g.swz == MMC_SWZ_ROWMAJOR) pm = pid / nn, pn = pid % nn;
    else mmc_swizzle(pid, g.M, g.N, g.BM, g.BN, g.GM, g.swz == MMC_SWZ_SIMPLE, &pm, &pn);
    for (int64_t l = threadIdx.x; l < g.BM * g.BN; l += blockDim.x) {
        int64_t row = pm * g.BM + l / g.BN, col = pn * g.BN + l % g.BN;
        int64_t ar = mmc_index(row, g.M, g.rowmode), bc = mmc_index(col, g.N, g.colmode);
        float acc = mmc_kloop(A, ar * g.sam, g.sak, B, bc * g.sbn, g.sbk, g.K, (int)g.BK, g.T, 0.0f);
        if (g.leaky) acc = mmc_leaky(acc);
        if (row < g.M && col < g.N) mmc_st(C, row * g.scm + col * g.scn, acc);
    }
}

template <class TA, class TB, class TC>
static int mmc_launch_2d(const td_abi_launch *L, int ra, int rb, int rc, const mmc_2d &g, const char *name) {
    if (mmc_check_bk(L, g.BK)) return 1;
    mmc_gemm_2d<TA, TB, TC><<<tlc_grid(L), tlc_threads(g.BM * g.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, ra, const TA), TLC_PTR(L, rb, const TB), TLC_PTR(L, rc, TC), g);
    return tlc_check(L, name);
}

#endif
