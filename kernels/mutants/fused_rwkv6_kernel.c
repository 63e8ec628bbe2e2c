/* fused_rwkv6_kernel mutants (the program itself is in ../host/fused_rwkv6_kernel.c):
 * the bugs recurrent kernels ship. */
#include "../host/fused_rwkv6_kernel_tl.h"
#include "far_i32.h"

static int run(const td_abi_launch *L, rw6_bug b) { return td_rw6_run(L, &b); }
/* q's head base i_bh * s_k_h formed in int32 (region 0, parameter 2) */
static int offset_i32(const td_abi_launch *L) { return far_i32_fault(L, 2, 0, TL_I(L, 2)) ? 1 : run(L, (rw6_bug){0}); }
static int post_update(const td_abi_launch *L) { return run(L, (rw6_bug){.post_update = 1}); }
static int decay_linear(const td_abi_launch *L) { return run(L, (rw6_bug){.decay_linear = 1}); }
static int fp16_state(const td_abi_launch *L) { return run(L, (rw6_bug){.fp16_state = 1}); }

TD_KERNEL(td_m_rw6_post_update) = {RW6_SUM, "mut_output_after_update", TD_ABI_HOST, NULL, NULL,
                                   "o_t read from the state after step t's update (the retention order)", 13, 11,
                                   post_update, NULL};
TD_KERNEL(td_m_rw6_decay_linear) = {RW6_SUM, "mut_decay_linear", TD_ABI_HOST, NULL, NULL,
                                    "the log-space decay w used as a linear decay (h * w, not h * exp(w))", 13, 11,
                                    decay_linear, NULL};
TD_KERNEL(td_m_rw6_fp16_state) = {RW6_SUM, "mut_fp16_state", TD_ABI_HOST, NULL, NULL,
                                  "the state stored as fp16 between steps", 13, 11, fp16_state, NULL};

/* state step: BHPrev read as [V, K] (v * K + k), or the decay linear */
static int step_bug(const td_abi_launch *L, int transposed) {
    int64_t t = TL_I(L, 0), skh = TL_I(L, 1), svh = TL_I(L, 2), K = TL_I(L, 3), V = TL_I(L, 4);
    int64_t BK = TL_I(L, 5), BV = TL_I(L, 6);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
                for (int64_t r = 0; r < BV; r++)
                    for (int64_t c = 0; c < BK; c++) {
                        int64_t k = p1 * BK + c, v = p0 * BV + r, off = p2 * K * V + k * V + v;
                        if (k >= K || v >= V) continue;
                        float w = tl_load(L, 3, p2 * skh + k + t * K), bw = transposed ? expf(w) : w;
                        float kv = tl_load(L, 1, p2 * skh + k + t * K) * tl_load(L, 2, p2 * svh + v + t * V);
                        float prev = tl_load(L, 0, transposed ? p2 * K * V + v * K + k : off);
                        tl_store(L, 4, off, prev * bw + kv, tl_f32());
                    }
    return 0;
}
static int step_transposed(const td_abi_launch *L) { return step_bug(L, 1); }
static int step_linear(const td_abi_launch *L) { return step_bug(L, 0); }
TD_KERNEL(td_m_rw6_step_trans) = {RW6_STEP, "mut_transposed", TD_ABI_HOST, NULL, NULL,
                                  "BHPrev read as [V, K] (v * K + k): the [BV, BK] tile taken for the layout", 7, 5,
                                  step_transposed, NULL};
TD_KERNEL(td_m_rw6_step_linear) = {RW6_STEP, "mut_decay_linear", TD_ABI_HOST, NULL, NULL,
                                   "the log-space decay w used as a linear decay (prev * w)", 7, 5, step_linear, NULL};
TD_KERNEL(td_m_rw6_i32) = {RW6_SUM, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                           "i_bh * s_k_h formed in int32 (q's head base wraps beyond 2^31 elements)", 13, 11,
                           offset_i32, NULL};
