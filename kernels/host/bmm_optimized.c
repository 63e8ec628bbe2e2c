/* bmm_optimized: bmm_kernel at DIVISIBLE_M = DIVISIBLE_N = DIVISIBLE_K = False: grid
 * (cdiv(M, TILE_M), cdiv(N, TILE_N), batch), the GROUP_M CTA reorder, masked loads
 * without `other` (0 here: VeriTile's clean-undef reading), `o += tl.dot(a, b,
 * allow_tf32=False)` over cdiv(K, TILE_K) steps, masked store.
 * Parameters: M N K TILE_M TILE_N TILE_K GROUP_M.  Regions: A, B, O (binary32). */
#include "matmul_tl.h"

enum { P_M, P_N, P_K, P_TM, P_TN, P_TK, P_GM };
enum { R_A, R_B, R_O };

int td_bmm_program(const td_abi_launch *L, int64_t num_iters, int64_t b_row_stride);
int td_bmm_program(const td_abi_launch *L, int64_t num_iters, int64_t b_row_stride) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K), TM = TL_I(L, P_TM), TN = TL_I(L, P_TN);
    int64_t TK = TL_I(L, P_TK), G = TL_I(L, P_GM), gx = L->grid[0], gy = L->grid[1];
    if (((int64_t)L->grid[2] - 1) * K * N + (K - 1) * b_row_stride + N - 1 >= (int64_t)TL_LEN(L, R_B)) {
        snprintf(L->err, L->errlen, "illegal memory access: B read past its end"); /* the bug model only */
        return 1;
    }
    int64_t *arow, *bcol;
    float *o;
    TL_ALLOC(L, arow, TM);
    TL_ALLOC(L, bcol, TN);
    TL_ALLOC(L, o, TM * TN);
    int rc = 0;
    for (uint32_t pb = 0; pb < L->grid[2] && !rc; pb++)
        for (uint32_t py = 0; py < L->grid[1] && !rc; py++)
            for (uint32_t px = 0; px < L->grid[0] && !rc; px++) {
                int64_t pm = px, pn = py;
                if (G != 1) { /* the CTA reorder */
                    int64_t pid = px + py * gx, per = gy * G, gid = pid / per, inner = pid % per;
                    int64_t gs = gid * G + G > gx ? gx % G : G;
                    pm = gid * G + inner % gs;
                    pn = inner / gs;
                }
                for (int64_t i = 0; i < TM; i++) /* mask_m: rows past M load nothing (0) */
                    arow[i] = pm * TM + i < M ? pb * M * K + (pm * TM + i) * K : -1;
                for (int64_t j = 0; j < TN; j++) bcol[j] = pn * TN + j < N ? pb * K * N + pn * TN + j : -1;
                memset(o, 0, (size_t)(TM * TN) * sizeof *o);
                mmh_loop m = {R_A, R_B, TM, TN, TK, num_iters, K, arow, bcol, 1, b_row_stride, 0};
                rc = mmh_kloop(L, &m, o);
                for (int64_t i = 0; i < TM && !rc; i++)
                    for (int64_t j = 0; j < TN; j++) {
                        int64_t row = pm * TM + i, col = pn * TN + j;
                        if (row < M && col < N) tl_store(L, R_O, pb * M * N + row * N + col, o[i * TN + j], tl_f32());
                    }
            }
    free(arow);
    free(bcol);
    free(o);
    return rc;
}

static int bmm_kernel(const td_abi_launch *L) {
    int64_t K = TL_I(L, P_K), TK = TL_I(L, P_TK);
    return td_bmm_program(L, (K + TK - 1) / TK, TL_I(L, P_N)); /* num_iters = tl.cdiv(K, TILE_K) */
}

TD_KERNEL(td_k_bmm_o_exec_genuine) = {"bmm_optimized.bmm_o_exec_genuine", "triton", TD_ABI_HOST, NULL, NULL, NULL, 7, 3,
                                      bmm_kernel, NULL};
