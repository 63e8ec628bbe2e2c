/* fused_layernorm_triton: triton_red_fused_native_layer_norm_0 (Inductor, Welford) and
 * its normalize slice.
 * Summary: parameters xnumel, rnumel, XBLOCK, RBLOCK; regions in_out_ptr0 (rstd),
 * in_ptr0 (x), in_ptr1 (w), in_ptr2 (b), out_ptr0 (mean), out_ptr1 (y).  XBLOCK = 1: one
 * program per row; the reduction loop and the normalize loop over RBLOCK chunks.
 * tl.reduce(welford_combine) reduces the RBLOCK lanes by the same pairwise halving
 * tree as tl_sum; libdevice.rsqrt is 1.0f / sqrtf.
 * Normalize slice: parameters rnumel, RBLOCK; regions out_ptr0 (mean), in_out_ptr0
 * (rstd), in_ptr0, in_ptr1, in_ptr2, out_ptr1; grid (rows, chunks). */
#include "tl.h"

enum { P_XNUMEL, P_RNUMEL, P_XBLOCK, P_RBLOCK };
enum { R_IO0, R_IN0, R_IN1, R_IN2, R_OUT0, R_OUT1 };
enum { PN_RNUMEL, PN_RBLOCK };
enum { RN_OUT0, RN_IO0, RN_IN0, RN_IN1, RN_IN2, RN_OUT1 };

typedef struct wf {
    float mean, m2, weight;
} wf;

/* triton_helpers.welford_combine */
static wf welford_combine(wf a, wf b) {
    float delta = b.mean - a.mean;
    float new_weight = a.weight + b.weight;
    float w2_over_w = new_weight == 0.0f ? 0.0f : b.weight / new_weight;
    wf r = {a.mean + delta * w2_over_w, a.m2 + b.m2 + delta * delta * a.weight * w2_over_w, new_weight};
    return r;
}
static wf welford_tree(const wf *v, int64_t n) {
    if (n == 1) return v[0];
    int64_t h = n / 2;
    return welford_combine(welford_tree(v, h), welford_tree(v + h, n - h));
}

static int fused_native_layer_norm(const td_abi_launch *L) {
    int64_t rnumel = TL_I(L, P_RNUMEL), RB = TL_I(L, P_RBLOCK);
    wf *acc;
    TL_ALLOC(L, acc, RB);
    for (uint32_t x0 = 0; x0 < L->grid[0]; x0++) {
        for (int64_t j = 0; j < RB; j++) acc[j] = (wf){0.0f, 0.0f, 0.0f};
        for (int64_t roffset = 0; roffset < rnumel; roffset += RB)
            for (int64_t j = 0; j < RB; j++) {
                int64_t r1 = roffset + j;
                if (!(r1 < rnumel)) continue; /* tl.where(rmask, next, current) */
                float tmp2 = tl_load(L, R_IN0, r1 + rnumel * x0);
                wf next;
                if (roffset == 0) { /* welford_reduce, first iteration */
                    next = (wf){tmp2, 0.0f, 1.0f};
                } else {
                    float delta = tmp2 - acc[j].mean;
                    float w = acc[j].weight + 1.0f;
                    float mean = acc[j].mean + delta / w;
                    next = (wf){mean, acc[j].m2 + delta * (tmp2 - mean), w};
                }
                acc[j] = next;
            }
        wf t = welford_tree(acc, RB);
        float tmp3 = t.mean, tmp4 = t.m2;
        tl_store(L, R_OUT0, x0, tmp3, tl_f32());
        float tmp7 = tmp4 / (float)rnumel;
        float tmp9 = tmp7 + 1e-05f;
        float tmp10 = 1.0f / sqrtf(tmp9);
        tl_store(L, R_IO0, x0, tmp10, tl_f32());
        for (int64_t roffset = 0; roffset < rnumel; roffset += RB)
            for (int64_t j = 0; j < RB; j++) {
                int64_t r1 = roffset + j;
                if (!(r1 < rnumel)) continue;
                float tmp13 = tl_load(L, R_IN0, r1 + rnumel * x0) - tmp3;
                float tmp14 = tmp13 * tmp10;
                float tmp17 = tmp14 * tl_load(L, R_IN1, r1);
                float tmp20 = tmp17 + tl_load(L, R_IN2, r1);
                tl_store(L, R_OUT1, r1 + rnumel * x0, tmp20, tl_f32());
            }
    }
    free(acc);
    return 0;
}

/* fused_layernorm_triton_normalize_slice: x0 = program_id(0), i_t = program_id(1) */
static int normalize_slice(const td_abi_launch *L) {
    int64_t rnumel = TL_I(L, PN_RNUMEL), RB = TL_I(L, PN_RBLOCK);
    for (uint32_t x0 = 0; x0 < L->grid[0]; x0++)
        for (uint32_t i_t = 0; i_t < L->grid[1]; i_t++) {
            float tmp3 = tl_load(L, RN_OUT0, x0), tmp10 = tl_load(L, RN_IO0, x0);
            for (int64_t j = 0; j < RB; j++) {
                int64_t r1 = i_t * RB + j;
                if (!(r1 < rnumel)) continue;
                float tmp13 = tl_load(L, RN_IN0, r1 + rnumel * x0) - tmp3;
                float tmp14 = tmp13 * tmp10;
                float tmp17 = tmp14 * tl_load(L, RN_IN1, r1);
                tl_store(L, RN_OUT1, r1 + rnumel * x0, tmp17 + tl_load(L, RN_IN2, r1), tl_f32());
            }
        }
    return 0;
}

TD_KERNEL(td_k_fused_ln_summary) = {"fused_layernorm_triton.fused_layernorm_triton_output_summary_general", "triton",
                                    TD_ABI_HOST, NULL, "libm", NULL, 4, 6, fused_native_layer_norm, NULL};
TD_KERNEL(td_k_fused_ln_normalize) = {"fused_layernorm_triton.fused_layernorm_triton_normalize_io_correctness",
                                      "triton", TD_ABI_HOST, NULL, NULL, NULL, 2, 6, normalize_slice, NULL};
