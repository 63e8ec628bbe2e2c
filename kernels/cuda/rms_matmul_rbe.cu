/* rms_matmul_rbe on CUDA (rms_matmul_rbe_tlc.cuh); the QKV wrapper launches the body once
 * per output, as rms_matmul_rbe_qkv inlines it three times. */
#include "rms_matmul_rbe_tlc.cuh"

static int one(const td_abi_launch *L) { return rmr_launch_one(L); }

/* M N sxb sxm sxk sqwk sqwn skwk skwn svwk svwn srms sqb sqm sqn skb skm skn svb svm svn BM BN BK nkb K EPS;
 * X QW KW VW RMS Q KOut V */
static int qkv(const td_abi_launch *L) {
    static const int p[10] = {0, 1, 2, 3, 4, 11, 21, 22, 25, 26};
    static const int o[3][5] = {{5, 6, 12, 13, 14}, {7, 8, 15, 16, 17}, {9, 10, 18, 19, 20}};
    for (int k = 0; k < 3; k++) {
        int rc = rmr_launch(L, p, o[k], 0, 4, 1 + k, 5 + k);
        if (rc) return rc;
    }
    return 0;
}

TD_KERNEL(td_kc_rms_matmul_rbe) = {"rms_matmul_rbe.rms_matmul_rbe_closed_form_correct", "triton", TD_ABI_CUDA,
                                   "store=fp16:rne:inf", NULL, NULL, 17, 4, one, NULL};
TD_KERNEL(td_kc_rms_matmul_rbe_qkv) = {"rms_matmul_rbe.rms_matmul_rbe_qkv_closed_form_correct", "triton", TD_ABI_CUDA,
                                       "store=fp16:rne:inf", NULL, NULL, 27, 8, qkv, NULL};
