/* int8_matmul_kernel on CUDA: one block per program id (the tutorial's grouped order),
 * one thread per output lane of the [BM, BN] tile; the four 2-bit fields of B's bytes
 * (b_ptrs restart per field, A's column advances across fields), `.to(tl.int8)` on A,
 * `field - 1`, int32 accumulation (unsigned arithmetic: wraps like the GPU's int32 add)
 * and the masked int32 store. */
#include "tlc.cuh"

enum { P_M, P_N, P_K, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, P_GM };
enum { R_A, R_B, R_C };

struct imk_args {
    int64_t M, N, K, sam, sak, sbk, sbn, scm, scn, BM, BN, BK, GM;
};

static __global__ void imk_kernel(const int32_t *A, const uint8_t *B, int32_t *C, imk_args g) {
    int64_t nm = (g.M + g.BM - 1) / g.BM, nn = (g.N + g.BN - 1) / g.BN, nig = g.GM * nn, pid = blockIdx.x;
    int64_t fpm = pid / nig * g.GM, gsm = nm - fpm < g.GM ? nm - fpm : g.GM;
    int64_t pm = fpm + (pid % nig) % gsm, pn = (pid % nig) / gsm;
    int64_t T = (g.K / 4 + g.BK - 1) / g.BK;
    for (int64_t l = threadIdx.x; l < g.BM * g.BN; l += blockDim.x) {
        int64_t row = pm * g.BM + l / g.BN, col = pn * g.BN + l % g.BN;
        if (!(row < g.M && col < g.N)) continue;
        uint32_t acc = 0;
        for (int64_t f = 0; f < 4; f++)
            for (int64_t j = 0; j < T; j++) {
                int64_t k = f * T + j;
                for (int64_t e = 0; e < g.BK; e++) {
                    int32_t a = e < g.K - k * g.BK ? (int8_t)A[row * g.sam + (k * g.BK + e) * g.sak] : 0;
                    uint32_t b = e < g.K ? B[(j * g.BK + e) * g.sbk + col * g.sbn] : 0;
                    acc += (uint32_t)(a * ((int32_t)((b >> (2 * f)) & 3u) - 1));
                }
            }
        C[row * g.scm + col * g.scn] = (int32_t)acc;
    }
}

static int launch(const td_abi_launch *L) {
    imk_args g = {TLC_I(L, P_M),   TLC_I(L, P_N),   TLC_I(L, P_K),   TLC_I(L, P_SAM), TLC_I(L, P_SAK),
                  TLC_I(L, P_SBK), TLC_I(L, P_SBN), TLC_I(L, P_SCM), TLC_I(L, P_SCN), TLC_I(L, P_BM),
                  TLC_I(L, P_BN),  TLC_I(L, P_BK),  TLC_I(L, P_GM)};
    imk_kernel<<<tlc_grid(L), tlc_threads(g.BM * g.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const int32_t), TLC_PTR(L, R_B, const uint8_t), TLC_PTR(L, R_C, int32_t), g);
    return tlc_check(L, "imk_kernel");
}

TD_KERNEL(td_kc_int8_matmul_kernel) = {"int8_matmul_kernel.int8_matmul_kernel_exec_genuine", "triton", TD_ABI_CUDA,
                                       NULL, NULL, NULL, 14, 3, launch, NULL};
