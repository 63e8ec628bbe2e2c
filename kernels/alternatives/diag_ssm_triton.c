/* diag_ssm_triton, alternative: the chunked scan with the state carried.
 *
 * alt_chunk16: y (forward) and grad_x, grad_s, grad_lambda (backward) for every lane,
 * the scans evaluated as chunk-parallel kernels do: chunks of 16 steps, the carried
 * state h_c, the chunk's decays as a running product A, its inputs scanned from 0 with
 * FMA, h_t = fmaf(A, h_c, loc); grad_lambda summed from t = 0 up with FMA (the port:
 * from length-1 down, no FMA).  Admissible: oracle/lrec.h's chunked-with-carry form,
 * any order and FMA for the sum.
 */
#include "tl.h"

#define CH 16
typedef struct chs {
    float hc, A, loc, h;
} chs;
static void ch_step(chs *s, int64_t n, float a, float x) {
    if (n % CH == 0) s->hc = s->h, s->A = 1.0f, s->loc = 0.0f;
    s->A *= a;
    s->loc = fmaf(a, s->loc, x);
    s->h = fmaf(s->A, s->hc, s->loc);
}

static int fwd(const td_abi_launch *L) {
    int64_t T = TL_I(L, 0), dim = TL_I(L, 2), n = TL_I(L, 1) * dim;
    for (int64_t col = 0; col < n; col++) {
        chs s = {0, 1, 0, tl_load(L, 0, col)};
        float lam = tl_load(L, 2, col % dim);
        for (int64_t t = 0; t < T; t++) {
            ch_step(&s, t, lam, tl_load(L, 1, t * n + col));
            tl_store(L, 3, t * n + col, s.h, tl_f32());
        }
    }
    return 0;
}

static int bwd(const td_abi_launch *L) {
    int64_t T = TL_I(L, 0), dim = TL_I(L, 2), n = TL_I(L, 1) * dim;
    float *g;
    TL_ALLOC(L, g, T);
    for (int64_t col = 0; col < n; col++) {
        chs s = {0, 1, 0, 0.0f};
        float lam = tl_load(L, 1, col % dim), gl = 0.0f;
        for (int64_t k = 0; k < T; k++) {
            int64_t t = T - 1 - k;
            ch_step(&s, k, k ? lam : 0.0f, tl_load(L, 6, t * n + col)); /* g_t = gy_t + lam g_{t+1} */
            g[t] = s.h;
            tl_store(L, 4, t * n + col, s.h, tl_f32());
        }
        for (int64_t t = 0; t < T; t++) gl = fmaf(g[t], t > 0 ? tl_load(L, 2, (t - 1) * n + col) : tl_load(L, 0, col), gl);
        tl_store(L, 3, col, g[0] * lam, tl_f32());
        tl_store(L, 5, col, gl, tl_f32());
    }
    free(g);
    return 0;
}

TD_KERNEL(td_a_dssm_fwd_sum) = {"diag_ssm_triton.diag_ssm_forward_kernel_output_summary", "alt_chunk16", TD_ABI_HOST,
                                NULL, NULL, NULL, 4, 4, fwd, NULL};
TD_KERNEL(td_a_dssm_fwd_io) = {"diag_ssm_triton.diag_ssm_forward_io_correctness", "alt_chunk16", TD_ABI_HOST, NULL,
                               NULL, NULL, 4, 4, fwd, NULL};
TD_KERNEL(td_a_dssm_bwd_io) = {"diag_ssm_triton.diag_ssm_backward_io_correctness", "alt_chunk16", TD_ABI_HOST, NULL,
                               NULL, NULL, 4, 7, bwd, NULL};
