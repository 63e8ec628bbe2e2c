/* flash_attn: _fwd_kernel on the CPU, program by program (start_m = pid0,
 * off_bs_head = pid1).  Regions Q, K, V (fp16), L (fp32), O (fp16).  The block pointers
 * are unmasked: every tile row is read and every O / L row written.  Casts: q and p to
 * fp16 (RNE), the O store to fp16 (RNE, IEEE overflow). */
#include "attn_online_tl.h"

enum { R_Q, R_K, R_V, R_L, R_O };

typedef struct fa_cfg {
    int causal;
    float sm_scale;
    int64_t sqh, seq, bm, dim, bn;
} fa_cfg;

static void fa_params(const td_abi_launch *L, int layout, fa_cfg *g) {
    switch (layout) {
    case FA_LAY_GENUINE: /* IS_CAUSAL sm_scale stride_q_head SEQLEN BLOCK_M DIM BLOCK_N ... */
        g->causal = (int)TL_I(L, 0), g->sm_scale = TL_R(L, 1), g->sqh = TL_I(L, 2), g->seq = TL_I(L, 3);
        g->bm = TL_I(L, 4), g->dim = TL_I(L, 5), g->bn = TL_I(L, 6);
        break;
    case FA_LAY_CASE1:
    case FA_LAY_CASE2: /* sm_scale stride_q_head SEQLEN BLOCK_M DIM BLOCK_N ... */
        g->causal = layout == FA_LAY_CASE1, g->sm_scale = TL_R(L, 0), g->sqh = TL_I(L, 1), g->seq = TL_I(L, 2);
        g->bm = TL_I(L, 3), g->dim = TL_I(L, 4), g->bn = TL_I(L, 5);
        break;
    default: /* sm_scale sqbs skbs svbs sobs BS HEAD SEQLEN BLOCK_M DIM BLOCK_N stride_q_head */
        g->causal = 0, g->sm_scale = TL_R(L, 0), g->seq = TL_I(L, 7), g->bm = TL_I(L, 8), g->dim = TL_I(L, 9);
        g->bn = TL_I(L, 10), g->sqh = TL_I(L, 11);
        break;
    }
}

int td_hk_flash_attn(const td_abi_launch *L, int layout, unsigned mut) {
    fa_cfg g;
    fa_params(L, layout, &g);
    const int64_t BM = g.bm, BN = g.bn, D = g.dim;
    float *q, *qk, *acc, *m, *den, *k, *v, *nume, *p16;
    TL_ALLOC(L, q, BM * D);
    TL_ALLOC(L, qk, BM * BN);
    TL_ALLOC(L, acc, BM * D);
    TL_ALLOC(L, m, BM);
    TL_ALLOC(L, den, BM);
    TL_ALLOC(L, k, D * BN);
    TL_ALLOC(L, v, BN * D);
    TL_ALLOC(L, nume, BN);
    TL_ALLOC(L, p16, BN);
    const float qk_scale = g.sm_scale * 1.44269504f;
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
            int64_t base = (int64_t)p1 * g.sqh;
            if (mut & FA_MUT_OFFSET_I32) { /* Triton's int32 program id times an int32 stride: an int32 product */
                base = tl_i32((int64_t)p1 * tl_i32(g.sqh));
                int64_t qn = (L->grid[0] * BM > g.seq ? L->grid[0] * BM : g.seq) * D, kn = g.seq * D;
                if (tl_fault(L, R_Q, base, qn, 1, p1) || tl_fault(L, R_K, base, kn, 1, p1) ||
                    tl_fault(L, R_V, base, kn, 1, p1) || tl_fault(L, R_O, base, qn, 1, p1)) {
                    free(q), free(qk), free(acc), free(m), free(den), free(k), free(v), free(nume), free(p16);
                    return 1;
                }
            }
            for (int64_t i = 0; i < BM; i++) {
                m[i] = -INFINITY;
                den[i] = 0.0f;
                for (int64_t e = 0; e < D; e++) {
                    acc[i * D + e] = 0.0f;
                    /* q = (q * qk_scale).to(tl.float16) */
                    q[i * D + e] = at_cvt(TD_F16, tl_load(L, R_Q, base + (p0 * BM + i) * D + e) * qk_scale);
                }
            }
            int64_t hi = g.causal ? ((int64_t)p0 + 1) * BM : g.seq;
            if (mut & FA_MUT_SKIP_LAST) hi -= BN;
            for (int64_t start_n = 0; start_n < hi; start_n += BN) {
                for (int64_t n = 0; n < BN; n++)
                    for (int64_t e = 0; e < D; e++) {
                        k[e * BN + n] = tl_load(L, R_K, base + (start_n + n) * D + e);
                        v[n * D + e] = tl_load(L, R_V, base + (start_n + n) * D + e);
                    }
                for (int64_t i = 0; i < BM; i++) {
                    const int64_t off_m = p0 * BM + i;
                    for (int64_t n = 0; n < BN; n++) {
                        float s = 0.0f;
                        if (g.causal) {
                            int keep = (mut & FA_MUT_CAUSAL_GT) ? off_m > start_n + n : off_m >= start_n + n;
                            s = keep ? 0.0f : -INFINITY;
                        }
                        float d = 0.0f; /* tl.dot(q, k) */
                        for (int64_t e = 0; e < D; e++) d += q[i * D + e] * k[e * BN + n];
                        s += d;
                        if (mut & FA_MUT_SCALE_TWICE) s *= qk_scale;
                        qk[i * BN + n] = s;
                    }
                }
                for (int64_t i = 0; i < BM; i++) {
                    const float *row = qk + i * BN;
                    float tmax = tl_max(row, BN);
                    float m_new = m[i] > tmax ? m[i] : tmax;
                    float alpha = exp2f(m[i] - m_new);
                    for (int64_t n = 0; n < BN; n++) {
                        nume[n] = exp2f(row[n] - m_new);
                        p16[n] = at_cvt(TD_F16, nume[n]);
                    }
                    float out_scale = den[i] * 0.0f + alpha;
                    for (int64_t e = 0; e < D; e++) {
                        acc[i * D + e] *= out_scale;
                        float d = 0.0f; /* tl.dot(nume.to(tl.float16), v) */
                        for (int64_t n = 0; n < BN; n++) d += p16[n] * v[n * D + e];
                        acc[i * D + e] += d;
                    }
                    float rowsum = tl_sum((mut & FA_MUT_ROWSUM_P16) ? p16 : nume, BN);
                    den[i] = (mut & FA_MUT_NO_RESCALE_L) ? den[i] + rowsum : den[i] * alpha + rowsum;
                    m[i] = m_new;
                }
            }
            for (int64_t i = 0; i < BM; i++) {
                const int64_t off_m = p0 * BM + i;
                float lse = m[i] + ((mut & FA_MUT_L_NATLOG) ? logf(den[i]) : log2f(den[i]));
                tl_store(L, R_L, (int64_t)p1 * g.seq + off_m, lse, tl_f32());
                for (int64_t e = 0; e < D; e++)
                    tl_store(L, R_O, base + off_m * D + e, acc[i * D + e] / den[i], at_prof(TD_F16));
            }
        }
    free(q), free(qk), free(acc), free(m), free(den), free(k), free(v), free(nume), free(p16);
    return 0;
}

static int launch_genuine(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_GENUINE, 0); }
static int launch_case1(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_CASE1, 0); }
static int launch_case2(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_CASE2, 0); }
static int launch_io(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_IO, 0); }

#define FA_CASTS "q=fp16:rne:inf;p=fp16:rne:inf;store=fp16:rne:inf"
TD_KERNEL(td_k_flash_attn_out) = {"flash_attn.flash_attn_genuine_output_compute_correct_general", "triton", TD_ABI_HOST,
                                  FA_CASTS, NULL, NULL, 15, 5, launch_genuine, NULL};
TD_KERNEL(td_k_flash_attn_l) = {"flash_attn.flash_attn_genuine_l_compute_correct_general", "triton", TD_ABI_HOST,
                                FA_CASTS, NULL, NULL, 15, 5, launch_genuine, NULL};
TD_KERNEL(td_k_flash_attn_case1) = {"flash_attn.flash_attn_python_case1_genuine_compute_correct_general", "triton",
                                    TD_ABI_HOST, FA_CASTS, NULL, NULL, 14, 5, launch_case1, NULL};
TD_KERNEL(td_k_flash_attn_case2) = {"flash_attn.flash_attn_python_case2_genuine_compute_correct_general", "triton",
                                    TD_ABI_HOST, FA_CASTS, NULL, NULL, 14, 5, launch_case2, NULL};
TD_KERNEL(td_k_flash_attn_io) = {"flash_attn.flash_attn_io_correctness", "triton", TD_ABI_HOST, FA_CASTS, NULL, NULL,
                                 12, 5, launch_io, NULL};
