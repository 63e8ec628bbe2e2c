/* rms_rbe_matmul: the same RMS-prologue matmul (rms_matmul_rbe_tl.h). */
#include "rms_matmul_rbe_tl.h"

static int one(const td_abi_launch *L) { return rmrk_run(L, &rmrk_one, 0); }

TD_KERNEL(td_k_rms_rbe_matmul) = {"rms_rbe_matmul.rms_matmul_rbe_closed_form_correct", "triton", TD_ABI_HOST,
                                  "store=fp16:rne:inf", NULL, NULL, 17, 4, one, NULL};
