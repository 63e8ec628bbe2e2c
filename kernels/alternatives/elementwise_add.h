/* The vector-add alternatives (add_example, vector_addition, vector_addition_custom,
 * add_value): a grid-stride loop instead of one BLOCK per program.
 *
 * alt_grid_stride: a fixed number of "programs" (4) each walk the elements
 * i = p, p + 4, p + 8, ... < n, the operands added in the other order (y + x, value + x):
 * the structure of a CUDA grid-stride kernel launched with fewer blocks than tiles.
 * Binary32 addition is commutative and correctly rounded, so every lane gets the same
 * value as the port; what differs is which program writes which lane and in which
 * order, which the harness must not depend on.  Same lanes (i < n).
 */
#ifndef TD_ALT_ELEMENTWISE_ADD_H
#define TD_ALT_ELEMENTWISE_ADD_H

#include "alt_common.h"

#define ALT_STRIDE_PROGRAMS 4

/* out = b + a for i < n, regions a, b (b < 0: the scalar `value`), out */
static inline int alt_add_grid_stride(const td_abi_launch *L, int64_t n, int ra, int rb, float value, int rout) {
    for (int64_t p = 0; p < ALT_STRIDE_PROGRAMS; p++)
        for (int64_t i = p; i < n; i += ALT_STRIDE_PROGRAMS) {
            float b = rb >= 0 ? tl_load(L, rb, i) : value;
            tl_store(L, rout, i, b + tl_load(L, ra, i), tl_f32());
        }
    return 0;
}

#endif
