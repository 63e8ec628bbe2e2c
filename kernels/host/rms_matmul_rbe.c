/* rms_matmul_rbe: the RMS-prologue matmul and its fused QKV wrapper, program by program
 * (rms_matmul_rbe_tl.h). */
#include "rms_matmul_rbe_tl.h"

static int one(const td_abi_launch *L) { return rmrk_run(L, &rmrk_one, 0); }
static int qkv(const td_abi_launch *L) { return rmrk_run(L, &rmrk_qkv, 0); }

TD_KERNEL(td_k_rms_matmul_rbe) = {"rms_matmul_rbe.rms_matmul_rbe_closed_form_correct", "triton", TD_ABI_HOST,
                                  "store=fp16:rne:inf", NULL, NULL, 17, 4, one, NULL};
TD_KERNEL(td_k_rms_matmul_rbe_qkv) = {"rms_matmul_rbe.rms_matmul_rbe_qkv_closed_form_correct", "triton", TD_ABI_HOST,
                                      "store=fp16:rne:inf", NULL, NULL, 27, 8, qkv, NULL};
