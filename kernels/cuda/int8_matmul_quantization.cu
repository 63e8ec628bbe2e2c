/* int8_matmul_quantization on CUDA.
 * quantize_int8_perrow_kernel: one block per program, one thread per row of the
 * program's BM rows: the running |x| max over the K blocks (masked lanes 0), a_scale =
 * a_max / 127 (__fdiv_rn), each element (x / a_scale) truncated to int8 (__float2int_rz,
 * saturated; NaN of a zero row -> 0), the fp16 store of a_scale at pid*BM*stride_asm + r.
 * matmul_kernel (SPLIT_K = 1): one block per program of the grouped order, the threads
 * over the [BM, BN] tile; the int32 dot over the masked K blocks, acc.to(float32) *
 * a_scale * b_scale, the fp16 store. */
#include "tlc.cuh"

struct imq_q_args {
    int64_t M, K, sfm, sfk, sam, sak, sasm, BM, BK, T;
};

static __global__ void imq_quantize(const float *fpa, int8_t *a, __half *as, imq_q_args g) {
    for (int64_t r = threadIdx.x; r < g.BM; r += blockDim.x) {
        int64_t row = ((int64_t)blockIdx.x * g.BM + r) % g.M;
        float m = 0.0f;
        for (int64_t k = 0; k < g.T * g.BK && k < g.K; k++) m = fmaxf(m, fabsf(fpa[row * g.sfm + k * g.sfk]));
        float s = __fdiv_rn(m, 127.0f);
        for (int64_t k = 0; k < g.K; k++) {
            float q = __fdiv_rn(fpa[row * g.sfm + k * g.sfk], s);
            int v = isnan(q) ? 0 : __float2int_rz(q);
            a[row * g.sam + k * g.sak] = (int8_t)(v > 127 ? 127 : v < -128 ? -128 : v);
        }
        as[(int64_t)blockIdx.x * g.BM * g.sasm + r] = __float2half_rn(s);
    }
}

static int launch_quantize(const td_abi_launch *L) {
    imq_q_args g;
    int64_t *f[10] = {&g.M, &g.K, &g.sfm, &g.sfk, &g.sam, &g.sak, &g.sasm, &g.BM, &g.BK, &g.T};
    for (int i = 0; i < 10; i++) *f[i] = TLC_I(L, i);
    imq_quantize<<<tlc_grid(L), tlc_threads(g.BM), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, int8_t), TLC_PTR(L, 2, __half), g);
    return tlc_check(L, "imq_quantize");
}

struct imq_m_args {
    int64_t M, N, K, sam, sak, sasm, sbk, sbn, sbsn, scm, scn, BM, BN, BK, GM;
};

static __global__ void imq_matmul(const int8_t *A, const __half *as, const int8_t *B, const float *bs, __half *C,
                                  imq_m_args g) {
    int64_t nm = (g.M + g.BM - 1) / g.BM, nn = (g.N + g.BN - 1) / g.BN, nig = g.GM * nn, pid = blockIdx.x;
    int64_t fpm = pid / nig * g.GM, gsm = nm - fpm < g.GM ? nm - fpm : g.GM;
    int64_t pm = fpm + pid % gsm, pn = (pid % nig) / gsm;
    for (int64_t l = threadIdx.x; l < g.BM * g.BN; l += blockDim.x) {
        int64_t row = pm * g.BM + l / g.BN, col = pn * g.BN + l % g.BN;
        if (row >= g.M || col >= g.N) continue;
        int32_t acc = 0;
        for (int64_t k = 0; k < g.K; k++) acc += (int32_t)A[row * g.sam + k * g.sak] * (int32_t)B[k * g.sbk + col * g.sbn];
        float v = __fmul_rn(__fmul_rn((float)acc, __half2float(as[row * g.sasm])), bs[col * g.sbsn]);
        C[g.scm * row + g.scn * col] = __float2half_rn(v);
    }
}

static int launch_matmul(const td_abi_launch *L) {
    imq_m_args g;
    int64_t *f[15] = {&g.M,   &g.N,   &g.K,   &g.sam, &g.sak, &g.sasm, &g.sbk, &g.sbn,
                      &g.sbsn, &g.scm, &g.scn, &g.BM,  &g.BN,  &g.BK,   &g.GM};
    for (int i = 0; i < 15; i++) *f[i] = TLC_I(L, i);
    imq_matmul<<<tlc_grid(L), tlc_threads(g.BM * g.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const int8_t), TLC_PTR(L, 1, const __half), TLC_PTR(L, 2, const int8_t), TLC_PTR(L, 3, const float),
        TLC_PTR(L, 4, __half), g);
    return tlc_check(L, "imq_matmul");
}

TD_KERNEL(td_kc_int8_matmul_quantization_quantize) = {
    "int8_matmul_quantization.int8_matmul_quantization_quantize_exec_genuine", "triton", TD_ABI_CUDA,
    "store=int8:rtz:sat;scale=fp16:rne:inf", NULL, NULL, 10, 3, launch_quantize, NULL};
TD_KERNEL(td_kc_int8_matmul_quantization_matmul) = {
    "int8_matmul_quantization.int8_matmul_quantization_matmul_exec_genuine", "triton", TD_ABI_CUDA,
    "store=fp16:rne:inf", NULL, NULL, 16, 5, launch_matmul, NULL};
