/* matmul_tma mutants (the program itself is in ../host/matmul_tma.c). */
#include "../host/matmul_tl.h"

enum { P_M, P_N, P_K, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK };
int td_matmul_tma_program(const td_abi_launch *L, int64_t sam, int64_t sak, int64_t sbk, int64_t sbn, td_rnd rnd);

/* b's block pointer built with strides=(stride_bn, stride_bk): B read transposed */
static int b_transposed(const td_abi_launch *L) {
    return td_matmul_tma_program(L, TL_I(L, P_SAM), TL_I(L, P_SAK), TL_I(L, P_SBN), TL_I(L, P_SBK), TD_RNE);
}
/* a's block pointer built with strides=(stride_ak, stride_am): A read transposed */
static int a_transposed(const td_abi_launch *L) {
    return td_matmul_tma_program(L, TL_I(L, P_SAK), TL_I(L, P_SAM), TL_I(L, P_SBK), TL_I(L, P_SBN), TD_RNE);
}
/* c.to(tl.float16, fp_downcast_rounding="rtz") */
static int store_rtz(const td_abi_launch *L) {
    return td_matmul_tma_program(L, TL_I(L, P_SAM), TL_I(L, P_SAK), TL_I(L, P_SBK), TL_I(L, P_SBN), TD_RTZ);
}

#define F32_CF "matmul_tma.matmul_tma_f32_closed_form_correct"
#define F16_CF "matmul_tma.matmul_tma_f16_closed_form_correct"
#define F32_IO "matmul_tma.matmul_tma_f32_io_correctness"
#define F16_IO "matmul_tma.matmul_tma_f16_io_correctnessR"
#define BT "B's block pointer with its two strides swapped: B read transposed"
#define AT "A's block pointer with its two strides swapped: A read transposed"
#define RTZ "the fp16 store truncates (rtz) while the kernel declares round-to-nearest"
#define S16 "store=fp16:rne:inf"
TD_KERNEL(td_m_matmul_tma_f32_cf_bt) = {F32_CF, "mut_b_transposed", TD_ABI_HOST, NULL, NULL, BT, 12, 3, b_transposed, NULL};
TD_KERNEL(td_m_matmul_tma_f16_cf_bt) = {F16_CF, "mut_b_transposed", TD_ABI_HOST, S16, NULL, BT, 12, 3, b_transposed, NULL};
TD_KERNEL(td_m_matmul_tma_f32_io_bt) = {F32_IO, "mut_b_transposed", TD_ABI_HOST, NULL, NULL, BT, 12, 3, b_transposed, NULL};
TD_KERNEL(td_m_matmul_tma_f16_io_bt) = {F16_IO, "mut_b_transposed", TD_ABI_HOST, S16, NULL, BT, 12, 3, b_transposed, NULL};
TD_KERNEL(td_m_matmul_tma_f32_cf_at) = {F32_CF, "mut_a_transposed", TD_ABI_HOST, NULL, NULL, AT, 12, 3, a_transposed, NULL};
TD_KERNEL(td_m_matmul_tma_f32_io_at) = {F32_IO, "mut_a_transposed", TD_ABI_HOST, NULL, NULL, AT, 12, 3, a_transposed, NULL};
TD_KERNEL(td_m_matmul_tma_f16_cf_rtz) = {F16_CF, "mut_store_rtz", TD_ABI_HOST, S16, NULL, RTZ, 12, 3, store_rtz, NULL};
TD_KERNEL(td_m_matmul_tma_f16_io_rtz) = {F16_IO, "mut_store_rtz", TD_ABI_HOST, S16, NULL, RTZ, 12, 3, store_rtz, NULL};
