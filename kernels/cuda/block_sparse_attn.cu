/* block_sparse_attn on CUDA: the attention kernel and its two output stores.
 *
 * The output stores: one block per program (start_m, off_bh); each thread copies lanes
 * (r, d) of the [BLOCK_M, BLOCK_D] tile from Acc (first slice) or Acc2 (second slice,
 * Out columns shifted by BLOCK_D), rows masked by offs_m < total_seq_len.  The first
 * slice's launch completes before the second's (same stream). */
#include "tlc.cuh"

enum { BS_NH, BS_SEQ, BS_SAB, BS_SAH, BS_SAM, BS_SAD, BS_SOB, BS_SOH, BS_SOM, BS_BM, BS_BD };
enum { BS_ACC, BS_ACC2, BS_OUT };

struct bsa_store_args {
    int64_t nh, seq, sab, sah, sam, sad, sob, soh, som, bm, bd, shift;
};

static __global__ void bsa_store_kernel(const float *acc, float *out, bsa_store_args a) {
    int64_t p0 = blockIdx.x, p1 = blockIdx.y;
    int64_t off_h = p1 % a.nh, off_b = p1 / a.nh;
    for (int64_t t = threadIdx.x; t < a.bm * a.bd; t += blockDim.x) {
        int64_t r = t / a.bd, d = t % a.bd, m = p0 * a.bm + r;
        if (m >= a.seq) continue;
        float v = acc[off_b * a.sab + off_h * a.sah + m * a.sam + d * a.sad];
        out[off_b * a.sob + off_h * a.soh + m * a.som + a.shift + d] = v;
    }
}

static int stores(const td_abi_launch *L) {
    bsa_store_args a = {TLC_I(L, BS_NH),  TLC_I(L, BS_SEQ), TLC_I(L, BS_SAB), TLC_I(L, BS_SAH),
                        TLC_I(L, BS_SAM), TLC_I(L, BS_SAD), TLC_I(L, BS_SOB), TLC_I(L, BS_SOH),
                        TLC_I(L, BS_SOM), TLC_I(L, BS_BM),  TLC_I(L, BS_BD),  0};
    unsigned th = tlc_threads(a.bm * a.bd);
    bsa_store_kernel<<<tlc_grid(L), th, 0, (cudaStream_t)L->stream>>>(TLC_PTR(L, BS_ACC, const float),
                                                                       TLC_PTR(L, BS_OUT, float), a);
    a.shift = a.bd;
    bsa_store_kernel<<<tlc_grid(L), th, 0, (cudaStream_t)L->stream>>>(TLC_PTR(L, BS_ACC2, const float),
                                                                       TLC_PTR(L, BS_OUT, float), a);
    return tlc_check(L, "bsa_store_kernel");
}

/* ---- block_sparse_attention_kernel: one block per program, one thread per query row of
 * the tile (BLOCK_M <= 32 in the contract's cases, the loop covers more); each thread runs
 * the kernel's normalise-every-step recurrence over the CSR row's blocks, block by block
 * (the row's BLOCK_N scores, their max, exp, sum, then the rescale), in binary32. */
enum { BF_BM, BF_BD, BF_BN, BF_NH, BF_NKV, BF_NL, BF_SEQ, BF_RSH, BF_CSH, BF_SQB, BF_SQH, BF_SQM, BF_SKB, BF_SKH,
       BF_SKN, BF_SVB, BF_SVH, BF_SVN, BF_SOB, BF_SOH, BF_SOM, BF_SCALE };
enum { BF_OUT, BF_Q, BF_K, BF_V, BF_R, BF_C };
#define BSA_CUDA_MAXD 64
#define BSA_CUDA_MAXN 64

struct bsa_args {
    int64_t bm, bd, bn, nh, nkv, nl, seq, rsh, csh, sqb, sqh, sqm, skb, skh, skn, svb, svh, svn, sob, soh, som;
    float scale;
};

static __global__ void bsa_kernel(float *out, const float *Q, const float *K, const float *V, const int32_t *R,
                                  const int32_t *C, bsa_args a) {
    int64_t p0 = blockIdx.x, p1 = blockIdx.y, dim = 2 * a.bd;
    int64_t off_h = p1 % a.nh, off_b = p1 / a.nh, off_h_kv = off_h / (a.nh / a.nkv), lh = off_h % a.nl;
    int64_t start_l = R[lh * a.rsh + p0], end_l = R[lh * a.rsh + p0 + 1];
    const float *k0 = K + off_b * a.skb + off_h_kv * a.skh, *v0 = V + off_b * a.svb + off_h_kv * a.svh;
    for (int64_t i = threadIdx.x; i < a.bm; i += blockDim.x) {
        int64_t row = p0 * a.bm + i;
        const float *q = Q + off_b * a.sqb + off_h * a.sqh + row * a.sqm;
        float acc[BSA_CUDA_MAXD], s[BSA_CUDA_MAXN], m = -INFINITY, l = 0.0f;
        for (int64_t d = 0; d < dim; d++) acc[d] = 0.0f;
        for (int64_t t = start_l; t < end_l; t++) {
            int64_t start_n = (int64_t)C[lh * a.csh + t] * a.bn;
            float mij = -INFINITY, lij = 0.0f;
            for (int64_t j = 0; j < a.bn; j++) {
                float dot = 0.0f;
                for (int64_t e = 0; e < dim; e++) dot += q[e] * k0[(start_n + j) * a.skn + e];
                s[j] = dot * a.scale + (row >= start_n + j ? 0.0f : -INFINITY);
                mij = fmaxf(mij, s[j]);
            }
            for (int64_t j = 0; j < a.bn; j++) {
                s[j] = expf(s[j] - mij);
                lij += s[j];
            }
            float mnew = fmaxf(m, mij), alpha = expf(m - mnew), beta = expf(mij - mnew);
            float lnew = alpha * l + beta * lij, pscale = beta / lnew, ascale = l / lnew * alpha;
            for (int64_t d = 0; d < dim; d++) {
                float pv = 0.0f;
                for (int64_t j = 0; j < a.bn; j++) pv += s[j] * pscale * v0[(start_n + j) * a.svn + d];
                acc[d] = acc[d] * ascale + pv;
            }
            l = lnew, m = mnew;
        }
        if (row < a.seq)
            for (int64_t d = 0; d < dim; d++) out[off_b * a.sob + off_h * a.soh + row * a.som + d] = acc[d];
    }
}

static int attention(const td_abi_launch *L) {
    bsa_args a;
    a.bm = TLC_I(L, BF_BM), a.bd = TLC_I(L, BF_BD), a.bn = TLC_I(L, BF_BN), a.nh = TLC_I(L, BF_NH);
    a.nkv = TLC_I(L, BF_NKV), a.nl = TLC_I(L, BF_NL), a.seq = TLC_I(L, BF_SEQ), a.rsh = TLC_I(L, BF_RSH);
    a.csh = TLC_I(L, BF_CSH), a.sqb = TLC_I(L, BF_SQB), a.sqh = TLC_I(L, BF_SQH), a.sqm = TLC_I(L, BF_SQM);
    a.skb = TLC_I(L, BF_SKB), a.skh = TLC_I(L, BF_SKH), a.skn = TLC_I(L, BF_SKN), a.svb = TLC_I(L, BF_SVB);
    a.svh = TLC_I(L, BF_SVH), a.svn = TLC_I(L, BF_SVN), a.sob = TLC_I(L, BF_SOB), a.soh = TLC_I(L, BF_SOH);
    a.som = TLC_I(L, BF_SOM), a.scale = (float)L->params[BF_SCALE].r;
    if (2 * a.bd > BSA_CUDA_MAXD || a.bn > BSA_CUDA_MAXN) {
        snprintf(L->err, L->errlen, "bsa_kernel holds at most %d head lanes and %d keys per block", BSA_CUDA_MAXD,
                 BSA_CUDA_MAXN);
        return TD_ABI_NOT_COVERED;
    }
    bsa_kernel<<<tlc_grid(L), tlc_threads(a.bm), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, BF_OUT, float), TLC_PTR(L, BF_Q, const float), TLC_PTR(L, BF_K, const float),
        TLC_PTR(L, BF_V, const float), TLC_PTR(L, BF_R, const int32_t), TLC_PTR(L, BF_C, const int32_t), a);
    return tlc_check(L, "bsa_kernel");
}

TD_KERNEL(td_kc_bsa_cf) = {"block_sparse_attn.block_sparse_attn_output_closed_form_summary_general", "triton",
                           TD_ABI_CUDA, NULL, NULL, NULL, 22, 6, attention, NULL};
TD_KERNEL(td_kc_bsa_stores_io) = {"block_sparse_attn.block_sparse_attn_output_stores_io_correctness", "triton",
                                  TD_ABI_CUDA, NULL, NULL, NULL, 11, 3, stores, NULL};
TD_KERNEL(td_kc_bsa_stores_io_r) = {"block_sparse_attn.block_sparse_attn_output_stores_io_correctnessR", "triton",
                                    TD_ABI_CUDA, "store=fp32:rne:inf", NULL, NULL, 11, 3, stores, NULL};
