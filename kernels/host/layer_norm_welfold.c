/* layer_norm_welfold: triton_red_fused_native_layer_norm_no_welford as the theorem's
 * slices have it (the reduce slice guards the squared deviations with
 * tl.where(rmask, ., 0); the published loop does not: see the mutants) and the
 * normalize slice.
 * Summary: parameters xnumel, rnumel, XBLOCK (= 1), RBLOCK; regions in_out_ptr0 (mean),
 * in_out_ptr1 (rstd), in_ptr0 (x), in_ptr1 (w), in_ptr2 (b), out_ptr0 (y).
 * Normalize slice: parameters rnumel, RBLOCK; the same regions, grid (rows, chunks).
 * libdevice.rsqrt is 1.0f / sqrtf. */
#include "tl.h"

enum { P_XNUMEL, P_RNUMEL, P_XBLOCK, P_RBLOCK };
enum { R_IO0, R_IO1, R_IN0, R_IN1, R_IN2, R_OUT0 };
enum { PN_RNUMEL, PN_RBLOCK };

static int no_welford(const td_abi_launch *L) {
    int64_t rnumel = TL_I(L, P_RNUMEL), RB = TL_I(L, P_RBLOCK);
    float *acc;
    TL_ALLOC(L, acc, RB);
    for (uint32_t x0 = 0; x0 < L->grid[0]; x0++) {
        for (int64_t j = 0; j < RB; j++) acc[j] = 0.0f;
        for (int64_t roffset = 0; roffset < rnumel; roffset += RB)
            for (int64_t j = 0; j < RB; j++) {
                int64_t r1 = roffset + j;
                acc[j] = acc[j] + (r1 < rnumel ? tl_load(L, R_IN0, r1 + rnumel * x0) : 0.0f);
            }
        float tmp6 = tl_sum(acc, RB) / (float)rnumel;
        tl_store(L, R_IO0, x0, tmp6, tl_f32());
        for (int64_t j = 0; j < RB; j++) acc[j] = 0.0f;
        for (int64_t roffset = 0; roffset < rnumel; roffset += RB)
            for (int64_t j = 0; j < RB; j++) {
                int64_t r1 = roffset + j;
                float tmp7 = r1 < rnumel ? tl_load(L, R_IN0, r1 + rnumel * x0) : 0.0f;
                float tmp9 = tmp7 - tmp6;
                float tmp10 = tmp9 * tmp9;
                acc[j] = acc[j] + (r1 < rnumel ? tmp10 : 0.0f); /* tl.where(rmask, tmp10, 0) */
            }
        float tmp15 = tl_sum(acc, RB) / (float)rnumel;
        float tmp18 = 1.0f / sqrtf(tmp15 + 1e-05f);
        tl_store(L, R_IO1, x0, tmp18, tl_f32());
        for (int64_t roffset = 0; roffset < rnumel; roffset += RB)
            for (int64_t j = 0; j < RB; j++) {
                int64_t r1 = roffset + j;
                if (!(r1 < rnumel)) continue;
                float tmp22 = (tl_load(L, R_IN0, r1 + rnumel * x0) - tmp6) * tmp18;
                tl_store(L, R_OUT0, r1 + rnumel * x0, tmp22 * tl_load(L, R_IN1, r1) + tl_load(L, R_IN2, r1), tl_f32());
            }
    }
    free(acc);
    return 0;
}

/* layer_norm_welfold_normalize_slice: x0 = program_id(0), i_t = program_id(1) */
static int normalize_slice(const td_abi_launch *L) {
    int64_t rnumel = TL_I(L, PN_RNUMEL), RB = TL_I(L, PN_RBLOCK);
    for (uint32_t x0 = 0; x0 < L->grid[0]; x0++)
        for (uint32_t i_t = 0; i_t < L->grid[1]; i_t++) {
            float tmp6 = tl_load(L, R_IO0, x0), tmp18 = tl_load(L, R_IO1, x0);
            for (int64_t j = 0; j < RB; j++) {
                int64_t r1 = i_t * RB + j;
                if (!(r1 < rnumel)) continue;
                float tmp22 = (tl_load(L, R_IN0, r1 + rnumel * x0) - tmp6) * tmp18;
                tl_store(L, R_OUT0, r1 + rnumel * x0, tmp22 * tl_load(L, R_IN1, r1) + tl_load(L, R_IN2, r1), tl_f32());
            }
        }
    return 0;
}

TD_KERNEL(td_k_welfold_summary) = {"layer_norm_welfold.layer_norm_welfold_output_summary_general", "triton",
                                   TD_ABI_HOST, NULL, "libm", NULL, 4, 6, no_welford, NULL};
TD_KERNEL(td_k_welfold_normalize) = {"layer_norm_welfold.layer_norm_welfold_normalize_io_correctness", "triton",
                                     TD_ABI_HOST, NULL, NULL, NULL, 2, 6, normalize_slice, NULL};
