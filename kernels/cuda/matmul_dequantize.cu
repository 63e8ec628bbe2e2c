/* matmul_dequantize on CUDA.
 * dequantize_kernel: one block per program (k_block, n_block); the threads stride over
 * the [BK, BN] tile, each lane reads its packed int32 word of b and of b_zp, takes the
 * nibbles by arithmetic shift and mask, and stores (q - zp) * scale (__fmul_rn) under
 * the tile mask (k < K, n < N).
 * matmul_kernel (SPLIT_K = 1): one block per program of the grouped order, the threads
 * over the [BM, BN] tile, each lane walks K: the weight ((q - zp) * bs) rounded to fp16
 * (__float2half_rn), the product with the fp16 activation (exact in binary32), the BK
 * lanes of a step summed in order and added to the binary32 accumulator, the masked
 * fp16 store. */
#include "tlc.cuh"

struct mdq_dq_args {
    int64_t K, N, gs, sbk, sbn, sbsk, sbsn, sbzk, sbzn, sfk, sfn, BK, BN;
};

static __global__ void mdq_dequantize(const int32_t *b, const float *scale, const int32_t *zp, float *fpb,
                                      mdq_dq_args g) {
    for (int64_t l = threadIdx.x; l < g.BK * g.BN; l += blockDim.x) {
        int64_t k = (int64_t)blockIdx.x * g.BK + l / g.BN, n = (int64_t)blockIdx.y * g.BN + l % g.BN;
        if (k >= g.K || n >= g.N) continue;
        int64_t grp = k / g.gs;
        int32_t q = (b[k / 8 * g.sbk + n * g.sbn] >> (4 * (k % 8))) & 0xF;
        int32_t z = (zp[grp * g.sbzk + n / 8 * g.sbzn] >> (4 * (n % 8))) & 0xF;
        fpb[k * g.sfk + n * g.sfn] = __fmul_rn((float)(q - z), scale[grp * g.sbsk + n * g.sbsn]);
    }
}

static int launch_dequantize(const td_abi_launch *L) {
    mdq_dq_args g;
    int64_t *f[13] = {&g.K, &g.N, &g.gs, &g.sbk, &g.sbn, &g.sbsk, &g.sbsn, &g.sbzk, &g.sbzn, &g.sfk, &g.sfn, &g.BK, &g.BN};
    for (int i = 0; i < 13; i++) *f[i] = TLC_I(L, i);
    mdq_dequantize<<<tlc_grid(L), tlc_threads(g.BK * g.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const int32_t), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, const int32_t), TLC_PTR(L, 3, float), g);
    return tlc_check(L, "mdq_dequantize");
}

TD_KERNEL(td_kc_matmul_dequantize_dequantize) = {"matmul_dequantize.matmul_dequantize_dequantize_exec_genuine",
                                                 "triton", TD_ABI_CUDA, NULL, NULL, NULL, 13, 4, launch_dequantize,
                                                 NULL};

struct mdq_mm_args {
    int64_t M, N, K, sam, sak, sbk, sbn, scm, scn, sbsk, sbsn, sbzk, sbzn, gs, BM, BN, BK, GM;
};

static __global__ void mdq_matmul(const __half *a, __half *c, const __half *bs, const int32_t *b, const int32_t *bzp,
                                  mdq_mm_args g) {
    int64_t nm = (g.M + g.BM - 1) / g.BM, nn = (g.N + g.BN - 1) / g.BN, nig = g.GM * nn, pid = blockIdx.x;
    int64_t fpm = pid / nig * g.GM, gsm = nm - fpm < g.GM ? nm - fpm : g.GM;
    int64_t pm = fpm + pid % gsm, pn = (pid % nig) / gsm;
    for (int64_t l = threadIdx.x; l < g.BM * g.BN; l += blockDim.x) {
        int64_t row = pm * g.BM + l / g.BN, col = pn * g.BN + l % g.BN;
        if (row >= g.M || col >= g.N) continue;
        float acc = 0.0f;
        for (int64_t k0 = 0; k0 < g.K; k0 += g.BK) {
            float step = 0.0f;
            for (int64_t k = k0; k < k0 + g.BK; k++) {
                int64_t grp = k / g.gs;
                int32_t q = (b[k / 8 * g.sbk + col * g.sbn] >> (4 * (k % 8))) & 0xF;
                int32_t z = (bzp[grp * g.sbzk + col / 8 * g.sbzn] >> (4 * (col % 8))) & 0xF;
                float w = __half2float(__float2half_rn(__fmul_rn((float)(q - z), __half2float(bs[grp * g.sbsk + col * g.sbsn]))));
                step = __fadd_rn(step, __fmul_rn(__half2float(a[row * g.sam + k * g.sak]), w));
            }
            acc = __fadd_rn(acc, step);
        }
        c[g.scm * row + g.scn * col] = __float2half_rn(acc);
    }
}

static int launch_matmul(const td_abi_launch *L) {
    mdq_mm_args g;
    int64_t *f[18] = {&g.M,   &g.N,    &g.K,    &g.sam,  &g.sak,  &g.sbk, &g.sbn, &g.scm, &g.scn,
                      &g.sbsk, &g.sbsn, &g.sbzk, &g.sbzn, &g.gs,  &g.BM,  &g.BN,  &g.BK,  &g.GM};
    for (int i = 0; i < 18; i++) *f[i] = TLC_I(L, i);
    mdq_matmul<<<tlc_grid(L), tlc_threads(g.BM * g.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const __half), TLC_PTR(L, 1, __half), TLC_PTR(L, 2, const __half), TLC_PTR(L, 3, const int32_t),
        TLC_PTR(L, 4, const int32_t), g);
    return tlc_check(L, "mdq_matmul");
}

TD_KERNEL(td_kc_matmul_dequantize_matmul) = {"matmul_dequantize.matmul_dequantize_matmul_exec_genuine", "triton",
                                             TD_ABI_CUDA, "store=fp16:rne:inf", NULL, NULL, 19, 5, launch_matmul,
                                             NULL};

/* matmul4_kernel (kernels/cuda/g4.cuh) */
#include "g4.cuh"

TD_KERNEL(td_kc_matmul_dequantize_matmul4) = {"matmul_dequantize.matmul_dequantize_matmul4_exec_genuine", "triton",
                                              TD_ABI_CUDA, NULL, NULL, NULL, 19, 5, g4_launch, NULL};
