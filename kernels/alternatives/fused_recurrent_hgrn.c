/* fused_recurrent_hgrn, alternative: the chunked scan with the state carried.
 *
 * alt_chunk16: O, Ht, DX, DG as the fused kernels store them, each scan evaluated as a
 * chunk-parallel kernel does: time cut into chunks of 16 steps; at a chunk's start the
 * carried state h_c is kept, the chunk's gates multiplied into a running product A and
 * its inputs scanned from 0 (loc = fmaf(g, loc, x)); h_t = fmaf(A, h_c, loc).  The
 * backward scans dx the same way from T - 1 down, and dg = dx_t * o[t - 1].
 * Admissible: oracle/lrec.h's chunked-with-carry form and FMA contraction.
 *
 * alt_dx_wide: the bwd_dx step (DX = DHPrev + DO on the active lanes of row i_t) with
 * the sum formed in binary64 and rounded once to binary32 (a kernel that accumulates
 * d_h wide), each block's active lanes walked from the last down.
 * Admissible: binary64 holds the sum of two binary32 values exactly (or within half
 * its ulp, far below binary32's), so the one rounding to binary32 is within the half
 * ulp the contract charges (double rounding cannot move it past a binary32 midpoint
 * for a sum of two binary32 operands: 53 >= 2*24 + 2).
 */
#include "tl.h"

enum { P_USE_INIT, P_STORE_FINAL, P_IT, P_T, P_D, P_BD };
enum { R_X, R_G, R_O, R_H0, R_HT, R_DX, R_DG, R_DO };
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

static int chunk16(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T), D = TL_I(L, P_D), BH = L->grid[1];
    for (int64_t bh = 0; bh < BH; bh++)
        for (int64_t d = 0; d < D; d++) {
            chs s = {0, 1, 0, TL_I(L, P_USE_INIT) ? tl_load(L, R_H0, bh * D + d) : 0.0f};
            float h0 = s.h;
            for (int64_t t = 0; t < T; t++) {
                int64_t o = (bh * T + t) * D + d;
                ch_step(&s, t, tl_load(L, R_G, o), tl_load(L, R_X, o));
                tl_store(L, R_O, o, s.h, tl_f32());
            }
            if (TL_I(L, P_STORE_FINAL)) tl_store(L, R_HT, bh * D + d, s.h, tl_f32());
            chs b = {0, 1, 0, 0.0f};
            for (int64_t n = 0; n < T; n++) {
                int64_t t = T - 1 - n, o = (bh * T + t) * D + d;
                float g = t + 1 < T ? tl_load(L, R_G, o + D) : 0.0f; /* dx_t = do_t + g_{t+1} dx_{t+1} */
                ch_step(&b, n, g, tl_load(L, R_DO, o));
                tl_store(L, R_DX, o, b.h, tl_f32());
                tl_store(L, R_DG, o, b.h * (t > 0 ? tl_load(L, R_O, o - D) : h0), tl_f32());
            }
        }
    return 0;
}

TD_KERNEL(td_a_hgrn_summary) = {"fused_recurrent_hgrn.fused_recurrent_hgrn_output_summary_general", "alt_chunk16",
                                TD_ABI_HOST, NULL, NULL, NULL, 6, 10, chunk16, NULL};

/* bwd_dx: params i_t T D BD; regions DHPrev DO DX */
static int dx_wide(const td_abi_launch *L) {
    int64_t it = TL_I(L, 0), T = TL_I(L, 1), D = TL_I(L, 2), BD = TL_I(L, 3);
    for (int64_t bh = 0; bh < (int64_t)L->grid[1]; bh++) {
        int64_t row = (bh * T + it) * D;
        for (int64_t p0 = 0; p0 < (int64_t)L->grid[0]; p0++) {
            int64_t n = D - p0 * BD < BD ? D - p0 * BD : BD; /* the tail block's active lanes */
            for (int64_t i = n - 1; i >= 0; i--) {
                int64_t o = row + p0 * BD + i;
                double s = (double)tl_load(L, 1, o) + (double)tl_load(L, 0, o);
                tl_store(L, 2, o, (float)s, tl_f32());
            }
        }
    }
    return 0;
}

TD_KERNEL(td_a_hgrn_dx) = {"fused_recurrent_hgrn.fused_recurrent_hgrn_bwd_dx_io_correctness", "alt_dx_wide", TD_ABI_HOST,
                           NULL, NULL, NULL, 4, 3, dx_wide, NULL};
