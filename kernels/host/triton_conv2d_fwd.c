/* triton_conv2d_fwd: conv2d_forward_kernel on the CPU, program by program.
 *
 * Program (pid0, pid1, pid2): BHW flat (batch, out_h, out_w) lanes split with // and %,
 * OF output features of group pid2; for h < KH, w < KW and each BIN-channel block of the
 * group: the [BHW, BIN] input block loaded under the six-conjunct mask (0 outside: the
 * zero padding), the [BIN, OF] weight block under its mask, both cast .to(float16) (the
 * fp16 flag, true in both theorems), then acc += tl.dot (matmul_tl.h's tile dot: BIN
 * products per lane summed by tl_sum's pairwise tree).  The binary32 accumulator is
 * stored under output_mask.  Parameters and regions in the catalogue's order.
 * `bug` selects a mutant (kernels/mutants/triton_conv2d_fwd.c), 0 here. */
#include "matmul_tl.h"

enum {
    P_B, P_CIN, P_IH, P_IW, P_COUT, P_OH, P_OW, P_IBS, P_IIFS, P_IHS, P_IWS, P_WOFS, P_WIFS, P_WHS, P_WWS, P_OBS,
    P_OOFS, P_OHS, P_OWS, P_KH, P_KW, P_SH, P_SW, P_PH, P_PW, P_G, P_TF32, P_BHW, P_BIN, P_OF, P_NCB
};
enum { R_IN, R_W, R_OUT };
enum { CV_OK = 0, CV_BUG_PAD_ONE_SIDE, CV_BUG_STRIDE_AS_DILATION, CV_BUG_NO_GROUP_W, CV_BUG_OFF_I32 };

/* the input row (height or width) a window position reads: h - pad + stride * o */
static int64_t cv_in_off(int64_t k, int64_t o, int64_t s, int64_t pad, int bug) {
    if (bug == CV_BUG_PAD_ONE_SIDE) return k + s * o; /* padding only after the end */
    if (bug == CV_BUG_STRIDE_AS_DILATION) return s * k - pad + o;
    return k - pad + s * o;
}

/* The input offset of (b, channel ch, ih, iw).  CV_BUG_OFF_I32: each term in int32, as
 * Triton forms them from int32 strides (input_pointer += input_batch_stride *
 * batch_offset + input_in_feat_stride * group_pid * in_group_dim, then + the channel,
 * height and width terms), added to the 64-bit pointer one by one. */
static int64_t cv_in_elem(const td_abi_launch *L, int bug, int64_t b, int64_t g0, int64_t ce, int64_t ih, int64_t iw) {
    int64_t ibs = TL_I(L, P_IBS), iifs = TL_I(L, P_IIFS), ihs = TL_I(L, P_IHS), iws = TL_I(L, P_IWS);
    if (bug != CV_BUG_OFF_I32) return ibs * b + iifs * (g0 + ce) + ihs * ih + iws * iw;
    int64_t base = tl_i32(tl_i32(ibs) * b + tl_i32(iifs) * g0);
    return base + tl_i32(tl_i32(iifs) * ce) + tl_i32(tl_i32(ihs) * ih) + tl_i32(tl_i32(iws) * iw);
}

/* One program's window loop into acc[BHW*OF]; xb[BHW*BIN], wb[BIN*OF], prod[BIN]: scratch.
 * 1 (an illegal address, the message in L->err) where a wrapped input offset leaves Input. */
static int cv_program(const td_abi_launch *L, int bug, uint32_t p0, uint32_t p1, uint32_t g, float *acc, float *xb,
                       float *wb, float *prod) {
    int64_t BHW = TL_I(L, P_BHW), BIN = TL_I(L, P_BIN), OF = TL_I(L, P_OF), OH = TL_I(L, P_OH), OW = TL_I(L, P_OW);
    int64_t IGD = TL_I(L, P_CIN) / TL_I(L, P_G), OGD = TL_I(L, P_COUT) / TL_I(L, P_G);
    int64_t wgrp = bug == CV_BUG_NO_GROUP_W ? 0 : (int64_t)g * OGD;
    memset(acc, 0, (size_t)(BHW * OF) * sizeof *acc);
    for (int64_t h = 0; h < TL_I(L, P_KH); h++)
        for (int64_t w = 0; w < TL_I(L, P_KW); w++)
            for (int64_t c = 0; c < IGD; c += BIN) {
                for (int64_t i = 0; i < BHW; i++) {
                    int64_t bhw = p0 * BHW + i, b = bhw / OW / OH, oh = bhw / OW % OH, ow = bhw % OW;
                    int64_t ih = cv_in_off(h, oh, TL_I(L, P_SH), TL_I(L, P_PH), bug);
                    int64_t iw = cv_in_off(w, ow, TL_I(L, P_SW), TL_I(L, P_PW), bug);
                    for (int64_t e = 0; e < BIN; e++) {
                        int ok = b < TL_I(L, P_B) && c + e < IGD && ih >= 0 && ih < TL_I(L, P_IH) && iw >= 0 &&
                                 iw < TL_I(L, P_IW);
                        int64_t off = cv_in_elem(L, bug, b, (int64_t)g * IGD, c + e, ih, iw);
                        if (ok && bug == CV_BUG_OFF_I32 && tl_fault(L, R_IN, off, 1, 1, p0)) return 1;
                        xb[i * BIN + e] = ok ? mmh_round_f16(tl_load(L, R_IN, off)) : 0.0f;
                    }
                }
                for (int64_t e = 0; e < BIN; e++)
                    for (int64_t j = 0; j < OF; j++) {
                        int64_t f = p1 * OF + j;
                        int ok = c + e < IGD && f < OGD;
                        int64_t off = TL_I(L, P_WOFS) * (f + wgrp) + TL_I(L, P_WIFS) * (c + e) + TL_I(L, P_WHS) * h +
                                      TL_I(L, P_WWS) * w;
                        wb[e * OF + j] = ok ? mmh_round_f16(tl_load(L, R_W, off)) : 0.0f;
                    }
                for (int64_t i = 0; i < BHW; i++)
                    for (int64_t j = 0; j < OF; j++) {
                        for (int64_t e = 0; e < BIN; e++) prod[e] = xb[i * BIN + e] * wb[e * OF + j];
                        acc[i * OF + j] += tl_sum(prod, BIN);
                    }
            }
    return 0;
}

int td_triton_conv2d_fwd_program(const td_abi_launch *L, int bug);
int td_triton_conv2d_fwd_program(const td_abi_launch *L, int bug) {
    int64_t BHW = TL_I(L, P_BHW), BIN = TL_I(L, P_BIN), OF = TL_I(L, P_OF), OH = TL_I(L, P_OH), OW = TL_I(L, P_OW);
    int64_t OGD = TL_I(L, P_COUT) / TL_I(L, P_G);
    float *acc, *xb, *wb, *prod;
    TL_ALLOC(L, acc, BHW * OF);
    TL_ALLOC(L, xb, BHW * BIN);
    TL_ALLOC(L, wb, BIN * OF);
    TL_ALLOC(L, prod, BIN);
    int rc = 0;
    for (uint32_t g = 0; g < L->grid[2] && !rc; g++)
        for (uint32_t p1 = 0; p1 < L->grid[1] && !rc; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0] && !rc; p0++) {
                if ((rc = cv_program(L, bug, p0, p1, g, acc, xb, wb, prod))) break;
                for (int64_t i = 0; i < BHW; i++)
                    for (int64_t j = 0; j < OF; j++) {
                        int64_t bhw = p0 * BHW + i, b = bhw / OW / OH, oh = bhw / OW % OH, ow = bhw % OW;
                        int64_t f = p1 * OF + j;
                        if (!(b < TL_I(L, P_B) && f < OGD && oh < OH && ow < OW)) continue; /* output_mask */
                        int64_t off = TL_I(L, P_OBS) * b + TL_I(L, P_OOFS) * ((int64_t)g * OGD + f) +
                                      TL_I(L, P_OHS) * oh + TL_I(L, P_OWS) * ow;
                        tl_store(L, R_OUT, off, acc[i * OF + j], tl_f32());
                    }
            }
    free(acc);
    free(xb);
    free(wb);
    free(prod);
    return rc;
}

static int conv2d_fwd(const td_abi_launch *L) { return td_triton_conv2d_fwd_program(L, CV_OK); }

TD_KERNEL(td_k_triton_conv2d_fwd_cf) = {"triton_conv2d_fwd.conv2d_output_summary", "triton", TD_ABI_HOST, NULL, NULL,
                                        NULL, 31, 3, conv2d_fwd, NULL};
TD_KERNEL(td_k_triton_conv2d_fwd_io) = {"triton_conv2d_fwd.triton_conv2d_fwd_io_correctness", "triton", TD_ABI_HOST,
                                        NULL, NULL, NULL, 31, 3, conv2d_fwd, NULL};
