/* token_attn_reduceV on CUDA: _fwd_kernel_token_att2, one block per (batch, head)
 * program, one thread per output lane d; each block of BLOCK_N tokens is reduced by
 * tl.sum's pairwise tree in the thread's local tile. */
#include "attn2_tlc.cuh"

enum { P_SRTB, P_SRTS, P_SPH, P_SPBS, P_SVBS, P_SVH, P_SVD, P_SOBS, P_SOH, P_SOD, P_KVG, P_BD, P_BN, P_T, NP };
enum { R_PROB, R_V, R_OUT, R_REQ, R_REQIDX, R_START, R_SEQLEN, NR };
#define MAX_BN 128

static __global__ void token_att2(a2_args a) {
    int64_t b = blockIdx.x, h = blockIdx.y, BN = A2_I(a, P_BN);
    int64_t kvh = h / A2_I(a, P_KVG);
    int64_t seqlen = A2_LDI(a, R_SEQLEN, b), start = A2_LDI(a, R_START, b), req = A2_LDI(a, R_REQIDX, b);
    float prod[MAX_BN];
    for (int64_t d = threadIdx.x; d < A2_I(a, P_BD); d += blockDim.x) {
        float acc = 0.0f;
        for (int64_t s0 = 0; s0 < seqlen; s0 += BN) {
            for (int64_t j = 0; j < BN; j++) {
                int live = s0 + j < seqlen;
                float p = live ? A2_LD(a, R_PROB, h * A2_I(a, P_SPH) + (start + s0 + j) * A2_I(a, P_SPBS)) : 0.0f;
                int64_t loc = live ? A2_LDI(a, R_REQ, req * A2_I(a, P_SRTB) + (s0 + j) * A2_I(a, P_SRTS)) : 0;
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
    token_att2<<<tlc_grid(L), tlc_threads(A2_I(a, P_BD)), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "token_att2");
}

TD_KERNEL(td_kc_token_attn_reducev) = {"token_attn_reduceV.token_attn_reducev_output_summary_general", "triton",
                                       TD_ABI_CUDA, NULL, NULL, NULL, NP - 1, NR, launch, NULL};
TD_KERNEL(td_kc_token_attn_reducev_io) = {"token_attn_reduceV.token_attn_reducev_io_correctness", "triton",
                                          TD_ABI_CUDA, "store=fp16:rne:inf", NULL, NULL, NP, NR, launch, NULL};
