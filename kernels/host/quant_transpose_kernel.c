/* quant_transpose_kernel (_quantize_global_transpose): a [BLOCK_M, BLOCK_N] tile of A per
 * program, out = llrint(127 * (a * absmax_inv)) stored at B + rm*stride_bm + rn*stride_bn
 * (int8, low byte), masked rm < M, rn < N.  The blocked theorem's launch: the Python
 * 1-D grid with the GROUP_M swizzle; the io theorem's: program axes 0/1.
 * Parameters: stride_am, stride_an, stride_bn, stride_bm, M, N, BLOCK_M, BLOCK_N,
 * [GROUP_M,] scale127.  Regions: A, AbsmaxInv, B (int8). */
#include "tl.h"

enum { P_SAM, P_SAN, P_SBN, P_SBM, P_M, P_N, P_BM, P_BN, P_GM };
enum { R_A, R_INV, R_B };

static void qt_tile(const td_abi_launch *L, int64_t pid_m, int64_t pid_n) {
    int64_t sam = TL_I(L, P_SAM), san = TL_I(L, P_SAN), sbn = TL_I(L, P_SBN), sbm = TL_I(L, P_SBM);
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    td_profile store = {TD_I8, TD_RNE, TD_OVF_WRAP, false};
    float absmax_inv = tl_load(L, R_INV, 0);
    for (int64_t i = 0; i < BM; i++)
        for (int64_t j = 0; j < BN; j++) {
            int64_t rm = pid_m * BM + i, rn = pid_n * BN + j;
            if (!(rm < M && rn < N)) continue; /* mask */
            float a = tl_load(L, R_A, rm * sam + rn * san);
            tl_store(L, R_B, rm * sbm + rn * sbn, 127.0f * (a * absmax_inv), store);
        }
}

static int quantize_global_transpose(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), GM = TL_I(L, P_GM);
    int64_t grid_m = (M + BM - 1) / BM, grid_n = (N + BN - 1) / BN, width = GM * grid_n;
    for (int64_t pid = 0; pid < (int64_t)L->grid[0]; pid++) {
        int64_t group_id = pid / width;
        int64_t group_size = grid_m - group_id * GM < GM ? grid_m - group_id * GM : GM;
        qt_tile(L, group_id * GM + pid % group_size, (pid % width) / group_size);
    }
    return 0;
}

static int scaled_store_slice(const td_abi_launch *L) {
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) qt_tile(L, p0, p1);
    return 0;
}

TD_KERNEL(td_k_qt_blocked) = {"quant_transpose_kernel.quantize_global_transpose_blocked_output_summary_general",
                              "triton", TD_ABI_HOST, "store=int8:rne:wrap", NULL, NULL, 10, 3,
                              quantize_global_transpose, NULL};
TD_KERNEL(td_k_qt_io) = {"quant_transpose_kernel.quant_transpose_scaled_store_io_correctness", "triton", TD_ABI_HOST,
                         "store=int8:rne:wrap", NULL, NULL, 9, 3, scaled_store_slice, NULL};
