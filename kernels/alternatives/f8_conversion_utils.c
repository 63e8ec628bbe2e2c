/* f8_conversion_utils, alternatives: the conversions done on the bits, not by a cast.
 *
 * The port stores the loaded value through the output's cast profile (the store is the
 * conversion).  These write the output's bit patterns themselves, as a kernel that
 * reinterprets the registers as integers does.
 * alt_f16_to_f8_bits: e5m2 is binary16 without its 8 low significand bits, so
 * round-to-nearest-even on the fp16 bits is an integer add and a shift:
 * (|h| + 0x7f + bit 8 of |h|) >> 8 (a carry out of the significand bumps the exponent,
 * subnormals included); a result at or past 0x7c (inf) saturates to 0x7b (57344), the
 * declared "e5m2:rne:sat".  Lanes of each block are processed as pairs, as
 * cvt.rn.satfinite.e5m2x2.f16x2 does.
 * alt_f8_to_f16_bits: the e5m2 byte shifted into the high byte of the fp16 pattern (the
 * widening is exact: same exponent bias and field, 8 zero bits appended).
 * Admissible: the contract pins the rounding (RNE, saturate), not how it is computed;
 * the inputs are finite (check_finite). */
#include "tl.h"

enum { P_N, P_BLOCK };
enum { R_Y, R_X };

static uint8_t f16_bits_to_e5m2(uint16_t h) {
    uint16_t sign = (uint16_t)(h >> 8 & 0x80u), mag = (uint16_t)(h & 0x7fffu);
    if (mag > 0x7c00u) return (uint8_t)(sign | 0x7fu); /* NaN (not a contract input) stays NaN */
    uint32_t r = ((uint32_t)mag + 0x7fu + ((uint32_t)mag >> 8 & 1u)) >> 8;
    return (uint8_t)(sign | (r >= 0x7cu ? 0x7bu : r));
}

static int f16_to_f8_bits(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    const uint16_t *x = (const uint16_t *)L->regions[R_X].base;
    uint8_t *y = (uint8_t *)L->regions[R_Y].base;
    for (int64_t pid = 0; pid < (int64_t)L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j += 2) { /* a pair of lanes a step, each masked */
            int64_t off = pid * B + j;
            if (off < n) y[off] = f16_bits_to_e5m2(x[off]);
            if (j + 1 < B && off + 1 < n) y[off + 1] = f16_bits_to_e5m2(x[off + 1]);
        }
    return 0;
}

static int f8_to_f16_bits(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    const uint8_t *x = (const uint8_t *)L->regions[R_X].base;
    uint16_t *y = (uint16_t *)L->regions[R_Y].base;
    for (int64_t pid = 0; pid < (int64_t)L->grid[0]; pid++)
        for (int64_t j = 0; j < B && pid * B + j < n; j++) y[pid * B + j] = (uint16_t)(x[pid * B + j] << 8);
    return 0;
}

TD_KERNEL(td_a_f16_to_f8) = {"f8_conversion_utils.f16_to_f8_io_correctness", "alt_f16_to_f8_bits", TD_ABI_HOST,
                             "store=e5m2:rne:sat", NULL, NULL, 2, 2, f16_to_f8_bits, NULL};
TD_KERNEL(td_a_f8_to_f16) = {"f8_conversion_utils.f8_to_f16_io_correctness", "alt_f8_to_f16_bits", TD_ABI_HOST,
                             "store=fp16:rne:inf", NULL, NULL, 2, 2, f8_to_f16_bits, NULL};
