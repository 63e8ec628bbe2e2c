/* chunk_retention on CUDA: chunk_retention_fwd_kernel_h and chunk_retention_bwd_kernel_dh,
 * one block per program (blockIdx = (i_k, i_v, i_bh)), binary32 throughout with the
 * Triton program's decays b_b = log2f(1 - exp2f(-5 - i_h)), exp2f(n b_b).
 *   fwd_h: one thread per state lane (e, p) of the [BK, BV] tile; per chunk it stores
 *     h[t], then h = d_b h + sum_c k[e, c] (v[c, p] d_i[c]) (the ragged last chunk with
 *     T % BT); ht at the end.
 *   bwd_dh: one thread per lane (x, y) of the [BT, BT] block: sum over the chunks from
 *     NT - 1 down of sum_r (do[x, r] d_i[x]) v[r, y], times d_b, one store.
 * The kernels in ../host/chunk_retention.c are the reference port; these compile in CI
 * and run where a GPU is.  Block sizes <= 64 (BK*BV, BT*BT <= 1024 threads). */
#include "tlc.cuh"

enum { P_SQK_H, P_SQK_T, P_SQK_D, P_SVO_H, P_SVO_T, P_SVO_D, P_SH_H, P_SH_T, P_H, P_T, P_K, P_V, P_BT, P_BK, P_BV,
       P_NT, P_USE_INIT, P_STORE_FINAL, NP };
enum { R_K, R_V, R_H, R_H0, R_HT, NR };
enum { PB_SVO_H, PB_SVO_T, PB_SVO_D, PB_SH_H, PB_SH_T, PB_H, PB_T, PB_K, PB_V, PB_BT, PB_NT, NPB };
enum { RB_V, RB_DO, RB_DH, NRB };

struct crt_args {
    int64_t v[NP];
    float *r[NR];
};

__device__ static float crt_bb(int64_t bh, int64_t H) { return log2f(1.0f - exp2f(-5.0f - (float)(bh % H) * 1.0f)); }

__global__ static void crt_fwd_h(crt_args a) {
    const int64_t *v = a.v;
    int64_t T = v[P_T], K = v[P_K], V = v[P_V], BT = v[P_BT], BK = v[P_BK], BV = v[P_BV], NT = v[P_NT];
    int64_t l = threadIdx.x, e = l / BV, q = l % BV, bh = blockIdx.z;
    int64_t k = blockIdx.x * BK + e, vv = blockIdx.y * BV + q;
    if (l >= BK * BV || k >= K || vv >= V) return;
    float bb = crt_bb(bh, v[P_H]);
    float h = v[P_USE_INIT] ? a.r[R_H0][bh * K * V + k * V + vv] : 0.0f;
    int64_t len = T % BT;
    for (int64_t it = 0; it < NT; it++) {
        a.r[R_H][bh * v[P_SH_H] + it * K * V + k * v[P_SH_T] + vv] = h;
        int64_t n = (it == NT - 1 && len != 0) ? len : BT;
        float db = exp2f((float)n * bb), dot = 0.0f;
        for (int64_t c = 0; c < BT; c++) {
            int64_t s = it * BT + c;
            if (s >= T) continue;
            float di = exp2f((float)(n - c - 1) * bb);
            float kk = a.r[R_K][bh * v[P_SQK_H] + s * v[P_SQK_T] + k * v[P_SQK_D]];
            float vx = __fmul_rn(a.r[R_V][bh * v[P_SVO_H] + s * v[P_SVO_T] + vv * v[P_SVO_D]], di);
            dot = __fadd_rn(dot, __fmul_rn(kk, vx));
        }
        h = __fadd_rn(__fmul_rn(db, h), dot);
    }
    if (v[P_STORE_FINAL]) a.r[R_HT][bh * K * V + k * V + vv] = h;
}

struct crh_bargs {
    int64_t v[NPB];
    float *r[NRB];
};

__global__ static void crh_bwd_dh(crh_bargs a) {
    const int64_t *v = a.v;
    int64_t T = v[PB_T], K = v[PB_K], V = v[PB_V], BT = v[PB_BT], NT = v[PB_NT];
    int64_t l = threadIdx.x, x = l / BT, y = l % BT, bh = blockIdx.z, iv = blockIdx.y;
    if (l >= BT * BT || iv * BT + x >= K || y >= V) return;
    float bb = crt_bb(bh, v[PB_H]), di = exp2f((float)(x + 1) * bb), acc = 0.0f;
    int64_t base = bh * v[PB_SVO_H];
    for (int64_t it = NT - 1; it >= 0; it--) {
        float dot = 0.0f;
        for (int64_t r = 0; r < BT; r++) {
            int64_t sx = it * BT + x, sr = it * BT + r, cr = iv * BT + r, cy = iv * BT + y;
            float o = sx < T && cr < V ? a.r[RB_DO][base + sx * v[PB_SVO_T] + cr * v[PB_SVO_D]] : 0.0f;
            float w = sr < T && cy < V ? a.r[RB_V][base + sr * v[PB_SVO_T] + cy * v[PB_SVO_D]] : 0.0f;
            dot = __fadd_rn(dot, __fmul_rn(__fmul_rn(o, di), w));
        }
        acc = __fadd_rn(acc, dot);
    }
    acc = __fmul_rn(acc, exp2f((float)BT * bb));
    a.r[RB_DH][bh * v[PB_SH_H] + blockIdx.x * K * V + (iv * BT + x) * v[PB_SH_T] + y] = acc;
}

static int launch_fwd(const td_abi_launch *L) {
    crt_args a;
    for (int i = 0; i < NP; i++) a.v[i] = TLC_I(L, i);
    for (int i = 0; i < NR; i++) a.r[i] = TLC_PTR(L, i, float);
    crt_fwd_h<<<tlc_grid(L), tlc_threads(a.v[P_BK] * a.v[P_BV]), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "crt_fwd_h");
}
static int launch_bwd(const td_abi_launch *L) {
    crh_bargs a;
    for (int i = 0; i < NPB; i++) a.v[i] = TLC_I(L, i);
    for (int i = 0; i < NRB; i++) a.r[i] = TLC_PTR(L, i, float);
    crh_bwd_dh<<<tlc_grid(L), tlc_threads(a.v[PB_BT] * a.v[PB_BT]), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "crh_bwd_dh");
}

TD_KERNEL(td_kc_crh_fwd) = {"chunk_retention.crh_fwd_h_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                            18, 5, launch_fwd, NULL};
TD_KERNEL(td_kc_crh_bwd) = {"chunk_retention.crh_bwd_dh_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                            11, 3, launch_bwd, NULL};
