/* chunk_cumsum_vector: chunk_global_cumsum_vector_kernel, program (i_s, i_bh): the
 * [T, S] matrix of row i_bh in [BT, BS] tiles (boundary_check pads with 0.0), per chunk
 * b_c = b_z + tl.dot(m_s, b_s) with m_s the lower 0/1 triangle (the dot accumulated
 * over k in order, binary32, allow_tf32=False), a masked binary32 store, b_z += tl.sum(b_s, 0).
 * The summary's regime T <= BT runs the chunk loop once (the single-block surface).
 * The store slice: program (i_s, i_bh, i_t) copies its masked BC tile into Z. */
#include "tl.h"

enum { P_SH, P_ST, P_SD, P_T, P_S, P_BT, P_BS };
enum { R_IN, R_Z };

#define CCV_OFF(bh, t, d) ((int64_t)(bh) * TL_I(L, P_SH) + (int64_t)(t) * TL_I(L, P_ST) + (int64_t)(d) * TL_I(L, P_SD))

static int chunk_global_cumsum_vector_kernel(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T), S = TL_I(L, P_S), BT = TL_I(L, P_BT), BS = TL_I(L, P_BS);
    float *b_s, *b_z, *col;
    TL_ALLOC(L, b_s, BT * BS);
    TL_ALLOC(L, b_z, BS);
    TL_ALLOC(L, col, BT);
    for (uint32_t i_bh = 0; i_bh < L->grid[1]; i_bh++)
        for (uint32_t i_s = 0; i_s < L->grid[0]; i_s++) {
            memset(b_z, 0, (size_t)BS * sizeof *b_z);
            for (int64_t i_t = 0; i_t < (T + BT - 1) / BT; i_t++) {
                for (int64_t r = 0; r < BT; r++)
                    for (int64_t k = 0; k < BS; k++) {
                        int64_t t = i_t * BT + r, d = (int64_t)i_s * BS + k;
                        b_s[r * BS + k] = (t < T && d < S) ? tl_load(L, R_IN, CCV_OFF(i_bh, t, d)) : 0.0f;
                    }
                for (int64_t r = 0; r < BT; r++)
                    for (int64_t k = 0; k < BS; k++) {
                        float dot = 0.0f; /* tl.dot(m_s, b_s)[r, k] */
                        for (int64_t q = 0; q < BT; q++) dot += (r >= q ? 1.0f : 0.0f) * b_s[q * BS + k];
                        int64_t t = i_t * BT + r, d = (int64_t)i_s * BS + k;
                        if (t < T && d < S) tl_store(L, R_Z, CCV_OFF(i_bh, t, d), b_z[k] + dot, tl_f32());
                    }
                for (int64_t k = 0; k < BS; k++) {
                    for (int64_t r = 0; r < BT; r++) col[r] = b_s[r * BS + k];
                    b_z[k] += tl_sum(col, BT);
                }
            }
        }
    free(b_s);
    free(b_z);
    free(col);
    return 0;
}

static int chunk_cumsum_vector_store_slice(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T), S = TL_I(L, P_S), BT = TL_I(L, P_BT), BS = TL_I(L, P_BS);
    for (uint32_t i_t = 0; i_t < L->grid[2]; i_t++)
        for (uint32_t i_bh = 0; i_bh < L->grid[1]; i_bh++)
            for (uint32_t i_s = 0; i_s < L->grid[0]; i_s++)
                for (int64_t r = 0; r < BT; r++)
                    for (int64_t k = 0; k < BS; k++) {
                        int64_t t = (int64_t)i_t * BT + r, d = (int64_t)i_s * BS + k;
                        if (t < T && d < S) tl_store(L, R_Z, CCV_OFF(i_bh, t, d), tl_load(L, R_IN, CCV_OFF(i_bh, t, d)), tl_f32());
                    }
    return 0;
}

TD_KERNEL(td_k_ccv_summary) = {"chunk_cumsum_vector.chunk_cumsum_vector_output_summary_general", "triton", TD_ABI_HOST,
                               NULL, NULL, NULL, 7, 2, chunk_global_cumsum_vector_kernel, NULL};
TD_KERNEL(td_k_ccv_store) = {"chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctness", "triton",
                             TD_ABI_HOST, NULL, NULL, NULL, 7, 2, chunk_cumsum_vector_store_slice, NULL};
TD_KERNEL(td_k_ccv_store_r) = {"chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctnessR", "triton",
                               TD_ABI_HOST, NULL, NULL, NULL, 7, 2, chunk_cumsum_vector_store_slice, NULL};
