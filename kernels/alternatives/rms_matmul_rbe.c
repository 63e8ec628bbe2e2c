/* rms_matmul_rbe, alternative alt_rowwise_div: see rms_matmul_rbe_alt.h. */
#include "rms_matmul_rbe_alt.h"

static int one(const td_abi_launch *L) { return alt_rmr_run(L, &rmrk_one); }
static int qkv(const td_abi_launch *L) { return alt_rmr_run(L, &rmrk_qkv); }

TD_KERNEL(td_a_rms_matmul_rbe) = {"rms_matmul_rbe.rms_matmul_rbe_closed_form_correct", "alt_rowwise_div", TD_ABI_HOST,
                                  "store=fp16:rne:inf", NULL, NULL, 17, 4, one, NULL};
TD_KERNEL(td_a_rms_matmul_rbe_qkv) = {"rms_matmul_rbe.rms_matmul_rbe_qkv_closed_form_correct", "alt_rowwise_div",
                                      TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 27, 8, qkv, NULL};
