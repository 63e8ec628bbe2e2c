/* triton_mul2, alternative: 2*x as x + x, lanes walked last first.
 *
 * alt_add_self: out = x + x over i < n_elements, walking the lanes from the last down
 * (a kernel launched with a reversed grid); in place, each lane is read before it is
 * written.  x + x and 2*x are the same correctly rounded binary32 value for every x
 * (both are the exact 2x rounded once), so this is admissible; it checks that the
 * harness does not depend on the port's lane order.
 */
#include "alt_common.h"

enum { P_N, P_BLOCK };

static int add_self(const td_abi_launch *L, int out) {
    for (int64_t i = TL_I(L, P_N) - 1; i >= 0; i--) {
        float x = tl_load(L, 0, i);
        tl_store(L, out, i, x + x, tl_f32());
    }
    return 0;
}
static int add_self_oop(const td_abi_launch *L) { return add_self(L, 1); }
static int add_self_inplace(const td_abi_launch *L) { return add_self(L, 0); }

TD_KERNEL(td_a_mul2_add) = {"triton_mul2.mul2_kernel_correctness", "alt_add_self", TD_ABI_HOST, NULL, NULL, NULL, 2, 2,
                            add_self_oop, NULL};
TD_KERNEL(td_a_mul2_inplace_add) = {"triton_mul2.mul2_inplace_kernel_correctness", "alt_add_self", TD_ABI_HOST, NULL,
                                    NULL, NULL, 2, 1, add_self_inplace, NULL};
