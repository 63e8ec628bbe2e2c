/* token_attn_llama2 on CUDA: LightLLM's _fwd_kernel_token_att1, one block per
 * (batch, head, block of BLOCK_N tokens) program, one thread per token lane; each lane
 * gathers its slot and K row and reduces q*k by a pairwise tree in a local tile
 * (BLOCK_DMODEL <= 128, the launcher's assert Lk in {16, 32, 64, 128}). */
#include "tlc.cuh"

enum { P_SCALE, P_MIL, P_SBLB, P_SBLS, P_SQBS, P_SQH, P_SQD, P_SKBS, P_SKH, P_SKD, P_ASH, P_ASBS, P_KVG, P_BD, P_BN };
enum { R_Q, R_K, R_BLOC, R_START, R_SEQLEN, R_ATT };
#define MAX_BD 128

struct l2_args {
    const float *q, *k;
    const int32_t *bloc, *start, *seqlen;
    float *att;
    float scale;
    int64_t p[15];
};

__device__ static float l2_tree(float *t, int n) { /* a folding pairwise tree (any order is admissible) */
    for (int w = n; w > 1; w = (w + 1) / 2)
        for (int i = 0; i < w / 2; i++) t[i] = __fadd_rn(t[i], t[w - 1 - i]);
    return n > 0 ? t[0] : 0.0f;
}

static __global__ void token_att1(l2_args a) {
    int64_t b = blockIdx.x, h = blockIdx.y, s = blockIdx.z, BN = a.p[P_BN], BD = a.p[P_BD], mil = a.p[P_MIL];
    int64_t len = a.seqlen[b], st = a.start[b], kvh = h / a.p[P_KVG];
    if (s * BN >= len) return; /* block_mask */
    float prod[MAX_BD];
    for (int64_t i = threadIdx.x; i < BN; i += blockDim.x) {
        int64_t n = s * BN + i, col = mil - len + n;
        if (col >= mil) continue;
        int64_t loc = a.bloc[b * a.p[P_SBLB] + col * a.p[P_SBLS]];
        for (int64_t d = 0; d < BD; d++)
            prod[d] = __fmul_rn(a.q[b * a.p[P_SQBS] + h * a.p[P_SQH] + d * a.p[P_SQD]],
                                a.k[loc * a.p[P_SKBS] + kvh * a.p[P_SKH] + d * a.p[P_SKD]]);
        a.att[h * a.p[P_ASH] + (st + n) * a.p[P_ASBS]] = __fmul_rn(l2_tree(prod, (int)BD), a.scale);
    }
}

static int launch(const td_abi_launch *L) {
    if (TLC_I(L, P_BD) > MAX_BD) { /* a launch error, reported, never a silent skip */
        snprintf(L->err, L->errlen, "_fwd_kernel_token_att1: BLOCK_DMODEL %lld > %d", (long long)TLC_I(L, P_BD), MAX_BD);
        return 1;
    }
    l2_args a = {TLC_PTR(L, R_Q, const float),     TLC_PTR(L, R_K, const float),
                 TLC_PTR(L, R_BLOC, const int32_t), TLC_PTR(L, R_START, const int32_t),
                 TLC_PTR(L, R_SEQLEN, const int32_t), TLC_PTR(L, R_ATT, float), TLC_R(L, P_SCALE), {0}};
    for (int k = 1; k < 15; k++) a.p[k] = TLC_I(L, k);
    token_att1<<<tlc_grid(L), tlc_threads(TLC_I(L, P_BN)), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "_fwd_kernel_token_att1");
}

TD_KERNEL(td_kc_token_attn_llama2) = {"token_attn_llama2.token_attn_llama2_output_summary_general", "triton",
                                      TD_ABI_CUDA, NULL, NULL, NULL, 15, 6, launch, NULL};
TD_KERNEL(td_kc_token_attn_llama2_io) = {"token_attn_llama2.token_attn_llama2_io_correctness", "triton", TD_ABI_CUDA,
                                         NULL, NULL, NULL, 15, 6, launch, NULL};
