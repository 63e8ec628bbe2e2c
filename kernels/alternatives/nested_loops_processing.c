/* Alternatives for nested_loops_processing's three contracts.
 *
 *   alt_lanes_reversed  (the a1 slice) the four lanes copied last to first, element by
 *                       element, no tile buffer.  Admissible: the order of a tile's
 *                       lanes is the implementation's.
 *   alt_closed_form     (the whole nested3) the 24 stores from closed-form shifts instead
 *                       of a pointer walk: store n = 4i + 2j + k writes a1 (shift 14i),
 *                       a2 (14i + 2 + 6j), a3 (a2 + 2 + 2k) at out shifts 6n, 6n + 2,
 *                       6n + 4, in the same order.  Admissible: the same stores.
 * Parameters: stride_m, stride_n.  Regions: in_ptr, out_ptr. */
#include "../host/tl.h"

enum { P_SM, P_SN };
enum { R_IN, R_OUT };

static void ac_copy(const td_abi_launch *L, int64_t si, int64_t so, int reversed) {
    int64_t sm = TL_I(L, P_SM), sn = TL_I(L, P_SN);
    for (int q = 0; q < 4; q++) {
        int k = reversed ? 3 - q : q, r = k / 2, c = k % 2;
        tl_store(L, R_OUT, r * sm + (c + so) * sn, tl_load(L, R_IN, r * sm + (c + si) * sn), tl_f32());
    }
}

static int a1_reversed(const td_abi_launch *L) {
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) ac_copy(L, 0, 0, 1);
    return 0;
}

static int closed_form(const td_abi_launch *L) {
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int n = 0; n < 8; n++) {
            int i = n / 4, j = (n / 2) % 2, k = n % 2;
            int64_t s1 = 14 * i, s2 = s1 + 2 + 6 * j, s3 = s2 + 2 + 2 * k;
            ac_copy(L, s1, 6 * n, 0);
            ac_copy(L, s2, 6 * n + 2, 0);
            ac_copy(L, s3, 6 * n + 4, 0);
        }
    return 0;
}

TD_KERNEL(td_a_nested3_a1_rev) = {"nested_loops_processing.nested3_first_a1_store_io_correctness",
                                  "alt_lanes_reversed", TD_ABI_HOST, NULL, NULL, NULL, 2, 2, a1_reversed, NULL};
TD_KERNEL(td_a_nested3_a1r_rev) = {"nested_loops_processing.nested3_first_a1_store_io_correctnessR",
                                   "alt_lanes_reversed", TD_ABI_HOST, NULL, NULL, NULL, 2, 2, a1_reversed, NULL};
TD_KERNEL(td_a_nested3_closed) = {"nested_loops_processing.nested3_output_summary_general", "alt_closed_form",
                                  TD_ABI_HOST, NULL, NULL, NULL, 2, 2, closed_form, NULL};
