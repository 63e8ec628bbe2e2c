/* attention_fwd_triton3: _attn_fwd / _attn_fwd_inner on the CPU, program by program
 * (start_m = pid0, off_hz = pid1), with each theorem's launch flags:
 *   case 1: SLIDING_WINDOW, INIT, END; case 2: + COMPLEMENT_SLIDING_WINDOW; case 3: no window;
 *   case 4: SLIDING_WINDOW, END, INIT = 0 (m_i, l_i, acc loaded from M, L, Out).
 * IS_EVEN_M = IS_EVEN_N = 1: unmasked block-pointer loads and stores.  Regions Q, K, V
 * (fp16), M (fp32), Out (fp16), L (fp32).  Parameters: sm_scale, 16 strides, Z, H, H_KV,
 * N_CTX, ROUND_CTX, NKV_CTX, off, [size,] BM, ND, BN (case 3 has no size: window size 0). */
#include "attn_online_tl.h"

enum { P_SM, P_SQZ, P_SQH, P_SQM, P_SQK, P_SKZ, P_SKH, P_SKN, P_SKK, P_SVZ, P_SVH, P_SVK, P_SVN,
       P_SOZ, P_SOH, P_SOM, P_SON, P_Z, P_H, P_HKV, P_NCTX, P_ROUND, P_NKV, P_OFF, P_SIZE };
enum { R_Q, R_K, R_V, R_M, R_OUT, R_L };

/* off_z * stride_z + off_h * stride_h in int32 (T3_MUT_OFFSET_I32) */
static int64_t t3_i32(int64_t z, int64_t sz, int64_t h, int64_t sh) {
    return tl_i32(tl_i32(z * tl_i32(sz)) + tl_i32(h * tl_i32(sh)));
}

int td_hk_attention_fwd_triton3(const td_abi_launch *L, int cas, unsigned mut) {
    const int SW = cas != 3, CSW = cas == 2, INIT = cas != 4, END = 1;
    const int ib = cas == 3 ? P_SIZE : P_SIZE + 1;
    const int64_t BM = TL_I(L, ib), BD = TL_I(L, ib + 1), BN = TL_I(L, ib + 2);
    const int64_t H = TL_I(L, P_H), HKV = TL_I(L, P_HKV), ROUND = TL_I(L, P_ROUND), NKV = TL_I(L, P_NKV);
    const int64_t off = TL_I(L, P_OFF), size = cas == 3 ? 0 : TL_I(L, P_SIZE);
    float *q, *k, *v, *qk, *acc, *m_i, *l_i, *p, *p16;
    TL_ALLOC(L, q, BM * BD);
    TL_ALLOC(L, k, BD * BN);
    TL_ALLOC(L, v, BN * BD);
    TL_ALLOC(L, qk, BM * BN);
    TL_ALLOC(L, acc, BM * BD);
    TL_ALLOC(L, m_i, BM);
    TL_ALLOC(L, l_i, BM);
    TL_ALLOC(L, p, BN);
    TL_ALLOC(L, p16, BN);
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
            const int64_t start_m = p0, off_hz = p1, off_z = off_hz / H, off_h = off_hz % H, off_hkv = off_h / (H / HKV);
            int64_t q_off = off_z * TL_I(L, P_SQZ) + off_h * TL_I(L, P_SQH);
            int64_t k_off = off_z * TL_I(L, P_SKZ) + off_hkv * TL_I(L, P_SKH);
            int64_t v_off = off_z * TL_I(L, P_SVZ) + off_hkv * TL_I(L, P_SVH);
            int64_t o_off = off_z * TL_I(L, P_SOZ) + off_h * TL_I(L, P_SOH);
            if (mut & T3_MUT_OFFSET_I32) { /* without .to(tl.int64): int32 program ids times int32 strides */
                q_off = t3_i32(off_z, TL_I(L, P_SQZ), off_h, TL_I(L, P_SQH));
                k_off = t3_i32(off_z, TL_I(L, P_SKZ), off_hkv, TL_I(L, P_SKH));
                v_off = t3_i32(off_z, TL_I(L, P_SVZ), off_hkv, TL_I(L, P_SVH));
                o_off = t3_i32(off_z, TL_I(L, P_SOZ), off_h, TL_I(L, P_SOH));
                if (tl_fault(L, R_Q, q_off, 1, 1, p1) || tl_fault(L, R_K, k_off, 1, 1, p1) ||
                    tl_fault(L, R_V, v_off, 1, 1, p1) || tl_fault(L, R_OUT, o_off, 1, 1, p1)) {
                    free(q), free(k), free(v), free(qk), free(acc), free(m_i), free(l_i), free(p), free(p16);
                    return 1;
                }
            }
            for (int64_t i = 0; i < BM; i++) {
                const int64_t row = start_m * BM + i, mrow = off_hz * ROUND + row;
                m_i[i] = INIT ? -INFINITY : tl_load(L, R_M, mrow);
                l_i[i] = INIT ? 1.0f : tl_load(L, R_L, mrow);
                for (int64_t d = 0; d < BD; d++) {
                    acc[i * BD + d] = INIT ? 0.0f : tl_load(L, R_OUT, o_off + row * TL_I(L, P_SOM) + d * TL_I(L, P_SON));
                    q[i * BD + d] = tl_load(L, R_Q, q_off + row * TL_I(L, P_SQM) + d * TL_I(L, P_SQK));
                }
            }
            float qk_scale = TL_R(L, P_SM);
            qk_scale *= 1.4426950408889634f;
            /* _attn_fwd_inner's range: the window's blocks (case 1, 4) or every block */
            int64_t lo = 0, hi = NKV;
            if (SW && !CSW) {
                lo = ((start_m * BM + off - size + 1) / BN) * BN; /* int32 division truncates, as Triton's */
                hi = ((((start_m + 1) * BM - 1) + off + BN) / BN) * BN;
                if (lo < 0) lo = 0;
                if (hi > NKV) hi = NKV;
            }
            for (int64_t start_n = lo; start_n < hi; start_n += BN) {
                for (int64_t n = 0; n < BN; n++)
                    for (int64_t d = 0; d < BD; d++) {
                        k[d * BN + n] = tl_load(L, R_K, k_off + d * TL_I(L, P_SKK) + (start_n + n) * TL_I(L, P_SKN));
                        v[n * BD + d] = tl_load(L, R_V, v_off + (start_n + n) * TL_I(L, P_SVK) + d * TL_I(L, P_SVN));
                    }
                for (int64_t i = 0; i < BM; i++) {
                    uint8_t mask[256];
                    for (int64_t n = 0; n < BN; n++) {
                        float s = 0.0f, d = 0.0f; /* qk = zeros; qk += tl.dot(q, k); qk = qk * qk_scale */
                        for (int64_t e = 0; e < BD; e++) d += q[i * BD + e] * k[e * BN + n];
                        s += d;
                        s = s * qk_scale;
                        mask[n] = 1;
                        if (SW) {
                            const int64_t dist = i - n + start_m * BM - start_n + off;
                            if (CSW) mask[n] = (mut & T3_MUT_WINDOW_EDGE) ? dist > size : dist >= size;
                            else mask[n] = dist >= 0 && ((mut & T3_MUT_WINDOW_EDGE) ? dist <= size : dist < size);
                            if (!mask[n]) s = -INFINITY;
                        }
                        qk[i * BN + n] = s;
                    }
                    float tmax = tl_max(qk + i * BN, BN);
                    float m_ij = m_i[i] > tmax ? m_i[i] : tmax;
                    for (int64_t n = 0; n < BN; n++) {
                        p[n] = exp2f(qk[i * BN + n] - m_ij);
                        if (SW && !mask[n]) p[n] = 0.0f;
                        p16[n] = at_cvt(TD_F16, p[n]); /* p.to(v.dtype) */
                    }
                    float l_ij = tl_sum(p, BN);
                    float tmp = m_i[i] - m_ij;
                    float alpha = exp2f(tmp);
                    if (tmp != tmp && !(mut & T3_MUT_NO_NAN_GUARD)) alpha = 1.0f;
                    l_i[i] = (mut & T3_MUT_NO_RESCALE_L) ? l_i[i] + l_ij : l_i[i] * alpha + l_ij;
                    for (int64_t d = 0; d < BD; d++) {
                        if (!(mut & T3_MUT_NO_RESCALE_ACC)) acc[i * BD + d] = acc[i * BD + d] * alpha;
                        float dot = 0.0f;
                        for (int64_t n = 0; n < BN; n++) dot += p16[n] * v[n * BD + d];
                        acc[i * BD + d] += dot;
                    }
                    m_i[i] = m_ij;
                }
            }
            for (int64_t i = 0; i < BM; i++) {
                const int64_t row = start_m * BM + i, mrow = off_hz * ROUND + row;
                if (END) {
                    if (!(mut & T3_MUT_M_NO_LOG)) m_i[i] += log2f(l_i[i]);
                    for (int64_t d = 0; d < BD; d++) acc[i * BD + d] = acc[i * BD + d] / l_i[i];
                } else
                    tl_store(L, R_L, mrow, l_i[i], tl_f32());
                tl_store(L, R_M, mrow, m_i[i], tl_f32());
                for (int64_t d = 0; d < BD; d++)
                    tl_store(L, R_OUT, o_off + row * TL_I(L, P_SOM) + d * TL_I(L, P_SON), acc[i * BD + d],
                             at_prof(TD_F16));
            }
        }
    free(q), free(k), free(v), free(qk), free(acc), free(m_i), free(l_i), free(p), free(p16);
    return 0;
}

static int launch_1(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 1, 0); }
static int launch_2(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 2, 0); }
static int launch_3(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 3, 0); }
static int launch_4(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 4, 0); }

#define T3_CASTS "p=fp16:rne:inf;store=fp16:rne:inf"
#define T3_ID(x) "attention_fwd_triton3.attention_fwd_triton3_" x
TD_KERNEL(td_k_t3_case1_os) = {T3_ID("python_case1_output_summary_general"), "triton", TD_ABI_HOST, T3_CASTS, NULL,
                               NULL, 28, 6, launch_1, NULL};
TD_KERNEL(td_k_t3_case2_os) = {T3_ID("python_case2_output_summary_general"), "triton", TD_ABI_HOST, T3_CASTS, NULL,
                               NULL, 28, 6, launch_2, NULL};
TD_KERNEL(td_k_t3_case3_os) = {T3_ID("python_case3_output_summary_general"), "triton", TD_ABI_HOST, T3_CASTS, NULL,
                               NULL, 27, 6, launch_3, NULL};
TD_KERNEL(td_k_t3_case4_os) = {T3_ID("python_case4_output_summary_general"), "triton", TD_ABI_HOST, T3_CASTS, NULL,
                               NULL, 28, 6, launch_4, NULL};
TD_KERNEL(td_k_t3_case1_io) = {T3_ID("case1_io_correctness"), "triton", TD_ABI_HOST, T3_CASTS, NULL, NULL, 28, 6,
                               launch_1, NULL};
TD_KERNEL(td_k_t3_case2_io) = {T3_ID("case2_io_correctness"), "triton", TD_ABI_HOST, T3_CASTS, NULL, NULL, 28, 6,
                               launch_2, NULL};
TD_KERNEL(td_k_t3_case3_io) = {T3_ID("case3_io_correctness"), "triton", TD_ABI_HOST, T3_CASTS, NULL, NULL, 27, 6,
                               launch_3, NULL};
TD_KERNEL(td_k_t3_case4_io) = {T3_ID("case4_io_correctness"), "triton", TD_ABI_HOST, T3_CASTS, NULL, NULL, 28, 6,
                               launch_4, NULL};
