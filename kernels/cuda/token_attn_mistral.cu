/* token_attn_mistral on CUDA: LightLLM's Mistral _fwd_kernel_token_att2, one block per
 * (batch, head) program, one thread per output lane d; each block of BLOCK_N window
 * positions is reduced by a pairwise tree in the thread's local tile, then added to acc. */
#include "attn2_tlc.cuh"

enum { P_SRTB, P_SRTS, P_SPH, P_SPBS, P_SVBS, P_SVH, P_SVD, P_SOBS, P_SOH, P_SOD, P_KVG, P_SW, P_BD, P_BN, P_T };
enum { R_PROB, R_V, R_OUT, R_REQ, R_REQIDX, R_START, R_SEQLEN, R_ASTART, R_ASEQLEN };
#define MAX_BN 128

static __global__ void token_att2_sw(a2_args a) {
    int64_t b = blockIdx.x, h = blockIdx.y, BN = A2_I(a, P_BN), kvh = h / A2_I(a, P_KVG);
    int64_t len = A2_LDI(a, R_SEQLEN, b), att = A2_LDI(a, R_ASEQLEN, b), ast = A2_LDI(a, R_ASTART, b);
    int64_t req = A2_LDI(a, R_REQIDX, b), sw = A2_I(a, P_SW), ws = len > sw ? len - sw : 0;
    float prod[MAX_BN];
    for (int64_t d = threadIdx.x; d < A2_I(a, P_BD); d += blockDim.x) {
        float acc = 0.0f;
        for (int64_t s0 = 0; s0 < att; s0 += BN) {
            for (int64_t j = 0; j < BN; j++) {
                int64_t n = s0 + j;
                float p = n < att ? A2_LD(a, R_PROB, h * A2_I(a, P_SPH) + (ast + n) * A2_I(a, P_SPBS)) : 0.0f;
                int live = ws + n < len;
                int64_t loc = live ? A2_LDI(a, R_REQ, req * A2_I(a, P_SRTB) + (ws + n) * A2_I(a, P_SRTS)) : 0;
                float v = live ? A2_LD(a, R_V, loc * A2_I(a, P_SVBS) + kvh * A2_I(a, P_SVH) + d * A2_I(a, P_SVD)) : 0.0f;
                prod[j] = __fmul_rn(p, v);
            }
            acc = __fadd_rn(acc, a2_tree_sum(prod, (int)BN));
        }
        A2_ST(a, R_OUT, b * A2_I(a, P_SOBS) + h * A2_I(a, P_SOH) + d * A2_I(a, P_SOD), acc);
    }
}

static int launch(const td_abi_launch *L) {
    if (L->params[P_BN].i > MAX_BN) {
        snprintf(L->err, L->errlen, "BLOCK_N %lld exceeds the port's tile (%d)", (long long)L->params[P_BN].i, MAX_BN);
        return 1;
    }
    a2_args a;
    if (a2_pack(L, &a)) return 1;
    token_att2_sw<<<tlc_grid(L), tlc_threads(A2_I(a, P_BD)), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "_fwd_kernel_token_att2 (sliding window)");
}

TD_KERNEL(td_kc_token_attn_mistral) = {"token_attn_mistral.token_attn_mistral_output_summary_general", "triton",
                                       TD_ABI_CUDA, NULL, NULL, NULL, 14, 9, launch, NULL};
TD_KERNEL(td_kc_token_attn_mistral_io) = {"token_attn_mistral.token_attn_mistral_io_correctness", "triton",
                                          TD_ABI_CUDA, "store=fp16:rne:inf", NULL, NULL, 15, 9, launch, NULL};
