/* bmm_optimized on CUDA: grid (cdiv(M, TILE_M), cdiv(N, TILE_N), batch), the GROUP_M
 * CTA reorder, one thread per output lane, the K loop of matmul_tlc.cuh with binary32
 * operands (allow_tf32=False: __fmul_rn products, no tensor cores), masked lanes 0,
 * masked store. */
#include "matmul_tlc.cuh"

enum { P_M, P_N, P_K, P_TM, P_TN, P_TK, P_GM };
enum { R_A, R_B, R_O };

__global__ void bmm_kernel(const float *A, const float *B, float *O, int64_t M, int64_t N, int64_t K, int64_t TM,
                           int64_t TN, int64_t TK, int64_t G) {
    int64_t px = blockIdx.x, py = blockIdx.y, pb = blockIdx.z, gx = gridDim.x, gy = gridDim.y;
    int64_t pm = px, pn = py;
    if (G != 1) {
        int64_t pid = px + py * gx, per = gy * G, gid = pid / per, inner = pid % per;
        int64_t gs = gid * G + G > gx ? gx % G : G;
        pm = gid * G + inner % gs;
        pn = inner / gs;
    }
    for (int64_t l = threadIdx.x; l < TM * TN; l += blockDim.x) {
        int64_t row = pm * TM + l / TN, col = pn * TN + l % TN;
        int64_t a0 = row < M ? pb * M * K + row * K : -1, b0 = col < N ? pb * K * N + col : -1;
        float o = mmc_kloop(A, a0, 1, B, b0, N, K, (int)TK, (K + TK - 1) / TK, 0.0f);
        if (row < M && col < N) O[pb * M * N + row * N + col] = o;
    }
}

static int launch(const td_abi_launch *L) {
    int64_t TM = TLC_I(L, P_TM), TN = TLC_I(L, P_TN), TK = TLC_I(L, P_TK);
    if (mmc_check_bk(L, TK)) return 1;
    bmm_kernel<<<tlc_grid(L), tlc_threads(TM * TN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const float), TLC_PTR(L, R_B, const float), TLC_PTR(L, R_O, float), TLC_I(L, P_M),
        TLC_I(L, P_N), TLC_I(L, P_K), TM, TN, TK, TLC_I(L, P_GM));
    return tlc_check(L, "bmm_kernel");
}

TD_KERNEL(td_kc_bmm_o_exec_genuine) = {"bmm_optimized.bmm_o_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 7,
                                       3, launch, NULL};
