/* chunked_cumsum_fwd mutants: the scan's inclusiveness, its axis, the A stride. */
#include "../host/chunked_cumsum_fwd_tl.h"
#include "far_i32.h"

enum { EXCLUSIVE, AXIS0, A_UNSTRIDED, NO_BUG };
static int ccf_bug(const td_abi_launch *L, int bug) {
    ccf_geo g = ccf_geo_of(L);
    int64_t BSH = g.p[CCF_BSH], BSC = g.p[CCF_BSC], nh = g.p[CCF_NH], cs = g.p[CCF_CS];
    float *dA;
    TL_ALLOC(L, dA, BSH * BSC);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t ck = 0; ck < L->grid[1]; ck++)
            for (uint32_t ph = 0; ph < L->grid[2]; ph++) {
                for (int64_t r = 0; r < BSH; r++) {
                    int64_t h = (int64_t)ph * BSH + r;
                    /* A_UNSTRIDED: A_ptr + offs_h (stride_A_head ignored) */
                    int64_t aoff = bug == A_UNSTRIDED ? h : h * g.p[CCF_SAH];
                    float a = h < nh ? tl_load(L, g.r[CCF_A], aoff) : 0.0f;
                    float run = 0.0f;
                    for (int64_t col = 0; col < BSC; col++) {
                        int on = h < nh && col < cs;
                        float dt = on ? tl_load(L, g.r[CCF_DT], ccf_rd(&g, b, ck, h, col)) : 0.0f;
                        if (on) tl_store(L, g.r[CCF_DTOUT], ccf_wr(&g, 0, b, ck, h, col), dt, tl_f32());
                        float x = dt * a;
                        run += x;
                        /* EXCLUSIVE: dA_cs = tl.cumsum(dA) - dA */
                        dA[r * BSC + col] = bug == EXCLUSIVE ? run - x : bug == AXIS0 ? x : run;
                    }
                }
                if (bug == AXIS0) /* tl.cumsum(dA, axis=0): along the heads of the tile */
                    for (int64_t r = 1; r < BSH; r++)
                        for (int64_t col = 0; col < BSC; col++) dA[r * BSC + col] += dA[(r - 1) * BSC + col];
                for (int64_t r = 0; r < BSH; r++)
                    for (int64_t col = 0; col < BSC; col++) {
                        int64_t h = (int64_t)ph * BSH + r;
                        if (h < nh && col < cs) tl_store(L, g.r[CCF_DACS], ccf_wr(&g, 1, b, ck, h, col), dA[r * BSC + col], tl_f32());
                    }
            }
    free(dA);
    return 0;
}
/* DtPrepared's batch base pid_b * stride_dt_batch formed in int32 */
static int ccf_off_i32(const td_abi_launch *L) {
    ccf_geo g = ccf_geo_of(L);
    return far_i32_fault(L, 0, g.r[CCF_DT], g.p[CCF_SDB]) ? 1 : ccf_bug(L, NO_BUG);
}
static int ccf_exclusive(const td_abi_launch *L) { return ccf_bug(L, EXCLUSIVE); }
static int ccf_axis0(const td_abi_launch *L) { return ccf_bug(L, AXIS0); }
static int ccf_a_unstrided(const td_abi_launch *L) { return ccf_bug(L, A_UNSTRIDED); }

TD_KERNEL(td_m_ccf_corr_excl) = {CCF_CORR, "mut_exclusive", TD_ABI_HOST, NULL, NULL,
                                 "dA_cs = tl.cumsum(dA) - dA: exclusive where the contract is inclusive", 16, 4,
                                 ccf_exclusive, NULL};
TD_KERNEL(td_m_ccf_corr_axis0) = {CCF_CORR, "mut_cumsum_axis0", TD_ABI_HOST, NULL, NULL,
                                  "tl.cumsum(dA, axis=0): the scan runs along the heads, not the chunk", 16, 4, ccf_axis0,
                                  NULL};
TD_KERNEL(td_m_ccf_corr_astride) = {CCF_CORR, "mut_A_stride_ignored", TD_ABI_HOST, NULL, NULL,
                                    "A loaded at A_ptr + offs_h: stride_A_head ignored", 16, 4, ccf_a_unstrided, NULL};
TD_KERNEL(td_m_ccf_sum_excl) = {CCF_SUM, "mut_exclusive", TD_ABI_HOST, NULL, NULL,
                                "dA_cs = tl.cumsum(dA) - dA: exclusive where the contract is inclusive", 23, 9,
                                ccf_exclusive, NULL};
TD_KERNEL(td_m_ccf_sum_axis0) = {CCF_SUM, "mut_cumsum_axis0", TD_ABI_HOST, NULL, NULL,
                                 "tl.cumsum(dA, axis=0): the scan runs along the heads, not the chunk", 23, 9, ccf_axis0,
                                 NULL};
TD_KERNEL(td_m_ccf_sum_astride) = {CCF_SUM, "mut_A_stride_ignored", TD_ABI_HOST, NULL, NULL,
                                   "A loaded at A_ptr + offs_h: stride_A_head ignored", 23, 9, ccf_a_unstrided, NULL};
#define CCF_I32 "pid_b * stride_dt_batch formed in int32 (dt's batch base wraps beyond 2^31 elements)"
TD_KERNEL(td_m_ccf_corr_i32) = {CCF_CORR, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, CCF_I32, 16, 4, ccf_off_i32,
                                NULL};
TD_KERNEL(td_m_ccf_sum_i32) = {CCF_SUM, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, CCF_I32, 23, 9, ccf_off_i32,
                               NULL};
