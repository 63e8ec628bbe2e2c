/* fused_rwkv6_kernel, alternative: the chunked form with log-space cumulative decays.
 *
 * alt_chunk64_log: the same outputs as the fused kernel (o per K block, BHPrev, BHOut,
 * C, ht) for every (i_v, i_k, i_bh), but each state cell evaluated as chunk-parallel
 * RWKV-6 kernels (fla's chunk_rwkv6, BT = 64) do: time cut into chunks of 64 steps; at a
 * chunk's start the carried state h_c is kept and the cumulative log decay
 * G_t = w_c + ... + w_t accumulated in binary32; the state after step t is
 *     h = 2^(G_t log2 e) h_c + sum_{c <= s <= t} 2^((G_t - G_s) log2 e) (k_s v_s)
 * recomputed from the chunk's terms (the matrix form: every decay from the cumulative
 * sums, the chunk's terms summed last first).  The readout applies scale after the sum
 * (fmaf, last k first) and forms the bonus as (k u) v.  Admissible: the contract's chunk
 * widening (log-space decays, chunks <= 64, any order) and exp as exp2 (math model).
 *
 * The state-step IO (BHOut = BHPrev exp(w) + k v on the active lanes), two variants:
 * alt_step_ex2fma: exp as compiled Triton emits it, ex2.approx(RN(w log2 e)) at the
 * edge of its 2-ulp error (alt_exp_ptx), and the update contracted as
 * fmaf(BHPrev, e, RN(k v)); admissible: the "any" math model and FMA contraction.
 * alt_step_kvfma: libm exp, the other contraction fmaf(k, v, RN(BHPrev e)) (k v never
 * rounded), each program's tile walked k-major with the decay loaded once per k row;
 * admissible: FMA either way, lane order is free (the lanes are independent). */
#include "alt_common.h"

enum { P_USE_INIT, P_STORE_FINAL, P_SKH, P_SVH, P_B, P_H, P_T, P_K, P_V, P_BK, P_BV, P_M, P_SCALE };
enum { R_Q, R_K, R_V, R_W, R_U, R_O, R_H0, R_HT, R_BHPREV, R_BHOUT, R_C };
#define CH 64
#define LOG2E 1.44269504f

typedef struct alt_ctx {
    const td_abi_launch *L;
    int64_t K, V, T, skh, svh, BH, bh;
    float *hc, *G; /* per cell: the carried state; per k: the chunk's cumulative log decays [CH] */
    float *kv;     /* per cell: the chunk's k_s v_s [CH] */
} alt_ctx;
static float ldk(const alt_ctx *a, int reg, int64_t t, int64_t k) { return tl_load(a->L, reg, a->bh * a->skh + k + t * a->K); }
static float ldv(const alt_ctx *a, int64_t t, int64_t v) { return tl_load(a->L, R_V, a->bh * a->svh + v + t * a->V); }
static int64_t soff(const alt_ctx *a, int64_t k, int64_t v) { return a->bh * a->K * a->V + k * a->V + v; }

/* the state of cell i (key k) after step t of the chunk starting at c0 */
static float state(const alt_ctx *a, int64_t i, int64_t k, int64_t c0, int64_t t) {
    const float *G = a->G + k * CH, *kv = a->kv + i * CH;
    float acc = 0.0f;
    for (int64_t s = t; s >= c0; s--) acc = fmaf(exp2f((G[t - c0] - G[s - c0]) * LOG2E), kv[s - c0], acc);
    return fmaf(exp2f(G[t - c0] * LOG2E), a->hc[i], acc);
}

static void block(alt_ctx *a, int64_t k0, int64_t k1, int64_t v0, int64_t v1, int64_t ik, float *h) {
    const td_abi_launch *L = a->L;
    int64_t nk = k1 - k0, nv = v1 - v0, m = TL_I(L, P_M), H = TL_I(L, P_H);
    float scale = TL_R(L, P_SCALE);
    for (int64_t i = 0; i < nk * nv; i++) h[i] = TL_I(L, P_USE_INIT) ? tl_load(L, R_H0, soff(a, k0 + i / nv, v0 + i % nv)) : 0.0f;
    for (int64_t t = 0; t < a->T; t++) {
        int64_t c0 = t - t % CH;
        if (t == c0)
            for (int64_t i = 0; i < nk * nv; i++) a->hc[i] = h[i];
        for (int64_t j = 0; j < nv; j++) { /* o from the state before step t */
            float acc = 0.0f, vt = ldv(a, t, v0 + j);
            for (int64_t x = nk - 1; x >= 0; x--) {
                float ku = ldk(a, R_K, t, k0 + x) * tl_load(L, R_U, (a->bh % H) * a->K + k0 + x);
                acc = fmaf(h[x * nv + j] + ku * vt, ldk(a, R_Q, t, k0 + x), acc);
            }
            tl_store(L, R_O, (a->bh + ik * a->BH) * a->svh + v0 + j + t * a->V, acc * scale, tl_f32());
        }
        if (t == m)
            for (int64_t i = 0; i < nk * nv; i++) tl_store(L, R_BHPREV, soff(a, k0 + i / nv, v0 + i % nv), h[i], tl_f32());
        for (int64_t x = 0; x < nk; x++) {
            float g = ldk(a, R_W, t, k0 + x);
            a->G[x * CH + t - c0] = t == c0 ? g : a->G[x * CH + t - c0 - 1] + g;
        }
        for (int64_t i = 0; i < nk * nv; i++) {
            a->kv[i * CH + t - c0] = ldk(a, R_K, t, k0 + i / nv) * ldv(a, t, v0 + i % nv);
            h[i] = state(a, i, i / nv, c0, t);
        }
        if (t == m)
            for (int64_t i = 0; i < nk * nv; i++) tl_store(L, R_BHOUT, soff(a, k0 + i / nv, v0 + i % nv), h[i], tl_f32());
    }
    for (int64_t i = 0; i < nk * nv; i++) {
        tl_store(L, R_C, soff(a, k0 + i / nv, v0 + i % nv), h[i], tl_f32());
        if (TL_I(L, P_STORE_FINAL)) tl_store(L, R_HT, soff(a, k0 + i / nv, v0 + i % nv), h[i], tl_f32());
    }
}

static int chunk64_log(const td_abi_launch *L) {
    alt_ctx a = {.L = L, .K = TL_I(L, P_K), .V = TL_I(L, P_V), .T = TL_I(L, P_T), .skh = TL_I(L, P_SKH),
                 .svh = TL_I(L, P_SVH), .BH = TL_I(L, P_B) * TL_I(L, P_H)};
    int64_t BK = TL_I(L, P_BK), BV = TL_I(L, P_BV);
    float *h;
    TL_ALLOC(L, h, BK * BV * (2 + CH) + BK * CH);
    a.hc = h + BK * BV, a.kv = a.hc + BK * BV, a.G = a.kv + BK * BV * CH;
    for (int64_t bh = 0; bh < a.BH; bh++) {
        a.bh = bh;
        for (int64_t ik = 0; ik * BK < a.K; ik++)
            for (int64_t iv = 0; iv * BV < a.V; iv++) {
                int64_t k1 = (ik + 1) * BK < a.K ? (ik + 1) * BK : a.K, v1 = (iv + 1) * BV < a.V ? (iv + 1) * BV : a.V;
                block(&a, ik * BK, k1, iv * BV, v1, ik, h);
            }
    }
    free(h);
    return 0;
}

TD_KERNEL(td_a_rw6_summary) = {"fused_rwkv6_kernel.fused_recurrent_rwkv6_output_summary_general", "alt_chunk64_log",
                               TD_ABI_HOST, NULL, NULL, NULL, 13, 11, chunk64_log, NULL};

enum { SP_T, SP_SKH, SP_SVH, SP_K, SP_V, SP_BK, SP_BV };
enum { SR_BHPREV, SR_K, SR_V, SR_W, SR_BHOUT };

/* one program (p0, p1, p2) of the state step; fma_kv picks the contraction */
static void step_tile(const td_abi_launch *L, int64_t p0, int64_t p1, int64_t p2, int fma_kv) {
    int64_t t = TL_I(L, SP_T), skh = TL_I(L, SP_SKH), svh = TL_I(L, SP_SVH), K = TL_I(L, SP_K), V = TL_I(L, SP_V);
    int64_t BK = TL_I(L, SP_BK), BV = TL_I(L, SP_BV);
    for (int64_t k = p1 * BK; k < (p1 + 1) * BK && k < K; k++) { /* mask_kv: k < K, v < V */
        int64_t kw = p2 * skh + t * K + k;
        float w = tl_load(L, SR_W, kw), kk = tl_load(L, SR_K, kw), e = fma_kv ? expf(w) : alt_exp_ptx(w);
        for (int64_t v = p0 * BV; v < (p0 + 1) * BV && v < V; v++) {
            int64_t off = (p2 * K + k) * V + v;
            float prev = tl_load(L, SR_BHPREV, off), vv = tl_load(L, SR_V, p2 * svh + t * V + v);
            float out = fma_kv ? fmaf(kk, vv, prev * e) : fmaf(prev, e, kk * vv);
            tl_store(L, SR_BHOUT, off, out, tl_f32());
        }
    }
}
static int step_run(const td_abi_launch *L, int fma_kv) {
    for (int64_t p2 = 0; p2 < (int64_t)L->grid[2]; p2++) /* int64 offsets: the far heads pass 2^31 */
        for (int64_t p1 = 0; p1 < (int64_t)L->grid[1]; p1++)
            for (int64_t p0 = 0; p0 < (int64_t)L->grid[0]; p0++) step_tile(L, p0, p1, p2, fma_kv);
    return 0;
}
static int step_ex2fma(const td_abi_launch *L) { return step_run(L, 0); }
static int step_kvfma(const td_abi_launch *L) { return step_run(L, 1); }

TD_KERNEL(td_a_rw6_step_ex2) = {"fused_rwkv6_kernel.fused_recurrent_rwkv6_state_step_io_correctness", "alt_step_ex2fma",
                                TD_ABI_HOST, NULL, NULL, NULL, 7, 5, step_ex2fma, NULL};
TD_KERNEL(td_a_rw6_step_kv) = {"fused_rwkv6_kernel.fused_recurrent_rwkv6_state_step_io_correctness", "alt_step_kvfma",
                               TD_ABI_HOST, NULL, NULL, NULL, 7, 5, step_kvfma, NULL};
