/* bmm_chunk_fwd on CUDA: program (blockIdx.x = tile, .y = batch, .z = chunk * ngroups +
 * head), one thread per output lane, the K loop of matmul_tlc.cuh (fp16 operands,
 * binary32 accumulator, no tensor cores), rows / columns masked by chunk_size, binary32
 * store.  IS_CAUSAL = False, HAS_SEQ_IDX = False, seqlen = nchunks * chunk_size. */
#include "matmul_tlc.cuh"

enum { P_CS, P_G, P_SAB, P_SAS, P_SAH, P_SAK, P_SBB, P_SBS, P_SBH, P_SBK, P_SOB, P_SOC, P_SOH, P_SOM, P_SON,
       P_BM, P_BN, P_BK, P_NKB, NP };
enum { R_A, R_B, R_OUT };

struct bcf_args {
    int64_t v[NP];
};

__global__ void bmm_chunk_fwd_kernel(const __half *A, const __half *B, float *Out, bcf_args a) {
    const int64_t *v = a.v;
    int64_t cs = v[P_CS], G = v[P_G], BM = v[P_BM], BN = v[P_BN], BK = v[P_BK], T = v[P_NKB];
    int64_t pb = blockIdx.y, pc = blockIdx.z / G, ph = blockIdx.z - pc * G;
    int64_t nnb = (cs + BN - 1) / BN, pm = blockIdx.x / nnb, pn = blockIdx.x % nnb;
    for (int64_t l = threadIdx.x; l < BM * BN; l += blockDim.x) {
        int64_t m = pm * BM + l / BN, n = pn * BN + l % BN;
        int64_t a0 = m < cs ? pb * v[P_SAB] + (pc * cs + m) * v[P_SAS] + ph * v[P_SAH] : -1;
        int64_t b0 = n < cs ? pb * v[P_SBB] + (pc * cs + n) * v[P_SBS] + ph * v[P_SBH] : -1;
        float acc = mmc_kloop(A, a0, v[P_SAK], B, b0, v[P_SBK], BK * T, (int)BK, T, 0.0f);
        if (m < cs && n < cs)
            Out[pb * v[P_SOB] + pc * v[P_SOC] + ph * v[P_SOH] + v[P_SOM] * m + n * v[P_SON]] = acc;
    }
}

static int launch(const td_abi_launch *L) {
    bcf_args a;
    for (int i = 0; i < NP; i++) a.v[i] = TLC_I(L, i);
    if (mmc_check_bk(L, a.v[P_BK])) return 1;
    bmm_chunk_fwd_kernel<<<tlc_grid(L), tlc_threads(a.v[P_BM] * a.v[P_BN]), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const __half), TLC_PTR(L, R_B, const __half), TLC_PTR(L, R_OUT, float), a);
    return tlc_check(L, "bmm_chunk_fwd_kernel");
}

TD_KERNEL(td_kc_bmm_chunk_fwd_summary) = {"bmm_chunk_fwd.bmm_chunk_fwd_output_summary_general", "triton",
                                          TD_ABI_CUDA, NULL, NULL, NULL, 19, 3, launch, NULL};
TD_KERNEL(td_kc_bmm_chunk_fwd_io) = {"bmm_chunk_fwd.bmm_chunk_fwd_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                     NULL, 19, 3, launch, NULL};
