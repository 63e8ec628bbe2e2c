/* fused_recurrent_retention, alternative: the chunked scan with the state carried.
 *
 * alt_chunk16: the same outputs as the fused kernels (o, final_state, dq, dk, dv and
 * the carry regions HSeed / HOut / DHOut) for every (i_v, i_k, i_bh), but each state
 * (forward h, backward d_h) evaluated as chunk-parallel implementations (FLA's chunk
 * kernels) do: time cut into chunks of 16 steps; at a chunk's start the carried state
 * h_c is kept, the chunk's decays accumulated as a running product A = b^(n) and its
 * own contributions as a scan from 0 (loc = fmaf(b, loc, x)), and h_t = fmaf(A, h_c,
 * loc).  The tile sums run from the last lane down with FMA.  Admissible: lrec.h's
 * chunked-with-carry form (any chunk size) and any FMA / summation order.
 *
 * alt_seed_bits: the seed prologue (HSeed = initial_state on the active lanes) as a
 * copy of the bits, one contiguous run of a tile's v lanes per k row (the [BK, BV]
 * layout of the backward's state, rows k-major), without the port's `0 + x`: a -0
 * stays -0.  Admissible: the spec is over the reals (-0 = +0) and any lane order.
 */
#include "tl.h"

enum { P_USE_INIT, P_STORE_FINAL, P_SQK, P_SVO, P_B, P_H, P_T, P_DK, P_DV, P_BK, P_BV, P_M, P_SCALE };
enum { R_Q, R_K, R_V, R_O, R_DO, R_DQ, R_DK, R_DV, R_H0, R_HT, R_HSEED, R_HPREV, R_HOUT, R_DHPREV, R_DHOUT };
#define CH 16

typedef struct chs { /* one chunked scan per state cell */
    float hc, A, loc, h;
} chs;
static void ch_step(chs *s, int64_t t, float b, float x) {
    if (t % CH == 0) s->hc = s->h, s->A = 1.0f, s->loc = 0.0f;
    s->A *= b;
    s->loc = fmaf(b, s->loc, x);
    s->h = fmaf(s->A, s->hc, s->loc);
}

typedef struct alt_ctx {
    const td_abi_launch *L;
    int64_t DK, DV, T, sqk, svo, BH, bh;
    float b, scale;
} alt_ctx;
static float ldq(const alt_ctx *a, int reg, int64_t t, int64_t k) { return tl_load(a->L, reg, a->bh * a->sqk + k + t * a->DK); }
static float ldv(const alt_ctx *a, int reg, int64_t t, int64_t v) { return tl_load(a->L, reg, a->bh * a->svo + v + t * a->DV); }
static int64_t soff(const alt_ctx *a, int64_t k, int64_t v) { return a->bh * a->DK * a->DV + k * a->DV + v; }

/* forward and backward phase 1 for the K block [k0, k1) x V block [v0, v1) */
static void fwd(alt_ctx *a, chs *S, int64_t k0, int64_t k1, int64_t v0, int64_t v1, int64_t ik, int64_t iv) {
    const td_abi_launch *L = a->L;
    int64_t nk = k1 - k0, nv = v1 - v0, m = TL_I(L, P_M);
    for (int64_t i = 0; i < nk * nv; i++) {
        S[i].h = TL_I(L, P_USE_INIT) ? tl_load(L, R_H0, soff(a, k0 + i / nv, v0 + i % nv)) : 0.0f;
        tl_store(L, R_HSEED, soff(a, k0 + i / nv, v0 + i % nv), S[i].h, tl_f32());
    }
    for (int64_t t = 0; t < a->T; t++) {
        for (int64_t i = 0; i < nk * nv; i++)
            ch_step(&S[i], t, a->b, ldq(a, R_K, t, k0 + i / nv) * ldv(a, R_V, t, v0 + i % nv));
        for (int64_t j = nv - 1; j >= 0; j--) { /* o[v] = sum_k h * (q scale), last k first */
            float acc = 0.0f;
            for (int64_t i = nk - 1; i >= 0; i--) acc = fmaf(S[i * nv + j].h, ldq(a, R_Q, t, k0 + i) * a->scale, acc);
            tl_store(L, R_O, (a->bh + ik * a->BH) * a->svo + v0 + j + t * a->DV, acc, tl_f32());
        }
        for (int64_t i = nk - 1; i >= 0; i--) { /* dq[k] = (sum_v h * do) * scale */
            float acc = 0.0f;
            for (int64_t j = nv - 1; j >= 0; j--) acc = fmaf(S[i * nv + j].h, ldv(a, R_DO, t, v0 + j), acc);
            tl_store(L, R_DQ, (a->bh + iv * a->BH) * a->sqk + k0 + i + t * a->DK, acc * a->scale, tl_f32());
        }
        if (t == m)
            for (int64_t i = 0; i < nk * nv; i++) tl_store(L, R_HOUT, soff(a, k0 + i / nv, v0 + i % nv), S[i].h, tl_f32());
    }
    if (TL_I(L, P_STORE_FINAL))
        for (int64_t i = 0; i < nk * nv; i++) tl_store(L, R_HT, soff(a, k0 + i / nv, v0 + i % nv), S[i].h, tl_f32());
}

/* backward phase 2: d_h from T-1 down, chunked from the top */
static void bwd(alt_ctx *a, chs *S, int64_t k0, int64_t k1, int64_t v0, int64_t v1, int64_t ik, int64_t iv) {
    const td_abi_launch *L = a->L;
    int64_t nk = k1 - k0, nv = v1 - v0, m = TL_I(L, P_M);
    for (int64_t i = 0; i < nk * nv; i++) S[i].h = 0.0f;
    for (int64_t s = 0; s < a->T; s++) {
        int64_t t = a->T - 1 - s;
        for (int64_t i = 0; i < nk * nv; i++) {
            float qs = ldq(a, R_Q, t, k0 + i / nv) * a->scale;
            ch_step(&S[i], s, a->b, qs * ldv(a, R_DO, t, v0 + i % nv));
        }
        for (int64_t i = nk - 1; i >= 0; i--) {
            float acc = 0.0f;
            for (int64_t j = nv - 1; j >= 0; j--) acc = fmaf(S[i * nv + j].h, ldv(a, R_V, t, v0 + j), acc);
            tl_store(L, R_DK, (a->bh + iv * a->BH) * a->sqk + k0 + i + t * a->DK, acc, tl_f32());
        }
        for (int64_t j = nv - 1; j >= 0; j--) {
            float acc = 0.0f;
            for (int64_t i = nk - 1; i >= 0; i--) acc = fmaf(S[i * nv + j].h, ldq(a, R_K, t, k0 + i), acc);
            tl_store(L, R_DV, (a->bh + ik * a->BH) * a->svo + v0 + j + t * a->DV, acc, tl_f32());
        }
        if (t == m)
            for (int64_t i = 0; i < nk * nv; i++)
                tl_store(L, R_DHOUT, soff(a, k0 + i / nv, v0 + i % nv), a->b * S[i].h, tl_f32());
    }
}

static int chunk16(const td_abi_launch *L) {
    alt_ctx a = {.L = L, .DK = TL_I(L, P_DK), .DV = TL_I(L, P_DV), .T = TL_I(L, P_T), .sqk = TL_I(L, P_SQK),
                 .svo = TL_I(L, P_SVO), .BH = TL_I(L, P_B) * TL_I(L, P_H), .scale = TL_R(L, P_SCALE)};
    int64_t BK = TL_I(L, P_BK), BV = TL_I(L, P_BV);
    chs *S;
    TL_ALLOC(L, S, BK * BV);
    for (int64_t bh = 0; bh < a.BH; bh++) {
        a.bh = bh;
        a.b = 1.0f - exp2f((float)(-5 - bh % TL_I(L, P_H)));
        for (int64_t ik = 0; ik * BK < a.DK; ik++)
            for (int64_t iv = 0; iv * BV < a.DV; iv++) {
                int64_t k1 = (ik + 1) * BK < a.DK ? (ik + 1) * BK : a.DK, v1 = (iv + 1) * BV < a.DV ? (iv + 1) * BV : a.DV;
                fwd(&a, S, ik * BK, k1, iv * BV, v1, ik, iv);
                bwd(&a, S, ik * BK, k1, iv * BV, v1, ik, iv);
            }
    }
    free(S);
    return 0;
}

TD_KERNEL(td_a_frr_summary) = {"fused_recurrent_retention.fused_recurrent_retention_output_summary_general",
                               "alt_chunk16", TD_ABI_HOST, NULL, NULL, NULL, 13, 15, chunk16, NULL};

/* seed: params DK DV BK BV; regions initial_state HSeed */
static int seed_bits(const td_abi_launch *L) {
    int64_t DK = TL_I(L, 0), DV = TL_I(L, 1), BK = TL_I(L, 2), BV = TL_I(L, 3);
    for (int64_t p2 = 0; p2 < (int64_t)L->grid[2]; p2++)
        for (int64_t p1 = 0; p1 < (int64_t)L->grid[1]; p1++)
            for (int64_t p0 = 0; p0 < (int64_t)L->grid[0]; p0++) {
                int64_t k1 = (p1 + 1) * BK < DK ? (p1 + 1) * BK : DK, v1 = (p0 + 1) * BV < DV ? (p0 + 1) * BV : DV;
                for (int64_t k = p1 * BK; k < k1; k++) /* mask_kv: k < DK, v < DV */
                    for (int64_t v = p0 * BV; v < v1; v++) {
                        int64_t off = (p2 * DK + k) * DV + v;
                        tl_store(L, 1, off, tl_load(L, 0, off), tl_f32());
                    }
            }
    return 0;
}

TD_KERNEL(td_a_frr_seed) = {"fused_recurrent_retention.fused_recurrent_retention_seed_io_correctness", "alt_seed_bits",
                            TD_ABI_HOST, NULL, NULL, NULL, 4, 2, seed_bits, NULL};
