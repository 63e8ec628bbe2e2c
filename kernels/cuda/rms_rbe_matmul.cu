/* rms_rbe_matmul on CUDA: the same body (rms_matmul_rbe_tlc.cuh). */
#include "rms_matmul_rbe_tlc.cuh"

static int one(const td_abi_launch *L) { return rmr_launch_one(L); }

TD_KERNEL(td_kc_rms_rbe_matmul) = {"rms_rbe_matmul.rms_matmul_rbe_closed_form_correct", "triton", TD_ABI_CUDA,
                                   "store=fp16:rne:inf", NULL, NULL, 17, 4, one, NULL};
