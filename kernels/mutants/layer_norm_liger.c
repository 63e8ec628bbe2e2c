/* layer_norm_liger mutants. */
#include "../host/tl.h"

enum { P_YS, P_XS, P_WS, P_BS, P_MS, P_RS, P_N, P_BLOCK, P_EPS };
enum { R_Y, R_X, R_W, R_B, R_MEAN, R_RSTD };
enum { PS_MS, PS_RS };
enum { RS_MEANPRE, RS_MEAN, RS_RSTDPRE, RS_RSTD };

enum { BUG_NO_EPS, BUG_MEAN_STRIDE, BUG_OFFSET_I32 };

static int forward_with(const td_abi_launch *L, int bug) {
    int64_t ys = TL_I(L, P_YS), xs = TL_I(L, P_XS), ms = TL_I(L, P_MS), rs = TL_I(L, P_RS);
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float eps = TL_R(L, P_EPS);
    float *t;
    TL_ALLOC(L, t, 4 * B);
    float *x = t, *w = t + B, *b = t + 2 * B, *sq = t + 3 * B;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t xb = row * xs; /* X_ptr + row_idx * X_row_stride */
        if (bug == BUG_OFFSET_I32) { /* ... in int32 (Triton's program id and a stride below 2^31) */
            xb = tl_i32((int64_t)row * tl_i32(xs));
            if (tl_fault(L, R_X, xb, n < B ? n : B, 1, row)) {
                free(t);
                return 1;
            }
        }
        for (int64_t j = 0; j < B; j++) {
            int mask = j < n;
            x[j] = mask ? tl_load(L, R_X, xb + j) : 0.0f;
            w[j] = mask ? tl_load(L, R_W, j) : 0.0f;
            b[j] = mask ? tl_load(L, R_B, j) : 0.0f;
        }
        float mean = tl_sum(x, B) / (float)n;
        for (int64_t j = 0; j < B; j++) sq[j] = (x[j] - mean) * (x[j] - mean);
        float var = tl_sum(sq, B) / (float)n;
        /* rsqrt of the variance alone: no eps */
        float rstd = bug == BUG_NO_EPS ? 1.0f / sqrtf(var) : 1.0f / sqrtf(var + eps);
        /* Mean_ptr += row_idx (the row stride forgotten) */
        tl_store(L, R_MEAN, bug == BUG_MEAN_STRIDE ? (int64_t)row : row * ms, mean, tl_f32());
        tl_store(L, R_RSTD, row * rs, rstd, tl_f32());
        for (int64_t j = 0; j < B; j++)
            if (j < n) tl_store(L, R_Y, row * ys + j, (x[j] - mean) * rstd * w[j] + b[j], tl_f32());
    }
    free(t);
    return 0;
}
static int no_eps(const td_abi_launch *L) { return forward_with(L, BUG_NO_EPS); }
static int mean_stride(const td_abi_launch *L) { return forward_with(L, BUG_MEAN_STRIDE); }
/* the far tier's rows past 2^31 elements (contracts/gen_far.h) */
static int offset_int32(const td_abi_launch *L) { return forward_with(L, BUG_OFFSET_I32); }

/* the last program's statistics never stored (a row_end = n_rows - 1 slip) */
static int stores_last_row_skipped(const td_abi_launch *L) {
    int64_t ms = TL_I(L, PS_MS), rs = TL_I(L, PS_RS);
    for (uint32_t pid = 0; pid + 1 < L->grid[0]; pid++) {
        tl_store(L, RS_MEAN, pid * ms, tl_load(L, RS_MEANPRE, pid * ms), tl_f32());
        tl_store(L, RS_RSTD, pid * rs, tl_load(L, RS_RSTDPRE, pid * rs), tl_f32());
    }
    return 0;
}

/* a flush-to-zero store (a DAZ/FTZ build of the store path): subnormal statistics become 0 */
static int stores_ftz(const td_abi_launch *L) {
    int64_t ms = TL_I(L, PS_MS), rs = TL_I(L, PS_RS);
    td_profile ftz = {TD_F32, TD_RNE, TD_OVF_INF, true};
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        tl_store(L, RS_MEAN, pid * ms, tl_load(L, RS_MEANPRE, pid * ms), ftz);
        tl_store(L, RS_RSTD, pid * rs, tl_load(L, RS_RSTDPRE, pid * rs), ftz);
    }
    return 0;
}

/* Mean_ptr += row_idx * Mean_row_stride in int32 (Triton's program id and a stride below
 * 2^31), RSTD likewise: the far tier's cells past 2^31 elements (contracts/gen_far.h) */
static int stores_offset_int32(const td_abi_launch *L) {
    int64_t ms = TL_I(L, PS_MS), rs = TL_I(L, PS_RS);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t mo = tl_i32((int64_t)pid * tl_i32(ms)), ro = tl_i32((int64_t)pid * tl_i32(rs));
        if (tl_fault(L, RS_MEANPRE, mo, 1, 1, pid) || tl_fault(L, RS_RSTDPRE, ro, 1, 1, pid)) return 1;
        tl_store(L, RS_MEAN, mo, tl_load(L, RS_MEANPRE, mo), tl_f32());
        tl_store(L, RS_RSTD, ro, tl_load(L, RS_RSTDPRE, ro), tl_f32());
    }
    return 0;
}

#define LIGER_FWD "layer_norm_liger.layer_norm_liger_forward_output_summary"
TD_KERNEL(td_m_liger_no_eps) = {LIGER_FWD, "mut_rsqrt_without_eps", TD_ABI_HOST, NULL, "libm",
                                "rstd = rsqrt(var): eps left out", 9, 6, no_eps, NULL};
TD_KERNEL(td_m_liger_mean_stride) = {LIGER_FWD, "mut_mean_stride_ignored", TD_ABI_HOST, NULL, "libm",
                                     "Mean stored at row_idx instead of row_idx * Mean_row_stride", 9, 6, mean_stride, NULL};
TD_KERNEL(td_m_liger_i32) = {LIGER_FWD, "mut_offset_int32", TD_ABI_HOST, NULL, "libm",
                             "row_idx * X_row_stride computed in int32 (wraps beyond 2^31 elements)", 9, 6, offset_int32,
                             NULL};
TD_KERNEL(td_m_liger_stores_stride) = {"layer_norm_liger.layer_norm_liger_scalar_stores_io_correctness",
                                       "mut_last_row_skipped", TD_ABI_HOST, NULL, NULL,
                                       "the last program's Mean / RSTD never stored", 2, 4, stores_last_row_skipped, NULL};
TD_KERNEL(td_m_liger_stores_ftz) = {"layer_norm_liger.layer_norm_liger_scalar_stores_io_correctnessR",
                                    "mut_store_ftz", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                                    "the store flushes subnormal statistics to zero", 2, 4, stores_ftz, NULL};
TD_KERNEL(td_m_liger_stores_i32) = {"layer_norm_liger.layer_norm_liger_scalar_stores_io_correctness",
                                   "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                   "row_idx * Mean_row_stride computed in int32 (wraps beyond 2^31 elements)", 2, 4,
                                   stores_offset_int32, NULL};
