/* seed_vyre on CUDA: vyre-libs 0.7.2 flash_attention_2 and flash_attention_2_reference
 * (seed 002) as vyre lowers them: one query row per invocation; the tiled program in
 * workgroups of 64 lanes, each lane owning a slice of the workgroup scratch (q_scratch,
 * score_tile, o_acc: dynamic shared memory), the reference in workgroups of one lane
 * with the o_ref workgroup buffer.  f32 throughout, expf (CUDA's full precision), IEEE
 * division, the _rn intrinsics where the IR rounds; the stability primitives as in
 * vyre-primitives.  Invalid sizes return the builders' trap as the launch's error. */
#include <float.h>

#include "attn_tlc.cuh"

enum { P_SEQ, P_HD, P_TILE };
enum { R_Q, R_K, R_V, R_OUT };
#define VYC_LANES 64

__device__ inline float vyc_bounded_score(float x) { return isnan(x) ? x : (isfinite(x) ? x : -80.0f); }
__device__ inline float vyc_bounded_exp_arg(float x) {
    if (isnan(x)) return x;
    float f = isfinite(x) ? x : -80.0f;
    float u = f > 0.0f ? 0.0f : f;
    return u < -80.0f ? -80.0f : u;
}
__device__ inline float vyc_positive_denominator(float x) {
    if (isnan(x)) return x;
    return (isfinite(x) && x > 0x1p-126f) ? x : 0x1p-126f;
}
__device__ inline float vyc_flush_tiny(float x) { return fabsf(x) <= 0x1p-126f ? 0.0f : x; }

__global__ void vyre_tiled_kernel(const float *q, const float *k, const float *v, float *out, int64_t S, int64_t D,
                                  int64_t T, float scale) {
    extern __shared__ float scratch[];
    float *q_scratch = scratch, *o_acc = q_scratch + VYC_LANES * D, *score_tile = o_acc + VYC_LANES * D;
    int64_t local = threadIdx.x, row = (int64_t)blockIdx.x * VYC_LANES + local;
    if (!(row < S)) return;
    float *qs = q_scratch + local * D, *oa = o_acc + local * D, *st = score_tile + local * T;
    for (int64_t d = 0; d < D; d++) qs[d] = q[row * D + d];
    float m = -FLT_MAX, l = 0.0f;
    for (int64_t d = 0; d < D; d++) oa[d] = 0.0f;
    int64_t tile_count = (S + T - 1) / T;
    for (int64_t tile_idx = 0; tile_idx < tile_count; tile_idx++) {
        int64_t tile_start = tile_idx * T, tile_end = tile_start + T < S ? tile_start + T : S;
        int64_t tile_len = tile_end - tile_start;
        for (int64_t j = 0; j < tile_len; j++) {
            float dot = 0.0f;
            for (int64_t d = 0; d < D; d++) dot = __fadd_rn(dot, __fmul_rn(qs[d], k[(tile_start + j) * D + d]));
            st[j] = vyc_bounded_score(__fmul_rn(dot, scale));
        }
        float tile_max = -FLT_MAX;
        for (int64_t j = 0; j < tile_len; j++) tile_max = isnan(tile_max) ? tile_max : (st[j] > tile_max ? st[j] : tile_max);
        float m_new = tile_max > m ? tile_max : m;
        float rescale = expf(vyc_bounded_exp_arg(__fsub_rn(m, m_new)));
        float tile_sum = 0.0f;
        for (int64_t j = 0; j < tile_len; j++) tile_sum = __fadd_rn(tile_sum, expf(vyc_bounded_exp_arg(__fsub_rn(st[j], m_new))));
        l = __fadd_rn(__fmul_rn(rescale, l), tile_sum);
        for (int64_t d = 0; d < D; d++) {
            float weighted = 0.0f;
            for (int64_t j = 0; j < tile_len; j++)
                weighted = __fadd_rn(weighted, __fmul_rn(expf(vyc_bounded_exp_arg(__fsub_rn(st[j], m_new))),
                                                         v[(tile_start + j) * D + d]));
            oa[d] = __fadd_rn(__fmul_rn(rescale, oa[d]), weighted);
        }
        m = m_new;
    }
    float denom = vyc_positive_denominator(l);
    for (int64_t d = 0; d < D; d++) out[row * D + d] = vyc_flush_tiny(__fdiv_rn(oa[d], denom));
}

__global__ void vyre_reference_kernel(const float *q, const float *k, const float *v, float *out, int64_t S, int64_t D,
                                      float scale) {
    extern __shared__ float o_ref[]; /* BufferDecl::workgroup("o_ref", seq_len * head_dim) */
    int64_t row = blockIdx.x;
    if (!(row < S)) return;
    float m = -FLT_MAX, l = 0.0f;
    for (int64_t d = 0; d < D; d++) o_ref[row * D + d] = 0.0f;
    for (int64_t j = 0; j < S; j++) {
        float dot = 0.0f;
        for (int64_t d = 0; d < D; d++) dot = __fadd_rn(dot, __fmul_rn(q[row * D + d], k[j * D + d]));
        float score = vyc_bounded_score(__fmul_rn(dot, scale));
        float m_new = score > m ? score : m;
        float rescale = expf(vyc_bounded_exp_arg(__fsub_rn(m, m_new)));
        float prob = expf(vyc_bounded_exp_arg(__fsub_rn(score, m_new)));
        float l_new = __fadd_rn(__fmul_rn(rescale, l), prob);
        for (int64_t d = 0; d < D; d++)
            o_ref[row * D + d] = __fadd_rn(__fmul_rn(rescale, o_ref[row * D + d]), __fmul_rn(prob, v[j * D + d]));
        m = m_new;
        l = l_new;
    }
    float denom = vyc_positive_denominator(l);
    for (int64_t d = 0; d < D; d++) out[row * D + d] = vyc_flush_tiny(__fdiv_rn(o_ref[row * D + d], denom));
}

/* the builders' traps (planner.rs and flash_attention_2_reference) */
static int vyc_trap(const td_abi_launch *L, int tiled) {
    int64_t S = TLC_I(L, P_SEQ), D = TLC_I(L, P_HD), T = TLC_I(L, P_TILE);
    const uint64_t U32 = 0xffffffffu;
    const char *why = NULL;
    if (S <= 0 || D <= 0 || (tiled && T <= 0)) why = "seq_len, head_dim and tile_size must all be > 0";
    else if (S > (int64_t)U32 || D > (int64_t)U32 || (tiled && T > (int64_t)U32)) why = "sizes are u32";
    else if ((uint64_t)S * (uint64_t)D > U32) why = "seq_len*head_dim overflows u32";
    else if (tiled) {
        uint64_t tiles = ((uint64_t)S + (uint64_t)T - 1) / (uint64_t)T;
        uint64_t splits = (tiles + 3) / 4, per = (tiles + splits - 1) / splits;
        if ((uint64_t)T * per > U32) why = "split key span overflows u32";
        else if ((uint64_t)VYC_LANES * (uint64_t)D > U32) why = "64*head_dim (q_scratch, o_acc) overflows u32";
        else if ((uint64_t)VYC_LANES * (uint64_t)T > U32) why = "64*tile_size (score_scratch) overflows u32";
        else if (splits * ((uint64_t)D + 2) > U32) why = "split reduction scratch overflows u32";
        else if (2 * (uint64_t)VYC_LANES * (uint64_t)D + (uint64_t)VYC_LANES * (uint64_t)T > U32)
            why = "shared scratch overflows u32";
    }
    if (!why) return 0;
    snprintf(L->err, L->errlen, "trap: Fix: %s %s", tiled ? "flash_attention_2" : "flash_attention_2_reference", why);
    return 1;
}

static int tiled(const td_abi_launch *L) {
    if (vyc_trap(L, 1)) return 1;
    int64_t S = TLC_I(L, P_SEQ), D = TLC_I(L, P_HD), T = TLC_I(L, P_TILE);
    size_t smem = (size_t)VYC_LANES * (size_t)(2 * D + T) * sizeof(float);
    if (smem > 48 * 1024) {
        snprintf(L->err, L->errlen, "workgroup scratch of %zu bytes exceeds the device's 48 KiB", smem);
        return 1;
    }
    vyre_tiled_kernel<<<dim3((unsigned)((S + VYC_LANES - 1) / VYC_LANES)), VYC_LANES, smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Q, const float), TLC_PTR(L, R_K, const float), TLC_PTR(L, R_V, const float),
        TLC_PTR(L, R_OUT, float), S, D, T, 1.0f / sqrtf((float)D));
    return tlc_check(L, "vyre-libs::nn::flash_attention_2");
}

static int scalar_reference(const td_abi_launch *L) {
    if (vyc_trap(L, 0)) return 1;
    int64_t S = TLC_I(L, P_SEQ), D = TLC_I(L, P_HD);
    size_t smem = (size_t)(S * D) * sizeof(float);
    if (smem > 48 * 1024) {
        snprintf(L->err, L->errlen, "o_ref of %zu bytes exceeds the device's 48 KiB of workgroup memory", smem);
        return 1;
    }
    vyre_reference_kernel<<<dim3((unsigned)S), 1, smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Q, const float), TLC_PTR(L, R_K, const float), TLC_PTR(L, R_V, const float),
        TLC_PTR(L, R_OUT, float), S, D, 1.0f / sqrtf((float)D));
    return tlc_check(L, "vyre-libs::nn::flash_attention_2_reference");
}

TD_KERNEL(td_kc_seed_vyre_tiled) = {"seed_vyre.flash_attention_2_matches_reference", "tiled", TD_ABI_CUDA, NULL, NULL,
                                    NULL, 3, 4, tiled, NULL};
TD_KERNEL(td_kc_seed_vyre_reference) = {"seed_vyre.flash_attention_2_matches_reference", "scalar_reference",
                                        TD_ABI_CUDA, NULL, NULL, NULL, 3, 4, scalar_reference, NULL};
