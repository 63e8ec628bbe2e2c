/* kv_cache_filling on CUDA.  fill_kv: the K tile kernel then the V tile kernel, one
 * block per program b (its block id from BlockOffsets), threads over the
 * [BLOCK_H, BLOCK_D(V)] tile masked to num_heads x head_dim(_v).  fill_meta: one block
 * per program, threads over the heads. */
#include "tlc.cuh"

enum {
    P_SIDX, P_BIDX, P_KVB, P_NH, P_HD, P_HDV, P_SKSS, P_SKSH, P_SKSD, P_SVSS, P_SVSH, P_SVSD, P_SKCN, P_SKCB, P_SKCH,
    P_SKCD, P_SVCN, P_SVCB, P_SVCH, P_SVCD, P_SBOFF, P_BLOCK, P_BD, P_BDV, P_BH, NP
};
enum { R_KS, R_VS, R_KC, R_VC, R_QSTART, R_QLEN, R_KVLEN, R_BO };
enum { PM_BIDX, PM_KVB, PM_SZD, PM_SMN, PM_SMB, PM_SMH, PM_SMD, PM_SBOFF, PM_NH, PM_BH, NPM };
enum { RM_PRE, RM_OUT, RM_BO };

struct fill_tile_args {
    int64_t sidx, bidx, kvb, nh, d, bd, bh, sboff, ss, sh, sd, cn, cb, ch, cd;
};

__global__ void fill_tile_kernel(const float *S, float *C, const int64_t *bo, fill_tile_args a) {
    int64_t blk = bo[(int64_t)blockIdx.x * a.sboff + a.kvb];
    for (int64_t j = threadIdx.x; j < a.bh * a.bd; j += blockDim.x) {
        int64_t h = j / a.bd, d = j % a.bd;
        if (h < a.nh && d < a.d)
            C[blk * a.cn + a.bidx * a.cb + h * a.ch + d * a.cd] = S[a.sidx * a.ss + h * a.sh + d * a.sd];
    }
}

static int tile(const td_abi_launch *L, int rs, int rc, int ps, int pc, int pd, int pbd) {
    fill_tile_args a = {TLC_I(L, P_SIDX), TLC_I(L, P_BIDX),   TLC_I(L, P_KVB),    TLC_I(L, P_NH),
                        TLC_I(L, pd),     TLC_I(L, pbd),      TLC_I(L, P_BH),     TLC_I(L, P_SBOFF),
                        TLC_I(L, ps),     TLC_I(L, ps + 1),   TLC_I(L, ps + 2),   TLC_I(L, pc),
                        TLC_I(L, pc + 1), TLC_I(L, pc + 2),   TLC_I(L, pc + 3)};
    if (a.bd <= 0) return 0; /* BLOCK_DV == 0: no V cache */
    fill_tile_kernel<<<tlc_grid(L), tlc_threads(a.bh * a.bd), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, rs, const float), TLC_PTR(L, rc, float), TLC_PTR(L, R_BO, const int64_t), a);
    return tlc_check(L, "fill_kv_cache tile");
}
static int launch_kv(const td_abi_launch *L) {
    int e = tile(L, R_KS, R_KC, P_SKSS, P_SKCN, P_HD, P_BD);
    return e ? e : tile(L, R_VS, R_VC, P_SVSS, P_SVCN, P_HDV, P_BDV);
}

struct fill_meta_args {
    int64_t q[NPM];
};
__global__ void fill_meta_kernel(const float *pre, float *out, const int64_t *bo, fill_meta_args a) {
    const int64_t *q = a.q;
    int64_t blk = bo[(int64_t)blockIdx.x * q[PM_SBOFF] + q[PM_KVB]];
    for (int64_t i = threadIdx.x; i < q[PM_BH]; i += blockDim.x)
        if (i < q[PM_NH])
            out[blk * q[PM_SMN] + q[PM_BIDX] * q[PM_SMB] + i * q[PM_SMH] + q[PM_SZD] * q[PM_SMD]] = pre[i];
}
static int launch_meta(const td_abi_launch *L) {
    fill_meta_args a;
    for (int i = 0; i < NPM; i++) a.q[i] = TLC_I(L, i);
    fill_meta_kernel<<<tlc_grid(L), tlc_threads(a.q[PM_BH]), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RM_PRE, const float), TLC_PTR(L, RM_OUT, float), TLC_PTR(L, RM_BO, const int64_t), a);
    return tlc_check(L, "fill_quant_meta_store");
}

TD_KERNEL(td_kc_fill_kv) = {"kv_cache_filling.fill_kv_cache_output_summary_general", "triton", TD_ABI_CUDA, NULL, NULL,
                            NULL, 25, 8, launch_kv, NULL};
TD_KERNEL(td_kc_fill_meta) = {"kv_cache_filling.fill_quant_meta_store_io_correctness", "triton", TD_ABI_CUDA, NULL,
                              NULL, NULL, 10, 3, launch_meta, NULL};
