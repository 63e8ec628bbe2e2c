/* rowwise_quantization_triton (_quantize_rowwise): one program per row, lanes j < P2
 * masked by j < BLOCK_SIZE; max_val = tl.max(where(mask, |x|, 0)) (Triton's tree);
 * out = llrint(127 * (x / max_val)) stored into int8 (low byte), max_val into float16.
 * Parameters: n_elements, BLOCK_SIZE, P2.  Regions: x_ptr, inert, output_ptr (int8),
 * output_maxs (fp16). */
#include "tl.h"

enum { P_N, P_BLOCK, P_P2 };
enum { R_X, R_INERT, R_OUT, R_MAXS };

static int quantize_rowwise(const td_abi_launch *L) {
    int64_t B = TL_I(L, P_BLOCK), P2 = TL_I(L, P_P2);
    td_profile store = {TD_I8, TD_RNE, TD_OVF_WRAP, false}, maxs = {TD_F16, TD_RNE, TD_OVF_INF, false};
    float *x, *a;
    TL_ALLOC(L, x, P2);
    TL_ALLOC(L, a, P2);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        for (int64_t j = 0; j < P2; j++) {
            x[j] = j < B ? tl_load(L, R_X, (int64_t)pid * B + j) : 0.0f; /* masked lanes: unused */
            a[j] = j < B ? fabsf(x[j]) : 0.0f;                           /* tl.where(row_mask, abs_x, 0) */
        }
        float max_val = tl_max(a, P2);
        for (int64_t j = 0; j < P2 && j < B; j++)
            tl_store(L, R_OUT, (int64_t)pid * B + j, 127.0f * (x[j] / max_val), store); /* 0/0: NaN -> 0 */
        tl_store(L, R_MAXS, pid, max_val, maxs);
    }
    free(x);
    free(a);
    return 0;
}

TD_KERNEL(td_k_quantize_rowwise) = {"rowwise_quantization_triton.quantize_rowwise_correctness", "triton",
                                    TD_ABI_HOST, "store=int8:rne:wrap;maxs=fp16:rne:inf", NULL, NULL, 3, 4,
                                    quantize_rowwise, NULL};
