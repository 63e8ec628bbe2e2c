/* reversed_cumsum (fla chunk_global_reversed_cumsum_vector_kernel) on the CPU.
 * Parameters: s_s_h, s_s_t, s_s_d, T, S, BT, BS.  Regions: s, z (the summary) / BC, Z.
 * Program (i_s, i_bh): the chunks from the last to the first; b_c = b_z + dot(m_s, b_s)
 * with m_s[i][k] = [i <= k] (allow_tf32=False: binary32 products of exact 0/1 weights,
 * summed along k), stored; then b_z += tl.sum(b_s, 0). */
#include <stdlib.h>

#include "tl.h"

enum { P_SH, P_ST, P_SD, P_T, P_S, P_BT, P_BS };
enum { R_S, R_Z };

static int64_t rc_off(const td_abi_launch *L, int64_t bh, int64_t t, int64_t col) {
    return bh * TL_I(L, P_SH) + t * TL_I(L, P_ST) + col * TL_I(L, P_SD);
}

static void rc_program(const td_abi_launch *L, int64_t is, int64_t bh, float *b_s, float *b_z, float *col_buf) {
    int64_t T = TL_I(L, P_T), S = TL_I(L, P_S), BT = TL_I(L, P_BT), BS = TL_I(L, P_BS);
    for (int64_t j = 0; j < BS; j++) b_z[j] = 0.0f;
    for (int64_t it = (T + BT - 1) / BT - 1; it >= 0; it--) {
        for (int64_t i = 0; i < BT; i++)
            for (int64_t j = 0; j < BS; j++) {
                int64_t t = it * BT + i, col = is * BS + j;
                b_s[i * BS + j] = (t < T && col < S) ? tl_load(L, R_S, rc_off(L, bh, t, col)) : 0.0f;
            }
        for (int64_t i = 0; i < BT; i++)
            for (int64_t j = 0; j < BS; j++) {
                float acc = 0.0f; /* dot(m_s, b_s)[i, j] = sum_k [i <= k] b_s[k, j] */
                for (int64_t k = 0; k < BT; k++) acc += (i <= k ? 1.0f : 0.0f) * b_s[k * BS + j];
                int64_t t = it * BT + i, col = is * BS + j;
                if (t < T && col < S) tl_store(L, R_Z, rc_off(L, bh, t, col), b_z[j] + acc, tl_f32());
            }
        for (int64_t j = 0; j < BS; j++) {
            for (int64_t i = 0; i < BT; i++) col_buf[i] = b_s[i * BS + j];
            b_z[j] += tl_sum(col_buf, BT);
        }
    }
}

static int rc_kernel(const td_abi_launch *L) {
    int64_t BT = TL_I(L, P_BT), BS = TL_I(L, P_BS);
    float *b_s = malloc((size_t)(BT * BS + BS + BT) * sizeof *b_s);
    if (!b_s) return 1;
    for (uint32_t bh = 0; bh < L->grid[1]; bh++)
        for (uint32_t is = 0; is < L->grid[0]; is++) rc_program(L, is, bh, b_s, b_s + BT * BS, b_s + BT * BS + BS);
    free(b_s);
    return 0;
}

/* the store slice: program (i_s, i_bh, i_t) copies its [BT, BS] tile of BC to Z */
static int rc_store(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T), S = TL_I(L, P_S), BT = TL_I(L, P_BT), BS = TL_I(L, P_BS);
    for (uint32_t it = 0; it < L->grid[2]; it++)
        for (uint32_t bh = 0; bh < L->grid[1]; bh++)
            for (uint32_t is = 0; is < L->grid[0]; is++)
                for (int64_t r = 0; r < BT; r++)
                    for (int64_t cc = 0; cc < BS; cc++) {
                        int64_t t = (int64_t)it * BT + r, col = (int64_t)is * BS + cc;
                        if (t < T && col < S)
                            tl_store(L, R_Z, rc_off(L, bh, t, col), tl_load(L, R_S, rc_off(L, bh, t, col)), tl_f32());
                    }
    return 0;
}

TD_KERNEL(td_k_rcv) = {"reversed_cumsum.reversed_cumsum_output_summary_general", "triton", TD_ABI_HOST, NULL, NULL,
                       NULL, 7, 2, rc_kernel, NULL};
TD_KERNEL(td_k_rcv_store) = {"reversed_cumsum.reversed_cumsum_block_store_io_correctness", "triton", TD_ABI_HOST, NULL,
                             NULL, NULL, 7, 2, rc_store, NULL};
TD_KERNEL(td_k_rcv_store_r) = {"reversed_cumsum.reversed_cumsum_block_store_io_correctnessR", "triton", TD_ABI_HOST,
                               "store=fp32:rne:inf", NULL, NULL, 7, 2, rc_store, NULL};
