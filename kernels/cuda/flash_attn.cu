/* flash_attn on CUDA: _fwd_kernel, one block per program (start_m, off_bs_head), a
 * thread per query row, the same arithmetic as kernels/host/flash_attn.c. */
#include "attn_online_tlc.cuh"

enum { R_Q, R_K, R_V, R_L, R_O };
enum { FA_LAY_GENUINE, FA_LAY_CASE1, FA_LAY_CASE2, FA_LAY_IO };

__global__ void fa_fwd_kernel(const __half *Q, const __half *K, const __half *V, float *Lse, __half *O, float sm_scale,
                              int64_t sqh, int64_t seq, int64_t BM, int64_t D, int64_t BN, int causal) {
    const int64_t p0 = blockIdx.x, p1 = blockIdx.y, base = p1 * sqh;
    const float qk_scale = __fmul_rn(sm_scale, 1.44269504f);
    for (int64_t i = threadIdx.x; i < BM; i += blockDim.x) {
        float q[AT_CU_MAX], acc[AT_CU_MAX], qk[AT_CU_MAX], nume[AT_CU_MAX], p16[AT_CU_MAX];
        const int64_t off_m = p0 * BM + i;
        float m = -INFINITY, den = 0.0f;
        for (int64_t e = 0; e < D; e++) {
            acc[e] = 0.0f;
            q[e] = at_f16(__fmul_rn(at_ld(Q, base + off_m * D + e), qk_scale));
        }
        const int64_t hi = causal ? (p0 + 1) * BM : seq;
        for (int64_t start_n = 0; start_n < hi; start_n += BN) {
            for (int64_t n = 0; n < BN; n++) {
                float s = causal ? (off_m >= start_n + n ? 0.0f : -INFINITY) : 0.0f;
                float d = 0.0f;
                for (int64_t e = 0; e < D; e++)
                    d = __fadd_rn(d, __fmul_rn(q[e], at_ld(K, base + (start_n + n) * D + e)));
                qk[n] = __fadd_rn(s, d);
            }
            float tmax = at_tree_max(qk, BN);
            float m_new = m > tmax ? m : tmax;
            float alpha = exp2f(__fsub_rn(m, m_new));
            for (int64_t n = 0; n < BN; n++) {
                nume[n] = exp2f(__fsub_rn(qk[n], m_new));
                p16[n] = at_f16(nume[n]);
            }
            float out_scale = __fadd_rn(__fmul_rn(den, 0.0f), alpha);
            for (int64_t e = 0; e < D; e++) {
                float d = 0.0f;
                for (int64_t n = 0; n < BN; n++)
                    d = __fadd_rn(d, __fmul_rn(p16[n], at_ld(V, base + (start_n + n) * D + e)));
                acc[e] = __fadd_rn(__fmul_rn(acc[e], out_scale), d);
            }
            float rowsum = at_tree_sum(nume, BN);
            den = __fadd_rn(__fmul_rn(den, alpha), rowsum);
            m = m_new;
        }
        Lse[p1 * seq + off_m] = __fadd_rn(m, log2f(den));
        for (int64_t e = 0; e < D; e++) O[base + off_m * D + e] = __float2half_rn(__fdiv_rn(acc[e], den));
    }
}

static int launch(const td_abi_launch *L, int layout) {
    int causal;
    float sm;
    int64_t sqh, seq, bm, dim, bn;
    if (layout == FA_LAY_GENUINE)
        causal = (int)TLC_I(L, 0), sm = TLC_R(L, 1), sqh = TLC_I(L, 2), seq = TLC_I(L, 3), bm = TLC_I(L, 4),
        dim = TLC_I(L, 5), bn = TLC_I(L, 6);
    else if (layout != FA_LAY_IO)
        causal = layout == FA_LAY_CASE1, sm = TLC_R(L, 0), sqh = TLC_I(L, 1), seq = TLC_I(L, 2), bm = TLC_I(L, 3),
        dim = TLC_I(L, 4), bn = TLC_I(L, 5);
    else
        causal = 0, sm = TLC_R(L, 0), seq = TLC_I(L, 7), bm = TLC_I(L, 8), dim = TLC_I(L, 9), bn = TLC_I(L, 10),
        sqh = TLC_I(L, 11);
    if (at_too_wide(L, dim, "DIM") || at_too_wide(L, bn, "BLOCK_N")) return 1;
    fa_fwd_kernel<<<tlc_grid(L), at_threads(bm), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Q, const __half), TLC_PTR(L, R_K, const __half), TLC_PTR(L, R_V, const __half),
        TLC_PTR(L, R_L, float), TLC_PTR(L, R_O, __half), sm, sqh, seq, bm, dim, bn, causal);
    return tlc_check(L, "flash_attn _fwd_kernel");
}

static int launch_genuine(const td_abi_launch *L) { return launch(L, FA_LAY_GENUINE); }
static int launch_case1(const td_abi_launch *L) { return launch(L, FA_LAY_CASE1); }
static int launch_case2(const td_abi_launch *L) { return launch(L, FA_LAY_CASE2); }
static int launch_io(const td_abi_launch *L) { return launch(L, FA_LAY_IO); }

#define FA_CASTS "q=fp16:rne:inf;p=fp16:rne:inf;store=fp16:rne:inf"
TD_KERNEL(td_kc_flash_attn_out) = {"flash_attn.flash_attn_genuine_output_compute_correct_general", "triton",
                                   TD_ABI_CUDA, FA_CASTS, NULL, NULL, 15, 5, launch_genuine, NULL};
TD_KERNEL(td_kc_flash_attn_l) = {"flash_attn.flash_attn_genuine_l_compute_correct_general", "triton", TD_ABI_CUDA,
                                 FA_CASTS, NULL, NULL, 15, 5, launch_genuine, NULL};
TD_KERNEL(td_kc_flash_attn_case1) = {"flash_attn.flash_attn_python_case1_genuine_compute_correct_general", "triton",
                                     TD_ABI_CUDA, FA_CASTS, NULL, NULL, 14, 5, launch_case1, NULL};
TD_KERNEL(td_kc_flash_attn_case2) = {"flash_attn.flash_attn_python_case2_genuine_compute_correct_general", "triton",
                                     TD_ABI_CUDA, FA_CASTS, NULL, NULL, 14, 5, launch_case2, NULL};
TD_KERNEL(td_kc_flash_attn_io) = {"flash_attn.flash_attn_io_correctness", "triton", TD_ABI_CUDA, FA_CASTS, NULL, NULL,
                                  12, 5, launch_io, NULL};
