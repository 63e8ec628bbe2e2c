/* context_attn_mistral on CUDA: _fwd_kernel with the sliding window, one block per
 * (batch, head, start_m) program, one thread per query row of the BLOCK_M tile.
 *   genuine parameters: sm_scale rs hs BLK DM sw;  IO: sm_scale rs hs sw BLK DM NT. */
#include "attn2_tlc.cuh"

enum { G_SM, G_RS, G_HS, G_BLK, G_DM, G_SW, G_NP };
enum { I_SM, I_RS, I_HS, I_SW, I_BLK, I_DM, I_NT, I_NP };
enum { R_Q, R_K, R_V, R_START, R_SEQLEN, R_OUT, NR };
struct pix { int sm, rs, hs, blk, dm, sw; };
#define MAX_D 128
#define MAX_BN 128

static __global__ void fwd_kernel(a2_args a, pix x) {
    int64_t b = blockIdx.x, h = blockIdx.y, sm = blockIdx.z;
    int64_t rs = A2_I(a, x.rs), hs = A2_I(a, x.hs), BM = A2_I(a, x.blk), BN = BM, D = A2_I(a, x.dm);
    int64_t sliding_window = A2_I(a, x.sw), kvh = h / 1; /* kv_group_num = 1 */
    float sm_scale = A2_R(a, x.sm);
    int64_t seqlen = A2_LDI(a, R_SEQLEN, b), start = A2_LDI(a, R_START, b);
    int64_t block_start = BM * sm, block_mask = block_start < seqlen ? 1 : 0;
    float q[MAX_D], acc[MAX_D], qk[MAX_BN], p[MAX_BN];
    for (int64_t i = threadIdx.x; i < BM; i += blockDim.x) {
        int64_t offs_m = block_start + i;
        for (int64_t d = 0; d < D; d++) q[d] = offs_m < seqlen ? A2_LD(a, R_Q, (start + offs_m) * rs + h * hs + d) : 0.0f;
        for (int64_t d = 0; d < D; d++) acc[d] = 0.0f;
        float m_i = -INFINITY, l_i = 0.0f;
        for (int64_t start_n = 0; start_n < block_mask * (sm + 1) * BM; start_n += BN) {
            for (int64_t n = 0; n < BN; n++) {
                float s = 0.0f;
                for (int64_t d = 0; d < D; d++) {
                    float k = start_n + n < seqlen ? A2_LD(a, R_K, (start + start_n + n) * rs + kvh * hs + d) : 0.0f;
                    s = __fadd_rn(s, __fmul_rn(q[d], k));
                }
                s = __fmul_rn(s, sm_scale);
                s = offs_m >= start_n + n ? s : -1e9f;
                s = start_n + n > offs_m - sliding_window ? s : -1e9f;
                qk[n] = s;
            }
            float m_ij = -INFINITY;
            for (int64_t n = 0; n < BN; n++) m_ij = qk[n] > m_ij ? qk[n] : m_ij;
            m_ij = m_ij == -1e9f ? 0.0f : m_ij;
            for (int64_t n = 0; n < BN; n++) p[n] = expf(__fsub_rn(qk[n], m_ij));
            for (int64_t n = 0; n < BN; n++) qk[n] = p[n];
            float l_ij = a2_tree_sum(qk, (int)BN);
            float m_i_new = m_i > m_ij ? m_i : m_ij;
            float alpha = expf(__fsub_rn(m_i, m_i_new)), beta = expf(__fsub_rn(m_ij, m_i_new));
            float l_i_new = __fadd_rn(__fmul_rn(alpha, l_i), __fmul_rn(beta, l_ij));
            l_i_new = l_i_new == 0.0f ? 1e-9f : l_i_new;
            float p_scale = __fdiv_rn(beta, l_i_new);
            for (int64_t n = 0; n < BN; n++) p[n] = a2_rn16(__fmul_rn(p[n], p_scale));
            float acc_scale = __fmul_rn(__fdiv_rn(l_i, l_i_new), alpha);
            for (int64_t d = 0; d < D; d++) {
                float dot = 0.0f;
                for (int64_t n = 0; n < BN; n++) {
                    float v = start_n + n < seqlen ? A2_LD(a, R_V, (start + start_n + n) * rs + kvh * hs + d) : 0.0f;
                    dot = __fadd_rn(dot, __fmul_rn(p[n], v));
                }
                acc[d] = __fadd_rn(__fmul_rn(acc[d], acc_scale), dot);
            }
            l_i = l_i_new;
            m_i = m_i_new;
        }
        if (offs_m < seqlen)
            for (int64_t d = 0; d < D; d++) A2_ST(a, R_OUT, (start + offs_m) * rs + h * hs + d, acc[d]);
    }
}

static int launch(const td_abi_launch *L, pix x) {
    if (L->params[x.dm].i > MAX_D || L->params[x.blk].i > MAX_BN) {
        snprintf(L->err, L->errlen, "BLOCK_DMODEL / BLOCK_N beyond the port's tiles (%d / %d)", MAX_D, MAX_BN);
        return 1;
    }
    a2_args a;
    if (a2_pack(L, &a)) return 1;
    fwd_kernel<<<tlc_grid(L), tlc_threads(A2_I(a, x.blk)), 0, (cudaStream_t)L->stream>>>(a, x);
    return tlc_check(L, "fwd_kernel");
}
static int launch_g(const td_abi_launch *L) { return launch(L, pix{G_SM, G_RS, G_HS, G_BLK, G_DM, G_SW}); }
static int launch_io(const td_abi_launch *L) { return launch(L, pix{I_SM, I_RS, I_HS, I_BLK, I_DM, I_SW}); }

TD_KERNEL(td_kc_ctx_mistral) = {"context_attn_mistral.context_attn_mistral_genuine_output_summary_general", "triton",
                                TD_ABI_CUDA, NULL, NULL, NULL, G_NP, NR, launch_g, NULL};
TD_KERNEL(td_kc_ctx_mistral_io) = {"context_attn_mistral.context_attn_mistral_io_correctness", "triton", TD_ABI_CUDA,
                                   "store=fp16:rne:inf", NULL, NULL, I_NP, NR, launch_io, NULL};
