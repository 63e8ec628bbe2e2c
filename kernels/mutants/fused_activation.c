/* fused_activation mutants. */
#include "../host/elementwise_tl.h"

enum { P_NW, P_XNUMEL, P_BLOCK, P_MULT, P_SIGMOID };
enum { R_X, R_BIAS, R_IN };

typedef struct fa_mut {
    int flag_inverted; /* sigmoid for the relu flag and relu for the sigmoid flag */
    int mult_on_x;     /* multiplier * tmp0 + tmp3: the scale on the wrong input */
    int bias_local;    /* bias_index = arange(0, BLOCK) % num_weights: the program offset lost */
} fa_mut;

static int run(const td_abi_launch *L, fa_mut m) {
    int64_t nw = TL_I(L, P_NW), xnumel = TL_I(L, P_XNUMEL), B = TL_I(L, P_BLOCK);
    float mult = TL_R(L, P_MULT);
    int sigmoid = (TL_I(L, P_SIGMOID) != 0) != m.flag_inverted;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t index = (int64_t)pid * B + j;
            if (index >= xnumel) continue;
            float x = tl_load(L, R_X, index), in = tl_load(L, R_IN, index);
            float bias = tl_load(L, R_BIAS, (m.bias_local ? j : index) % nw);
            float z = m.mult_on_x ? mult * x + in + bias : mult * in + x + bias;
            tl_store(L, R_X, index, sigmoid ? ew_sigmoid(z) : fmaxf(0.0f, z), tl_f32());
        }
    return 0;
}

static int fa_flag_inverted(const td_abi_launch *L) { return run(L, (fa_mut){.flag_inverted = 1}); }
static int fa_mult_on_x(const td_abi_launch *L) { return run(L, (fa_mut){.mult_on_x = 1}); }
static int fa_bias_local(const td_abi_launch *L) { return run(L, (fa_mut){.bias_local = 1}); }

TD_KERNEL(td_m_fused_activation_flag) = {"fused_activation.fused_add_mul_activation_kernel_correctness",
                                         "mut_activation_flag_inverted", TD_ABI_HOST, NULL, "libm",
                                         "sigmoid applied for the relu flag and relu for the sigmoid flag", 5, 3,
                                         fa_flag_inverted, NULL};
TD_KERNEL(td_m_fused_activation_mult) = {"fused_activation.fused_add_mul_activation_kernel_correctness",
                                         "mut_multiplier_on_x", TD_ABI_HOST, NULL, "libm",
                                         "multiplier * x + in + bias: the scale on the wrong input", 5, 3,
                                         fa_mult_on_x, NULL};
TD_KERNEL(td_m_fused_activation_bias) = {"fused_activation.fused_add_mul_activation_kernel_correctness",
                                         "mut_bias_index_local", TD_ABI_HOST, NULL, "libm",
                                         "bias indexed by arange(0, BLOCK) % num_weights (program offset lost)", 5, 3,
                                         fa_bias_local, NULL};
