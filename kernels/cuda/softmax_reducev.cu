/* softmax_reducev on CUDA: the fused token softmax + P·V, one block per (batch, head)
 * program, one thread per output lane d (each thread keeps the program's running max,
 * e_sum and its acc lane, as the Triton program does for the whole tile). */
#include "attn2_tlc.cuh"

enum { P_MIL, P_SLH, P_SLB, P_SVBS, P_SVH, P_SVD, P_SOB, P_SOH, P_SOD, P_SB, P_SS, P_BD, P_BN, P_OTHER, P_MR, NP };
enum { R_LOGICS, R_V, R_OUT, R_BLOC, R_START, R_SEQLEN, NR };
#define MAX_BN 128

static __device__ float tile_max(const float *x, int n) {
    float m = -INFINITY;
    for (int w = 0; w < n; w++) m = x[w] > m ? x[w] : m; /* max is exact: any order */
    return m;
}

static __global__ void softmax_reducev(a2_args a) {
    int64_t b = blockIdx.x, h = blockIdx.y, BN = A2_I(a, P_BN), mil = A2_I(a, P_MIL);
    int64_t seqlen = A2_LDI(a, R_SEQLEN, b), start = A2_LDI(a, R_START, b);
    int64_t off_b_loc = b * A2_I(a, P_SB) + (mil - seqlen) * A2_I(a, P_SS);
    float qk[MAX_BN], p[MAX_BN], pv[MAX_BN];
    int64_t vidx[MAX_BN];
    for (int64_t d = threadIdx.x; d < A2_I(a, P_BD); d += blockDim.x) {
        float e_max = -INFINITY, e_sum = 0.0f, acc = 0.0f;
        for (int64_t s0 = 0; s0 < seqlen; s0 += BN) {
            for (int64_t j = 0; j < BN; j++) {
                int live = s0 + j < seqlen;
                vidx[j] = live ? A2_LDI(a, R_BLOC, off_b_loc + (s0 + j) * A2_I(a, P_SS)) : A2_I(a, P_OTHER);
                qk[j] = live ? A2_LD(a, R_LOGICS, h * A2_I(a, P_SLH) + (start + s0 + j) * A2_I(a, P_SLB)) : -INFINITY;
            }
            float m = tile_max(qk, (int)BN);
            float n_e_max = m > e_max ? m : e_max;
            float old_scale = expf(__fsub_rn(e_max, n_e_max));
            for (int64_t j = 0; j < BN; j++) p[j] = expf(__fsub_rn(qk[j], n_e_max));
            for (int64_t j = 0; j < BN; j++)
                pv[j] = __fmul_rn(p[j], A2_LD(a, R_V, vidx[j] * A2_I(a, P_SVBS) + h * A2_I(a, P_SVH) + d * A2_I(a, P_SVD)));
            e_sum = __fadd_rn(__fmul_rn(e_sum, old_scale), a2_tree_sum(p, (int)BN));
            acc = __fadd_rn(__fmul_rn(acc, old_scale), a2_tree_sum(pv, (int)BN));
            e_max = n_e_max;
        }
        A2_ST(a, R_OUT, b * A2_I(a, P_SOB) + h * A2_I(a, P_SOH) + d * A2_I(a, P_SOD), __fdiv_rn(acc, e_sum));
    }
}

static int launch(const td_abi_launch *L) {
    if (L->params[P_BN].i > MAX_BN) {
        snprintf(L->err, L->errlen, "BLOCK_N %lld exceeds the port's tile (%d)", (long long)L->params[P_BN].i, MAX_BN);
        return 1;
    }
    a2_args a;
    if (a2_pack(L, &a)) return 1;
    softmax_reducev<<<tlc_grid(L), tlc_threads(A2_I(a, P_BD)), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "softmax_reducev");
}

TD_KERNEL(td_kc_softmax_reducev) = {"softmax_reducev.softmax_reducev_genuine_output_compute_correct_general",
                                    "triton", TD_ABI_CUDA, NULL, NULL, NULL, NP, NR, launch, NULL};
TD_KERNEL(td_kc_softmax_reducev_io) = {"softmax_reducev.softmax_reducev_io_correctness", "triton", TD_ABI_CUDA,
                                       "store=fp32:rne:inf", NULL, NULL, NP - 1, NR, launch, NULL};
