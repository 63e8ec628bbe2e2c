/* int4_matmul on CUDA: matmul_kernel (SPLIT_K = 1), one block per program id (grouped
 * order pid_m = first_pid_m + pid % group_size_m), one thread per output lane: the
 * weight ((q - zp) * bs) with __fmul_rn, a * w with __fmul_rn, the K products added
 * in order with __fadd_rn (no contraction), the masked binary32 store. */
#include "tlc.cuh"

enum { P_M, P_N, P_K, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_SBSK, P_SBSN, P_SBZK, P_SBZN, P_GS, P_BM, P_BN,
       P_BK, P_GM };
enum { R_A, R_C, R_BS, R_B, R_BZP };

struct i4_args {
    int64_t M, N, K, sam, sak, sbk, sbn, scm, scn, sbsk, sbsn, sbzk, sbzn, gs, BM, BN, GM;
};

static __global__ void i4_kernel(const float *a, float *c, const float *bs, const int32_t *b, const int32_t *bzp,
                                 i4_args g) {
    int64_t nm = (g.M + g.BM - 1) / g.BM, nn = (g.N + g.BN - 1) / g.BN, nig = g.GM * nn, pid = blockIdx.x;
    int64_t fpm = pid / nig * g.GM, gsm = nm - fpm < g.GM ? nm - fpm : g.GM;
    int64_t pm = fpm + pid % gsm, pn = (pid % nig) / gsm;
    for (int64_t l = threadIdx.x; l < g.BM * g.BN; l += blockDim.x) {
        int64_t row = pm * g.BM + l / g.BN, col = pn * g.BN + l % g.BN;
        if (!(row < g.M && col < g.N)) continue;
        float acc = 0.0f;
        for (int64_t k = 0; k < g.K; k++) {
            int64_t grp = k / g.gs;
            int32_t q = (b[k / 8 * g.sbk + col * g.sbn] >> ((k % 8) * 4)) & 0xF;
            int32_t z = (bzp[grp * g.sbzk + col / 8 * g.sbzn] >> ((col % 8) * 4)) & 0xF;
            float w = __fmul_rn((float)(q - z), bs[grp * g.sbsk + col * g.sbsn]);
            acc = __fadd_rn(acc, __fmul_rn(a[row * g.sam + k * g.sak], w));
        }
        c[g.scm * row + g.scn * col] = acc;
    }
}

static int launch(const td_abi_launch *L) {
    i4_args g = {TLC_I(L, P_M),    TLC_I(L, P_N),    TLC_I(L, P_K),    TLC_I(L, P_SAM),  TLC_I(L, P_SAK),
                 TLC_I(L, P_SBK),  TLC_I(L, P_SBN),  TLC_I(L, P_SCM),  TLC_I(L, P_SCN),  TLC_I(L, P_SBSK),
                 TLC_I(L, P_SBSN), TLC_I(L, P_SBZK), TLC_I(L, P_SBZN), TLC_I(L, P_GS),   TLC_I(L, P_BM),
                 TLC_I(L, P_BN),   TLC_I(L, P_GM)};
    i4_kernel<<<tlc_grid(L), tlc_threads(g.BM * g.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const float), TLC_PTR(L, R_C, float), TLC_PTR(L, R_BS, const float),
        TLC_PTR(L, R_B, const int32_t), TLC_PTR(L, R_BZP, const int32_t), g);
    return tlc_check(L, "i4_kernel");
}

TD_KERNEL(td_kc_int4_matmul) = {"int4_matmul.int4_matmul_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 19,
                                5, launch, NULL};
