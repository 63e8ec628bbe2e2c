/* quant_transpose_kernel mutants: the bugs blocked transposing quantizers ship. */
#include "../host/tl.h"

enum { P_SAM, P_SAN, P_SBN, P_SBM, P_M, P_N, P_BM, P_BN, P_GM };
enum { R_A, R_INV, R_B };

/* swap: the output strides exchanged (B written as A's layout: not transposed);
 * trunc: the value truncated to int8 (.to(tl.int8)) instead of llrint */
static void qt_tile_mut(const td_abi_launch *L, int64_t pid_m, int64_t pid_n, int swap, int trunc) {
    int64_t sam = TL_I(L, P_SAM), san = TL_I(L, P_SAN), sbn = TL_I(L, P_SBN), sbm = TL_I(L, P_SBM);
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    td_profile store = {TD_I8, trunc ? TD_RTZ : TD_RNE, trunc ? TD_OVF_SAT : TD_OVF_WRAP, false};
    float inv = tl_load(L, R_INV, 0);
    uint64_t len = L->regions[R_B].len;
    for (int64_t i = 0; i < BM; i++)
        for (int64_t j = 0; j < BN; j++) {
            int64_t rm = pid_m * BM + i, rn = pid_n * BN + j;
            if (!(rm < M && rn < N)) continue;
            int64_t o = swap ? rm * sbn + rn * sbm : rm * sbm + rn * sbn;
            if ((uint64_t)o < len) tl_store(L, R_B, o, 127.0f * (tl_load(L, R_A, rm * sam + rn * san) * inv), store);
        }
}

/* The grouped schedule with the last group's size taken as GROUP_M (pid_m = group_id *
 * GROUP_M + pid % GROUP_M, pid_n = (pid % width) / GROUP_M): where GROUP_M does not
 * divide the tile rows, tiles of the last group are skipped or written twice. */
static int qt_group_size(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), GM = TL_I(L, P_GM);
    int64_t grid_m = (M + BM - 1) / BM, grid_n = (N + BN - 1) / BN, width = GM * grid_n;
    for (int64_t pid = 0; pid < (int64_t)L->grid[0]; pid++) {
        int64_t pm = pid / width * GM + pid % GM, pn = (pid % width) / GM;
        if (pm < grid_m && pn < grid_n) qt_tile_mut(L, pm, pn, 0, 0);
    }
    return 0;
}
static int qt_blocked_trunc(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), GM = TL_I(L, P_GM);
    int64_t grid_m = (M + BM - 1) / BM, grid_n = (N + BN - 1) / BN, width = GM * grid_n;
    for (int64_t pid = 0; pid < (int64_t)L->grid[0]; pid++) {
        int64_t g = pid / width, gs = grid_m - g * GM < GM ? grid_m - g * GM : GM;
        qt_tile_mut(L, g * GM + pid % gs, (pid % width) / gs, 0, 1);
    }
    return 0;
}
static int qt_io_variant(const td_abi_launch *L, int swap, int trunc) {
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) qt_tile_mut(L, p0, p1, swap, trunc);
    return 0;
}
static int qt_io_swap(const td_abi_launch *L) { return qt_io_variant(L, 1, 0); }
static int qt_io_trunc(const td_abi_launch *L) { return qt_io_variant(L, 0, 1); }

/* rm[:, None] * stride_am formed in int32 (Triton's default): beyond 2^31 elements a
 * row's offset wraps to an address outside A, where the device faults (returns 1). */
static int qt_tile_i32(const td_abi_launch *L, int64_t pid_m, int64_t pid_n, uint32_t pid) {
    int64_t sam = TL_I(L, P_SAM), san = TL_I(L, P_SAN), sbn = TL_I(L, P_SBN), sbm = TL_I(L, P_SBM);
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    td_profile store = {TD_I8, TD_RNE, TD_OVF_WRAP, false};
    float inv = tl_load(L, R_INV, 0);
    for (int64_t i = 0; i < BM; i++)
        for (int64_t j = 0; j < BN; j++) {
            int64_t rm = pid_m * BM + i, rn = pid_n * BN + j, a = tl_i32(rm * tl_i32(sam)) + rn * san;
            if (!(rm < M && rn < N)) continue;
            if (tl_fault(L, R_A, a, 1, 1, pid)) return 1;
            tl_store(L, R_B, rm * sbm + rn * sbn, 127.0f * (tl_load(L, R_A, a) * inv), store);
        }
    return 0;
}
static int qt_blocked_i32(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), GM = TL_I(L, P_GM);
    int64_t grid_m = (M + BM - 1) / BM, grid_n = (N + BN - 1) / BN, width = GM * grid_n;
    for (int64_t pid = 0; pid < (int64_t)L->grid[0]; pid++) {
        int64_t g = pid / width, gs = grid_m - g * GM < GM ? grid_m - g * GM : GM;
        if (qt_tile_i32(L, g * GM + pid % gs, (pid % width) / gs, (uint32_t)pid)) return 1;
    }
    return 0;
}
static int qt_io_i32(const td_abi_launch *L) {
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            if (qt_tile_i32(L, p0, p1, p0)) return 1;
    return 0;
}

#define QT_B "quant_transpose_kernel.quantize_global_transpose_blocked_output_summary_general"
#define QT_I "quant_transpose_kernel.quant_transpose_scaled_store_io_correctness"
TD_KERNEL(td_m_qt_group_size) = {QT_B, "mut_group_size", TD_ABI_HOST, "store=int8:rne:wrap", NULL,
                                 "the last group's size taken as GROUP_M in the swizzle", 10, 3, qt_group_size, NULL};
TD_KERNEL(td_m_qt_b_trunc) = {QT_B, "mut_store_truncates", TD_ABI_HOST, "store=int8:rne:wrap", NULL,
                              "the value truncated to int8 instead of llrint", 10, 3, qt_blocked_trunc, NULL};
TD_KERNEL(td_m_qt_io_swap) = {QT_I, "mut_not_transposed", TD_ABI_HOST, "store=int8:rne:wrap", NULL,
                              "the output strides exchanged (B not transposed)", 9, 3, qt_io_swap, NULL};
TD_KERNEL(td_m_qt_io_trunc) = {QT_I, "mut_store_truncates", TD_ABI_HOST, "store=int8:rne:wrap", NULL,
                               "the value truncated to int8 instead of llrint", 9, 3, qt_io_trunc, NULL};
#define AI32 "rm[:, None] * stride_am formed in int32 (A's row offsets wrap beyond 2^31 elements)"
TD_KERNEL(td_m_qt_b_i32) = {QT_B, "mut_offset_int32", TD_ABI_HOST, "store=int8:rne:wrap", NULL, AI32, 10, 3,
                            qt_blocked_i32, NULL};
TD_KERNEL(td_m_qt_io_i32) = {QT_I, "mut_offset_int32", TD_ABI_HOST, "store=int8:rne:wrap", NULL, AI32, 9, 3, qt_io_i32,
                             NULL};
