/* Host helpers shared by the online-softmax attention ports (flash_attn,
 * attention_llama, attn_fwd_causal, attn_fwd_triton, attention_forward_triton,
 * attention_fwd_triton2, attention_fwd_triton3) and their mutants.
 *
 * Each port walks the grid program by program and keeps Triton's tiles as plain
 * binary32 arrays: q [BLOCK_M x D], the score tile [BLOCK_M x BLOCK_N], acc
 * [BLOCK_M x D].  tl.dot is a loop over the reduction lanes in binary32 (the
 * products of binary16 / bfloat16 operands are exact in binary32), tl.max / tl.sum
 * over a row of the score tile are tl_max / tl_sum (pairwise trees), and every
 * .to(fp16) / .to(bf16) / store goes through rounding/ with the profile the kernel
 * declares.
 *
 * A port's mutants are switches of the port itself (bit 0 = the faithful program):
 * kernels/mutants/<file>.c names each switch and registers the mutant. */
#ifndef TD_ATTN_ONLINE_TL_H
#define TD_ATTN_ONLINE_TL_H

#include "tl.h"

static inline td_profile at_prof(td_fmt f) {
    td_profile p = {f, TD_RNE, TD_OVF_INF, false};
    return p;
}

/* x.to(fmt) as a binary32 value (RNE; IEEE overflow) */
static inline float at_cvt(td_fmt f, float x) { return (float)td_decode(f, td_encode_f32(at_prof(f), x)); }

/* ceil(a / b) for the positive operands of the launch arithmetic */
static inline int64_t at_cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* ---- flash_attn ---- */
/* parameter layouts: genuine_{output,l} (IS_CAUSAL a parameter), python_case{1,2}, io */
enum { FA_LAY_GENUINE, FA_LAY_CASE1, FA_LAY_CASE2, FA_LAY_IO };
#define FA_MUT_CAUSAL_GT 0x1u     /* causal mask off_m > start_n + off_n: the diagonal key dropped */
#define FA_MUT_ROWSUM_P16 0x2u    /* the row sum adds the fp16-cast P (the cast applied to both uses) */
#define FA_MUT_NO_RESCALE_L 0x4u  /* denom += rowsum(p): running max moved, l not rescaled */
#define FA_MUT_SCALE_TWICE 0x8u   /* qk_scale applied to q and again to the scores */
#define FA_MUT_SKIP_LAST 0x10u    /* the K loop stops one BLOCK_N early (the last KV block dropped) */
#define FA_MUT_L_NATLOG 0x20u     /* L = m + log(l): natural log where the base-2 statistic is due */
#define FA_MUT_OFFSET_I32 0x40u   /* qkv_base_offset = off_bs_head * stride_q_head formed in int32 */
int td_hk_flash_attn(const td_abi_launch *L, int layout, unsigned mut);

/* ---- attention_llama ---- */
#define AL_MUT_CAUSAL_GT 0x1u     /* causal mask offs_m > start_n + offs_n + start_position: the diagonal key dropped */
#define AL_MUT_NO_RESCALE_L 0x2u  /* l_prev not multiplied by exp(m_prev - m_curr) */
#define AL_MUT_SCALE_TWICE 0x4u   /* qk *= sm_scale applied twice */
#define AL_MUT_P_CAST_EARLY 0x8u  /* p.to(fp16) before p *= l_rcp (the rounding moved to the unnormalised P) */
#define AL_MUT_OFFSET_I32 0x10u   /* off_k = batch_id * stride_kz + off_hz * stride_kh formed in int32 */
int td_hk_attention_llama(const td_abi_launch *L, int causal, unsigned mut);

/* ---- attention_fwd_triton3: case 1 (window), 2 (complementary window), 3 (none), 4 (resume) ---- */
#define T3_MUT_WINDOW_EDGE 0x1u   /* window compare off by one: dist <= size (complement: dist > size) */
#define T3_MUT_NO_NAN_GUARD 0x2u  /* alpha = exp2(m_i - m_ij) without the NaN guard of fully masked rows */
#define T3_MUT_NO_RESCALE_L 0x4u  /* l_i = l_i + l_ij: l not rescaled when the running max moves */
#define T3_MUT_NO_RESCALE_ACC 0x8u /* acc += P.V without acc = acc * alpha */
#define T3_MUT_M_NO_LOG 0x10u     /* END stores the running max, forgetting m_i += log2(l_i) */
#define T3_MUT_OFFSET_I32 0x20u   /* q/k/v/o_offset = off_z * stride_*z + off_h * stride_*h without .to(tl.int64) */
int td_hk_attention_fwd_triton3(const td_abi_launch *L, int cas, unsigned mut);

/* ---- the SageAttention-style _attn_fwd / _attn_fwd_inner (per-block Q/K scales, base-2
 * scores): attention_forward_triton, attention_fwd_triton2 (non-causal, one inner call
 * over range(0, N_CTX, BLOCK_N)) and attn_fwd_causal, attn_fwd_triton (STAGE = 3: inner
 * stage 1 over range(0, start_m*BLOCK_M), then stage 2 over the diagonal block
 * range(start_m*BLOCK_M, (start_m+1)*BLOCK_M) with qk + where(offs_m >= start_n + offs_n,
 * 0, -1e6)).  The Python kernels hard-code tl.arange(0, 128) < 96: BLOCK_DMODEL and
 * HEAD_ACTIVE here, as in the Lean ports.  Regions: Q, K, V, Q_scale (fp32), K_scale
 * (fp32), Out; every stride is shared (stride_qz, stride_qh, HEAD_DIM, 1). ---- */
typedef struct at_sage_cfg {
    int64_t sqz, sqh, H, n_ctx, head_dim, bm, bn, bd, head_active, stage;
    int causal;   /* the two-stage causal inner loop (attn_fwd_causal, attn_fwd_triton) */
    int v_to_f16; /* v.to(tl.float16) before the P.V dot (attention_fwd_triton2, attn_fwd_triton) */
} at_sage_cfg;
enum { SG_Q, SG_K, SG_V, SG_QS, SG_KS, SG_OUT };
#define SG_MUT_ROWSUM_P16 0x1u    /* l_ij = tl.sum(p.to(fp16)): the fp16 P in the row sum too */
#define SG_MUT_NO_RESCALE_L 0x2u  /* l_i = l_i + l_ij: l not rescaled when the running max moves */
#define SG_MUT_HEAD_MASK 0x4u     /* head mask offs_k <= HEAD_ACTIVE: one lane past the active head */
#define SG_MUT_KSCALE_STUCK 0x8u  /* K_scale_ptr never advanced: every block uses block 0's k_scale */
#define SG_MUT_CAUSAL_GT 0x10u    /* stage-2 mask offs_m > start_n + offs_n: the diagonal key dropped */
#define SG_MUT_STAGE2_KSCALE 0x20u /* stage 2 without K_scale_ptr += lo // BLOCK_N */
#define SG_MUT_PV_FP32 0x40u      /* tl.dot(p, v) with the default fp32 out_dtype (no fp16 rounding) */
#define SG_MUT_QSCALE_TWICE 0x80u /* qk = dot * q_scale * k_scale * q_scale */
#define SG_MUT_OFFSET_I32 0x100u  /* qvk_offset = off_z * stride_qz + off_h * stride_qh without .to(tl.int64): int32 */

/* one call of _attn_fwd_inner for the program's tile */
static inline void at_sage_inner(const td_abi_launch *L, const at_sage_cfg *g, unsigned mut, int stage, int64_t start_m,
                                 int64_t qvk, int64_t ks_off, const float *q, float q_scale, float *acc, float *l_i,
                                 float *m_i, float *k, float *v, float *qk, float *p, float *p16) {
    const int64_t BM = g->bm, BN = g->bn, BD = g->bd, HA = g->head_active, HD = g->head_dim, N = g->n_ctx;
    const int64_t ha_mask = (mut & SG_MUT_HEAD_MASK) ? HA + 1 : HA; /* lanes e < ha_mask are loaded */
    int64_t lo = 0, hi = N, kblk = 0;
    if (g->causal && stage == 1) hi = start_m * BM;
    if (g->causal && stage == 2) {
        lo = start_m * BM, hi = (start_m + 1) * BM;
        if (!(mut & SG_MUT_STAGE2_KSCALE)) kblk = lo / BN; /* K_scale_ptr += lo // BLOCK_N */
    }
    for (int64_t start_n = lo; start_n < hi; start_n += BN, kblk += (mut & SG_MUT_KSCALE_STUCK) ? 0 : 1) {
        for (int64_t e = 0; e < BD; e++)
            for (int64_t n = 0; n < BN; n++) {
                int in = n < N - start_n && e < ha_mask;
                k[e * BN + n] = in ? tl_load(L, SG_K, qvk + e + (start_n + n) * HD) : 0.0f;
                v[n * BD + e] = in ? tl_load(L, SG_V, qvk + (start_n + n) * HD + e) : 0.0f;
            }
        float k_scale = tl_load(L, SG_KS, ks_off + kblk);
        for (int64_t i = 0; i < BM; i++) {
            const int64_t off_m = start_m * BM + i;
            for (int64_t n = 0; n < BN; n++) {
                float d = 0.0f; /* tl.dot(q, k).to(tl.float32) */
                for (int64_t e = 0; e < BD; e++) d += q[i * BD + e] * k[e * BN + n];
                float s = d * q_scale * k_scale;
                if (mut & SG_MUT_QSCALE_TWICE) s = s * q_scale;
                if (g->causal && stage == 2) {
                    int keep = (mut & SG_MUT_CAUSAL_GT) ? off_m > start_n + n : off_m >= start_n + n;
                    s = s + (keep ? 0.0f : -1.0e6f);
                }
                qk[i * BN + n] = s;
            }
            float tmax = tl_max(qk + i * BN, BN);
            float m_ij = m_i[i] > tmax ? m_i[i] : tmax;
            for (int64_t n = 0; n < BN; n++) {
                p[n] = exp2f(qk[i * BN + n] - m_ij);
                p16[n] = at_cvt(TD_F16, p[n]);
            }
            float l_ij = tl_sum((mut & SG_MUT_ROWSUM_P16) ? p16 : p, BN);
            float alpha = exp2f(m_i[i] - m_ij);
            l_i[i] = (mut & SG_MUT_NO_RESCALE_L) ? l_i[i] + l_ij : l_i[i] * alpha + l_ij;
            for (int64_t e = 0; e < BD; e++) {
                acc[i * BD + e] = acc[i * BD + e] * alpha;
                float d = 0.0f; /* tl.dot(p, v[.to(fp16)], out_dtype=tl.float16) */
                for (int64_t n = 0; n < BN; n++) {
                    float ve = g->v_to_f16 ? at_cvt(TD_F16, v[n * BD + e]) : v[n * BD + e];
                    d += p16[n] * ve;
                }
                acc[i * BD + e] += (mut & SG_MUT_PV_FP32) ? d : at_cvt(TD_F16, d);
            }
            m_i[i] = m_ij;
        }
    }
}

int td_hk_attention_forward_triton(const td_abi_launch *L, int io, unsigned mut);
int td_hk_attention_fwd_triton2(const td_abi_launch *L, int io, unsigned mut);
int td_hk_attn_fwd_causal(const td_abi_launch *L, int io, unsigned mut);
int td_hk_attn_fwd_triton(const td_abi_launch *L, int io, unsigned mut);

static inline int at_sage_run(const td_abi_launch *L, const at_sage_cfg *g, unsigned mut) {
    const int64_t BM = g->bm, BN = g->bn, BD = g->bd, HA = g->head_active, HD = g->head_dim, N = g->n_ctx;
    const int64_t ha_mask = (mut & SG_MUT_HEAD_MASK) ? HA + 1 : HA;
    float *q, *acc, *l_i, *m_i, *k, *v, *qk, *p, *p16;
    TL_ALLOC(L, q, BM * BD);
    TL_ALLOC(L, acc, BM * BD);
    TL_ALLOC(L, l_i, BM);
    TL_ALLOC(L, m_i, BM);
    TL_ALLOC(L, k, BD * BN);
    TL_ALLOC(L, v, BN * BD);
    TL_ALLOC(L, qk, BM * BN);
    TL_ALLOC(L, p, BN);
    TL_ALLOC(L, p16, BN);
    const td_profile out = at_prof(TL_FMT(L, SG_OUT));
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
            const int64_t start_m = p0, off_hz = p1, off_z = off_hz / g->H, off_h = off_hz % g->H;
            int64_t qvk = off_z * g->sqz + off_h * g->sqh;
            if (mut & SG_MUT_OFFSET_I32) { /* Triton's i32 pids times strides taken as i32: wraps past 2^31 */
                qvk = tl_i32(tl_i32(off_z * tl_i32(g->sqz)) + tl_i32(off_h * tl_i32(g->sqh)));
                if (tl_fault(L, SG_Q, qvk, 1, 1, p1)) {
                    free(q), free(acc), free(l_i), free(m_i), free(k), free(v), free(qk), free(p), free(p16);
                    return 1;
                }
            }
            const int64_t qs_off = off_hz * at_cdiv(N, BM), ks_off = off_hz * at_cdiv(N, BN);
            for (int64_t i = 0; i < BM; i++) {
                m_i[i] = -INFINITY;
                l_i[i] = 1.0f;
                const int64_t off_m = start_m * BM + i;
                for (int64_t e = 0; e < BD; e++) {
                    acc[i * BD + e] = 0.0f;
                    q[i * BD + e] = (off_m < N && e < ha_mask) ? tl_load(L, SG_Q, qvk + off_m * HD + e) : 0.0f;
                }
            }
            float q_scale = tl_load(L, SG_QS, qs_off + start_m);
            if (g->causal) {
                at_sage_inner(L, g, mut, 4 - (int)g->stage, start_m, qvk, ks_off, q, q_scale, acc, l_i, m_i, k, v,
                              qk, p, p16);
                at_sage_inner(L, g, mut, 2, start_m, qvk, ks_off, q, q_scale, acc, l_i, m_i, k, v, qk, p, p16);
            } else
                at_sage_inner(L, g, mut, 4 - (int)g->stage, start_m, qvk, ks_off, q, q_scale, acc, l_i, m_i, k, v,
                              qk, p, p16);
            for (int64_t i = 0; i < BM; i++) {
                const int64_t off_m = start_m * BM + i;
                for (int64_t e = 0; e < BD; e++)
                    if (off_m < N && e < ha_mask)
                        tl_store(L, SG_OUT, qvk + off_m * HD + e, acc[i * BD + e] / l_i[i], out);
            }
        }
    free(q), free(acc), free(l_i), free(m_i), free(k), free(v), free(qk), free(p), free(p16);
    return 0;
}

#endif
