/* chunk_linear_attn: chunk_linear_attn_fwd_kernel_h and chunk_linear_attn_bwd_kernel_dh
 * on every program (i_k, i_v, i_bh) of the grid (cdiv(K, BK), cdiv(V, BV), B*H), in
 * binary32.  Forward: b_h [BK, BV] = h0 tile (USE_INITIAL_STATE) or 0; for each chunk
 * i_t: store b_h to h + i_bh*s_h_h + i_t*K*V (rows s_h_t, masked to K x V), then b_h +=
 * k_chunk^T v_chunk (tl.dot over the BT rows, rows past T 0); ht = b_h at the end
 * (STORE_FINAL_STATE).  Backward: b_dh = 0; for i_t from NT-1 down: store b_dh to dh,
 * then b_dh += (q_chunk * scale)^T do_chunk.
 * Forward parameters: s_qk_h s_qk_t s_qk_d s_vo_h s_vo_t s_vo_d s_h_h s_h_t T K V BT BK
 * BV NT USE_INITIAL_STATE STORE_FINAL_STATE; regions k v h h0 ht.  Backward: the same
 * strides, scale, T K V BT BK BV NT; regions q do_ dh. */
#include "chunk_linear_attn_tl.h"

typedef struct cla_prog {
    int64_t sqkh, sqkt, sqkd, svoh, svot, svod, shh, sht, T, K, V, BT, BK, BV, NT, i_k, i_v, bh;
    float scale;
    float *b; /* the state tile [BK * BV] */
} cla_prog;

static float cla_f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(td_profile_default(TD_F16), x)); }

/* the state tile stored to region reg at base (rows of stride rs), masked to K x V */
static void store_tile(const td_abi_launch *L, const cla_prog *P, int reg, int64_t base, int64_t rs) {
    for (int64_t r = 0; r < P->BK; r++)
        for (int64_t c = 0; c < P->BV; c++) {
            int64_t e = P->i_k * P->BK + r, p = P->i_v * P->BV + c;
            if (e < P->K && p < P->V) tl_store(L, reg, base + e * rs + p, P->b[r * P->BV + c], tl_f32());
        }
}

/* b += A_chunk^T B_chunk over the chunk's BT rows (tl.dot: a sequential sum here) */
static void chunk_dot(const td_abi_launch *L, cla_prog *P, const cla_bug *bug, int ra, int rb, int64_t i_t, int sc) {
    for (int64_t r = 0; r < P->BK; r++)
        for (int64_t c = 0; c < P->BV; c++) {
            int64_t e = P->i_k * P->BK + r, p = P->i_v * P->BV + c;
            float a = 0.0f;
            for (int64_t j = 0; j < P->BT; j++) {
                int64_t s = i_t * P->BT + j;
                float x = s < P->T && e < P->K ? tl_load(L, ra, P->bh * P->sqkh + s * P->sqkt + e * P->sqkd) : 0.0f;
                float y = s < P->T && p < P->V ? tl_load(L, rb, P->bh * P->svoh + s * P->svot + p * P->svod) : 0.0f;
                if (sc) x = x * P->scale;
                a += x * y;
            }
            float *h = &P->b[r * P->BV + c];
            *h = bug->no_carry ? a : *h + a;
            if (bug->fp16_state) *h = cla_f16(*h);
        }
}

static void fwd_program(const td_abi_launch *L, cla_prog *P, const cla_bug *bug) {
    for (int64_t r = 0; r < P->BK; r++)
        for (int64_t c = 0; c < P->BV; c++) {
            int64_t e = P->i_k * P->BK + r, p = P->i_v * P->BV + c;
            P->b[r * P->BV + c] =
                TL_I(L, 15) && e < P->K && p < P->V ? tl_load(L, 3, P->bh * P->K * P->V + e * P->V + p) : 0.0f;
        }
    for (int64_t i_t = 0; i_t < P->NT; i_t++) {
        int64_t base = P->bh * P->shh + i_t * P->K * P->V;
        if (!bug->store_after) store_tile(L, P, 2, base, P->sht);
        chunk_dot(L, P, bug, 0, 1, i_t, 0);
        if (bug->store_after) store_tile(L, P, 2, base, P->sht);
    }
    if (TL_I(L, 16)) store_tile(L, P, 4, P->bh * P->K * P->V, P->V);
}

static void bwd_program(const td_abi_launch *L, cla_prog *P, const cla_bug *bug) {
    memset(P->b, 0, sizeof(float) * (size_t)(P->BK * P->BV));
    for (int64_t j = 0; j < P->NT; j++) {
        int64_t i_t = bug->ascending ? j : P->NT - 1 - j, base = P->bh * P->shh + i_t * P->K * P->V;
        if (!bug->store_after) store_tile(L, P, 2, base, P->sht);
        chunk_dot(L, P, bug, 0, 1, i_t, 1);
        if (bug->store_after) store_tile(L, P, 2, base, P->sht);
    }
}

/* the shared launch: the strides at 0..7, then (bwd) scale, then T K V BT BK BV NT */
static int run(const td_abi_launch *L, const cla_bug *bug, int bwd) {
    int o = bwd ? 9 : 8;
    cla_prog P = {.sqkh = TL_I(L, 0), .sqkt = TL_I(L, 1), .sqkd = TL_I(L, 2), .svoh = TL_I(L, 3), .svot = TL_I(L, 4),
                  .svod = TL_I(L, 5), .shh = TL_I(L, 6), .sht = TL_I(L, 7), .T = TL_I(L, o), .K = TL_I(L, o + 1),
                  .V = TL_I(L, o + 2), .BT = TL_I(L, o + 3), .BK = TL_I(L, o + 4), .BV = TL_I(L, o + 5),
                  .NT = TL_I(L, o + 6), .scale = bwd ? TL_R(L, 8) : 1.0f};
    TL_ALLOC(L, P.b, P.BK * P.BV);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
                P.i_k = p0, P.i_v = p1, P.bh = p2;
                if (bwd) bwd_program(L, &P, bug);
                else fwd_program(L, &P, bug);
            }
    free(P.b);
    return 0;
}
int td_cla_fwd_run(const td_abi_launch *L, const cla_bug *bug) { return run(L, bug, 0); }
int td_cla_bwd_run(const td_abi_launch *L, const cla_bug *bug) { return run(L, bug, 1); }

static const cla_bug cla_none = {0};
static int cla_fwd(const td_abi_launch *L) { return td_cla_fwd_run(L, &cla_none); }
static int cla_bwd(const td_abi_launch *L) { return td_cla_bwd_run(L, &cla_none); }

TD_KERNEL(td_k_cla_fwd_h) = {CLA_FWD, "triton", TD_ABI_HOST, NULL, NULL, NULL, 17, 5, cla_fwd, NULL};
TD_KERNEL(td_k_cla_bwd_dh) = {CLA_BWD, "triton", TD_ABI_HOST, NULL, NULL, NULL, 16, 3, cla_bwd, NULL};
