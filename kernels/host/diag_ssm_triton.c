/* diag_ssm_triton: diag_ssm_forward_kernel and diag_ssm_backward_kernel (real) on every
 * program of the grid cdiv(batch*dim, BLOCK_SIZE), binary32: forward s = s * Lambda + x
 * per step, stored to y; backward from t = length-1 down: grad_s = grad_y + grad_s;
 * grad_x = grad_s; grad_Lambda += grad_s * s_prev; grad_s = grad_s * Lambda; then
 * grad_s and grad_Lambda stored.  Parameters: length batch_size dim BLOCK_SIZE.
 * Regions: forward s x lambda y; backward s lambda y grad_s grad_x grad_lambda grad_y. */
#include "diag_ssm_triton_tl.h"

static float ds_f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(td_profile_default(TD_F16), x)); }

/* The int32-offset mutants (bug->off_i32): t * batch_size * dim + col formed in int32, as
 * the original does (t, batch_size, dim all int32).  The offsets grow with t, so a launch
 * wraps first at t = length - 1: each program's first and last lane there are checked
 * for the whole launch first (one wrapped address fails a device's launch). */
static int dssm_fault_i32(const td_abi_launch *L, int reg, int64_t T, int64_t n, int64_t BS) {
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
        int64_t first = (T - 1) * n + p0 * BS, last = first + (BS < n - p0 * BS ? BS : n - p0 * BS) - 1;
        if (T > 0 && (tl_fault(L, reg, tl_i32(first), 1, 1, p0) || tl_fault(L, reg, tl_i32(last), 1, 1, p0))) return 1;
    }
    return 0;
}

/* Each program keeps its BLOCK_SIZE lanes' states and steps them together, as the
 * original's tile does (a step's loads are one contiguous row of the tile: a launch of
 * 2^31 elements then sweeps x and y once per program). */
int td_dssm_fwd(const td_abi_launch *L, const dssm_bug *bug) {
    int64_t T = TL_I(L, 0), B = TL_I(L, 1), dim = TL_I(L, 2), BS = TL_I(L, 3), n = B * dim;
    if (bug->off_i32 && (dssm_fault_i32(L, 1, T, n, BS) || dssm_fault_i32(L, 3, T, n, BS))) return 1;
    float *s, *lam;
    TL_ALLOC(L, s, 2 * BS);
    lam = s + BS;
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
        int64_t w = BS < n - p0 * BS ? BS : n - p0 * BS; /* the lanes col < n */
        for (int64_t j = 0; j < w; j++) {
            int64_t col = p0 * BS + j;
            s[j] = tl_load(L, 0, col), lam[j] = tl_load(L, 2, bug->lambda_by_batch ? col / B : col % dim);
        }
        for (int64_t t = 0; t < T; t++)
            for (int64_t j = 0; j < w; j++) {
                int64_t off = t * n + p0 * BS + j;
                s[j] = (bug->decay_twice ? (s[j] * lam[j]) * lam[j] : s[j] * lam[j]) + tl_load(L, 1, off);
                if (bug->fp16_state) s[j] = ds_f16(s[j]);
                tl_store(L, 3, off, s[j], tl_f32());
            }
    }
    free(s);
    return 0;
}

int td_dssm_bwd(const td_abi_launch *L, const dssm_bug *bug) {
    int64_t T = TL_I(L, 0), dim = TL_I(L, 2), BS = TL_I(L, 3), n = TL_I(L, 1) * dim;
    if (bug->off_i32 && (dssm_fault_i32(L, 6, T, n, BS) || dssm_fault_i32(L, 4, T, n, BS))) return 1;
    float *lam, *gs, *gl;
    TL_ALLOC(L, lam, 3 * BS);
    gs = lam + BS, gl = gs + BS;
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
        int64_t w = BS < n - p0 * BS ? BS : n - p0 * BS;
        for (int64_t j = 0; j < w; j++) lam[j] = tl_load(L, 1, (p0 * BS + j) % dim), gs[j] = gl[j] = 0.0f;
        for (int64_t i = 0; i < T; i++) {
            int64_t t = bug->bwd_forward ? i : T - 1 - i, tp = bug->y_same_row ? t : t - 1;
            for (int64_t j = 0; j < w; j++) {
                int64_t col = p0 * BS + j;
                float sp = tp >= 0 ? tl_load(L, 2, tp * n + col) : tl_load(L, 0, col);
                gs[j] = tl_load(L, 6, t * n + col) + gs[j];
                float gx = gs[j];
                gl[j] += gs[j] * sp;
                if (!(bug->no_last_decay && t == 0)) gs[j] = gs[j] * lam[j];
                tl_store(L, 4, t * n + col, gx, tl_f32());
            }
        }
        for (int64_t j = 0; j < w; j++) tl_store(L, 3, p0 * BS + j, gs[j], tl_f32()), tl_store(L, 5, p0 * BS + j, gl[j], tl_f32());
    }
    free(lam);
    return 0;
}

static const dssm_bug none = {0};
static int fwd(const td_abi_launch *L) { return td_dssm_fwd(L, &none); }
static int bwd(const td_abi_launch *L) { return td_dssm_bwd(L, &none); }
TD_KERNEL(td_k_dssm_fwd_sum) = {DSSM_FWD_SUM, "triton", TD_ABI_HOST, NULL, NULL, NULL, 4, 4, fwd, NULL};
TD_KERNEL(td_k_dssm_fwd_io) = {DSSM_FWD_IO, "triton", TD_ABI_HOST, NULL, NULL, NULL, 4, 4, fwd, NULL};
TD_KERNEL(td_k_dssm_bwd_io) = {DSSM_BWD_IO, "triton", TD_ABI_HOST, NULL, NULL, NULL, 4, 7, bwd, NULL};
