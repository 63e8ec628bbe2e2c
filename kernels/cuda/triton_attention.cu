/* triton_attention on CUDA: _fwd_kernel and _bwd_kernel (below) and _bwd_preprocess, one block per program, a thread per row of the
 * BLOCK_M tile: do / denom stored as NewDO (fp16), the row's products o * do summed as the
 * pairwise tree of tl_sum into Delta (binary32); the arithmetic of
 * kernels/host/triton_attention.c. */
#include "attn_online_tlc.cuh"

enum { P_BM, P_DH };
enum { R_OUT, R_DO, R_L, R_NEWDO, R_DELTA };

__global__ void ta_bwd_pre_kernel(const __half *Out, const __half *DO, const float *Lr, __half *NewDO, float *Delta,
                                  int64_t BM, int64_t DH) {
    for (int64_t i = threadIdx.x; i < BM; i += blockDim.x) {
        float prod[AT_CU_MAX];
        const int64_t m = (int64_t)blockIdx.x * BM + i;
        const float denom = Lr[m];
        for (int64_t n = 0; n < DH; n++) {
            const float d = __fdiv_rn(at_ld(DO, m * DH + n), denom);
            prod[n] = __fmul_rn(at_ld(Out, m * DH + n), d);
            at_st(NewDO, m * DH + n, d);
        }
        Delta[m] = at_tree_sum(prod, DH);
    }
}

static int launch(const td_abi_launch *L) {
    const int64_t BM = TLC_I(L, P_BM), DH = TLC_I(L, P_DH);
    if (at_too_wide(L, DH, "D_HEAD")) return 1;
    ta_bwd_pre_kernel<<<tlc_grid(L), at_threads(BM), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_OUT, const __half), TLC_PTR(L, R_DO, const __half), TLC_PTR(L, R_L, const float),
        TLC_PTR(L, R_NEWDO, __half), TLC_PTR(L, R_DELTA, float), BM, DH);
    return tlc_check(L, "triton_attention _bwd_preprocess");
}

TD_KERNEL(td_kc_triton_attention_pre) = {"triton_attention.triton_attention_bwd_preprocess_genuine_output_summary_general",
                                         "triton", TD_ABI_CUDA, "store=fp16:rne:inf", NULL, NULL, 2, 5, launch, NULL};

/* _fwd_kernel: one block per program (start_m, off_hz), a thread per query row of the
 * BLOCK_M tile, the FlashAttention-1 step of kernels/host/triton_attention.c (binary32 dot,
 * qk * sc, the causal mask, tl.max / tl.sum over the BLOCK_N keys as at_tree_max /
 * at_tree_sum, expf, 1 / l, fp16 P, acc * (l_prev * l_rcp) + P.V), L, M binary32, Out fp16. */
enum { F_SC, F_SQZ, F_SQH, F_Z, F_H, F_NCTX, F_D0, F_BM, F_BD, F_BN };
enum { FR_Q, FR_K, FR_V, FR_L, FR_M, FR_OUT };

struct tf_dev {
    float sc;
    int64_t hzrows, nctx, d0, bm, bd, bn;
};

__global__ void tf_fwd_kernel(const __half *Q, const __half *K, const __half *V, float *Lr, float *Mr, __half *Out,
                              tf_dev g) {
    const int64_t start_m = blockIdx.x, off_hz = blockIdx.y, hz = off_hz * g.hzrows;
    for (int64_t i = threadIdx.x; i < g.bm; i += blockDim.x) {
        float q[AT_CU_MAX], acc[AT_CU_MAX], qk[AT_CU_MAX], p16[AT_CU_MAX];
        const int64_t off_m = start_m * g.bm + i;
        float m_prev = -INFINITY, l_prev = 0.0f;
        for (int64_t d = 0; d < g.bd; d++) acc[d] = 0.0f, q[d] = at_ld(Q, (hz + off_m) * g.bd + d);
        for (int64_t start_n = 0; start_n < (start_m + 1) * g.bm; start_n += g.bn) {
            for (int64_t n = 0; n < g.bn; n++) {
                const int64_t kr = hz + start_n + n;
                float dot = 0.0f;
                for (int64_t e = 0; e < g.bd; e++)
                    dot = __fadd_rn(dot, __fmul_rn(q[e], kr < g.d0 ? at_ld(K, kr * g.bd + e) : 0.0f));
                const float s = __fmul_rn(__fadd_rn(0.0f, dot), g.sc);
                qk[n] = off_m >= start_n + n ? s : -INFINITY;
            }
            const float rmax = at_tree_max(qk, g.bn), m_curr = rmax > m_prev ? rmax : m_prev;
            l_prev = __fmul_rn(l_prev, expf(__fsub_rn(m_prev, m_curr)));
            for (int64_t n = 0; n < g.bn; n++) qk[n] = expf(__fsub_rn(qk[n], m_curr));
            for (int64_t n = 0; n < g.bn; n++) p16[n] = qk[n];
            const float l_curr = __fadd_rn(at_tree_sum(qk, g.bn), l_prev), l_rcp = __fdiv_rn(1.0f, l_curr);
            for (int64_t n = 0; n < g.bn; n++) p16[n] = at_f16(__fmul_rn(p16[n], l_rcp));
            const float r = __fmul_rn(l_prev, l_rcp);
            for (int64_t d = 0; d < g.bd; d++) {
                float pv = 0.0f;
                for (int64_t n = 0; n < g.bn; n++) {
                    const int64_t kr = hz + start_n + n;
                    pv = __fadd_rn(pv, __fmul_rn(p16[n], kr < g.d0 ? at_ld(V, kr * g.bd + d) : 0.0f));
                }
                acc[d] = __fadd_rn(__fmul_rn(acc[d], r), pv);
            }
            l_prev = l_curr, m_prev = m_curr;
        }
        Lr[off_hz * g.nctx + off_m] = l_prev;
        Mr[off_hz * g.nctx + off_m] = m_prev;
        for (int64_t d = 0; d < g.bd; d++) at_st(Out, (hz + off_m) * g.bd + d, acc[d]);
    }
}

static int launch_fwd(const td_abi_launch *L) {
    tf_dev g;
    g.sc = TLC_R(L, F_SC), g.bd = TLC_I(L, F_BD), g.hzrows = TLC_I(L, F_SQH) / (g.bd > 0 ? g.bd : 1);
    g.nctx = TLC_I(L, F_NCTX), g.d0 = TLC_I(L, F_D0), g.bm = TLC_I(L, F_BM), g.bn = TLC_I(L, F_BN);
    if (at_too_wide(L, g.bd, "BLOCK_DMODEL") || at_too_wide(L, g.bn, "BLOCK_N")) return 1;
    tf_fwd_kernel<<<tlc_grid(L), at_threads(g.bm), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, FR_Q, const __half), TLC_PTR(L, FR_K, const __half), TLC_PTR(L, FR_V, const __half),
        TLC_PTR(L, FR_L, float), TLC_PTR(L, FR_M, float), TLC_PTR(L, FR_OUT, __half), g);
    return tlc_check(L, "triton_attention _fwd_kernel");
}

#define TF_CASTS "p=fp16:rne:inf;store=fp16:rne:inf"
TD_KERNEL(td_kc_triton_attention_fwd) = {"triton_attention.triton_attention_forward_output_summary_general", "triton",
                                         TD_ABI_CUDA, TF_CASTS, NULL, NULL, 10, 6, launch_fwd, NULL};
TD_KERNEL(td_kc_triton_attention_fwd_io) = {"triton_attention.triton_attention_forward_io_correctness", "triton",
                                            TD_ABI_CUDA, TF_CASTS, NULL, NULL, 10, 6, launch_fwd, NULL};

/* _bwd_kernel: one block per program off_hz, a thread per row r of the head's N_CTX rows: as
 * a key row it sums DV[r,:] and DK[r,:] over the query rows I >= r, as a query row DQ[r,:]
 * over the keys J <= r (each thread writes only its own row: no races on the DQ
 * accumulation), recomputing each pair's p and ds in the kernel's operations (binary32 dots,
 * dp accumulated onto -Di, p = expf(qk*sc - m), ds = p*dp*sc, fp16 casts of p and ds); the
 * gradient sums are in row order, not the kernel's BM blocking (any order is admissible). */
enum { B_H, B_SQZ, B_SQH, B_BASE, B_SC, B_BM, B_BD, B_D0, B_NB };
enum { BR_Q, BR_K, BR_V, BR_DO, BR_M, BR_DELTA, BR_DQ, BR_DV, BR_DK };

struct tb_dev {
    float sc;
    int64_t h, sqz2, sqh2, bd, nctx;
    const __half *q, *k, *v, *g;
    const float *m, *delta;
};

static __device__ float tb_pds(const tb_dev &a, int64_t hz, int64_t row0, int64_t I, int64_t J, int w) {
    if (J > I) return 0.0f;
    float qk = 0.0f, dp = __fsub_rn(0.0f, a.delta[row0 + I]);
    for (int64_t e = 0; e < a.bd; e++) {
        qk = __fadd_rn(qk, __fmul_rn(at_ld(a.q, (hz + I) * a.bd + e), at_ld(a.k, (hz + J) * a.bd + e)));
        dp = __fadd_rn(dp, __fmul_rn(at_ld(a.g, (hz + I) * a.bd + e), at_ld(a.v, (hz + J) * a.bd + e)));
    }
    const float p = expf(__fsub_rn(__fmul_rn(qk, a.sc), a.m[row0 + I]));
    return at_f16(w ? __fmul_rn(__fmul_rn(p, dp), a.sc) : p);
}

__global__ void tb_bwd_kernel(tb_dev a, float *DQ, __half *DV, __half *DK) {
    const int64_t off_hz = blockIdx.x, row0 = off_hz * a.nctx;
    const int64_t hz = (off_hz / a.h) * a.sqz2 + (off_hz % a.h) * a.sqh2;
    for (int64_t r = threadIdx.x; r < a.nctx; r += blockDim.x) {
        float dq[AT_CU_MAX], dv[AT_CU_MAX], dk[AT_CU_MAX];
        for (int64_t d = 0; d < a.bd; d++) dq[d] = DQ[(hz + r) * a.bd + d], dv[d] = 0.0f, dk[d] = 0.0f;
        for (int64_t J = 0; J <= r; J++) {
            const float ds = tb_pds(a, hz, row0, r, J, 1);
            for (int64_t d = 0; d < a.bd; d++) dq[d] = __fadd_rn(dq[d], __fmul_rn(ds, at_ld(a.k, (hz + J) * a.bd + d)));
        }
        for (int64_t I = r; I < a.nctx; I++) {
            const float p = tb_pds(a, hz, row0, I, r, 0), ds = tb_pds(a, hz, row0, I, r, 1);
            for (int64_t d = 0; d < a.bd; d++) {
                dv[d] = __fadd_rn(dv[d], __fmul_rn(p, at_ld(a.g, (hz + I) * a.bd + d)));
                dk[d] = __fadd_rn(dk[d], __fmul_rn(ds, at_ld(a.q, (hz + I) * a.bd + d)));
            }
        }
        for (int64_t d = 0; d < a.bd; d++) {
            DQ[(hz + r) * a.bd + d] = dq[d];
            at_st(DV, (hz + r) * a.bd + d, dv[d]);
            at_st(DK, (hz + r) * a.bd + d, dk[d]);
        }
    }
}

static int launch_bwd(const td_abi_launch *L) {
    tb_dev a;
    a.sc = TLC_R(L, B_SC), a.h = TLC_I(L, B_H), a.bd = TLC_I(L, B_BD), a.nctx = TLC_I(L, B_NB) * TLC_I(L, B_BM);
    if (at_too_wide(L, a.bd, "BD") || a.h <= 0) return 1;
    a.sqz2 = TLC_I(L, B_SQZ) / a.bd, a.sqh2 = TLC_I(L, B_SQH) / a.bd;
    a.q = TLC_PTR(L, BR_Q, const __half), a.k = TLC_PTR(L, BR_K, const __half);
    a.v = TLC_PTR(L, BR_V, const __half), a.g = TLC_PTR(L, BR_DO, const __half);
    a.m = TLC_PTR(L, BR_M, const float), a.delta = TLC_PTR(L, BR_DELTA, const float);
    tb_bwd_kernel<<<tlc_grid(L), at_threads(a.nctx), 0, (cudaStream_t)L->stream>>>(
        a, TLC_PTR(L, BR_DQ, float), TLC_PTR(L, BR_DV, __half), TLC_PTR(L, BR_DK, __half));
    return tlc_check(L, "triton_attention _bwd_kernel");
}

TD_KERNEL(td_kc_triton_attention_bwd) = {"triton_attention.triton_attention_bwd_grads_genuine_output_summary_general",
                                         "triton", TD_ABI_CUDA, "p=fp16:rne:inf;ds=fp16:rne:inf;store=fp16:rne:inf", NULL,
                                         NULL, 15, 9, launch_bwd, NULL};
