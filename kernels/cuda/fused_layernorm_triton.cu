/* fused_layernorm_triton on CUDA: triton_red_fused_native_layer_norm_0 (one block per
 * row, XBLOCK = 1) with the Welford lanes in shared memory and tl.reduce(welford_combine)
 * as the host's pairwise tree (level s combines lane i + s into lane i, i a multiple of
 * 2s), libdevice.rsqrt as rsqrtf; and the normalize slice on a (rows, chunks) grid. */
#include "layernorm_tlc.cuh"

enum { P_XNUMEL, P_RNUMEL, P_XBLOCK, P_RBLOCK };
enum { R_IO0, R_IN0, R_IN1, R_IN2, R_OUT0, R_OUT1 };
enum { PN_RNUMEL, PN_RBLOCK };
enum { RN_OUT0, RN_IO0, RN_IN0, RN_IN1, RN_IN2, RN_OUT1 };

static __global__ void fused_native_layer_norm(float *in_out_ptr0, const float *in_ptr0, const float *in_ptr1,
                                        const float *in_ptr2, float *out_ptr0, float *out_ptr1, int64_t rnumel,
                                        int64_t RB) {
    extern __shared__ float sh[];
    float *mean = sh, *m2 = sh + RB, *weight = sh + 2 * RB;
    int64_t x0 = blockIdx.x;
    for (int64_t j = threadIdx.x; j < RB; j += blockDim.x) mean[j] = m2[j] = weight[j] = 0.0f;
    for (int64_t roffset = 0; roffset < rnumel; roffset += RB)
        for (int64_t j = threadIdx.x; j < RB; j += blockDim.x) {
            int64_t r1 = roffset + j;
            if (!(r1 < rnumel)) continue;
            float tmp2 = in_ptr0[r1 + rnumel * x0];
            if (roffset == 0) {
                mean[j] = tmp2, m2[j] = 0.0f, weight[j] = 1.0f;
            } else {
                float delta = tmp2 - mean[j], w = weight[j] + 1.0f, nm = mean[j] + delta / w;
                m2[j] = m2[j] + delta * (tmp2 - nm), mean[j] = nm, weight[j] = w;
            }
        }
    __syncthreads();
    for (int64_t s = 1; s < RB; s *= 2) {
        for (int64_t i = (int64_t)threadIdx.x * 2 * s; i < RB; i += (int64_t)blockDim.x * 2 * s) {
            float delta = mean[i + s] - mean[i];
            float nw = weight[i] + weight[i + s];
            float r = nw == 0.0f ? 0.0f : weight[i + s] / nw;
            float nm = mean[i] + delta * r;
            float nm2 = m2[i] + m2[i + s] + delta * delta * weight[i] * r;
            mean[i] = nm, m2[i] = nm2, weight[i] = nw;
        }
        __syncthreads();
    }
    float tmp3 = mean[0], tmp4 = m2[0];
    float tmp10 = rsqrtf(tmp4 / (float)rnumel + 1e-05f);
    if (threadIdx.x == 0) {
        out_ptr0[x0] = tmp3;
        in_out_ptr0[x0] = tmp10;
    }
    for (int64_t roffset = 0; roffset < rnumel; roffset += RB)
        for (int64_t j = threadIdx.x; j < RB; j += blockDim.x) {
            int64_t r1 = roffset + j;
            if (!(r1 < rnumel)) continue;
            float tmp14 = (in_ptr0[r1 + rnumel * x0] - tmp3) * tmp10;
            out_ptr1[r1 + rnumel * x0] = tmp14 * in_ptr1[r1] + in_ptr2[r1];
        }
}

static __global__ void normalize_slice(const float *out_ptr0, const float *in_out_ptr0, const float *in_ptr0,
                                const float *in_ptr1, const float *in_ptr2, float *out_ptr1, int64_t rnumel,
                                int64_t RB) {
    int64_t x0 = blockIdx.x, i_t = blockIdx.y;
    float tmp3 = out_ptr0[x0], tmp10 = in_out_ptr0[x0];
    for (int64_t j = threadIdx.x; j < RB; j += blockDim.x) {
        int64_t r1 = i_t * RB + j;
        if (!(r1 < rnumel)) continue;
        float tmp14 = (in_ptr0[r1 + rnumel * x0] - tmp3) * tmp10;
        out_ptr1[r1 + rnumel * x0] = tmp14 * in_ptr1[r1] + in_ptr2[r1];
    }
}

static int launch_summary(const td_abi_launch *L) {
    int64_t RB = TLC_I(L, P_RBLOCK);
    size_t smem = ln_smem(RB, 3);
    if (!smem) {
        snprintf(L->err, L->errlen, "RBLOCK %lld does not fit shared memory", (long long)RB);
        return 1;
    }
    fused_native_layer_norm<<<tlc_grid(L), tlc_threads(RB), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_IO0, float), TLC_PTR(L, R_IN0, const float), TLC_PTR(L, R_IN1, const float),
        TLC_PTR(L, R_IN2, const float), TLC_PTR(L, R_OUT0, float), TLC_PTR(L, R_OUT1, float), TLC_I(L, P_RNUMEL), RB);
    return tlc_check(L, "triton_red_fused_native_layer_norm_0");
}
static int launch_normalize(const td_abi_launch *L) {
    int64_t RB = TLC_I(L, PN_RBLOCK);
    normalize_slice<<<tlc_grid(L), tlc_threads(RB), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RN_OUT0, const float), TLC_PTR(L, RN_IO0, const float), TLC_PTR(L, RN_IN0, const float),
        TLC_PTR(L, RN_IN1, const float), TLC_PTR(L, RN_IN2, const float), TLC_PTR(L, RN_OUT1, float),
        TLC_I(L, PN_RNUMEL), RB);
    return tlc_check(L, "fused_layernorm_triton normalize slice");
}

TD_KERNEL(td_kc_fused_ln_summary) = {"fused_layernorm_triton.fused_layernorm_triton_output_summary_general", "triton",
                                     TD_ABI_CUDA, NULL, "cuda", NULL, 4, 6, launch_summary, NULL};
TD_KERNEL(td_kc_fused_ln_normalize) = {"fused_layernorm_triton.fused_layernorm_triton_normalize_io_correctness",
                                       "triton", TD_ABI_CUDA, NULL, NULL, NULL, 2, 6, launch_normalize, NULL};
