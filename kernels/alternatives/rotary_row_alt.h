/* Alternative kernels of the rotary row slice (rotary_transform, rotary_transform_ops),
 * written as another author would: the rotation as a complex product (x0 + i x1)(cos +
 * i sin) with its real and imaginary parts each one explicit FMA over a rounded product
 * (fmaf(x0, c, -(x1*s)) and fmaf(x1, c, x0*s): what nvcc's or Triton's contraction
 * gives), the table row fetched once per program into a local tile, the programs visited
 * in reverse order, and the varlen bounds read as (start, end) up front.  Admissible: one
 * product rounding is skipped, every other step is the spec's (contracts/rotary_row_common.h).
 * Alternatively (ALT_RR_SWAPPED) the other contraction: fmaf(-x1, s, x0*c), fmaf(x0, s, x1*c). */
#ifndef TD_ROTARY_ROW_ALT_H
#define TD_ROTARY_ROW_ALT_H

#include <math.h>

#include "tl.h"

#define ALT_RR_MAXH 64
enum { ALT_RR_FMA_X0 = 0, ALT_RR_SWAPPED };

/* p0: first row parameter; head: HEAD_IDX parameter or -1; varlen: IS_VARLEN or -1;
 * regions OUT 0, X 1, COS 2, SIN 3, CU_SEQLENS 4 */
static inline int alt_rotary_row(const td_abi_launch *L, int p0, int head_p, int varlen_p, int form) {
#define P(k) TL_I(L, p0 + (k))
    int64_t so = P(0), rdh = P(2), sro = P(3), BM = P(12), BH = P(13);
    float ct[ALT_RR_MAXH], st[ALT_RR_MAXH];
    if (BH > ALT_RR_MAXH) return 1;
    for (int64_t n = (int64_t)L->grid[0] * L->grid[1] * L->grid[2] - 1; n >= 0; n--) {
        uint32_t m = (uint32_t)(n % L->grid[0]), b = (uint32_t)(n / L->grid[0] % L->grid[1]);
        int64_t h = head_p >= 0 ? L->params[head_p].i : (int64_t)(n / L->grid[0] / L->grid[1]);
        int64_t lo = 0, hi = P(1), xb, ob;
        if (varlen_p >= 0 && L->params[varlen_p].i) {
            lo = tl_load_int(L, 4, b), hi = tl_load_int(L, 4, b + 1);
            xb = lo * P(9) + h * P(10), ob = lo * P(5) + h * P(6);
        } else {
            xb = (int64_t)b * P(8) + h * P(10), ob = (int64_t)b * P(4) + h * P(6);
        }
        int64_t r = (int64_t)m * BM;
        if (lo + r >= hi) continue;
        int64_t t = r + so;
        for (int64_t j = 0; j < BH; j++) {
            ct[j] = t < sro ? tl_load(L, 2, t * rdh + j) : 1.0f;
            st[j] = t < sro ? tl_load(L, 3, t * rdh + j) : 0.0f;
        }
        for (int64_t j = BH - 1; j >= 0; j--) {
            float x0 = tl_load(L, 1, xb + r * P(9) + j * P(11)), x1 = tl_load(L, 1, xb + r * P(9) + (j + rdh) * P(11));
            float re, im;
            if (form == ALT_RR_FMA_X0) {
                re = fmaf(x0, ct[j], -(x1 * st[j]));
                im = fmaf(x1, ct[j], x0 * st[j]);
            } else {
                re = fmaf(-x1, st[j], x0 * ct[j]);
                im = fmaf(x0, st[j], x1 * ct[j]);
            }
            tl_store(L, 0, ob + r * P(5) + (j + rdh) * P(7), im, tl_f32());
            tl_store(L, 0, ob + r * P(5) + j * P(7), re, tl_f32());
        }
    }
    return 0;
#undef P
}

#endif
