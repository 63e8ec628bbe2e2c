/* f8_conversion_utils mutants. */
#include "../host/tl.h"

enum { P_N, P_BLOCK };
enum { R_Y, R_X };

static int convert_with(const td_abi_launch *L, td_profile store, td_fmt read_as) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off >= n) continue;
            float x = read_as == TD_FMT_COUNT ? tl_load(L, R_X, off)
                                              : (float)td_decode(read_as, ((const uint8_t *)TL_BASE(L, R_X))[off]);
            tl_store(L, R_Y, off, x, store);
        }
    return 0;
}

/* The store overflows to inf (the IEEE / PyTorch-eager rule) while the kernel claims
 * Triton's saturating conversion. */
static int f16_to_f8_nosat(const td_abi_launch *L) {
    return convert_with(L, (td_profile){TD_E5M2, TD_RNE, TD_OVF_INF, false}, TD_FMT_COUNT);
}
/* The store truncates (round toward zero) instead of rounding to nearest even. */
static int f16_to_f8_rtz(const td_abi_launch *L) {
    return convert_with(L, (td_profile){TD_E5M2, TD_RTZ, TD_OVF_SAT, false}, TD_FMT_COUNT);
}
/* The input is reinterpreted as e4m3fn instead of e5m2 (f8_to_f16's `dtypes`
 * argument left at the other fp8 type). */
static int f8_to_f16_wrong_format(const td_abi_launch *L) {
    return convert_with(L, (td_profile){TD_F16, TD_RNE, TD_OVF_INF, false}, TD_E4M3FN);
}

TD_KERNEL(td_m_f16_to_f8_nosat) = {"f8_conversion_utils.f16_to_f8_io_correctness", "mut_overflow_to_inf", TD_ABI_HOST,
                                   "store=e5m2:rne:sat", NULL,
                                   "declares the saturating store but overflows to inf", 2, 2, f16_to_f8_nosat, NULL};
TD_KERNEL(td_m_f16_to_f8_rtz) = {"f8_conversion_utils.f16_to_f8_io_correctness", "mut_store_rtz", TD_ABI_HOST,
                                 "store=e5m2:rne:sat", NULL, "store rounds toward zero", 2, 2, f16_to_f8_rtz, NULL};
TD_KERNEL(td_m_f8_to_f16_fmt) = {"f8_conversion_utils.f8_to_f16_io_correctness", "mut_read_as_e4m3", TD_ABI_HOST,
                                 "store=fp16:rne:inf", NULL, "input bytes decoded as e4m3fn, not e5m2", 2, 2,
                                 f8_to_f16_wrong_format, NULL};
