/* matmul4_kernel (GPTQ int4 GEMM) on CUDA, shared by matmul_dequantize.cu and
 * matmul_dequantize_int4.cu: one block per program of the grouped order, the threads
 * over the [BM, BN] tile; per K block the group row (NO_GROUPS ? 0 : kb // (groupsize //
 * BK)), the weight nib * s - zNib * s with __fmul_rn / __fsub_rn, the BK products summed
 * in order and added to the binary32 accumulator, the masked store. */
#ifndef TD_G4_CUH
#define TD_G4_CUH

#include "tlc.cuh"

struct g4_args {
    int64_t M, N, K, sam, sak, sbk, sbn, scm, scn, ssg, ssn, szg, szn, gs, nog, BM, BN, BK, GM;
};

static __global__ void g4_kernel(const float *a, float *c, const float *sc, const int32_t *b, const int32_t *zr,
                                 g4_args g) {
    int64_t nm = (g.M + g.BM - 1) / g.BM, nn = (g.N + g.BN - 1) / g.BN, nig = g.GM * nn, pid = blockIdx.x;
    int64_t fpm = pid / nig * g.GM, gsm = nm - fpm < g.GM ? nm - fpm : g.GM;
    int64_t pm = fpm + pid % gsm, pn = (pid % nig) / gsm;
    for (int64_t l = threadIdx.x; l < g.BM * g.BN; l += blockDim.x) {
        int64_t row = pm * g.BM + l / g.BN, col = pn * g.BN + l % g.BN;
        if (row >= g.M || col >= g.N) continue;
        float acc = 0.0f;
        for (int64_t kb = 0; kb * g.BK < g.K; kb++) {
            int64_t grp = g.nog ? 0 : kb / (g.gs / g.BK);
            float s = sc[grp * g.ssg + col * g.ssn];
            float zs = __fmul_rn((float)((zr[grp * g.szg + col / 8 * g.szn] >> (4 * (col % 8))) & 0xF), s);
            float step = 0.0f;
            for (int64_t e = 0; e < g.BK; e++) {
                int64_t k = kb * g.BK + e;
                float q = (float)((b[k / 8 * g.sbk + col * g.sbn] >> (4 * (k % 8))) & 0xF);
                step = __fadd_rn(step, __fmul_rn(a[row * g.sam + k * g.sak], __fsub_rn(__fmul_rn(q, s), zs)));
            }
            acc = __fadd_rn(acc, step);
        }
        c[g.scm * row + g.scn * col] = acc;
    }
}

static inline int g4_launch(const td_abi_launch *L) {
    g4_args g;
    int64_t *f[19] = {&g.M,   &g.N,   &g.K,   &g.sam, &g.sak, &g.sbk, &g.sbn, &g.scm, &g.scn, &g.ssg,
                      &g.ssn, &g.szg, &g.szn, &g.gs,  &g.nog, &g.BM,  &g.BN,  &g.BK,  &g.GM};
    for (int i = 0; i < 19; i++) *f[i] = TLC_I(L, i);
    g4_kernel<<<tlc_grid(L), tlc_threads(g.BM * g.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, const int32_t),
        TLC_PTR(L, 4, const int32_t), g);
    return tlc_check(L, "g4_kernel");
}

#endif /* TD_G4_CUH */
