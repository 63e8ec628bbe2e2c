/* The int32-offset bug the far tier reaches (contracts/gen_far.h), for kernels whose
 * program i (grid axis `axis`: a head or batch index i_bh) starts at i * stride in a
 * region: the base formed as i * stride in int32, Triton's default for a program id
 * times an integer argument.  On a device a wrapped base outside the buffer is an
 * illegal address that fails the launch; a host kernel cannot touch it, so it checks
 * every program's wrapped base first (tl_fault) and otherwise runs the correct program.
 * A wrapped base that lands inside the buffer (reading another head) is not modelled:
 * no case gets there first -- ordinary cases never wrap, and in a far case the first i
 * with i * stride >= 2^31 (stride < 2^32) wraps below 0. */
#ifndef TD_MUT_FAR_I32_H
#define TD_MUT_FAR_I32_H

#include "../host/tl.h"

static inline int far_i32_fault(const td_abi_launch *L, int axis, int reg, int64_t stride) {
    for (uint32_t i = 0; i < L->grid[axis]; i++)
        if (tl_fault(L, reg, tl_i32((int64_t)i * tl_i32(stride)), 1, 1, i)) return 1;
    return 0;
}

#endif
