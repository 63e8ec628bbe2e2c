/* layer_norm_welfold on CUDA: the two-pass (no Welford) fused layer norm as the
 * theorem's slices have it (guarded squared deviations), one block per row, per-lane
 * accumulators then the host's pairwise tree (layernorm_tlc.cuh), libdevice.rsqrt as
 * rsqrtf; and the normalize slice on a (rows, chunks) grid. */
#include "layernorm_tlc.cuh"

enum { P_XNUMEL, P_RNUMEL, P_XBLOCK, P_RBLOCK };
enum { R_IO0, R_IO1, R_IN0, R_IN1, R_IN2, R_OUT0 };
enum { PN_RNUMEL, PN_RBLOCK };

static __global__ void no_welford(float *in_out_ptr0, float *in_out_ptr1, const float *in_ptr0, const float *in_ptr1,
                           const float *in_ptr2, float *out_ptr0, int64_t rnumel, int64_t RB) {
    extern __shared__ float sh[];
    int64_t x0 = blockIdx.x;
    for (int64_t j = threadIdx.x; j < RB; j += blockDim.x) {
        float acc = 0.0f;
        for (int64_t roffset = 0; roffset < rnumel; roffset += RB)
            acc = acc + (roffset + j < rnumel ? in_ptr0[roffset + j + rnumel * x0] : 0.0f);
        sh[j] = acc;
    }
    float tmp6 = ln_block_sum(sh, RB) / (float)rnumel;
    for (int64_t j = threadIdx.x; j < RB; j += blockDim.x) {
        float acc = 0.0f;
        for (int64_t roffset = 0; roffset < rnumel; roffset += RB) {
            int64_t r1 = roffset + j;
            float tmp9 = (r1 < rnumel ? in_ptr0[r1 + rnumel * x0] : 0.0f) - tmp6;
            acc = acc + (r1 < rnumel ? tmp9 * tmp9 : 0.0f);
        }
        sh[j] = acc;
    }
    float tmp15 = ln_block_sum(sh, RB) / (float)rnumel;
    float tmp18 = rsqrtf(tmp15 + 1e-05f);
    if (threadIdx.x == 0) {
        in_out_ptr0[x0] = tmp6;
        in_out_ptr1[x0] = tmp18;
    }
    for (int64_t roffset = 0; roffset < rnumel; roffset += RB)
        for (int64_t j = threadIdx.x; j < RB; j += blockDim.x) {
            int64_t r1 = roffset + j;
            if (!(r1 < rnumel)) continue;
            float tmp22 = (in_ptr0[r1 + rnumel * x0] - tmp6) * tmp18;
            out_ptr0[r1 + rnumel * x0] = tmp22 * in_ptr1[r1] + in_ptr2[r1];
        }
}

static __global__ void normalize_slice(const float *in_out_ptr0, const float *in_out_ptr1, const float *in_ptr0,
                                const float *in_ptr1, const float *in_ptr2, float *out_ptr0, int64_t rnumel,
                                int64_t RB) {
    int64_t x0 = blockIdx.x, i_t = blockIdx.y;
    float tmp6 = in_out_ptr0[x0], tmp18 = in_out_ptr1[x0];
    for (int64_t j = threadIdx.x; j < RB; j += blockDim.x) {
        int64_t r1 = i_t * RB + j;
        if (!(r1 < rnumel)) continue;
        float tmp22 = (in_ptr0[r1 + rnumel * x0] - tmp6) * tmp18;
        out_ptr0[r1 + rnumel * x0] = tmp22 * in_ptr1[r1] + in_ptr2[r1];
    }
}

static int launch_summary(const td_abi_launch *L) {
    int64_t RB = TLC_I(L, P_RBLOCK);
    size_t smem = ln_smem(RB, 1);
    if (!smem) {
        snprintf(L->err, L->errlen, "RBLOCK %lld does not fit shared memory", (long long)RB);
        return 1;
    }
    no_welford<<<tlc_grid(L), tlc_threads(RB), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_IO0, float), TLC_PTR(L, R_IO1, float), TLC_PTR(L, R_IN0, const float),
        TLC_PTR(L, R_IN1, const float), TLC_PTR(L, R_IN2, const float), TLC_PTR(L, R_OUT0, float),
        TLC_I(L, P_RNUMEL), RB);
    return tlc_check(L, "triton_red_fused_native_layer_norm_no_welford");
}
static int launch_normalize(const td_abi_launch *L) {
    int64_t RB = TLC_I(L, PN_RBLOCK);
    normalize_slice<<<tlc_grid(L), tlc_threads(RB), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_IO0, const float), TLC_PTR(L, R_IO1, const float), TLC_PTR(L, R_IN0, const float),
        TLC_PTR(L, R_IN1, const float), TLC_PTR(L, R_IN2, const float), TLC_PTR(L, R_OUT0, float),
        TLC_I(L, PN_RNUMEL), RB);
    return tlc_check(L, "layer_norm_welfold normalize slice");
}

TD_KERNEL(td_kc_welfold_summary) = {"layer_norm_welfold.layer_norm_welfold_output_summary_general", "triton",
                                    TD_ABI_CUDA, NULL, "cuda", NULL, 4, 6, launch_summary, NULL};
TD_KERNEL(td_kc_welfold_normalize) = {"layer_norm_welfold.layer_norm_welfold_normalize_io_correctness", "triton",
                                      TD_ABI_CUDA, NULL, NULL, NULL, 2, 6, launch_normalize, NULL};
