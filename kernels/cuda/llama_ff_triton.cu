/* llama_ff_triton on CUDA (USE_FP8 = False): program blockIdx.x, pid_m = pid / cdiv(N, BN),
 * pid_n = pid % cdiv(N, BN); one thread per output lane (i, j) of the [BM, BN] tile.  Per
 * K block: the lane's row moment (pow(a, 2) = a*a correctly rounded, summed per block),
 * a * rms_w rounded to fp16 (Triton's fp16 tile product), the block's products with W1 and
 * W3 summed in order and added to acc1 / acc2.  Tail: a_mean = moment / K + EPS, rsqrtf,
 * acc1 and acc2 scaled, (acc1 * sigmoid(acc1)) * acc2 with sigmoid = 1 / (1 + expf(-x)),
 * stored by __float2half_rn under row < M & col < N. */
#include "tlc.cuh"

enum { P_M, P_N, P_SAM, P_SAK, P_SW1K, P_SW1N, P_SW3K, P_SW3N, P_SOUTM, P_SOUTN, P_SRMS, P_BM, P_BN, P_BK, P_NKB,
       P_K, P_EPS, P_NP };
enum { R_A, R_W1, R_W3, R_OUT, R_RMS };

struct ff_args {
    int64_t p[P_EPS];
    float eps;
};

__global__ static void ff_llama(const __half *A, const __half *W1, const __half *W3, __half *out, const __half *rms,
                                ff_args g) {
    const int64_t *p = g.p;
    int64_t M = p[P_M], N = p[P_N], BM = p[P_BM], BN = p[P_BN], BK = p[P_BK], gn = (N + BN - 1) / BN;
    int64_t pm = blockIdx.x / gn, pn = blockIdx.x % gn;
    for (int64_t l = threadIdx.x; l < BM * BN; l += blockDim.x) {
        int64_t i = l / BN, j = l % BN, row = (pm * BM + i) % M, col = (pn * BN + j) % N;
        float asum = 0.0f, acc1 = 0.0f, acc2 = 0.0f;
        for (int64_t s = 0; s < p[P_NKB]; s++) {
            float sq = 0.0f, d1 = 0.0f, d3 = 0.0f;
            for (int64_t e = 0; e < BK; e++) {
                int64_t k = s * BK + e;
                float a = __half2float(A[row * p[P_SAM] + k * p[P_SAK]]);
                sq = __fadd_rn(sq, __fmul_rn(a, a));
                float ar = __half2float(__float2half_rn(__fmul_rn(a, __half2float(rms[k * p[P_SRMS]]))));
                d1 = __fadd_rn(d1, __fmul_rn(ar, __half2float(W1[k * p[P_SW1K] + col * p[P_SW1N]])));
                d3 = __fadd_rn(d3, __fmul_rn(ar, __half2float(W3[k * p[P_SW3K] + col * p[P_SW3N]])));
            }
            asum = __fadd_rn(asum, sq), acc1 = __fadd_rn(acc1, d1), acc2 = __fadd_rn(acc2, d3);
        }
        float nrm = rsqrtf(__fadd_rn(__fdiv_rn(asum, (float)p[P_K]), g.eps));
        float v1 = __fmul_rn(acc1, nrm), v2 = __fmul_rn(acc2, nrm);
        float o = __fmul_rn(__fmul_rn(v1, __fdiv_rn(1.0f, __fadd_rn(1.0f, expf(-v1)))), v2);
        int64_t orow = pm * BM + i, ocol = pn * BN + j;
        if (orow < M && ocol < N) out[orow * p[P_SOUTM] + ocol * p[P_SOUTN]] = __float2half_rn(o);
    }
}

static int launch(const td_abi_launch *L) {
    ff_args g;
    for (int k = 0; k < P_EPS; k++) g.p[k] = TLC_I(L, k);
    g.eps = TLC_R(L, P_EPS);
    ff_llama<<<tlc_grid(L), tlc_threads(g.p[P_BM] * g.p[P_BN]), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const __half), TLC_PTR(L, R_W1, const __half), TLC_PTR(L, R_W3, const __half),
        TLC_PTR(L, R_OUT, __half), TLC_PTR(L, R_RMS, const __half), g);
    return tlc_check(L, "llama_ff_triton");
}

TD_KERNEL(td_kc_llama_ff_triton) = {"llama_ff_triton.ff_llama_closed_form_correct", "triton", TD_ABI_CUDA,
                                    "store=fp16:rne:inf", NULL, NULL, 17, 5, launch, NULL};
