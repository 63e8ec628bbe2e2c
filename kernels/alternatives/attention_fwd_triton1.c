/* Alternatives for attention_fwd_triton1 (chunked linear attention: o_r = sum over the keys
 * j of chunks <= chunk(r) of ((q_r * scale) . k_j) v_j), written without the port's carry:
 *
 *   alt_quadratic_fma  the quadratic form: every key's score s_j = q' . k_j (q' = q * scale
 *                      rounded, as the contract states), then o = sum_j s_j v_j over all the
 *                      keys up to the end of the row's chunk, from the last key down, each step
 *                      one FMA; the score dot an FMA chain from the last lane down.  The
 *                      earlier chunks' products associate as (q' . k_j) v_j instead of
 *                      q' . (sum_j k_j v_j).
 *   alt_carry_split    the carry kept per chunk (h_c = K_c^T V_c, not accumulated), the
 *                      recurrent term summed chunk by chunk from the newest to the oldest,
 *                      the local term added last.
 * Parameters and regions: the port's (H untouched). */
#include "alt_common.h"

enum { P_SQH, P_SHH, P_SHT, P_SCALE, P_BT, P_BD, P_NT };
enum { R_Q, R_K, R_V, R_H, R_O };

static float a1a_x(const td_abi_launch *L, int reg, int64_t p0, int64_t row, int64_t e) {
    return tl_load(L, reg, p0 * TL_I(L, P_SQH) + row * TL_I(L, P_BD) + e);
}
static float a1a_q(const td_abi_launch *L, int64_t p0, int64_t row, int64_t e) {
    return a1a_x(L, R_Q, p0, row, e) * TL_R(L, P_SCALE);
}

static float a1a_quadratic(const td_abi_launch *L, int64_t p0, int64_t row, int64_t d) {
    const int64_t BT = TL_I(L, P_BT), BD = TL_I(L, P_BD), end = (row / BT + 1) * BT;
    float o = 0.0f;
    for (int64_t j = end - 1; j >= 0; j--) {
        float s = 0.0f;
        for (int64_t e = BD - 1; e >= 0; e--) s = fmaf(a1a_q(L, p0, row, e), a1a_x(L, R_K, p0, j, e), s);
        o = fmaf(s, a1a_x(L, R_V, p0, j, d), o);
    }
    return o;
}

static float a1a_split(const td_abi_launch *L, int64_t p0, int64_t row, int64_t d) {
    const int64_t BT = TL_I(L, P_BT), BD = TL_I(L, P_BD), c = row / BT;
    float rec = 0.0f, loc = 0.0f;
    for (int64_t u = c - 1; u >= 0; u--)
        for (int64_t a = 0; a < BD; a++) {
            float h = 0.0f; /* (K_u^T V_u)[a, d] */
            for (int64_t tk = 0; tk < BT; tk++)
                h += a1a_x(L, R_K, p0, u * BT + tk, a) * a1a_x(L, R_V, p0, u * BT + tk, d);
            rec += a1a_q(L, p0, row, a) * h;
        }
    for (int64_t tk = 0; tk < BT; tk++) {
        float s = 0.0f;
        for (int64_t e = 0; e < BD; e++) s += a1a_q(L, p0, row, e) * a1a_x(L, R_K, p0, c * BT + tk, e);
        loc += s * a1a_x(L, R_V, p0, c * BT + tk, d);
    }
    return rec + loc;
}

static int a1a_run(const td_abi_launch *L, int variant) {
    const int64_t T = TL_I(L, P_NT) * TL_I(L, P_BT), BD = TL_I(L, P_BD);
    for (int64_t p0 = 0; p0 < (int64_t)L->grid[0]; p0++)
        for (int64_t row = 0; row < T; row++)
            for (int64_t d = 0; d < BD; d++) {
                float o = variant ? a1a_split(L, p0, row, d) : a1a_quadratic(L, p0, row, d);
                tl_store(L, R_O, p0 * TL_I(L, P_SQH) + row * BD + d, o, tl_f32());
            }
    return 0;
}
static int quad(const td_abi_launch *L) { return a1a_run(L, 0); }
static int split(const td_abi_launch *L) { return a1a_run(L, 1); }

#define OS "attention_fwd_triton1.attention_fwd_triton1_output_summary_general"
#define IO "attention_fwd_triton1.attention_fwd_triton1_io_correctness"
TD_KERNEL(td_a_aft1_os_quad) = {OS, "alt_quadratic_fma", TD_ABI_HOST, NULL, NULL, NULL, 7, 5, quad, NULL};
TD_KERNEL(td_a_aft1_io_quad) = {IO, "alt_quadratic_fma", TD_ABI_HOST, NULL, NULL, NULL, 7, 5, quad, NULL};
TD_KERNEL(td_a_aft1_os_split) = {OS, "alt_carry_split", TD_ABI_HOST, NULL, NULL, NULL, 7, 5, split, NULL};
TD_KERNEL(td_a_aft1_io_split) = {IO, "alt_carry_split", TD_ABI_HOST, NULL, NULL, NULL, 7, 5, split, NULL};
