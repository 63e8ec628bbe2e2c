/* diag_ssm_triton: diag_ssm_forward_kernel and diag_ssm_backward_kernel (real) on every
 * program of the grid cdiv(batch*dim, BLOCK_SIZE), binary32: forward s = s * Lambda + x
 * per step, stored to y; backward from t = length-1 down: grad_s = grad_y + grad_s;
 * grad_x = grad_s; grad_Lambda += grad_s * s_prev; grad_s = grad_s * Lambda; then
 * grad_s and grad_Lambda stored.  Parameters: length batch_size dim BLOCK_SIZE.
 * Regions: forward s x lambda y; backward s lambda y grad_s grad_x grad_lambda grad_y. */
#include "diag_ssm_triton_tl.h"

static float ds_f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(td_profile_default(TD_F16), x)); }

int td_dssm_fwd(const td_abi_launch *L, const dssm_bug *bug) {
    int64_t T = TL_I(L, 0), B = TL_I(L, 1), dim = TL_I(L, 2), BS = TL_I(L, 3), n = B * dim;
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (int64_t j = 0; j < BS; j++) {
            int64_t col = p0 * BS + j;
            if (col >= n) continue;
            float s = tl_load(L, 0, col), lam = tl_load(L, 2, bug->lambda_by_batch ? col / B : col % dim);
            for (int64_t t = 0; t < T; t++) {
                s = (bug->decay_twice ? (s * lam) * lam : s * lam) + tl_load(L, 1, t * n + col);
                if (bug->fp16_state) s = ds_f16(s);
                tl_store(L, 3, t * n + col, s, tl_f32());
            }
        }
    return 0;
}

int td_dssm_bwd(const td_abi_launch *L, const dssm_bug *bug) {
    int64_t T = TL_I(L, 0), dim = TL_I(L, 2), BS = TL_I(L, 3), n = TL_I(L, 1) * dim;
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (int64_t j = 0; j < BS; j++) {
            int64_t col = p0 * BS + j;
            if (col >= n) continue;
            float lam = tl_load(L, 1, col % dim), gs = 0.0f, gl = 0.0f;
            for (int64_t i = 0; i < T; i++) {
                int64_t t = bug->bwd_forward ? i : T - 1 - i;
                int64_t tp = bug->y_same_row ? t : t - 1;
                float sp = tp >= 0 ? tl_load(L, 2, tp * n + col) : tl_load(L, 0, col);
                gs = tl_load(L, 6, t * n + col) + gs;
                float gx = gs;
                gl += gs * sp;
                if (!(bug->no_last_decay && t == 0)) gs = gs * lam;
                tl_store(L, 4, t * n + col, gx, tl_f32());
            }
            tl_store(L, 3, col, gs, tl_f32());
            tl_store(L, 5, col, gl, tl_f32());
        }
    return 0;
}

static const dssm_bug none = {0};
static int fwd(const td_abi_launch *L) { return td_dssm_fwd(L, &none); }
static int bwd(const td_abi_launch *L) { return td_dssm_bwd(L, &none); }
TD_KERNEL(td_k_dssm_fwd_sum) = {DSSM_FWD_SUM, "triton", TD_ABI_HOST, NULL, NULL, NULL, 4, 4, fwd, NULL};
TD_KERNEL(td_k_dssm_fwd_io) = {DSSM_FWD_IO, "triton", TD_ABI_HOST, NULL, NULL, NULL, 4, 4, fwd, NULL};
TD_KERNEL(td_k_dssm_bwd_io) = {DSSM_BWD_IO, "triton", TD_ABI_HOST, NULL, NULL, NULL, 4, 7, bwd, NULL};
