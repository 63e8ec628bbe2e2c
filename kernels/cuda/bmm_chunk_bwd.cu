/* bmm_chunk_bwd on CUDA: program (blockIdx.x = tile, .y = batch, .z = chunk * ngroups +
 * head), one thread per output lane, dout read transposed and masked by row <
 * chunk_size, A masked by col < K, the K loop of matmul_tlc.cuh over CSL = BCS *
 * numCSBlocks (fp16 operands, binary32 accumulator, no tensor cores), binary32 store
 * masked by row < CSL & col < K.  HAS_RESIDUAL = False. */
#include "matmul_tlc.cuh"

enum { Q_CS, Q_K, Q_G, Q_SAB, Q_SAS, Q_SAH, Q_SAK, Q_SDB, Q_SDC, Q_SDH, Q_SDM, Q_SDN, Q_SOB, Q_SOS, Q_SOH, Q_SOK,
       Q_BM, Q_BN, Q_BCS, Q_NCS, NQ };
enum { R_A, R_DOUT, R_DB };
static const int pos_sum[NQ] = {0, 19, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18};
static const int pos_io[NQ] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};

struct bcb_args {
    int64_t q[NQ];
};

__global__ void bmm_chunk_bwd_kernel(const __half *A, const __half *Dout, float *Db, bcb_args a) {
    const int64_t *q = a.q;
    int64_t cs = q[Q_CS], K = q[Q_K], G = q[Q_G], BM = q[Q_BM], BN = q[Q_BN], BCS = q[Q_BCS];
    int64_t csl = BCS * q[Q_NCS], nnb = (K + BN - 1) / BN;
    int64_t pb = blockIdx.y, pc = blockIdx.z / G, ph = blockIdx.z - pc * G, pm = blockIdx.x / nnb, pn = blockIdx.x % nnb;
    for (int64_t l = threadIdx.x; l < BM * BN; l += blockDim.x) {
        int64_t m = pm * BM + l / BN, n = pn * BN + l % BN;
        int64_t d0 = m < cs ? pb * q[Q_SDB] + pc * q[Q_SDC] + ph * q[Q_SDH] + m * q[Q_SDN] : -1;
        int64_t a0 = n < K ? pb * q[Q_SAB] + pc * cs * q[Q_SAS] + ph * q[Q_SAH] + n * q[Q_SAK] : -1;
        float acc = mmc_kloop(Dout, d0, q[Q_SDM], A, a0, q[Q_SAS], csl, (int)BCS, q[Q_NCS], 0.0f);
        if (m < csl && n < K) Db[pb * q[Q_SOB] + (pc * cs + m) * q[Q_SOS] + ph * q[Q_SOH] + n * q[Q_SOK]] = acc;
    }
}

static int launch(const td_abi_launch *L, const int *pos) {
    bcb_args a;
    for (int i = 0; i < NQ; i++) a.q[i] = TLC_I(L, pos[i]);
    if (mmc_check_bk(L, a.q[Q_BCS])) return 1;
    bmm_chunk_bwd_kernel<<<tlc_grid(L), tlc_threads(a.q[Q_BM] * a.q[Q_BN]), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const __half), TLC_PTR(L, R_DOUT, const __half), TLC_PTR(L, R_DB, float), a);
    return tlc_check(L, "bmm_chunk_bwd_kernel");
}
static int launch_sum(const td_abi_launch *L) { return launch(L, pos_sum); }
static int launch_io(const td_abi_launch *L) { return launch(L, pos_io); }

TD_KERNEL(td_kc_bmm_chunk_bwd_summary) = {"bmm_chunk_bwd.bmm_chunk_bwd_output_summary_general", "triton",
                                          TD_ABI_CUDA, NULL, NULL, NULL, 20, 3, launch_sum, NULL};
TD_KERNEL(td_kc_bmm_chunk_bwd_io) = {"bmm_chunk_bwd.bmm_chunk_bwd_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                     NULL, 20, 3, launch_io, NULL};
