/* matmul_leakyrelu mutants. */
#include "../host/matmul_tl.h"

/* Each mutant is the port's program (mmh_leakyrelu_program) with one field changed. */
static mmh_2d program(const td_abi_launch *L) { return mmh_leakyrelu_program(L); }

/* b_ptrs += BLOCK_SIZE_K * stride_bn: the K step of B along the wrong axis */
static int k_step_bn(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.sbk = g.sbn;
    return mmh_reads_fit(L, &g) ? mmh_gemm_2d(L, &g) : 1;
}
/* c = accumulator.to(tl.float16, fp_downcast_rounding="rtz") */
static int store_rtz(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.store.rnd = TD_RTZ;
    return mmh_gemm_2d(L, &g);
}

#define LR_CF "matmul_leakyrelu.matmul_leakyrelu_closed_form_correct"
#define LR_IO "matmul_leakyrelu.matmul_leakyrelu_io_correctness"
#define KSTEP "b_ptrs advance by BLOCK_SIZE_K * stride_bn: B walked along N instead of K"
#define RTZ "the fp16 store truncates (rtz) while the kernel declares round-to-nearest"
TD_KERNEL(td_m_matmul_leakyrelu_cf_kstep) = {LR_CF, "mut_b_k_step_bn", TD_ABI_HOST, "store=fp16:rne:inf", NULL, KSTEP,
                                             13, 3, k_step_bn, NULL};
TD_KERNEL(td_m_matmul_leakyrelu_io_kstep) = {LR_IO, "mut_b_k_step_bn", TD_ABI_HOST, "store=fp16:rne:inf", NULL, KSTEP,
                                             13, 3, k_step_bn, NULL};
TD_KERNEL(td_m_matmul_leakyrelu_cf_rtz) = {LR_CF, "mut_store_rtz", TD_ABI_HOST, "store=fp16:rne:inf", NULL, RTZ, 13,
                                           3, store_rtz, NULL};
TD_KERNEL(td_m_matmul_leakyrelu_io_rtz) = {LR_IO, "mut_store_rtz", TD_ABI_HOST, "store=fp16:rne:inf", NULL, RTZ, 13,
                                           3, store_rtz, NULL};
/* offs_am[:, None] * stride_am in int32: A's row offsets wrap beyond 2^31 elements */
static int a_i32(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.a_off_i32 = 1;
    return mmh_gemm_2d(L, &g);
}
TD_KERNEL(td_m_matmul_leakyrelu_io_i32) = {LR_IO, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                        "offs_am[:, None] * stride_am formed in int32 (A's row offsets wrap beyond 2^31 elements)", 13,
                        3, a_i32, NULL};
TD_KERNEL(td_m_matmul_leakyrelu_cf_i32) = {LR_CF, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                        "offs_am[:, None] * stride_am formed in int32 (A's row offsets wrap beyond 2^31 elements)", 13,
                        3, a_i32, NULL};
