/* Alternatives for pow_scalar_tensor's two contracts (val0 ** in0 per task).
 *
 *   alt_exp2_log2  |val0|^y as exp2f(y * log2f|val0|) (the fast-math lowering), the
 *                  sign (-1)^y of a negative base for integer y, 0^y as pow defines it;
 *                  a flat loop over the tasks of each program's tiles.
 *   alt_exp_log    the same with expf(y * logf|val0|).
 * Admissible: the spec's two forms; the contract's model charges both (spec.h either).
 * Parameters: val0, in0_stride0, out0_stride0, s0, num_tasks, tiles_per_cta, tile_size0
 * (+ one_tile_per_cta).  Regions: in0_ptr, out0_ptr. */
#include "../host/tl.h"

enum { P_VAL0, P_IN_STRIDE, P_OUT_STRIDE, P_S0, P_NUM_TASKS, P_TILES_PER_CTA, P_TILE, P_ONE_TILE };
enum { R_IN, R_OUT };

static float ap_pow(float b, float y, int use_exp) {
    if (b == 0.0f) return y == 0.0f ? 1.0f : y > 0.0f ? 0.0f : INFINITY;
    float a = fabsf(b);
    float r = use_exp ? expf(y * logf(a)) : exp2f(y * log2f(a));
    if (b < 0.0f) r = y != truncf(y) ? NAN : fmodf(y, 2.0f) != 0.0f ? -r : r;
    return r;
}

static int ap_run(const td_abi_launch *L, int one_tile_per_cta, int use_exp) {
    int64_t in_st = TL_I(L, P_IN_STRIDE), out_st = TL_I(L, P_OUT_STRIDE), s0 = TL_I(L, P_S0), ts = TL_I(L, P_TILE);
    int64_t nctas = L->grid[0], T = one_tile_per_cta ? 1 : TL_I(L, P_TILES_PER_CTA);
    float val0 = TL_R(L, P_VAL0);
    for (int64_t pid = 0; pid < nctas; pid++)
        for (int64_t j = 0; j < T; j++)
            for (int64_t i = 0; i < ts; i++) {
                int64_t t = (pid + j * nctas) * ts + i;
                if (t < s0) tl_store(L, R_OUT, t * out_st, ap_pow(val0, tl_load(L, R_IN, t * in_st), use_exp), tl_f32());
            }
    return 0;
}

static int one_exp2(const td_abi_launch *L) { return ap_run(L, 1, 0); }
static int one_exp(const td_abi_launch *L) { return ap_run(L, 1, 1); }
static int sum_exp2(const td_abi_launch *L) { return ap_run(L, TL_I(L, P_ONE_TILE) != 0, 0); }
static int sum_exp(const td_abi_launch *L) { return ap_run(L, TL_I(L, P_ONE_TILE) != 0, 1); }

#define AP_ONE "pow_scalar_tensor.pow_scalar_tensor_one_tile_io_correctness"
#define AP_SUM "pow_scalar_tensor.pow_scalar_tensor_output_summary_general"
TD_KERNEL(td_a_pow_st_one_exp2) = {AP_ONE, "alt_exp2_log2", TD_ABI_HOST, NULL, NULL, NULL, 7, 2, one_exp2, NULL};
TD_KERNEL(td_a_pow_st_one_exp) = {AP_ONE, "alt_exp_log", TD_ABI_HOST, NULL, NULL, NULL, 7, 2, one_exp, NULL};
TD_KERNEL(td_a_pow_st_sum_exp2) = {AP_SUM, "alt_exp2_log2", TD_ABI_HOST, NULL, NULL, NULL, 8, 2, sum_exp2, NULL};
TD_KERNEL(td_a_pow_st_sum_exp) = {AP_SUM, "alt_exp_log", TD_ABI_HOST, NULL, NULL, NULL, 8, 2, sum_exp, NULL};
