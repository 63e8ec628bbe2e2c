/* fused_recurrent_hgrn: fused_recurrent_hgrn_fwd_kernel then fused_recurrent_hgrn_bwd_kernel
 * on every program (i_d, i_bh) of the grid (cdiv(D, BD), B*H), binary32: the forward
 * b_h = b_g * b_h + b_x per step, stored to o, the final state to ht; the backward from
 * t = T-1 down: b_dh = b_dh + b_do; dx = b_dh; dg = b_dh * b_o (o[t-1], h0 or 0 at
 * t = 0); b_dh = b_dh * b_g.  bwd_dx: one backward step's dx = DHPrev + DO.
 * Parameters: USE_INITIAL_STATE STORE_FINAL_STATE i_t T D BD.  Regions: X G O H0 Ht
 * DX DG DO BHPrev DHPrev. */
#include "fused_recurrent_hgrn_tl.h"

static float hg_f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(td_profile_default(TD_F16), x)); }

/* The element of step t of lane d of head bh: (bh * T + t) * D + d, or with off_i32 the
 * Triton kernel's p_x = x + i_bh * T * D + o_d formed in int32 (i_bh an int32 program id),
 * then advanced by D per step in 64-bit pointers. */
static int64_t hg_off(const hg_bug *bug, int64_t bh, int64_t t, int64_t T, int64_t D, int64_t d) {
    return bug->off_i32 ? tl_i32(bh * T * D + d) + t * D : (bh * T + t) * D + d;
}

/* off_i32: a head whose base wrapped is an illegal address (tl_fault), as on a device */
static int hg_fault(const td_abi_launch *L, const hg_bug *bug, int64_t bh, int64_t d, uint32_t pid) {
    int64_t T = TL_I(L, HG_P_T), D = TL_I(L, HG_P_D);
    return bug->off_i32 && tl_fault(L, HG_R_X, hg_off(bug, bh, 0, T, D, d), T, D, pid);
}

static void forward(const td_abi_launch *L, const hg_bug *bug, int64_t bh, int64_t d) {
    int64_t T = TL_I(L, HG_P_T), D = TL_I(L, HG_P_D);
    float h = 0.0f;
    if (TL_I(L, HG_P_USE_INIT)) h += tl_load(L, HG_R_H0, bh * D + d);
    for (int64_t t = 0; t < T; t++) {
        int64_t o = hg_off(bug, bh, t, T, D, d);
        h = tl_load(L, HG_R_G, o) * h + tl_load(L, HG_R_X, o);
        if (bug->fp16_state) h = hg_f16(h);
        tl_store(L, HG_R_O, o, h, tl_f32());
    }
    if (TL_I(L, HG_P_STORE_FINAL)) tl_store(L, HG_R_HT, bh * D + d, h, tl_f32());
}

static void backward(const td_abi_launch *L, const hg_bug *bug, int64_t bh, int64_t d) {
    int64_t T = TL_I(L, HG_P_T), D = TL_I(L, HG_P_D);
    float dh = 0.0f;
    for (int64_t s = 0; s < T; s++) {
        int64_t t = bug->bwd_forward ? s : T - 1 - s, o = hg_off(bug, bh, t, T, D, d);
        float g = tl_load(L, HG_R_G, o), bo;
        if (bug->dg_same_row) bo = tl_load(L, HG_R_O, o);
        else if (t > 0) bo = tl_load(L, HG_R_O, o - D);
        else bo = TL_I(L, HG_P_USE_INIT) ? tl_load(L, HG_R_H0, bh * D + d) : 0.0f;
        dh = dh + tl_load(L, HG_R_DO, o);
        if (bug->decay_early) dh = dh * g;
        tl_store(L, HG_R_DX, o, dh, tl_f32());
        tl_store(L, HG_R_DG, o, dh * bo, tl_f32());
        if (!bug->decay_early) dh = dh * g;
    }
}

int td_hgrn_run(const td_abi_launch *L, const hg_bug *bug) {
    int64_t D = TL_I(L, HG_P_D), BD = TL_I(L, HG_P_BD);
    for (int pass = 0; pass < 2; pass++) /* the forward launch, then the backward launch */
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
                for (int64_t i = 0; i < BD; i++) { /* the lanes of a program are independent */
                    int64_t d = p0 * BD + i;
                    if (d >= D) continue;
                    if (hg_fault(L, bug, p1, d, p1)) return 1;
                    if (pass == 0) forward(L, bug, p1, d);
                    else backward(L, bug, p1, d);
                }
    return 0;
}

static const hg_bug hg_none = {0};
static int hgrn_kernel(const td_abi_launch *L) { return td_hgrn_run(L, &hg_none); }

int td_hgrn_dx_step(const td_abi_launch *L, int64_t head_mul, int64_t mask_extra);
int td_hgrn_dx_step(const td_abi_launch *L, int64_t head_mul, int64_t mask_extra) {
    int64_t it = TL_I(L, 0), D = TL_I(L, 2), BD = TL_I(L, 3); /* head_mul: T, the port */
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
            for (int64_t i = 0; i < BD; i++) {
                int64_t o = (p1 * head_mul + it) * D + p0 * BD + i;
                if (p0 * BD + i < D + mask_extra) tl_store(L, 2, o, tl_load(L, 0, o) + tl_load(L, 1, o), tl_f32());
            }
    return 0;
}
static int hgrn_dx(const td_abi_launch *L) { return td_hgrn_dx_step(L, TL_I(L, 1), 0); }

TD_KERNEL(td_k_hgrn_summary) = {HG_SUM, "triton", TD_ABI_HOST, NULL, NULL, NULL, 6, 10, hgrn_kernel, NULL};
TD_KERNEL(td_k_hgrn_dx) = {HG_DX, "triton", TD_ABI_HOST, NULL, NULL, NULL, 4, 3, hgrn_dx, NULL};
