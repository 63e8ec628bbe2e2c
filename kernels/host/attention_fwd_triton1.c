/* attention_fwd_triton1: attention_fwd_kernel on the CPU with the theorems' launch (s_qt = BD,
 * s_qd = 1, T = NT*BT, STORE = IFCOND = false), program by program (i_bh = pid0), chunk by
 * chunk: b_q = q * scale, b_s = dot(b_q, b_k), b_o = dot(b_s, b_v) + dot(b_q, b_h), then
 * b_h += dot(b_k, b_v); tl.dot as a binary32 loop over its reduction lanes.  Regions Q, K,
 * V, H, O (binary32; H untouched with STORE = false).  Parameters: s_qh, s_hh, s_ht, scale,
 * BT, BD, NT. */
#include "tl.h"

enum { P_SQH, P_SHH, P_SHT, P_SCALE, P_BT, P_BD, P_NT };
enum { R_Q, R_K, R_V, R_H, R_O };

/* the mutants' switches (kernels/mutants/attention_fwd_triton1.c) */
#define A1_MUT_CARRY_FIRST 1u /* b_h += dot(k, v) before b_o += dot(q, b_h) */
#define A1_MUT_NO_CARRY 2u    /* b_h reset every chunk */
#define A1_MUT_RAW_Q 4u       /* the recurrent dot takes the unscaled q */
#define A1_MUT_HEAD 8u        /* i_bh * s_hh as the head offset of q, k, v, o */
#define A1_MUT_OFFSET_I32 16u /* i_bh * s_qh formed in int32 (wraps beyond 2^31 elements) */
int td_hk_attention_fwd_triton1(const td_abi_launch *L, unsigned mut);

typedef struct a1_tiles {
    float *q, *qr, *k, *v, *s, *o, *h;
} a1_tiles;

static void a1_carry_add(const a1_tiles *w, int64_t BT, int64_t BD) {
    for (int64_t a = 0; a < BD; a++)
        for (int64_t d = 0; d < BD; d++) {
            float kv = 0.0f; /* dot(b_k, b_v)[a, d] */
            for (int64_t tk = 0; tk < BT; tk++) kv += w->k[a * BT + tk] * w->v[tk * BD + d];
            w->h[a * BD + d] += kv;
        }
}

static void a1_chunk(const td_abi_launch *L, unsigned mut, int64_t base, int64_t i, const a1_tiles *w) {
    const int64_t BT = TL_I(L, P_BT), BD = TL_I(L, P_BD);
    const float scale = TL_R(L, P_SCALE);
    for (int64_t t = 0; t < BT; t++)
        for (int64_t d = 0; d < BD; d++) {
            const int64_t off = base + (i * BT + t) * BD + d;
            w->qr[t * BD + d] = tl_load(L, R_Q, off);
            w->q[t * BD + d] = w->qr[t * BD + d] * scale; /* (b_q * scale).to(b_q.dtype) */
            w->k[d * BT + t] = tl_load(L, R_K, off);      /* [BD, BT]: strides (s_qd, s_qt) */
            w->v[t * BD + d] = tl_load(L, R_V, off);
        }
    for (int64_t t = 0; t < BT; t++)
        for (int64_t tk = 0; tk < BT; tk++) {
            float s = 0.0f;
            for (int64_t e = 0; e < BD; e++) s += w->q[t * BD + e] * w->k[e * BT + tk];
            w->s[t * BT + tk] = s;
        }
    if (mut & A1_MUT_NO_CARRY)
        for (int64_t a = 0; a < BD * BD; a++) w->h[a] = 0.0f;
    if (mut & A1_MUT_CARRY_FIRST) a1_carry_add(w, BT, BD);
    const float *qh = (mut & A1_MUT_RAW_Q) ? w->qr : w->q;
    for (int64_t t = 0; t < BT; t++)
        for (int64_t d = 0; d < BD; d++) {
            float o = 0.0f, r = 0.0f;
            for (int64_t tk = 0; tk < BT; tk++) o += w->s[t * BT + tk] * w->v[tk * BD + d];
            for (int64_t a = 0; a < BD; a++) r += qh[t * BD + a] * w->h[a * BD + d];
            w->o[t * BD + d] = o + r; /* b_o += dot(b_q, b_h) */
        }
    if (!(mut & A1_MUT_CARRY_FIRST)) a1_carry_add(w, BT, BD);
    for (int64_t t = 0; t < BT; t++)
        for (int64_t d = 0; d < BD; d++) tl_store(L, R_O, base + (i * BT + t) * BD + d, w->o[t * BD + d], tl_f32());
}

int td_hk_attention_fwd_triton1(const td_abi_launch *L, unsigned mut) {
    const int64_t BT = TL_I(L, P_BT), BD = TL_I(L, P_BD), NT = TL_I(L, P_NT);
    a1_tiles w;
    TL_ALLOC(L, w.q, BT * BD);
    TL_ALLOC(L, w.qr, BT * BD);
    TL_ALLOC(L, w.k, BD * BT);
    TL_ALLOC(L, w.v, BT * BD);
    TL_ALLOC(L, w.s, BT * BT);
    TL_ALLOC(L, w.o, BT * BD);
    TL_ALLOC(L, w.h, BD * BD);
    int rc = 0;
    for (uint32_t p0 = 0; p0 < L->grid[0] && !rc; p0++) {
        int64_t base = (int64_t)p0 * TL_I(L, (mut & A1_MUT_HEAD) ? P_SHH : P_SQH);
        if (mut & A1_MUT_OFFSET_I32) /* Triton's int32 program id times an int32 s_qh: an int32 product */
            base = tl_i32((int64_t)p0 * tl_i32(TL_I(L, P_SQH)));
        for (int r = R_Q; r <= R_O && (mut & (A1_MUT_HEAD | A1_MUT_OFFSET_I32)) && !rc; r++)
            if (r != R_H) rc = tl_fault(L, r, base, NT * BT * BD, 1, p0);
        for (int64_t a = 0; a < BD * BD; a++) w.h[a] = 0.0f; /* b_h = zeros */
        for (int64_t i = 0; i < NT && !rc; i++) a1_chunk(L, mut, base, i, &w);
    }
    free(w.q), free(w.qr), free(w.k), free(w.v), free(w.s), free(w.o), free(w.h);
    return rc;
}

static int launch(const td_abi_launch *L) { return td_hk_attention_fwd_triton1(L, 0); }

TD_KERNEL(td_k_attention_fwd_triton1_os) = {"attention_fwd_triton1.attention_fwd_triton1_output_summary_general",
                                            "triton", TD_ABI_HOST, NULL, NULL, NULL, 7, 5, launch, NULL};
TD_KERNEL(td_k_attention_fwd_triton1_io) = {"attention_fwd_triton1.attention_fwd_triton1_io_correctness", "triton",
                                            TD_ABI_HOST, NULL, NULL, NULL, 7, 5, launch, NULL};
