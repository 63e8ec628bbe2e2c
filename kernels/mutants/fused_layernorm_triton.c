/* fused_layernorm_triton mutants. */
#include "../host/tl.h"

enum { P_XNUMEL, P_RNUMEL, P_XBLOCK, P_RBLOCK };
enum { R_IO0, R_IN0, R_IN1, R_IN2, R_OUT0, R_OUT1 };
enum { PN_RNUMEL, PN_RBLOCK };
enum { RN_OUT0, RN_IO0, RN_IN0, RN_IN1, RN_IN2, RN_OUT1 };

typedef struct wf {
    float mean, m2, weight;
} wf;
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

enum { BUG_NAIVE_MOMENTS, BUG_UNBIASED };

static int summary_with(const td_abi_launch *L, int bug) {
    int64_t rnumel = TL_I(L, P_RNUMEL), RB = TL_I(L, P_RBLOCK);
    wf *acc;
    float *t;
    TL_ALLOC(L, acc, RB);
    t = calloc((size_t)RB, sizeof *t);
    if (!t) {
        free(acc);
        snprintf(L->err, L->errlen, "out of memory");
        return 1;
    }
    for (uint32_t x0 = 0; x0 < L->grid[0]; x0++) {
        for (int64_t j = 0; j < RB; j++) acc[j] = (wf){0.0f, 0.0f, 0.0f};
        for (int64_t j = 0; j < RB && j < rnumel; j++) acc[j] = (wf){tl_load(L, R_IN0, j + rnumel * x0), 0.0f, 1.0f};
        float tmp3, tmp4;
        if (bug == BUG_NAIVE_MOMENTS) {
            /* the Lean transcription's moment combine: sum(m2 + w*mean^2) - W * M^2 */
            for (int64_t j = 0; j < RB; j++) t[j] = acc[j].weight;
            float tmp5 = tl_sum(t, RB);
            for (int64_t j = 0; j < RB; j++) t[j] = acc[j].weight * acc[j].mean;
            tmp3 = tl_sum(t, RB) / tmp5;
            for (int64_t j = 0; j < RB; j++) t[j] = acc[j].m2 + acc[j].weight * acc[j].mean * acc[j].mean;
            tmp4 = tl_sum(t, RB) - tmp5 * tmp3 * tmp3;
        } else {
            wf r = welford_tree(acc, RB);
            tmp3 = r.mean, tmp4 = r.m2;
        }
        tl_store(L, R_OUT0, x0, tmp3, tl_f32());
        /* Bessel's correction on the Welford M2 */
        float tmp7 = tmp4 / (float)(bug == BUG_UNBIASED ? rnumel - 1 : rnumel);
        float tmp10 = 1.0f / sqrtf(tmp7 + 1e-05f);
        tl_store(L, R_IO0, x0, tmp10, tl_f32());
        for (int64_t r1 = 0; r1 < rnumel; r1++)
            tl_store(L, R_OUT1, r1 + rnumel * x0,
                     (tl_load(L, R_IN0, r1 + rnumel * x0) - tmp3) * tmp10 * tl_load(L, R_IN1, r1) + tl_load(L, R_IN2, r1),
                     tl_f32());
    }
    free(t);
    free(acc);
    return 0;
}
static int naive_moments(const td_abi_launch *L) { return summary_with(L, BUG_NAIVE_MOMENTS); }
static int unbiased(const td_abi_launch *L) { return summary_with(L, BUG_UNBIASED); }

/* BUG_OFF_I32: r1 + rnumel * x0 in int32 (x0 an int32 program id, rnumel an int32
 * argument): past 2^31 elements the row offset wraps negative, an illegal address
 * (tl_fault); only the large tier (`--large`, td_rows_large) has xnumel * rnumel > 2^31. */
enum { BUG_SWAPPED, BUG_CHUNK, BUG_OFF_I32 };
static int normalize_with(const td_abi_launch *L, int bug) {
    int64_t rnumel = TL_I(L, PN_RNUMEL), RB = TL_I(L, PN_RBLOCK);
    for (uint32_t x0 = 0; x0 < L->grid[0]; x0++)
        for (uint32_t i_t = 0; i_t < L->grid[1]; i_t++) {
            /* Inductor's buffer names confused: the mean read from in_out_ptr0 and the rstd from out_ptr0 */
            float tmp3 = tl_load(L, bug == BUG_SWAPPED ? RN_IO0 : RN_OUT0, x0);
            float tmp10 = tl_load(L, bug == BUG_SWAPPED ? RN_OUT0 : RN_IO0, x0);
            for (int64_t j = 0; j < RB; j++) {
                /* rindex = tl.arange(0, RBLOCK): the chunk offset i_t * RBLOCK forgotten */
                int64_t r1 = (bug == BUG_CHUNK ? 0 : i_t * RB) + j;
                if (!(r1 < rnumel)) continue;
                int64_t o = bug == BUG_OFF_I32 ? tl_i32(r1 + rnumel * x0) : r1 + rnumel * x0;
                if (bug == BUG_OFF_I32 && tl_fault(L, RN_IN0, o, 1, 1, x0)) return 1;
                float tmp14 = (tl_load(L, RN_IN0, o) - tmp3) * tmp10;
                tl_store(L, RN_OUT1, o, tmp14 * tl_load(L, RN_IN1, r1) + tl_load(L, RN_IN2, r1), tl_f32());
            }
        }
    return 0;
}
static int swapped(const td_abi_launch *L) { return normalize_with(L, BUG_SWAPPED); }
static int chunk(const td_abi_launch *L) { return normalize_with(L, BUG_CHUNK); }
static int off_i32(const td_abi_launch *L) { return normalize_with(L, BUG_OFF_I32); }

#define FS "fused_layernorm_triton.fused_layernorm_triton_output_summary_general"
#define FN "fused_layernorm_triton.fused_layernorm_triton_normalize_io_correctness"
TD_KERNEL(td_m_fused_ln_naive) = {FS, "mut_naive_moments", TD_ABI_HOST, NULL, "libm",
                                  "one-pass moments sum(x^2) - n*mean^2 (the Lean slice's combine) in binary32", 4, 6,
                                  naive_moments, NULL};
TD_KERNEL(td_m_fused_ln_unbiased) = {FS, "mut_var_unbiased", TD_ABI_HOST, NULL, "libm",
                                     "variance = M2 / (rnumel - 1) instead of / rnumel", 4, 6, unbiased, NULL};
TD_KERNEL(td_m_fused_ln_swapped) = {FN, "mut_mean_rstd_swapped", TD_ABI_HOST, NULL, NULL,
                                    "mean loaded from in_out_ptr0 and rstd from out_ptr0", 2, 6, swapped, NULL};
TD_KERNEL(td_m_fused_ln_chunk) = {FN, "mut_chunk_offset_dropped", TD_ABI_HOST, NULL, NULL,
                                  "rindex without the i_t * RBLOCK chunk offset", 2, 6, chunk, NULL};
TD_KERNEL(td_m_fused_ln_i32) = {FN, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL,
                                "r1 + rnumel * x0 in int32 (x0 an int32 program id): wraps past 2^31", 2, 6, off_i32,
                                NULL};
