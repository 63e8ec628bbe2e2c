/* Helpers shared by the elementwise host kernels. */
#ifndef TD_ELEMENTWISE_TL_H
#define TD_ELEMENTWISE_TL_H

#include "tl.h"

/* tl.sigmoid(x): Triton defines it as 1 / (1 + exp(-x)), evaluated in binary32. */
static inline float ew_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

/* The lanes of a kernel of one program per row (row pid at pid * stride, lanes j <
 * min(BLOCK, n_cols)), lane by lane: lane(L, o, arg) for each lane's offset o, program
 * by program.  i32: o formed as Triton forms it without an int64 program id, the int32
 * pid * stride + j (the int32-offset mutants); a launch whose row base wraps outside
 * region `reg` fails first (tl_fault_rows_i32). */
typedef void ew_lane_fn(const td_abi_launch *L, int64_t o, int arg);
static inline int ew_row_lanes(const td_abi_launch *L, int64_t stride, int64_t n_cols, int64_t B, int i32, int reg,
                               ew_lane_fn *lane, int arg) {
    int64_t active = n_cols < B ? n_cols : B;
    if (i32 && tl_fault_rows_i32(L, reg, stride, active)) return 1;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t row = i32 ? tl_i32((int64_t)pid * stride) : (int64_t)pid * stride;
        for (int64_t j = 0; j < active; j++) lane(L, i32 ? tl_i32(row + j) : row + j, arg);
    }
    return 0;
}

#endif
