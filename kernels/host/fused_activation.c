/* fused_activation: fused_add_mul_activation_kernel, program by program, in place on x.
 * Parameters: num_weights, xnumel, BLOCK_SIZE, multiplier, ACTIVATION_SIGMOID.
 * Regions: x_ptr, bias_ptr, in_ptr. */
#include "elementwise_tl.h"

enum { P_NW, P_XNUMEL, P_BLOCK, P_MULT, P_SIGMOID };
enum { R_X, R_BIAS, R_IN };

static int fused_add_mul_activation_kernel(const td_abi_launch *L) {
    int64_t nw = TL_I(L, P_NW), xnumel = TL_I(L, P_XNUMEL), B = TL_I(L, P_BLOCK);
    float multiplier = TL_R(L, P_MULT);
    int sigmoid = TL_I(L, P_SIGMOID) != 0;
    float *tmp0, *tmp1, *tmp3;
    TL_ALLOC(L, tmp0, B);
    TL_ALLOC(L, tmp1, B);
    TL_ALLOC(L, tmp3, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t xoffset = (int64_t)pid * B;
        for (int64_t j = 0; j < B; j++) { /* the three masked loads, then the arithmetic */
            int64_t index = xoffset + j;
            int mask = index < xnumel;
            tmp0[j] = mask ? tl_load(L, R_X, index) : 0.0f;
            tmp1[j] = mask ? tl_load(L, R_BIAS, index % nw) : 0.0f;
            tmp3[j] = mask ? tl_load(L, R_IN, index) : 0.0f;
        }
        for (int64_t j = 0; j < B; j++) {
            float activ_input = multiplier * tmp3[j] + tmp0[j] + tmp1[j];
            tmp0[j] = sigmoid ? ew_sigmoid(activ_input) : fmaxf(0.0f, activ_input);
        }
        for (int64_t j = 0; j < B; j++)
            if (xoffset + j < xnumel) tl_store(L, R_X, xoffset + j, tmp0[j], tl_f32());
    }
    free(tmp0), free(tmp1), free(tmp3);
    return 0;
}

TD_KERNEL(td_k_fused_activation) = {"fused_activation.fused_add_mul_activation_kernel_correctness", "triton",
                                    TD_ABI_HOST, NULL, "libm", NULL, 5, 3, fused_add_mul_activation_kernel, NULL};
