/* layer_norm_welfold mutants. */
#include "../host/tl.h"

enum { P_XNUMEL, P_RNUMEL, P_XBLOCK, P_RBLOCK };
enum { R_IO0, R_IO1, R_IN0, R_IN1, R_IN2, R_OUT0 };
enum { PN_RNUMEL, PN_RBLOCK };

enum { BUG_UNGUARDED, BUG_EPS_OUTSIDE };

static int summary_with(const td_abi_launch *L, int bug) {
    int64_t rnumel = TL_I(L, P_RNUMEL), RB = TL_I(L, P_RBLOCK);
    float *acc;
    TL_ALLOC(L, acc, RB);
    for (uint32_t x0 = 0; x0 < L->grid[0]; x0++) {
        for (int64_t j = 0; j < RB; j++) acc[j] = 0.0f;
        for (int64_t j = 0; j < RB; j++) acc[j] = j < rnumel ? tl_load(L, R_IN0, j + rnumel * x0) : 0.0f;
        float tmp6 = tl_sum(acc, RB) / (float)rnumel;
        tl_store(L, R_IO0, x0, tmp6, tl_f32());
        for (int64_t j = 0; j < RB; j++) {
            float tmp9 = (j < rnumel ? tl_load(L, R_IN0, j + rnumel * x0) : 0.0f) - tmp6;
            /* the published loop: `_tmp12 + tmp11` with no tl.where, the masked lanes add mean^2 */
            acc[j] = (j < rnumel || bug == BUG_UNGUARDED) ? tmp9 * tmp9 : 0.0f;
        }
        float tmp15 = tl_sum(acc, RB) / (float)rnumel;
        /* eps added to the standard deviation */
        float tmp18 = bug == BUG_EPS_OUTSIDE ? 1.0f / (sqrtf(tmp15) + 1e-05f) : 1.0f / sqrtf(tmp15 + 1e-05f);
        tl_store(L, R_IO1, x0, tmp18, tl_f32());
        for (int64_t r1 = 0; r1 < rnumel; r1++)
            tl_store(L, R_OUT0, r1 + rnumel * x0,
                     (tl_load(L, R_IN0, r1 + rnumel * x0) - tmp6) * tmp18 * tl_load(L, R_IN1, r1) + tl_load(L, R_IN2, r1),
                     tl_f32());
    }
    free(acc);
    return 0;
}
static int unguarded(const td_abi_launch *L) { return summary_with(L, BUG_UNGUARDED); }
static int eps_outside(const td_abi_launch *L) { return summary_with(L, BUG_EPS_OUTSIDE); }

/* The normalize slice with one bug:
 * W_CHUNK: the chunk's weights read at the row's offset r1 - i_t*RBLOCK (the weight
 *   pointer not advanced with the chunk: every chunk uses w[0 .. RBLOCK));
 * ORDER: rstd applied before the centering, ((x * rstd) - mean);
 * OFF_I32: r1 + rnumel * x0 in int32 (x0 an int32 program id, rnumel an int32 argument):
 *   past 2^31 elements the row offset wraps negative, an illegal address (tl_fault); only
 *   the large tier (`--large`, td_rows_large) has xnumel * rnumel > 2^31. */
enum { N_W_CHUNK, N_ORDER, N_OFF_I32 };
static int normalize_bug(const td_abi_launch *L, int bug) {
    int64_t rnumel = TL_I(L, PN_RNUMEL), RB = TL_I(L, PN_RBLOCK);
    for (uint32_t x0 = 0; x0 < L->grid[0]; x0++)
        for (uint32_t i_t = 0; i_t < L->grid[1]; i_t++) {
            float tmp6 = tl_load(L, R_IO0, x0), tmp18 = tl_load(L, R_IO1, x0);
            for (int64_t j = 0; j < RB; j++) {
                int64_t r1 = i_t * RB + j, o = r1 + rnumel * x0, w = bug == N_W_CHUNK ? j : r1;
                if (!(r1 < rnumel)) continue;
                if (bug == N_OFF_I32 && tl_fault(L, R_IN0, o = tl_i32(o), 1, 1, x0)) return 1;
                float x = tl_load(L, R_IN0, o);
                float tmp22 = bug == N_ORDER ? x * tmp18 - tmp6 : (x - tmp6) * tmp18;
                tl_store(L, R_OUT0, o, tmp22 * tl_load(L, R_IN1, w) + tl_load(L, R_IN2, w), tl_f32());
            }
        }
    return 0;
}
static int normalize_w_chunk(const td_abi_launch *L) { return normalize_bug(L, N_W_CHUNK); }
static int normalize_order(const td_abi_launch *L) { return normalize_bug(L, N_ORDER); }
static int normalize_off_i32(const td_abi_launch *L) { return normalize_bug(L, N_OFF_I32); }

#define WS "layer_norm_welfold.layer_norm_welfold_output_summary_general"
#define WN "layer_norm_welfold.layer_norm_welfold_normalize_io_correctness"
TD_KERNEL(td_m_welfold_unguarded) = {WS, "mut_unguarded_tail", TD_ABI_HOST, NULL, "libm",
                                     "the published kernel: squared deviations summed without tl.where (masked "
                                     "lanes add mean^2 when rnumel < RBLOCK)",
                                     4, 6, unguarded, NULL};
TD_KERNEL(td_m_welfold_eps) = {WS, "mut_eps_outside_sqrt", TD_ABI_HOST, NULL, "libm",
                               "rstd = 1 / (sqrt(var) + 1e-05)", 4, 6, eps_outside, NULL};
TD_KERNEL(td_m_welfold_w_chunk) = {WN, "mut_weight_chunk_offset", TD_ABI_HOST, NULL, NULL,
                                   "w and b read at the lane index, not the column (pointer not advanced per chunk)",
                                   2, 6, normalize_w_chunk, NULL};
TD_KERNEL(td_m_welfold_order) = {WN, "mut_scale_before_center", TD_ABI_HOST, NULL, NULL,
                                 "(x * rstd) - mean instead of (x - mean) * rstd", 2, 6, normalize_order, NULL};
TD_KERNEL(td_m_welfold_i32) = {WN, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL,
                               "r1 + rnumel * x0 in int32 (x0 an int32 program id): wraps past 2^31", 2, 6,
                               normalize_off_i32, NULL};
