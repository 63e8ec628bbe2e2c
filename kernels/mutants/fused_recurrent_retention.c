/* fused_recurrent_retention mutants (the program itself is in
 * ../host/fused_recurrent_retention.c): the bugs recurrent kernels ship. */
#include "../host/fused_recurrent_retention_tl.h"
#include "far_i32.h"

static int run(const td_abi_launch *L, frr_bug b) { return td_frr_run(L, &b); }
static int decay_twice(const td_abi_launch *L) { return run(L, (frr_bug){.decay_twice = 1}); }
static int fp16_state(const td_abi_launch *L) { return run(L, (frr_bug){.fp16_state = 1}); }
static int bwd_forward(const td_abi_launch *L) { return run(L, (frr_bug){.bwd_forward = 1}); }
static int decay_early(const td_abi_launch *L) { return run(L, (frr_bug){.decay_early = 1}); }
static int bwd_no_init(const td_abi_launch *L) { return run(L, (frr_bug){.bwd_no_init = 1}); }
static int off_i32(const td_abi_launch *L) { return run(L, (frr_bug){.off_i32 = 1}); }

TD_KERNEL(td_m_frr_decay_twice) = {FRR_SUM, "mut_decay_twice", TD_ABI_HOST, NULL, NULL,
                                   "forward: the decay applied twice per step (h = b*(b*h) + k v)", 13, 15,
                                   decay_twice, NULL};
TD_KERNEL(td_m_frr_fp16_state) = {FRR_SUM, "mut_fp16_state", TD_ABI_HOST, NULL, NULL,
                                  "forward: the state stored as fp16 between steps", 13, 15, fp16_state, NULL};
TD_KERNEL(td_m_frr_bwd_forward) = {FRR_SUM, "mut_bwd_forward_direction", TD_ABI_HOST, NULL, NULL,
                                   "backward: d_h accumulated from t = 0 upwards instead of from T - 1 down", 13,
                                   15, bwd_forward, NULL};
TD_KERNEL(td_m_frr_decay_early) = {FRR_SUM, "mut_decay_wrong_step", TD_ABI_HOST, NULL, NULL,
                                   "backward: d_h *= b_b before dk, dv instead of after", 13, 15, decay_early, NULL};
TD_KERNEL(td_m_frr_bwd_no_init) = {FRR_SUM, "mut_bwd_state_not_seeded", TD_ABI_HOST, NULL, NULL,
                                   "backward: the rebuilt state not seeded with initial_state (state not carried)",
                                   13, 15, bwd_no_init, NULL};

/* the head bases in int32 as the original forms them: past 2^31 a wrapped base is an
 * illegal address; only the far tier (strides near 2^31) reaches it, below it the port */
TD_KERNEL(td_m_frr_off_i32) = {FRR_SUM, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                               "(i_bh + i_v*B*H) * s_qk_h and the other head bases in int32: wrap past 2^31", 13, 15,
                               off_i32, NULL};

/* seed: NV = DV // BV (floor), the V tail's programs never launched: their lanes kept */
static int seed_floor_grid(const td_abi_launch *L) {
    int64_t DK = TL_I(L, 0), DV = TL_I(L, 1), BK = TL_I(L, 2), BV = TL_I(L, 3);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < (uint32_t)(DV / BV) && p0 < L->grid[0]; p0++)
                for (int64_t r = 0; r < BV; r++)
                    for (int64_t c = 0; c < BK; c++) {
                        int64_t k = p1 * BK + c, v = p0 * BV + r, off = p2 * DK * DV + k * DV + v;
                        if (k < DK && v < DV) tl_store(L, 1, off, tl_load(L, 0, off), tl_f32());
                    }
    return 0;
}
/* seed: initial_state read as [DV, DK] (the backward's [BK, BV] tile taken for the layout) */
static int seed_transposed(const td_abi_launch *L) {
    int64_t DK = TL_I(L, 0), DV = TL_I(L, 1), BK = TL_I(L, 2), BV = TL_I(L, 3);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
                for (int64_t r = 0; r < BV; r++)
                    for (int64_t c = 0; c < BK; c++) {
                        int64_t k = p1 * BK + c, v = p0 * BV + r, base = p2 * DK * DV;
                        if (k < DK && v < DV) tl_store(L, 1, base + k * DV + v, tl_load(L, 0, base + v * DK + k), tl_f32());
                    }
    return 0;
}
/* seed: initial_state + i_bh * DK * DV and HSeed's the same, the product in int32 as the
 * original forms it (i_bh an int32 program id, DK and DV constexprs): past 2^31 elements a
 * head's base wraps negative, an illegal address (the launch fails whole, as on a device).
 * Only the large tier (`--large`) has B*H*DK*DV > 2^31; below it this is the port. */
static int seed_off_i32(const td_abi_launch *L) {
    int64_t DK = TL_I(L, 0), DV = TL_I(L, 1), BK = TL_I(L, 2), BV = TL_I(L, 3);
    if (far_i32_fault(L, 2, 0, DK * DV) || far_i32_fault(L, 2, 1, DK * DV)) return 1;
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
                for (int64_t r = 0; r < BV; r++)
                    for (int64_t c = 0; c < BK; c++) {
                        int64_t k = p1 * BK + c, v = p0 * BV + r, off = tl_i32(p2 * DK * DV) + k * DV + v;
                        if (k < DK && v < DV) tl_store(L, 1, off, 0.0f + tl_load(L, 0, off), tl_f32());
                    }
    return 0;
}
#define FLOOR "NV = DV // BV: the programs of the V tail never launched"
#define TRANS "initial_state read as [DV, DK] (v * DK + k)"
TD_KERNEL(td_m_frr_seed_floor) = {FRR_SEED, "mut_floor_grid", TD_ABI_HOST, NULL, NULL, FLOOR, 4, 2, seed_floor_grid, NULL};
TD_KERNEL(td_m_frr_seed_r_floor) = {FRR_SEED_R, "mut_floor_grid", TD_ABI_HOST, NULL, NULL, FLOOR, 4, 2, seed_floor_grid, NULL};
TD_KERNEL(td_m_frr_seed_trans) = {FRR_SEED, "mut_transposed", TD_ABI_HOST, NULL, NULL, TRANS, 4, 2, seed_transposed, NULL};
TD_KERNEL(td_m_frr_seed_r_trans) = {FRR_SEED_R, "mut_transposed", TD_ABI_HOST, NULL, NULL, TRANS, 4, 2, seed_transposed, NULL};
#define I32 "initial_state + i_bh * DK * DV in int32 (i_bh an int32 program id): the head base wraps past 2^31"
TD_KERNEL(td_m_frr_seed_i32) = {FRR_SEED, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL, I32, 4, 2, seed_off_i32, NULL};
TD_KERNEL(td_m_frr_seed_r_i32) = {FRR_SEED_R, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL, I32, 4, 2, seed_off_i32,
                                  NULL};
