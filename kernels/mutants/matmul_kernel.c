/* matmul_kernel mutants (the program itself is in ../host/matmul_kernel.c). */
#include "../host/matmul_tl.h"

int td_matmul_kernel_program(const td_abi_launch *L, int64_t b_kstep, int acc_fp16);

/* b_ptrs += BLOCK_SIZE_K * stride_ak: B advanced along its row (stride 1), not its column */
static int b_kstep_ak(const td_abi_launch *L) { return td_matmul_kernel_program(L, 1, 0); }
/* accumulator = tl.zeros(..., dtype=tl.float16) */
static int fp16_acc(const td_abi_launch *L) { return td_matmul_kernel_program(L, 4096, 1); }

#define MK_CF "matmul_kernel.matmul_kernel_closed_form_correct"
#define MK_IO "matmul_kernel.matmul_kernel_io_correctness"
#define KSTEP "b_ptrs advance by BLOCK_SIZE_K * stride_ak: wrong leading dimension for B"
#define ACC16 "fp16 accumulator: every K step rounds the running sum to fp16"
TD_KERNEL(td_m_matmul_kernel_cf_kstep) = {MK_CF, "mut_wrong_ld_b", TD_ABI_HOST, "store=fp16:rne:inf", NULL, KSTEP, 4, 3,
                                          b_kstep_ak, NULL};
TD_KERNEL(td_m_matmul_kernel_io_kstep) = {MK_IO, "mut_wrong_ld_b", TD_ABI_HOST, "store=fp16:rne:inf", NULL, KSTEP, 4, 3,
                                          b_kstep_ak, NULL};
TD_KERNEL(td_m_matmul_kernel_cf_acc16) = {MK_CF, "mut_fp16_accumulator", TD_ABI_HOST, "store=fp16:rne:inf", NULL, ACC16,
                                          4, 3, fp16_acc, NULL};
TD_KERNEL(td_m_matmul_kernel_io_acc16) = {MK_IO, "mut_fp16_accumulator", TD_ABI_HOST, "store=fp16:rne:inf", NULL, ACC16,
                                          4, 3, fp16_acc, NULL};
