/* chunk_gate_recurrence on the CPU: the Triton programs of _fwd_recurrence /
 * _bwd_recurrence, program by program.
 *
 * Summary (one launch: _fwd_recurrence then _bwd_recurrence on every program
 * (offset_bh, offset_d, offset_s)): the forward seeds acc from LastKv (or 0), stores it
 * to O chunk 0, then acc = acc * d_i + S_i, stored to chunk i + 1, for i < NB - 1; the
 * backward starts Dacc = 0 with S, DI, DG at chunk NB - 2 and DS, d at NB - 1, runs
 * Dacc = Dacc * d + DS, DG = tl.sum(Dacc * S), DI = Dacc down to chunk 0, then the
 * post-loop step Dacc = Dacc * d_0 + DS_0 into DL.  NUM_K = DK // BMK, NUM_V = DV // BMV
 * as the kernel computes them.
 * Parameters: HAS_LAST_KV t_rel NUM_HEAD NUM_BLOCK NUM_K NUM_V D_MODEL_K D_MODEL_V
 * BLOCK_MODEL_K BLOCK_MODEL_V.  Regions: AccPrev S D O LastKv DaccPrev DaccTail DS DI
 * DG DL.
 * Forward store (the slice of the .py's first store): program (offset_bh, offset_d,
 * offset_s) loads its [BMK, BMV] tile of the carried state (Acc, laid out as last_kv)
 * and stores it, unmasked, into output chunk 0: O + offset_bh*NUM_BLOCK*DK*DV +
 * offset_d*DV*BMK + k*DV + offset_s*BMV + v.
 * Parameters: NUM_BLOCK D_MODEL_K D_MODEL_V BLOCK_MODEL_K BLOCK_MODEL_V.  Regions: Acc O. */
#include <stdlib.h>

#include "chunk_gate_recurrence_tl.h"

static float cgr_f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(td_profile_default(TD_F16), x)); }

typedef struct cgr_prog {
    const td_abi_launch *L;
    const cgr_bug *bug;
    int64_t NB, DK, DV, BMK, BMV, bh, d, s;
    float *acc, *t; /* the [BMK, BMV] register tile and a product tile */
} cgr_prog;

/* the tile cell (k, v) of chunk c: bh*NB*DK*DV + c*DK*DV + d*DV*BMK + k*DV + s*BMV + v */
static int64_t cell(const cgr_prog *P, int64_t c, int64_t k, int64_t v) {
    return P->bh * P->NB * P->DK * P->DV + c * P->DK * P->DV + P->d * P->DV * P->BMK + k * P->DV + P->s * P->BMV + v;
}
static int64_t flat(const cgr_prog *P, int64_t k, int64_t v) { /* last_kv / DL layout */
    return P->bh * P->DK * P->DV + P->d * P->DV * P->BMK + k * P->DV + P->s * P->BMV + v;
}
static void store_tile(const cgr_prog *P, int reg, int64_t c, int chunked) {
    for (int64_t k = 0; k < P->BMK; k++)
        for (int64_t v = 0; v < P->BMV; v++)
            tl_store(P->L, reg, chunked ? cell(P, c, k, v) : flat(P, k, v), P->acc[k * P->BMV + v], tl_f32());
}

static void forward(cgr_prog *P) {
    const td_abi_launch *L = P->L;
    int64_t n = P->BMK * P->BMV;
    for (int64_t k = 0; k < P->BMK; k++)
        for (int64_t v = 0; v < P->BMV; v++)
            P->acc[k * P->BMV + v] = TL_I(L, CGR_P_HAS_LAST_KV) ? tl_load(L, CGR_R_LASTKV, flat(P, k, v)) : 0.0f;
    for (int64_t i = 0; i < n; i++) P->t[i] = P->acc[i]; /* the seed (for the no-carry mutant) */
    store_tile(P, CGR_R_O, 0, 1);
    for (int64_t i = 0; i < P->NB - 1; i++) {
        float di = tl_load(L, CGR_R_D, P->bh * P->NB + i);
        for (int64_t k = 0; k < P->BMK; k++)
            for (int64_t v = 0; v < P->BMV; v++) {
                float *a = &P->acc[k * P->BMV + v], prev = P->bug->no_carry ? P->t[k * P->BMV + v] : *a;
                *a = (P->bug->decay_twice ? prev * di * di : prev * di) + tl_load(L, CGR_R_S, cell(P, i, k, v));
                if (P->bug->fp16_state) *a = cgr_f16(*a);
            }
        store_tile(P, CGR_R_O, i + 1, 1);
    }
}

/* one reverse step: Dacc = Dacc * d_a + DS_a */
static void bwd_step(cgr_prog *P, int64_t a) {
    float da = tl_load(P->L, CGR_R_D, P->bh * P->NB + a);
    for (int64_t k = 0; k < P->BMK; k++)
        for (int64_t v = 0; v < P->BMV; v++)
            P->acc[k * P->BMV + v] = P->acc[k * P->BMV + v] * da + tl_load(P->L, CGR_R_DS, cell(P, a, k, v));
}

static void backward(cgr_prog *P) {
    const td_abi_launch *L = P->L;
    int64_t NK = P->DK / P->BMK, NV = P->DV / P->BMV;
    for (int64_t i = 0; i < P->BMK * P->BMV; i++) P->acc[i] = 0.0f;
    for (int64_t c = P->NB - 2; c >= 0; c--) {
        bwd_step(P, P->bug->same_index ? c : c + 1);
        for (int64_t k = 0; k < P->BMK; k++)
            for (int64_t v = 0; v < P->BMV; v++)
                P->t[k * P->BMV + v] = P->acc[k * P->BMV + v] * tl_load(L, CGR_R_S, cell(P, c, k, v));
        tl_store(L, CGR_R_DG, P->bh * P->NB * NK * NV + c * NK * NV + P->d * NV + P->s, tl_sum(P->t, P->BMK * P->BMV),
                 tl_f32());
        store_tile(P, CGR_R_DI, c, 1);
    }
    bwd_step(P, 0);
    store_tile(P, CGR_R_DL, 0, 0);
}

int td_cgr_run(const td_abi_launch *L, const cgr_bug *bug) {
    cgr_prog P = {.L = L, .bug = bug, .NB = TL_I(L, CGR_P_NB), .DK = TL_I(L, CGR_P_DK), .DV = TL_I(L, CGR_P_DV),
                  .BMK = TL_I(L, CGR_P_BMK), .BMV = TL_I(L, CGR_P_BMV)};
    P.acc = malloc((size_t)(P.BMK * P.BMV) * sizeof(float));
    P.t = malloc((size_t)(P.BMK * P.BMV) * sizeof(float));
    if (!P.acc || !P.t) {
        free(P.acc);
        free(P.t);
        return 1;
    }
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t bh = 0; bh < L->grid[0]; bh++)
            for (uint32_t d = 0; d < L->grid[1]; d++)
                for (uint32_t s = 0; s < L->grid[2]; s++) {
                    P.bh = bh, P.d = d, P.s = s;
                    if (pass == 0) forward(&P);
                    else backward(&P);
                }
    free(P.acc);
    free(P.t);
    return 0;
}

int td_cgr_store_run(const td_abi_launch *L, const cgr_store_bug *bug) {
    int64_t NB = TL_I(L, CGR_PS_NB), DK = TL_I(L, CGR_PS_DK), DV = TL_I(L, CGR_PS_DV);
    int64_t BMK = TL_I(L, CGR_PS_BMK), BMV = TL_I(L, CGR_PS_BMV);
    int64_t ohead = bug->acc_layout ? DK * DV : NB * DK * DV, o0 = bug->chunk_one ? DK * DV : 0;
    for (uint32_t bh = 0; bh < L->grid[0]; bh++)
        for (uint32_t d = 0; d < L->grid[1]; d++)
            for (uint32_t s = 0; s < L->grid[2]; s++)
                for (int64_t k = 0; k < BMK; k++)
                    for (int64_t v = 0; v < BMV; v++) {
                        int64_t tile = d * DV * BMK + k * DV + s * BMV + v;
                        int64_t out = bh * ohead + o0 + tile; /* a mutant's may leave O: a device fault */
                        if (bug->off_i32) out = tl_i32(bh * ohead) + o0 + tile; /* the int32 head base */
                        if (tl_fault(L, 1, out, 1, 1, bh)) return 1;
                        float acc = tl_load(L, 0, bh * DK * DV + tile);
                        if (bug->fp16) acc = cgr_f16(acc);
                        tl_store(L, 1, out, acc, tl_f32());
                    }
    return 0;
}

static const cgr_bug cgr_none = {0};
static int cgr_kernel(const td_abi_launch *L) { return td_cgr_run(L, &cgr_none); }
static const cgr_store_bug cgr_store_none = {0};
static int cgr_store(const td_abi_launch *L) { return td_cgr_store_run(L, &cgr_store_none); }

TD_KERNEL(td_k_cgr_summary) = {CGR_SUM, "triton", TD_ABI_HOST, NULL, NULL, NULL, 10, 11, cgr_kernel, NULL};
TD_KERNEL(td_k_cgr_store) = {CGR_STORE, "triton", TD_ABI_HOST, NULL, NULL, NULL, 5, 2, cgr_store, NULL};
TD_KERNEL(td_k_cgr_store_r) = {CGR_STORE_R, "triton", TD_ABI_HOST, NULL, NULL, NULL, 5, 2, cgr_store, NULL};
