/* chunk_retention_ops on CUDA: chunk_retention_fwd_kernel_h (as in chunk_retention.cu)
 * and chunk_retention_bwd_kernel_dh, one block per program (blockIdx = (i_k, i_v, i_bh)),
 * one thread per state lane (e, p) of the [BK, BV] tile, binary32 throughout with the
 * Triton program's decays b_b = log2f(1 - exp2f(-5 - i_h)), exp2f(n b_b).
 *   bwd_dh: from i_t = NT - 1 down, store dh[i_t], then dh = d_b dh + sum_c (q[e, c] scale)
 *     (do[c, p] d_i[c]), d_b = exp2f(BT b_b), d_i[c] = exp2f((c + 1) b_b). */
#include "tlc.cuh"

enum { P_SQK_H, P_SQK_T, P_SQK_D, P_SVO_H, P_SVO_T, P_SVO_D, P_SH_H, P_SH_T, P_H, P_T, P_K, P_V, P_BT, P_BK, P_BV,
       P_NT, P_USE_INIT, P_STORE_FINAL, NP };
enum { R_K, R_V, R_H, R_H0, R_HT, NR };
enum { PO_SQK_H, PO_SQK_T, PO_SQK_D, PO_SVO_H, PO_SVO_T, PO_SVO_D, PO_SH_H, PO_SH_T, PO_SCALE, PO_H, PO_T, PO_K,
       PO_V, PO_BT, PO_BK, PO_BV, PO_NT, NPO };
enum { RO_Q, RO_DO, RO_DH, NRO };

struct cro_fargs {
    int64_t v[NP];
    float *r[NR];
};
struct cro_bargs {
    int64_t v[NPO];
    float scale;
    float *r[NRO];
};

__device__ static float cro_bb(int64_t bh, int64_t H) { return log2f(1.0f - exp2f(-5.0f - (float)(bh % H) * 1.0f)); }

__global__ static void cro_fwd_h(cro_fargs a) {
    const int64_t *v = a.v;
    int64_t T = v[P_T], K = v[P_K], V = v[P_V], BT = v[P_BT], BK = v[P_BK], BV = v[P_BV], NT = v[P_NT];
    int64_t l = threadIdx.x, bh = blockIdx.z, k = blockIdx.x * BK + l / BV, vv = blockIdx.y * BV + l % BV;
    if (l >= BK * BV || k >= K || vv >= V) return;
    float bb = cro_bb(bh, v[P_H]), h = v[P_USE_INIT] ? a.r[R_H0][bh * K * V + k * V + vv] : 0.0f;
    for (int64_t it = 0; it < NT; it++) {
        a.r[R_H][bh * v[P_SH_H] + it * K * V + k * v[P_SH_T] + vv] = h;
        int64_t n = (it == NT - 1 && T % BT != 0) ? T % BT : BT;
        float dot = 0.0f;
        for (int64_t c = 0; c < BT && it * BT + c < T; c++) {
            int64_t s = it * BT + c;
            float vx = __fmul_rn(a.r[R_V][bh * v[P_SVO_H] + s * v[P_SVO_T] + vv * v[P_SVO_D]], exp2f((float)(n - c - 1) * bb));
            dot = __fadd_rn(dot, __fmul_rn(a.r[R_K][bh * v[P_SQK_H] + s * v[P_SQK_T] + k * v[P_SQK_D]], vx));
        }
        h = __fadd_rn(__fmul_rn(exp2f((float)n * bb), h), dot);
    }
    if (v[P_STORE_FINAL]) a.r[R_HT][bh * K * V + k * V + vv] = h;
}

__global__ static void cro_bwd_dh(cro_bargs a) {
    const int64_t *v = a.v;
    int64_t T = v[PO_T], K = v[PO_K], V = v[PO_V], BT = v[PO_BT], BK = v[PO_BK], BV = v[PO_BV], NT = v[PO_NT];
    int64_t l = threadIdx.x, bh = blockIdx.z, k = blockIdx.x * BK + l / BV, vv = blockIdx.y * BV + l % BV;
    if (l >= BK * BV || k >= K || vv >= V) return;
    float bb = cro_bb(bh, v[PO_H]), db = exp2f((float)BT * bb), dh = 0.0f;
    for (int64_t it = NT - 1; it >= 0; it--) {
        a.r[RO_DH][bh * v[PO_SH_H] + it * K * V + k * v[PO_SH_T] + vv] = dh;
        float dot = 0.0f;
        for (int64_t c = 0; c < BT && it * BT + c < T; c++) {
            int64_t s = it * BT + c;
            float q = __fmul_rn(a.r[RO_Q][bh * v[PO_SQK_H] + s * v[PO_SQK_T] + k * v[PO_SQK_D]], a.scale);
            float d = __fmul_rn(a.r[RO_DO][bh * v[PO_SVO_H] + s * v[PO_SVO_T] + vv * v[PO_SVO_D]], exp2f((float)(c + 1) * bb));
            dot = __fadd_rn(dot, __fmul_rn(q, d));
        }
        dh = __fadd_rn(__fmul_rn(db, dh), dot);
    }
}

static int launch_fwd(const td_abi_launch *L) {
    cro_fargs a;
    for (int i = 0; i < NP; i++) a.v[i] = TLC_I(L, i);
    for (int i = 0; i < NR; i++) a.r[i] = TLC_PTR(L, i, float);
    cro_fwd_h<<<tlc_grid(L), tlc_threads(a.v[P_BK] * a.v[P_BV]), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "cro_fwd_h");
}
static int launch_bwd(const td_abi_launch *L) {
    cro_bargs a;
    for (int i = 0; i < NPO; i++) a.v[i] = i == PO_SCALE ? 0 : TLC_I(L, i); /* scale is real */
    a.scale = TLC_R(L, PO_SCALE);
    for (int i = 0; i < NRO; i++) a.r[i] = TLC_PTR(L, i, float);
    cro_bwd_dh<<<tlc_grid(L), tlc_threads(a.v[PO_BK] * a.v[PO_BV]), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "cro_bwd_dh");
}

TD_KERNEL(td_kc_cro_fwd) = {"chunk_retention_ops.cro_fwd_h_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                            18, 5, launch_fwd, NULL};
TD_KERNEL(td_kc_cro_bwd) = {"chunk_retention_ops.cro_bwd_dh_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                            17, 3, launch_bwd, NULL};
