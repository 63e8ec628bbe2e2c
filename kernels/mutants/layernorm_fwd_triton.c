/* layernorm_fwd_triton mutants. */
#include "../host/tl.h"

enum { P_SXN, P_SXH, P_SXD, P_SYN, P_SYH, P_SYD, P_SWH, P_SWD, P_N, P_BLOCK, P_EPS };
enum { R_X, R_W, R_Y };

enum { BUG_TAIL_DROPPED, BUG_VAR_UNMASKED, BUG_STORE_RTZ, BUG_OFFSET_I32 };

static int fwd_with(const td_abi_launch *L, int bug) {
    int64_t sxN = TL_I(L, P_SXN), sxH = TL_I(L, P_SXH), syN = TL_I(L, P_SYN), syH = TL_I(L, P_SYH);
    int64_t swH = TL_I(L, P_SWH), n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float eps = TL_R(L, P_EPS);
    td_profile store = {TL_FMT(L, R_Y), bug == BUG_STORE_RTZ ? TD_RTZ : TD_RNE, TD_OVF_INF, false};
    /* the statistics passes stop at the last full tile: range(0, N - N % BLOCK, BLOCK) */
    int64_t stat_end = bug == BUG_TAIL_DROPPED ? n - n % B : n;
    float *acc;
    TL_ALLOC(L, acc, B);
    for (uint32_t seq = 0; seq < L->grid[0]; seq++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t X = seq * sxN + h * sxH, Y = seq * syN + h * syH, W = h * swH;
            if (bug == BUG_OFFSET_I32) { /* pid_seq * stride_x_N + pid_h * stride_x_hn in int32 */
                X = tl_i32(tl_i32((int64_t)seq * tl_i32(sxN)) + tl_i32((int64_t)h * tl_i32(sxH)));
                if (tl_fault(L, R_X, X, n, 1, seq)) {
                    free(acc);
                    return 1;
                }
            }
            for (int64_t j = 0; j < B; j++) acc[j] = 0.0f;
            for (int64_t off = 0; off < stat_end; off += B)
                for (int64_t j = 0; j < B; j++) acc[j] += off + j < n ? tl_load(L, R_X, X + off + j) : 0.0f;
            float mean = tl_sum(acc, B) / (float)n;
            for (int64_t j = 0; j < B; j++) acc[j] = 0.0f;
            for (int64_t off = 0; off < stat_end; off += B)
                for (int64_t j = 0; j < B; j++) {
                    float x = off + j < n ? tl_load(L, R_X, X + off + j) : 0.0f;
                    /* without tl.where the padded lanes add (0 - mean)^2 */
                    x = (off + j < n || bug == BUG_VAR_UNMASKED) ? x - mean : 0.0f;
                    acc[j] += x * x;
                }
            float var = tl_sum(acc, B) / (float)n;
            float rstd = 1.0f / sqrtf(var + eps);
            for (int64_t off = 0; off < n; off += B)
                for (int64_t j = 0; j < B; j++) {
                    if (!(off + j < n)) continue;
                    float w = tl_load(L, R_W, W + off + j), x = tl_load(L, R_X, X + off + j);
                    tl_store(L, R_Y, Y + off + j, ((x - mean) * rstd) * w, store);
                }
        }
    free(acc);
    return 0;
}
static int tail_dropped(const td_abi_launch *L) { return fwd_with(L, BUG_TAIL_DROPPED); }
static int var_unmasked(const td_abi_launch *L) { return fwd_with(L, BUG_VAR_UNMASKED); }
static int store_rtz(const td_abi_launch *L) { return fwd_with(L, BUG_STORE_RTZ); }
static int offset_i32(const td_abi_launch *L) { return fwd_with(L, BUG_OFFSET_I32); }

#define LNFWD "layernorm_fwd_triton.layernorm_fwd_triton_output_summary"
#define LNFWD_IO "layernorm_fwd_triton.layernorm_fwd_triton_io_correctness"
TD_KERNEL(td_m_lnfwd_tail) = {LNFWD, "mut_tail_tile_dropped", TD_ABI_HOST, NULL, NULL,
                              "mean / variance passes skip the row's partial last tile", 11, 3, tail_dropped, NULL};
TD_KERNEL(td_m_lnfwd_unmasked) = {LNFWD, "mut_var_unmasked", TD_ABI_HOST, NULL, NULL,
                                  "variance without tl.where: padded lanes add mean^2", 11, 3, var_unmasked, NULL};
TD_KERNEL(td_m_lnfwd_io_tail) = {LNFWD_IO, "mut_tail_tile_dropped", TD_ABI_HOST, "store=bf16:rne:inf", NULL,
                                 "mean / variance passes skip the row's partial last tile", 11, 3, tail_dropped, NULL};
TD_KERNEL(td_m_lnfwd_io_rtz) = {LNFWD_IO, "mut_store_rtz", TD_ABI_HOST, "store=bf16:rne:inf", NULL,
                                "y.to(bfloat16) by truncation (round toward zero)", 11, 3, store_rtz, NULL};
TD_KERNEL(td_m_lnfwd_i32) = {LNFWD, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                             "X row offset pid_seq * stride_x_N + pid_h * stride_x_hn formed in int32 (wraps beyond "
                             "2^31 elements)",
                             11, 3, offset_i32, NULL};
TD_KERNEL(td_m_lnfwd_io_i32) = {LNFWD_IO, "mut_offset_int32", TD_ABI_HOST, "store=bf16:rne:inf", NULL,
                                "X row offset pid_seq * stride_x_N + pid_h * stride_x_hn formed in int32 (wraps "
                                "beyond 2^31 elements)",
                                11, 3, offset_i32, NULL};
