/* Alternatives for softmax_triton3 (row softmax; the masked contract adds mask_j after
 * the max subtraction: out = exp((x_j - m) + mask_j) / sum_k exp((x_k - m) + mask_k),
 * m = max_k x_k, over the n_cols columns; input, output and mask share row_stride).
 *
 *   alt_online8 (both contracts)  the online softmax: one pass in chunks of 8 columns
 *                 with a running max and a running sum rescaled when the max grows.
 *                 Masked contract: the scores d_j = (x_j - m) + mask_j are formed as the
 *                 spec states them (m the max of x), then normalised online, so the
 *                 normaliser's shift is max_j d_j rather than 0.  The shift cancels in the
 *                 ratio (admissible in the reals); unlike the port this kernel gives the
 *                 real softmax, not 0/0, on rows whose exps all underflow (the contract
 *                 leaves those lanes unchecked).
 *   alt_seq_fma (unmasked)  two passes with a left-to-right sum accumulated as an FMA
 *                 chain s = fmaf(e_j, 1, s) (one rounding per step, what a contracted
 *                 loop does) and the quotient as e_j * (1/s).
 * Parameters: row_stride, n_cols, BLOCK_SIZE.  Regions: output_ptr, input_ptr, mask_ptr. */
#include "alt_a_softmax.h"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN, R_MASK };

static int st3_online(const td_abi_launch *L, int use_mask) {
    int64_t rs = TL_I(L, P_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    if (n > B) n = B; /* the kernel reduces the first BLOCK_SIZE columns */
    float *d;
    TL_ALLOC(L, d, n);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        for (int64_t j = 0; j < n; j++) d[j] = tl_load(L, R_IN, (int64_t)pid * rs + j);
        if (use_mask) { /* d_j = (x_j - m) + mask_j, the spec's shifted score */
            float m = aa_max_seq(d, n);
            for (int64_t j = 0; j < n; j++) d[j] = (d[j] - m) + tl_load(L, R_MASK, (int64_t)pid * rs + j);
        }
        aa_sm_online(d, n, 8, expf, AA_DIV);
        for (int64_t j = 0; j < n; j++) tl_store(L, R_OUT, (int64_t)pid * rs + j, d[j], tl_f32());
    }
    free(d);
    return 0;
}

static int st3_seq_fma(const td_abi_launch *L) {
    int64_t rs = TL_I(L, P_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    if (n > B) n = B;
    float *e;
    TL_ALLOC(L, e, n);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        float m = -INFINITY, s = 0.0f;
        for (int64_t j = 0; j < n; j++) {
            e[j] = tl_load(L, R_IN, (int64_t)pid * rs + j);
            m = e[j] > m ? e[j] : m;
        }
        for (int64_t j = 0; j < n; j++) {
            e[j] = expf(e[j] - m);
            s = fmaf(e[j], 1.0f, s);
        }
        float r = 1.0f / s;
        for (int64_t j = 0; j < n; j++) tl_store(L, R_OUT, (int64_t)pid * rs + j, e[j] * r, tl_f32());
    }
    free(e);
    return 0;
}

static int st3_online_nomask(const td_abi_launch *L) { return st3_online(L, 0); }
static int st3_online_masked(const td_abi_launch *L) { return st3_online(L, 1); }

TD_KERNEL(td_a_softmax_triton3_online8) = {"softmax_triton3.softmax_kernel_correctness", "alt_online8", TD_ABI_HOST,
                                           NULL, NULL, NULL, 3, 3, st3_online_nomask, NULL};
TD_KERNEL(td_a_softmax_triton3_seq_fma) = {"softmax_triton3.softmax_kernel_correctness", "alt_seq_fma", TD_ABI_HOST,
                                           NULL, NULL, NULL, 3, 3, st3_seq_fma, NULL};
TD_KERNEL(td_a_softmax_triton3_masked_online8) = {"softmax_triton3.softmax_kernel_masked_correctness", "alt_online8",
                                                  TD_ABI_HOST, NULL, NULL, NULL, 3, 3, st3_online_masked, NULL};
