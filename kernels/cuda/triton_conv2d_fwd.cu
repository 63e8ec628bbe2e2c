/* triton_conv2d_fwd on CUDA: program (blockIdx.x, blockIdx.y, blockIdx.z) = (BHW tile,
 * out-feature tile, group), one thread per output lane (i, j) of the [BHW, OF] tile.  The
 * window loop of the Triton program: for h < KH, w < KW and each BIN-channel block, the
 * masked input and weight values (0 outside: the zero padding), each cast to fp16 (the
 * fp16 flag) and back, the block's BIN products summed in order and added to the binary32
 * accumulator; the accumulator stored to the float32 output under output_mask. */
#include "tlc.cuh"

enum {
    P_B, P_CIN, P_IH, P_IW, P_COUT, P_OH, P_OW, P_IBS, P_IIFS, P_IHS, P_IWS, P_WOFS, P_WIFS, P_WHS, P_WWS, P_OBS,
    P_OOFS, P_OHS, P_OWS, P_KH, P_KW, P_SH, P_SW, P_PH, P_PW, P_G, P_TF32, P_BHW, P_BIN, P_OF, P_NCB, P_NP
};
enum { R_IN, R_W, R_OUT };

struct cv_args {
    int64_t p[P_NP];
};

__device__ static float cv_f16(float x) { return __half2float(__float2half_rn(x)); }

__global__ static void conv2d_forward_kernel(const float *in, const float *wt, float *out, cv_args a) {
    const int64_t *p = a.p;
    int64_t BHW = p[P_BHW], BIN = p[P_BIN], OF = p[P_OF], OH = p[P_OH], OW = p[P_OW];
    int64_t IGD = p[P_CIN] / p[P_G], OGD = p[P_COUT] / p[P_G], g = blockIdx.z;
    for (int64_t l = threadIdx.x; l < BHW * OF; l += blockDim.x) {
        int64_t i = l / OF, j = l % OF;
        int64_t bhw = (int64_t)blockIdx.x * BHW + i, b = bhw / OW / OH, oh = bhw / OW % OH, ow = bhw % OW;
        int64_t f = (int64_t)blockIdx.y * OF + j;
        float acc = 0.0f;
        for (int64_t h = 0; h < p[P_KH]; h++)
            for (int64_t w = 0; w < p[P_KW]; w++)
                for (int64_t c = 0; c < IGD; c += BIN) {
                    int64_t ih = h - p[P_PH] + p[P_SH] * oh, iw = w - p[P_PW] + p[P_SW] * ow;
                    float blk = 0.0f;
                    for (int64_t e = 0; e < BIN; e++) {
                        bool xm = b < p[P_B] && c + e < IGD && ih >= 0 && ih < p[P_IH] && iw >= 0 && iw < p[P_IW];
                        bool wm = c + e < IGD && f < OGD;
                        float x = xm ? cv_f16(in[p[P_IBS] * b + p[P_IIFS] * (g * IGD + c + e) + p[P_IHS] * ih +
                                                 p[P_IWS] * iw])
                                     : 0.0f;
                        float y = wm ? cv_f16(wt[p[P_WOFS] * (f + g * OGD) + p[P_WIFS] * (c + e) + p[P_WHS] * h +
                                                 p[P_WWS] * w])
                                     : 0.0f;
                        blk = __fadd_rn(blk, __fmul_rn(x, y));
                    }
                    acc = __fadd_rn(acc, blk);
                }
        if (b < p[P_B] && f < OGD)
            out[p[P_OBS] * b + p[P_OOFS] * (g * OGD + f) + p[P_OHS] * oh + p[P_OWS] * ow] = acc;
    }
}

static int launch(const td_abi_launch *L) {
    cv_args a;
    for (int k = 0; k < P_NP; k++) a.p[k] = TLC_I(L, k);
    conv2d_forward_kernel<<<tlc_grid(L), tlc_threads(a.p[P_BHW] * a.p[P_OF]), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_IN, const float), TLC_PTR(L, R_W, const float), TLC_PTR(L, R_OUT, float), a);
    return tlc_check(L, "triton_conv2d_fwd");
}

TD_KERNEL(td_kc_triton_conv2d_fwd_cf) = {"triton_conv2d_fwd.conv2d_output_summary", "triton", TD_ABI_CUDA, NULL, NULL,
                                         NULL, 31, 3, launch, NULL};
TD_KERNEL(td_kc_triton_conv2d_fwd_io) = {"triton_conv2d_fwd.triton_conv2d_fwd_io_correctness", "triton", TD_ABI_CUDA,
                                         NULL, NULL, NULL, 31, 3, launch, NULL};
