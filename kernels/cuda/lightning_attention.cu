/* lightning_attention on CUDA: _fwd_kernel, one block per program (blockIdx.x = off_bh,
 * .y = off_e), one thread per channel c of the block model: it carries its column
 * kv[:, c] across the NUM_BLOCK blocks and, per block, computes every row's
 * o = sum_{j <= r} (q_r . k_j) v_j[c] + q_r . kv[:, c] (the same causal mask,
 * index = r - j >= 0), stores the rows < n, then kv[:, c] += sum_j k_j v_j[c].  The
 * staged tiles of block m (KVPrev, KTrans, VTile, OInter, KVOut) as in the host port.
 * binary32, __f*_rn (no contraction).  BLOCK_MODEL <= 32, d <= 64.
 * gradStore: the masked tile copy, one thread per lane. */
#include "tlc.cuh"

enum { P_B, P_H, P_N, P_D, P_E, P_BLOCK, P_NUMBLOCK, P_BM, P_M, NP };
enum { R_Q, R_K, R_V, R_OUT, R_DO, R_DQ, R_DK, R_DV, R_KVPREV, R_KTRANS, R_VTILE, R_KVOUT, R_OINTER, NR };
#define MAXD 64

struct la_args {
    int64_t v[NP];
    float *r[NR];
};

__device__ static float la_qk(const float *Q, const float *K, int64_t qo, int64_t ko, int64_t d) {
    float s = 0.0f;
    for (int64_t a = 0; a < d; a++) s = __fadd_rn(s, __fmul_rn(Q[qo + a], K[ko + a]));
    return s;
}

__global__ static void la_fwd(la_args g) {
    const int64_t *p = g.v;
    int64_t n = p[P_N], d = p[P_D], e = p[P_E], B = p[P_BLOCK], BM = p[P_BM], m = p[P_M];
    int64_t bh = blockIdx.x, c = threadIdx.x, prog = blockIdx.x * gridDim.y + blockIdx.y;
    if (c >= BM) return;
    const float *Q = g.r[R_Q] + bh * n * d, *K = g.r[R_K] + bh * n * d, *V = g.r[R_V] + bh * n * e + blockIdx.y * BM + c;
    float kv[MAXD];
    for (int64_t a = 0; a < d; a++) kv[a] = 0.0f;
    for (int64_t i = 0; i < p[P_NUMBLOCK]; i++) {
        int64_t r0 = i * B;
        if (i == m)
            for (int64_t a = 0; a < d; a++) {
                g.r[R_KVPREV][prog * d * BM + a * BM + c] = kv[a];
                for (int64_t j = 0; j < B; j++) {
                    if (c == 0) g.r[R_KTRANS][prog * d * B + a * B + j] = r0 + j < n ? K[(r0 + j) * d + a] : 0.0f;
                    if (a == 0) g.r[R_VTILE][prog * B * BM + j * BM + c] = r0 + j < n ? V[(r0 + j) * e] : 0.0f;
                }
            }
        for (int64_t r = 0; r < B; r++) {
            float intra = 0.0f, inter = 0.0f;
            int64_t row = r0 + r;
            for (int64_t j = 0; j <= r && row < n; j++)
                intra = __fadd_rn(intra, __fmul_rn(la_qk(Q, K, row * d, (r0 + j) * d, d), V[(r0 + j) * e]));
            for (int64_t a = 0; a < d && row < n; a++) inter = __fadd_rn(inter, __fmul_rn(Q[row * d + a], kv[a]));
            if (row < n) g.r[R_OUT][bh * n * e + row * e + blockIdx.y * BM + c] = __fadd_rn(intra, inter);
            if (i == m) g.r[R_OINTER][prog * B * BM + r * BM + c] = inter;
        }
        for (int64_t a = 0; a < d; a++) {
            float s = 0.0f;
            for (int64_t j = 0; j < B && r0 + j < n; j++) s = __fadd_rn(s, __fmul_rn(K[(r0 + j) * d + a], V[(r0 + j) * e]));
            kv[a] = __fadd_rn(kv[a], s);
            if (i == m) g.r[R_KVOUT][prog * d * BM + a * BM + c] = kv[a];
        }
    }
}

static int launch(const td_abi_launch *L) {
    la_args g;
    for (int i = 0; i < NP; i++) g.v[i] = TLC_I(L, i);
    for (int i = 0; i < NR; i++) g.r[i] = TLC_PTR(L, i, float);
    if (g.v[P_BM] > 32 || g.v[P_D] > MAXD) {
        snprintf(L->err, L->errlen, "lightning_attention: BLOCK_MODEL <= 32, d <= %d", MAXD);
        return 1;
    }
    la_fwd<<<tlc_grid(L), 32, 0, (cudaStream_t)L->stream>>>(g);
    return tlc_check(L, "la_fwd");
}

__global__ static void la_grad(const float *in, float *out, int64_t n, int64_t width, int64_t B, int64_t W) {
    for (int64_t l = threadIdx.x; l < B * W; l += blockDim.x) {
        int64_t row = blockIdx.y * B + l / W, off = blockIdx.x * n * width + row * width + l % W;
        if (row < n) out[off] = in[off];
    }
}
static int launch_grad(const td_abi_launch *L) {
    la_grad<<<tlc_grid(L), tlc_threads(TLC_I(L, 2) * TLC_I(L, 3)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 3));
    return tlc_check(L, "la_grad");
}

TD_KERNEL(td_kc_la_summary) = {"lightning_attention.lightning_attention_output_summary_general", "triton", TD_ABI_CUDA,
                               NULL, NULL, NULL, 9, 13, launch, NULL};
TD_KERNEL(td_kc_la_grad) = {"lightning_attention.lightning_attention_bwd_grad_store_io_correctness", "triton",
                            TD_ABI_CUDA, NULL, NULL, NULL, 4, 2, launch_grad, NULL};
TD_KERNEL(td_kc_la_grad_r) = {"lightning_attention.lightning_attention_bwd_grad_store_io_correctnessR", "triton",
                              TD_ABI_CUDA, NULL, NULL, NULL, 4, 2, launch_grad, NULL};
