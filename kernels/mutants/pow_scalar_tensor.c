/* pow_scalar_tensor mutants: bugs of pointwise power kernels. */
#include "../host/tl.h"

enum { P_VAL0, P_IN_STRIDE, P_OUT_STRIDE, P_S0, P_NUM_TASKS, P_TILES_PER_CTA, P_TILE, P_ONE_TILE };
enum { R_IN, R_OUT };

typedef float (*pw_fn)(float base, float y);

static float pw_fast(float b, float y) { return exp2f(y * log2f(b)); }
static float pw_swapped(float b, float y) { return powf(y, b); }
static float pw_ok(float b, float y) { return powf(b, y); }

/* The kernel with a chosen pow and a chosen grid-stride step count (tiles_per_cta + dT). */
static int pw_run(const td_abi_launch *L, pw_fn f, int one_tile_per_cta, int64_t dT) {
    int64_t in_st = TL_I(L, P_IN_STRIDE), out_st = TL_I(L, P_OUT_STRIDE), s0 = TL_I(L, P_S0), ts = TL_I(L, P_TILE);
    int64_t nctas = L->grid[0], T = one_tile_per_cta ? 1 : TL_I(L, P_TILES_PER_CTA) + dT;
    float val0 = TL_R(L, P_VAL0);
    for (int64_t pid = 0; pid < nctas; pid++)
        for (int64_t j = 0; j < T; j++)
            for (int64_t i = 0; i < ts; i++) {
                int64_t t = (pid + j * nctas) * ts + i;
                if (t < s0) tl_store(L, R_OUT, t * out_st, f(val0, tl_load(L, R_IN, t * in_st)), tl_f32());
            }
    return 0;
}

/* The fast-math pow exp2(y * log2(x)) (__powf): NaN for every negative base, where
 * pow's integer exponents have a real value. */
static int fast_one(const td_abi_launch *L) { return pw_run(L, pw_fast, 1, 0); }
static int fast_sum(const td_abi_launch *L) { return pw_run(L, pw_fast, TL_I(L, P_ONE_TILE) != 0, 0); }
/* pow(in0, val0): the tensor taken as the base (FlagGems' pow_tensor_scalar body in the
 * scalar_tensor kernel). */
static int swapped_one(const td_abi_launch *L) { return pw_run(L, pw_swapped, 1, 0); }
/* The grid-stride loop one step short (range(0, tiles_per_cta - 1)): the last tile of
 * every program is never written. */
static int short_loop(const td_abi_launch *L) { return pw_run(L, pw_ok, TL_I(L, P_ONE_TILE) != 0, -1); }

#define PW_ONE "pow_scalar_tensor.pow_scalar_tensor_one_tile_io_correctness"
#define PW_SUM "pow_scalar_tensor.pow_scalar_tensor_output_summary_general"
TD_KERNEL(td_m_pow_st_fast_one) = {PW_ONE, "mut_fast_pow", TD_ABI_HOST, NULL, NULL,
                                   "exp2(y * log2(val0)): NaN for a negative base", 7, 2, fast_one, NULL};
TD_KERNEL(td_m_pow_st_swapped) = {PW_ONE, "mut_base_exponent_swapped", TD_ABI_HOST, NULL, NULL,
                                  "pow(in0, val0): the tensor as the base", 7, 2, swapped_one, NULL};
TD_KERNEL(td_m_pow_st_fast_sum) = {PW_SUM, "mut_fast_pow", TD_ABI_HOST, NULL, NULL,
                                   "exp2(y * log2(val0)): NaN for a negative base", 8, 2, fast_sum, NULL};
TD_KERNEL(td_m_pow_st_short_loop) = {PW_SUM, "mut_grid_stride_short", TD_ABI_HOST, NULL, NULL,
                                     "grid-stride loop over tiles_per_cta - 1 steps", 8, 2, short_loop, NULL};
