/* triton_linear_activation: kernel_fma with K_LOAD_MASK_NEEDED = True and SPLIT_K = 1:
 * grouped order (block_m_idx = group_idx*GROUP_M + program_idx % group_size), m_offs /
 * n_offs wrapped % M / % N, acc = 0 (+ bias[n_offs] when HAS_BIAS), `acc +=
 * tl.dot(a, b)` over numKBlocks steps, tl.store(ACT_INPUTS, acc) when saving, the
 * activation, and the store to C masked by m_offs < M & n_offs < N.
 * Parameters: M N output_m_stride output_n_stride act_inputs_m_stride act_inputs_n_stride
 * a_m_stride a_k_stride b_n_stride b_k_stride BLOCK_M GROUP_M BLOCK_N BLOCK_K numKBlocks
 * HAS_BIAS SHOULD_SAVE_ACT_INPUTS ACTIVATION (0 "", 1 tanh, 2 gelu, 3 fast_gelu, 4 relu).
 * Regions: C, ACT_INPUTS (binary32), A, B, bias (fp16). */
#include "matmul_tl.h"

enum { P_M, P_N, P_SMO, P_SNO, P_SAIM, P_SAIN, P_SAM, P_SAK, P_SBN, P_SBK, P_BM, P_GM, P_BN, P_BK, P_NKB, P_HB,
       P_SAVE, P_ACT };
enum { R_C, R_ACT, R_A, R_B, R_BIAS };
enum { ACT_NONE = 0, ACT_TANH, ACT_GELU, ACT_FAST_GELU, ACT_RELU };

static float activation(int act, float x) {
    switch (act) {
    case ACT_TANH: return tanhf(x);
    case ACT_GELU: return x * 0.5f * (1.0f + erff(x / 1.41421356237309504880f)); /* sqrt2 held in binary32 */
    case ACT_FAST_GELU: {
        const float sqrt2pi = 0.797884560802865355879892f, c = 0.044715f;
        return 0.5f * x * (1.0f + tanhf(sqrt2pi * (x + c * x * x * x)));
    }
    case ACT_RELU: return x > 0.0f ? x : 0.0f; /* tl.maximum(0, x) */
    default: return x;
    }
}

enum { TLA_OK = 0, TLA_SAVE_AFTER_ACT, TLA_BIAS_BY_ROW, TLA_A_OFF_I32 };

int td_tla_program(const td_abi_launch *L, int bug);
int td_tla_program(const td_abi_launch *L, int bug) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), BK = TL_I(L, P_BK);
    int64_t GM = TL_I(L, P_GM), T = TL_I(L, P_NKB), K = BK * T;
    int act = (int)TL_I(L, P_ACT), save = TL_I(L, P_SAVE) != 0, has_bias = TL_I(L, P_HB) != 0;
    int64_t *arow, *bcol, *moff, *noff;
    float *acc;
    TL_ALLOC(L, arow, BM);
    TL_ALLOC(L, bcol, BN);
    TL_ALLOC(L, moff, BM);
    TL_ALLOC(L, noff, BN);
    TL_ALLOC(L, acc, BM * BN);
    int rc = 0;
    int64_t grid_m = (M + BM - 1) / BM, grid_n = (N + BN - 1) / BN, width = GM * grid_n;
    for (uint32_t pid = 0; pid < L->grid[0] && !rc; pid++) {
        int64_t group_idx = pid / width;
        int64_t group_size = grid_m - group_idx * GM < GM ? grid_m - group_idx * GM : GM;
        int64_t bm = group_idx * GM + pid % group_size, bn = (pid % width) / group_size;
        for (int64_t i = 0; i < BM && !rc; i++) {
            moff[i] = (bm * BM + i) % M, arow[i] = moff[i] * TL_I(L, P_SAM);
            if (bug == TLA_A_OFF_I32) /* m_offs[:, None] * a_m_stride in int32: wraps beyond 2^31 */
                arow[i] = tl_i32(moff[i] * tl_i32(TL_I(L, P_SAM))), rc = tl_fault(L, R_A, arow[i], K, TL_I(L, P_SAK), pid);
        }
        if (rc) break;
        for (int64_t j = 0; j < BN; j++) noff[j] = (bn * BN + j) % N, bcol[j] = noff[j] * TL_I(L, P_SBN);
        memset(acc, 0, (size_t)(BM * BN) * sizeof *acc);
        if (has_bias) /* bias = tl.load(bias + n_offs, mask=n_offs < N); acc += bias[None, :] */
            for (int64_t i = 0; i < BM; i++)
                for (int64_t j = 0; j < BN; j++) {
                    int64_t bi = bug == TLA_BIAS_BY_ROW ? moff[i] : noff[j];
                    acc[i * BN + j] += bi < N ? tl_load(L, R_BIAS, bi) : 0.0f;
                }
        mmh_loop m = {R_A, R_B, BM, BN, BK, T, K, arow, bcol, TL_I(L, P_SAK), TL_I(L, P_SBK), 0};
        rc = mmh_kloop(L, &m, acc);
        for (int64_t i = 0; i < BM && !rc; i++)
            for (int64_t j = 0; j < BN; j++) {
                float lin = acc[i * BN + j], out = activation(act, lin);
                if (save) /* unmasked, at the wrapped offsets */
                    tl_store(L, R_ACT, moff[i] * TL_I(L, P_SAIM) + noff[j] * TL_I(L, P_SAIN),
                             bug == TLA_SAVE_AFTER_ACT ? out : lin, tl_f32());
                if (moff[i] < M && noff[j] < N)
                    tl_store(L, R_C, moff[i] * TL_I(L, P_SMO) + noff[j] * TL_I(L, P_SNO), out, tl_f32());
            }
    }
    free(arow);
    free(bcol);
    free(moff);
    free(noff);
    free(acc);
    return rc;
}

static int kernel_fma(const td_abi_launch *L) { return td_tla_program(L, TLA_OK); }

TD_KERNEL(td_k_tla_summary) = {"triton_linear_activation.triton_linear_activation_output_summary_general", "triton",
                               TD_ABI_HOST, NULL, "libm", NULL, 18, 5, kernel_fma, NULL};
TD_KERNEL(td_k_tla_io) = {"triton_linear_activation.triton_linear_activation_io_correctness", "triton", TD_ABI_HOST,
                          NULL, "libm", NULL, 18, 5, kernel_fma, NULL};
