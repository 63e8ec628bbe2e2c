/* chunk_cumsum_kernel, alternatives: the row's inclusive prefix sums in other orders.
 *
 * O[p*T + i] = sum_{m <= i} S[p*T + m], stored through O's format.  The port scans each
 * chunk of BT with the Kogge-Stone network and adds the carry after.
 *   alt_global_seq:       one running binary32 sum over the whole row (no chunks);
 *   alt_chunk5_carry_in:  chunks of 5 (not BT, not a power of two), the carry added to
 *                         the chunk's first element BEFORE its scan, which is a Blelloch
 *                         (up-sweep / down-sweep) scan of the padded chunk.
 * Admissible: every output is a sum of exactly its terms in some association order.
 */
#include "alt_common.h"

enum { P_T, P_BT };
enum { R_S, R_O };

static int global_seq(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T);
    for (uint32_t r = 0; r < L->grid[0]; r++) {
        float s = 0.0f;
        for (int64_t i = 0; i < T; i++) {
            s = s + tl_load(L, R_S, (int64_t)r * T + i);
            tl_store(L, R_O, (int64_t)r * T + i, s, alt_out(L, R_O));
        }
    }
    return 0;
}

/* Blelloch's exclusive scan of x[0..8) (8: the padded chunk), then inclusive by a shift. */
static void blelloch8(const float *x, float *out) {
    float a[8];
    memcpy(a, x, sizeof a);
    for (int d = 1; d < 8; d *= 2)
        for (int k = 2 * d - 1; k < 8; k += 2 * d) a[k] = a[k] + a[k - d];
    float total = a[7];
    a[7] = 0.0f;
    for (int d = 4; d >= 1; d /= 2)
        for (int k = 2 * d - 1; k < 8; k += 2 * d) {
            float t = a[k - d];
            a[k - d] = a[k];
            a[k] = a[k] + t;
        }
    for (int k = 0; k < 7; k++) out[k] = a[k + 1];
    out[7] = total;
}

static int chunk5_carry_in(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T);
    for (uint32_t r = 0; r < L->grid[0]; r++) {
        float carry = 0.0f;
        for (int64_t c0 = 0; c0 < T; c0 += 5) {
            float x[8] = {0}, out[8];
            for (int64_t j = 0; j < 5 && c0 + j < T; j++) x[j] = tl_load(L, R_S, (int64_t)r * T + c0 + j);
            x[0] = x[0] + carry; /* the carry enters before the scan */
            blelloch8(x, out);
            for (int64_t j = 0; j < 5 && c0 + j < T; j++) tl_store(L, R_O, (int64_t)r * T + c0 + j, out[j], alt_out(L, R_O));
            carry = out[4]; /* the chunk's last prefix: the running total (padding adds exact zeros) */
        }
    }
    return 0;
}

#define CCS_SUM "chunk_cumsum_kernel.chunk_cumsum_scalar_output_summary_general"
#define CCS_IO "chunk_cumsum_kernel.chunk_cumsum_scalar_io_correctness"
TD_KERNEL(td_a_ccs_sum_seq) = {CCS_SUM, "alt_global_seq", TD_ABI_HOST, NULL, NULL, NULL, 2, 2, global_seq, NULL};
TD_KERNEL(td_a_ccs_io_seq) = {CCS_IO, "alt_global_seq", TD_ABI_HOST, NULL, NULL, NULL, 2, 2, global_seq, NULL};
TD_KERNEL(td_a_ccs_sum_c5) = {CCS_SUM, "alt_chunk5_carry_in", TD_ABI_HOST, NULL, NULL, NULL, 2, 2, chunk5_carry_in,
                              NULL};
TD_KERNEL(td_a_ccs_io_c5) = {CCS_IO, "alt_chunk5_carry_in", TD_ABI_HOST, NULL, NULL, NULL, 2, 2, chunk5_carry_in, NULL};
