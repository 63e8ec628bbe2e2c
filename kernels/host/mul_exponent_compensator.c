/* mul_exponent_compensator: dst = src * 2^(127 - 15), one unmasked tile of BLOCK_SIZE
 * elements per program.  Parameter: BLOCK_SIZE.  Regions: src, dst. */
#include "tl.h"

enum { P_BLOCK };
enum { R_SRC, R_DST };

static int mul_kernel(const td_abi_launch *L) {
    int64_t B = TL_I(L, P_BLOCK);
    const float exponent_compensator = 0x1p112f; /* 2.0 ** (127 - 15), exact in binary32 */
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t idx = (int64_t)pid * B + j; /* no mask: every lane of the tile */
            tl_store(L, R_DST, idx, tl_load(L, R_SRC, idx) * exponent_compensator, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_k_mul_exponent_compensator) = {"mul_exponent_compensator.mul_kernel_correctness", "triton", TD_ABI_HOST,
                                            NULL, NULL, NULL, 1, 2, mul_kernel, NULL};
