/* chunk_gate_recurrence on CUDA: one block per Triton program (offset_bh, offset_d,
 * offset_s), threads over the tile's lanes. */
#include "tlc.cuh"

enum { P_HAS_LAST_KV, P_TREL, P_NUM_HEAD, P_NB, P_NUM_K, P_NUM_V, P_DK, P_DV, P_BMK, P_BMV };
enum { R_ACCPREV, R_S, R_D, R_O, R_LASTKV, R_DACCPREV, R_DACCTAIL, R_DS, R_DI, R_DG, R_DL };

struct cgr_args {
    const float *S, *d, *lastkv, *DS;
    float *O, *DI, *DG, *DL;
    int64_t NB, DK, DV, BMK, BMV;
    int has_last_kv;
};

/* the forward program: each thread carries its cells' acc through the chunks */
__global__ static void cgr_fwd(cgr_args a) {
    int64_t bh = blockIdx.x, head = bh * a.NB * a.DK * a.DV;
    for (int64_t l = threadIdx.x; l < a.BMK * a.BMV; l += blockDim.x) {
        int64_t in = (int64_t)blockIdx.y * a.DV * a.BMK + (l / a.BMV) * a.DV + (int64_t)blockIdx.z * a.BMV + l % a.BMV;
        float acc = a.has_last_kv ? a.lastkv[bh * a.DK * a.DV + in] : 0.0f;
        a.O[head + in] = acc;
        for (int64_t i = 0; i < a.NB - 1; i++) {
            acc = acc * a.d[bh * a.NB + i] + a.S[head + i * a.DK * a.DV + in];
            a.O[head + (i + 1) * a.DK * a.DV + in] = acc;
        }
    }
}

/* the backward program: Dacc per cell, DG = tl.sum(Dacc * S) reduced in shared memory */
__global__ static void cgr_bwd(cgr_args a) {
    __shared__ float red[256];
    int64_t bh = blockIdx.x, head = bh * a.NB * a.DK * a.DV, NK = a.DK / a.BMK, NV = a.DV / a.BMV;
    int64_t n = a.BMK * a.BMV, per = (n + blockDim.x - 1) / blockDim.x;
    float dacc[64]; /* this thread's cells: l = threadIdx.x + j * blockDim.x, j < per <= 64 */
    for (int64_t j = 0; j < per; j++) dacc[j] = 0.0f;
    for (int64_t c = a.NB - 1; c >= 0; c--) { /* c: the DS / d chunk; DI, DG, S at c - 1 */
        float dc = a.d[bh * a.NB + c], part = 0.0f;
        for (int64_t j = 0; j < per; j++) {
            int64_t l = threadIdx.x + j * blockDim.x;
            if (l >= n) break;
            int64_t in = (int64_t)blockIdx.y * a.DV * a.BMK + (l / a.BMV) * a.DV + (int64_t)blockIdx.z * a.BMV + l % a.BMV;
            dacc[j] = dacc[j] * dc + a.DS[head + c * a.DK * a.DV + in];
            if (c == 0) a.DL[bh * a.DK * a.DV + in] = dacc[j];
            else {
                a.DI[head + (c - 1) * a.DK * a.DV + in] = dacc[j];
                part += dacc[j] * a.S[head + (c - 1) * a.DK * a.DV + in];
            }
        }
        if (c == 0) break;
        red[threadIdx.x] = part;
        __syncthreads();
        for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
            if (threadIdx.x < w) red[threadIdx.x] += red[threadIdx.x + w];
            __syncthreads();
        }
        if (threadIdx.x == 0) a.DG[((bh * a.NB + c - 1) * NK + blockIdx.y) * NV + blockIdx.z] = red[0];
        __syncthreads();
    }
}

static int launch(const td_abi_launch *L) {
    int64_t n = TLC_I(L, P_BMK) * TLC_I(L, P_BMV);
    if (n > 64 * 256) {
        snprintf(L->err, L->errlen, "BLOCK_MODEL_K * BLOCK_MODEL_V > 16384: more cells than the registers hold");
        return TD_ABI_NOT_COVERED;
    }
    cgr_args a = {TLC_PTR(L, R_S, const float), TLC_PTR(L, R_D, const float), TLC_PTR(L, R_LASTKV, const float),
                  TLC_PTR(L, R_DS, const float), TLC_PTR(L, R_O, float), TLC_PTR(L, R_DI, float),
                  TLC_PTR(L, R_DG, float), TLC_PTR(L, R_DL, float), TLC_I(L, P_NB), TLC_I(L, P_DK), TLC_I(L, P_DV),
                  TLC_I(L, P_BMK), TLC_I(L, P_BMV), (int)TLC_I(L, P_HAS_LAST_KV)};
    unsigned th = 32;
    while (th < 256 && th < (unsigned)n) th *= 2; /* a power of two for the tree reduction */
    cgr_fwd<<<tlc_grid(L), th, 0, (cudaStream_t)L->stream>>>(a);
    cgr_bwd<<<tlc_grid(L), th, 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "cgr_fwd/cgr_bwd");
}

enum { PS_NB, PS_DK, PS_DV, PS_BMK, PS_BMV };

/* the forward store: the carried tile (Acc, last_kv's layout) into output chunk 0 */
__global__ static void cgr_store(const float *acc, float *o, int64_t NB, int64_t DK, int64_t DV, int64_t BMK,
                                 int64_t BMV) {
    for (int64_t l = threadIdx.x; l < BMK * BMV; l += blockDim.x) {
        int64_t k = l / BMV, v = l % BMV;
        int64_t tile = (int64_t)blockIdx.y * DV * BMK + k * DV + (int64_t)blockIdx.z * BMV + v;
        o[(int64_t)blockIdx.x * NB * DK * DV + tile] = acc[(int64_t)blockIdx.x * DK * DV + tile];
    }
}
static int launch_store(const td_abi_launch *L) {
    cgr_store<<<tlc_grid(L), tlc_threads(TLC_I(L, PS_BMK) * TLC_I(L, PS_BMV)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_I(L, PS_NB), TLC_I(L, PS_DK), TLC_I(L, PS_DV),
        TLC_I(L, PS_BMK), TLC_I(L, PS_BMV));
    return tlc_check(L, "cgr_store");
}

TD_KERNEL(td_kc_cgr_summary) = {"chunk_gate_recurrence.chunk_gate_recurrence_output_summary_general", "triton",
                                TD_ABI_CUDA, NULL, NULL, NULL, 10, 11, launch, NULL};
TD_KERNEL(td_kc_cgr_store) = {"chunk_gate_recurrence.chunk_gate_recurrence_forward_store_io_correctness", "triton",
                              TD_ABI_CUDA, NULL, NULL, NULL, 5, 2, launch_store, NULL};
TD_KERNEL(td_kc_cgr_store_r) = {"chunk_gate_recurrence.chunk_gate_recurrence_forward_store_io_correctnessR", "triton",
                                TD_ABI_CUDA, NULL, NULL, NULL, 5, 2, launch_store, NULL};
