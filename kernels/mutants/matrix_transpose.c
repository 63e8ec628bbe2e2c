/* matrix_transpose mutants: the two classic stride mix-ups of a transpose. */
#include "../host/tl.h"

enum { P_MSX, P_MSY, P_OSX, P_OSY, P_SIZE_M, P_D_HEAD };
enum { R_M, R_OUT };

static int transpose_variant(const td_abi_launch *L, int swap_out, int swap_in) {
    int64_t msx = TL_I(L, P_MSX), msy = TL_I(L, P_MSY), osx = TL_I(L, P_OSX), osy = TL_I(L, P_OSY);
    int64_t SM = TL_I(L, P_SIZE_M), DH = TL_I(L, P_D_HEAD);
    int64_t inlen = (int64_t)TL_LEN(L, R_M), outlen = (int64_t)TL_LEN(L, R_OUT);
    if (swap_out) { int64_t t = osx; osx = osy; osy = t; }
    if (swap_in) { int64_t t = msx; msx = msy; msy = t; }
    td_profile st = {TL_FMT(L, R_OUT), TD_RNE, TD_OVF_INF, false};
    for (int64_t d = 0; d < DH; d++)
        for (int64_t m = 0; m < SM; m++) {
            int64_t src = m * msx + d * msy, dst = d * osx + m * osy;
            float v = src < inlen ? tl_load(L, R_M, src) : 0.0f; /* (inside the allocations) */
            if (dst < outlen) tl_store(L, R_OUT, dst, v, st);
        }
    return 0;
}

/* Out is addressed with its strides swapped (d * out_stridey + m * out_stridex). */
static int transpose_out_strides_swapped(const td_abi_launch *L) { return transpose_variant(L, 1, 0); }
/* M is read with its strides swapped (the source tile taken as already transposed). */
static int transpose_in_strides_swapped(const td_abi_launch *L) { return transpose_variant(L, 0, 1); }

/* m[:, None] * matrix_stridex formed in int32 (Triton's default): beyond 2^31 elements
 * a row's offset wraps to an address outside M, where the device faults. */
static int transpose_offset_int32(const td_abi_launch *L) {
    int64_t msx = TL_I(L, P_MSX), msy = TL_I(L, P_MSY), osx = TL_I(L, P_OSX), osy = TL_I(L, P_OSY);
    int64_t SM = TL_I(L, P_SIZE_M), DH = TL_I(L, P_D_HEAD);
    td_profile st = {TL_FMT(L, R_OUT), TD_RNE, TD_OVF_INF, false};
    for (int64_t m = 0; m < SM; m++)
        if (tl_fault(L, R_M, tl_i32(m * tl_i32(msx)), DH, msy, 0)) return 1;
    for (int64_t d = 0; d < DH; d++)
        for (int64_t m = 0; m < SM; m++)
            tl_store(L, R_OUT, d * osx + m * osy, tl_load(L, R_M, tl_i32(m * tl_i32(msx)) + d * msy), st);
    return 0;
}

TD_KERNEL(td_m_matrix_transpose_out) = {"matrix_transpose.kernel_correctness", "mut_out_strides_swapped", TD_ABI_HOST,
                                        NULL, NULL, "Out written at d * out_stridey + m * out_stridex", 6, 2,
                                        transpose_out_strides_swapped, NULL};
TD_KERNEL(td_m_matrix_transpose_in) = {"matrix_transpose.kernel_correctness", "mut_in_strides_swapped", TD_ABI_HOST,
                                       NULL, NULL, "M read at m * matrix_stridey + d * matrix_stridex", 6, 2,
                                       transpose_in_strides_swapped, NULL};
TD_KERNEL(td_m_matrix_transpose_i32) = {"matrix_transpose.kernel_correctness", "mut_offset_int32", TD_ABI_HOST, NULL,
                                       NULL, "m[:, None] * matrix_stridex formed in int32 (rows beyond 2^31 elements "
                                       "wrap)", 6, 2, transpose_offset_int32, NULL};
