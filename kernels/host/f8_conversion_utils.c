/* f8_conversion_utils: kernel_f16_to_f8 / kernel_f8_to_f16, a masked load and a store
 * through the other format (the store is the conversion).  Parameters: N, BLOCK_SIZE.
 * Regions: Y (output), X (input).  The fp16 -> e5m2 store saturates, as Triton's
 * cvt.rn.satfinite lowering on Hopper does. */
#include "tl.h"

enum { P_N, P_BLOCK };
enum { R_Y, R_X };

static int convert(const td_abi_launch *L, td_profile store) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < n) tl_store(L, R_Y, off, tl_load(L, R_X, off), store);
        }
    return 0;
}

static int kernel_f16_to_f8(const td_abi_launch *L) {
    return convert(L, (td_profile){TD_E5M2, TD_RNE, TD_OVF_SAT, false});
}
static int kernel_f8_to_f16(const td_abi_launch *L) {
    return convert(L, (td_profile){TD_F16, TD_RNE, TD_OVF_INF, false});
}

TD_KERNEL(td_k_f16_to_f8) = {"f8_conversion_utils.f16_to_f8_io_correctness", "triton", TD_ABI_HOST,
                             "store=e5m2:rne:sat", NULL, NULL, 2, 2, kernel_f16_to_f8, NULL};
TD_KERNEL(td_k_f8_to_f16) = {"f8_conversion_utils.f8_to_f16_io_correctness", "triton", TD_ABI_HOST,
                             "store=fp16:rne:inf", NULL, NULL, 2, 2, kernel_f8_to_f16, NULL};
