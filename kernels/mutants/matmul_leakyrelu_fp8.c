/* matmul_leakyrelu_fp8 mutants. */
#include "../host/matmul_tl.h"

/* Each mutant is the port's program (mmh_leakyrelu_program) with one field changed. */
static mmh_2d program(const td_abi_launch *L) { return mmh_leakyrelu_program(L); }

/* a_ptrs += BLOCK_SIZE_K * stride_am: the K step of A along the wrong axis */
static int k_step_am(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.sak = g.sam;
    return mmh_reads_fit(L, &g) ? mmh_gemm_2d(L, &g) : 1;
}
/* offs_bn without the % N wrap and the store mask without the column bound: a partial
 * last column tile reads past N and writes past N */
static int no_col_bounds(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.colmode = MMH_IDX_RAW;
    g.mask_rows_only = 1;
    return mmh_reads_fit(L, &g) ? mmh_gemm_2d(L, &g) : 1;
}

/* accumulator = tl.zeros(..., dtype=tl.float16): every K step rounds the sum to fp16 */
static int fp16_acc(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.acc_fp16 = 1;
    return mmh_gemm_2d(L, &g);
}

#define LR_CF "matmul_leakyrelu_fp8.matmul_leakyrelu_fp8_closed_form_correct"
#define LR_IO "matmul_leakyrelu_fp8.matmul_leakyrelu_fp8_io_correctness"
#define KSTEP "a_ptrs advance by BLOCK_SIZE_K * stride_am: A walked along M instead of K"
#define ACC16 "fp16 accumulator: every K step rounds the running sum to fp16"
#define COLB "no % N on offs_bn and no offs_cn < N in the store mask: the last column tile spills past N"
TD_KERNEL(td_m_matmul_leakyrelu_fp8_cf_kstep) = {LR_CF, "mut_a_k_step_am", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                                 KSTEP, 13, 3, k_step_am, NULL};
TD_KERNEL(td_m_matmul_leakyrelu_fp8_io_kstep) = {LR_IO, "mut_a_k_step_am", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                                 KSTEP, 13, 3, k_step_am, NULL};
/* the closed form's launches tile the matrix exactly (hmlt/hnlt), so the column-bound
 * bug cannot show there: its second mutant is the fp16 accumulator */
TD_KERNEL(td_m_matmul_leakyrelu_fp8_cf_acc16) = {LR_CF, "mut_fp16_accumulator", TD_ABI_HOST, "store=fp16:rne:inf",
                                                 NULL, ACC16, 13, 3, fp16_acc, NULL};
TD_KERNEL(td_m_matmul_leakyrelu_fp8_io_colb) = {LR_IO, "mut_no_column_bounds", TD_ABI_HOST, "store=fp16:rne:inf",
                                                NULL, COLB, 13, 3, no_col_bounds, NULL};
/* offs_am[:, None] * stride_am in int32: A's row offsets wrap beyond 2^31 elements */
static int a_i32(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.a_off_i32 = 1;
    return mmh_gemm_2d(L, &g);
}
TD_KERNEL(td_m_matmul_leakyrelu_fp8_io_i32) = {LR_IO, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                        "offs_am[:, None] * stride_am formed in int32 (A's row offsets wrap beyond 2^31 elements)", 13,
                        3, a_i32, NULL};
TD_KERNEL(td_m_matmul_leakyrelu_fp8_cf_i32) = {LR_CF, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                        "offs_am[:, None] * stride_am formed in int32 (A's row offsets wrap beyond 2^31 elements)", 13,
                        3, a_i32, NULL};
