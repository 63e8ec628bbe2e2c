/* attention_fwd_triton1 on CUDA: attention_fwd_kernel with the theorems' launch (s_qt = BD,
 * s_qd = 1, STORE = IFCOND = false), one block per program i_bh, the carry b_h [BD, BD] in
 * shared memory, a thread per output lane (t, d) of the chunk, then a thread per carry entry
 * for b_h += dot(b_k, b_v); the arithmetic of kernels/host/attention_fwd_triton1.c (binary32
 * loops over the reduction lanes, no contraction). */
#include "tlc.cuh"

enum { P_SQH, P_SHH, P_SHT, P_SCALE, P_BT, P_BD, P_NT };
enum { R_Q, R_K, R_V, R_H, R_O };

#define A1_CU_MAXD 16

__global__ void a1_fwd_kernel(const float *Q, const float *K, const float *V, float *O, int64_t s_qh, float scale,
                              int64_t BT, int64_t BD, int64_t NT) {
    __shared__ float h[A1_CU_MAXD * A1_CU_MAXD];
    const int64_t base = (int64_t)blockIdx.x * s_qh;
    for (int64_t a = threadIdx.x; a < BD * BD; a += blockDim.x) h[a] = 0.0f;
    __syncthreads();
    for (int64_t i = 0; i < NT; i++) {
        const int64_t c0 = base + i * BT * BD;
        for (int64_t lane = threadIdx.x; lane < BT * BD; lane += blockDim.x) {
            const int64_t t = lane / BD, d = lane % BD;
            float o = 0.0f, r = 0.0f;
            for (int64_t tk = 0; tk < BT; tk++) {
                float s = 0.0f;
                for (int64_t e = 0; e < BD; e++)
                    s = __fadd_rn(s, __fmul_rn(__fmul_rn(Q[c0 + t * BD + e], scale), K[c0 + tk * BD + e]));
                o = __fadd_rn(o, __fmul_rn(s, V[c0 + tk * BD + d]));
            }
            for (int64_t a = 0; a < BD; a++) r = __fadd_rn(r, __fmul_rn(__fmul_rn(Q[c0 + t * BD + a], scale), h[a * BD + d]));
            O[c0 + t * BD + d] = __fadd_rn(o, r);
        }
        __syncthreads(); /* every lane has read the pre-update carry */
        for (int64_t ad = threadIdx.x; ad < BD * BD; ad += blockDim.x) {
            const int64_t a = ad / BD, d = ad % BD;
            float kv = 0.0f;
            for (int64_t tk = 0; tk < BT; tk++) kv = __fadd_rn(kv, __fmul_rn(K[c0 + tk * BD + a], V[c0 + tk * BD + d]));
            h[ad] = __fadd_rn(h[ad], kv);
        }
        __syncthreads();
    }
}

static int launch(const td_abi_launch *L) {
    const int64_t BD = TLC_I(L, P_BD), BT = TLC_I(L, P_BT);
    if (BD <= 0 || BD > A1_CU_MAXD) {
        snprintf(L->err, L->errlen, "BD = %lld: the CUDA port keeps a carry of at most %d x %d", (long long)BD,
                 A1_CU_MAXD, A1_CU_MAXD);
        return 1;
    }
    a1_fwd_kernel<<<tlc_grid(L), tlc_threads(BT * BD), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Q, const float), TLC_PTR(L, R_K, const float), TLC_PTR(L, R_V, const float),
        TLC_PTR(L, R_O, float), TLC_I(L, P_SQH), TLC_R(L, P_SCALE), BT, BD, TLC_I(L, P_NT));
    return tlc_check(L, "attention_fwd_triton1 attention_fwd_kernel");
}

TD_KERNEL(td_kc_attention_fwd_triton1_os) = {"attention_fwd_triton1.attention_fwd_triton1_output_summary_general",
                                             "triton", TD_ABI_CUDA, NULL, NULL, NULL, 7, 5, launch, NULL};
TD_KERNEL(td_kc_attention_fwd_triton1_io) = {"attention_fwd_triton1.attention_fwd_triton1_io_correctness", "triton",
                                             TD_ABI_CUDA, NULL, NULL, NULL, 7, 5, launch, NULL};
