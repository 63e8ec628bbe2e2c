/* mixed_sparse_attention on CUDA.
 *
 * The epilogue: one block per program (start_m, off_hz); seqlen = Seqlens[off_hz / H];
 * each thread divides lanes (r, d) of the accumulator tile by LPre[start_m*BLOCK_M + r]
 * and stores the rows below seqlen. */
#include "tlc.cuh"

enum { ME_H, ME_SQZ, ME_SQH, ME_SOM, ME_SOK, ME_BM, ME_BD };
enum { ME_ACC, ME_L, ME_SEQ, ME_OUT };

struct msa_epi_args {
    int64_t h, sqz, sqh, som, sok, bm, bd;
};

static __global__ void msa_epilogue_kernel(const float *acc, const float *lpre, const int32_t *seqlens, float *out,
                                           msa_epi_args a) {
    int64_t p0 = blockIdx.x, p1 = blockIdx.y;
    int64_t seqlen = seqlens[p1 / a.h];
    int64_t qo = p1 / a.h * a.sqz + p1 % a.h * a.sqh;
    for (int64_t t = threadIdx.x; t < a.bm * a.bd; t += blockDim.x) {
        int64_t r = t / a.bd, d = t % a.bd, m = p0 * a.bm + r;
        int64_t o = qo + m * a.som + d * a.sok;
        float v = acc[o] / lpre[m];
        if (m < seqlen) out[o] = v;
    }
}

static int epilogue(const td_abi_launch *L) {
    msa_epi_args a = {TLC_I(L, ME_H),   TLC_I(L, ME_SQZ), TLC_I(L, ME_SQH), TLC_I(L, ME_SOM),
                      TLC_I(L, ME_SOK), TLC_I(L, ME_BM),  TLC_I(L, ME_BD)};
    msa_epilogue_kernel<<<tlc_grid(L), tlc_threads(a.bm * a.bd), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, ME_ACC, const float), TLC_PTR(L, ME_L, const float), TLC_PTR(L, ME_SEQ, const int32_t),
        TLC_PTR(L, ME_OUT, float), a);
    return tlc_check(L, "msa_epilogue_kernel");
}

TD_KERNEL(td_kc_msa_epilogue) = {"mixed_sparse_attention.mixed_sparse_attention_epilogue_io_correctness", "triton",
                                 TD_ABI_CUDA, NULL, NULL, NULL, 7, 4, epilogue, NULL};
