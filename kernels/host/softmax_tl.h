/* Tile steps shared by the softmax family's host kernels (Triton programs on the CPU,
 * see tl.h): masked tile loads and the stable tile softmax in the order Triton
 * evaluates it.  tl.exp is the C library's expf (math model "libm"). */
#ifndef TD_SOFTMAX_TL_H
#define TD_SOFTMAX_TL_H

#include "tl.h"

/* t[j] = region[base + j * stride] for j < n, `other` for n <= j < B. */
static inline void sm_load_tile(const td_abi_launch *L, int reg, int64_t base, int64_t stride, int64_t n, int64_t B,
                                float other, float *t) {
    for (int64_t j = 0; j < B; j++) t[j] = j < n ? tl_load(L, reg, base + j * stride) : other;
}

/* In place: t = exp(t - tl.max(t)) / tl.sum(exp(t - tl.max(t))) over a tile of B lanes
 * (masked lanes hold -inf and become 0). */
static inline void sm_tile_softmax(float *t, int64_t B) {
    float m = tl_max(t, B);
    for (int64_t j = 0; j < B; j++) t[j] = t[j] - m;
    for (int64_t j = 0; j < B; j++) t[j] = expf(t[j]);
    float s = tl_sum(t, B);
    for (int64_t j = 0; j < B; j++) t[j] = t[j] / s;
}

/* The one-tile row softmax (FlagGems' inner forward, softmax_optimize's one-tile form):
 * program pid loads row pid of region `in` at pid * N, masked to N lanes of a TILE_N = T
 * tile (other -inf), and stores its tile softmax's first min(N, T) lanes into region
 * `out` at the same offset.  i32: the row base formed as Triton forms it, the int32
 * product pid * N (the int32-offset mutants): a launch with a wrapped base outside
 * either region fails (tl_fault_rows_i32); one inside reads and writes another row. */
static inline int sm_rows_one_tile(const td_abi_launch *L, int out, int in, int64_t N, int64_t T, int i32) {
    int64_t w = N < T ? N : T;
    float *t;
    TL_ALLOC(L, t, T);
    if (i32 && (tl_fault_rows_i32(L, in, N, w) || tl_fault_rows_i32(L, out, N, w))) {
        free(t);
        return 1;
    }
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = i32 ? tl_i32((int64_t)pid * N) : (int64_t)pid * N;
        sm_load_tile(L, in, base, 1, N, T, -INFINITY, t);
        sm_tile_softmax(t, T);
        for (int64_t i = 0; i < T && i < N; i++) tl_store(L, out, base + i, t[i], tl_f32());
    }
    free(t);
    return 0;
}

/* The binary16 rounding of a binary32 value (for mutants that accumulate in fp16). */
static inline float sm_f16(float x) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return (float)td_decode(TD_F16, td_encode_f32(p, x));
}

/* tl_sum's pairwise tree with every partial sum rounded to binary16. */
static inline float sm_sum_f16(const float *x, int64_t n) {
    if (n <= 0) return 0.0f;
    if (n == 1) return sm_f16(x[0]);
    int64_t h = n / 2;
    return sm_f16(sm_sum_f16(x, h) + sm_sum_f16(x + h, n - h));
}

/* The bugs sm_rows_bug puts into the row softmax of the kernels of one program per row
 * at pid * input_row_stride, stored at pid * output_row_stride, n_cols lanes of a
 * BLOCK_SIZE tile (triton_softmax, softmax_triton2). */
enum {
    SM_BUG_MASK_LE,    /* load mask cols <= n_cols: the cell after the row joins (-inf past the buffer) */
    SM_BUG_STORE_ALL,  /* the store without its mask: every lane written (cells past the buffer skipped) */
    SM_BUG_EXP2,       /* tl.exp2(row - max) in place of tl.exp */
    SM_BUG_OFFSET_I32, /* the row base pid * input_row_stride in int32: a wrapped base outside faults */
    SM_BUG_F16_SUM,    /* the denominator summed in binary16 */
    SM_BUG_OTHER_ZERO, /* masked lanes loaded as 0.0, not -inf */
};
/* Parameters input_row_stride, output_row_stride, n_cols, BLOCK_SIZE; regions output,
 * input (both kernels' order). */
static inline int sm_rows_bug(const td_abi_launch *L, int bug) {
    const int out = 0, in = 1;
    int64_t is = TL_I(L, 0), os = TL_I(L, 1), n = TL_I(L, 2), B = TL_I(L, 3);
    float *row;
    TL_ALLOC(L, row, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = bug == SM_BUG_OFFSET_I32 ? tl_i32((int64_t)pid * tl_i32(is)) : (int64_t)pid * is;
        if (bug == SM_BUG_OFFSET_I32 && tl_fault(L, in, base, n < B ? n : B, 1, pid)) {
            free(row);
            return 1;
        }
        if (bug == SM_BUG_MASK_LE)
            for (int64_t j = 0; j < B; j++)
                row[j] = j <= n && base + j < (int64_t)TL_LEN(L, in) ? tl_load(L, in, base + j) : -INFINITY;
        else
            sm_load_tile(L, in, base, 1, n, B, bug == SM_BUG_OTHER_ZERO ? 0.0f : -INFINITY, row);
        if (bug == SM_BUG_EXP2 || bug == SM_BUG_F16_SUM) {
            float m = tl_max(row, B);
            for (int64_t j = 0; j < B; j++) row[j] = bug == SM_BUG_EXP2 ? exp2f(row[j] - m) : expf(row[j] - m);
            float s = bug == SM_BUG_EXP2 ? tl_sum(row, B) : sm_sum_f16(row, B);
            for (int64_t j = 0; j < B; j++) row[j] = row[j] / s;
        } else {
            sm_tile_softmax(row, B);
        }
        for (int64_t j = 0; j < B && (j < n || bug == SM_BUG_STORE_ALL); j++) {
            int64_t off = (int64_t)pid * os + j;
            if (bug != SM_BUG_STORE_ALL || off < (int64_t)TL_LEN(L, out)) tl_store(L, out, off, row[j], tl_f32());
        }
    }
    free(row);
    return 0;
}

#endif
