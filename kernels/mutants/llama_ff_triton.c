/* llama_ff_triton mutants (the program itself is in ../host/llama_ff_triton.c). */
#include "../host/tl.h"

int td_llama_ff_triton_program(const td_abi_launch *L, int bug);

/* a_sum = pow(a, 2) instead of +=: the RMS moment of the last K block only */
static int asum_last(const td_abi_launch *L) { return td_llama_ff_triton_program(L, 1); }
/* the SiLU gate applied to the w3 branch: silu(x W3) * (x W1) (w1 and w3 swapped) */
static int gate_w3(const td_abi_launch *L) { return td_llama_ff_triton_program(L, 2); }
/* acc2 never scaled by a_norm: only the gated branch normalised */
static int norm_acc1(const td_abi_launch *L) { return td_llama_ff_triton_program(L, 3); }

#define FF "llama_ff_triton.ff_llama_closed_form_correct"
TD_KERNEL(td_m_llama_ff_triton_asum) = {FF, "mut_asum_last_block", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                        "a_sum = pow(a, 2) each K step: the RMS of the last block only", 17, 5,
                                        asum_last, NULL};
TD_KERNEL(td_m_llama_ff_triton_gate) = {FF, "mut_gate_on_w3", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                        "the SiLU gate on the w3 branch (w1 and w3 swapped)", 17, 5, gate_w3, NULL};
TD_KERNEL(td_m_llama_ff_triton_norm) = {FF, "mut_norm_acc1_only", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                        "acc2 not multiplied by a_norm", 17, 5, norm_acc1, NULL};
/* (offs_am % M) * stride_am formed in int32 (Triton's default): rows beyond 2^31 elements
 * wrap (FF_BUG_A_I32 of the host program) */
static int a_i32(const td_abi_launch *L) { return td_llama_ff_triton_program(L, 4); }
TD_KERNEL(td_m_llama_ff_triton_i32) = {FF, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                       "(offs_am % M) * stride_am formed in int32 (A's row offsets wrap beyond 2^31 "
                                       "elements)", 17, 5, a_i32, NULL};
