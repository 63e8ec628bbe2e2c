/* Shared by the prompt-cache prefill attentions of LightLLM (catalogue part 1):
 * context_attn_llama (keys through a token table, base-2 softmax normalised at the end),
 * context_attn_fwd (the same kernel over per-batch [batch, head, seq, dim] K/V caches)
 * and context_attn_bloom (token table, natural exp normalised every block, head_dim
 * below BLOCK_DMODEL, grid (batch, head, m-block)).  Each kernel's query rows are the
 * B_Seqlen - plen new tokens of a batch, packed at B_Start_Loc; key j of query row gi is
 * causal iff j <= gi + plen.  The generator, the checker and the write set are written
 * once here, over the parameter and region indices of each contract (ctxpc_idx); the
 * spec engines are attn2_common.spec.h's a2c_out_deferred / a2c_out over ctxpc_ctx_of.
 */
#ifndef TD_CTX_PC_COMMON_H
#define TD_CTX_PC_COMMON_H

#include "attn2_common.h"
#include "gen_far.h"
#include "gen_meta.h"

typedef struct ctxpc_idx {
    int gather; /* K/V rows through Req_to_tokens (llama, bloom); else per-batch caches (fwd) */
    int bloom;  /* grid (batch, head, m-block), head_dim <= BLOCK_DMODEL; else (m-block, batch*H, 1) */
    int ragged; /* the new tokens from gen_meta's td_gen_ragged (fwd, bloom); else attn2_varlen (llama) */
    /* parameters: sm_scale; the first of each stride group: Q (bs, h, d), the table
     * (b, s), K and V (bs, h, d) with the table or (b, h, s, d) without, Out (bs, h, d) */
    int sm, sq, sreq, sk, sv, so;
    int hh; /* H (llama, fwd) or head_dim (bloom) */
    int bd, bm, bn, nt;
    int q, k, v, out, start, seqlen, req, reqidx, plen; /* regions (req, reqidx: -1 without a table) */
} ctxpc_idx;

#define CTXPC_I(c, ix) ((c)->p[(ix)].i)

/* the boundary classes ctxpc_gen reaches */
#define CTXPC_CLASSES \
    (TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_FULLY_MASKED) | \
     TD_BC(TD_BC_OFFSET_2_31))
/* and with td_gen_ragged's */
#define CTXPC_CLASSES_RAGGED                                                                                 \
    (CTXPC_CLASSES | TD_BC(TD_BC_SEQ_EMPTY) | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) |         \
     TD_BC(TD_BC_SEQ_ENDS_AT_END))

/* heads: H, or (bloom) the grid's axis 1 */
static inline int64_t ctxpc_heads(const td_case *c, const ctxpc_idx *ix) {
    return ix->bloom ? (int64_t)c->grid[1] : CTXPC_I(c, ix->hh);
}
/* the head-dim lanes a dot reads: BLOCK_DMODEL, masked by head_dim (bloom) */
static inline int64_t ctxpc_dm(const td_case *c, const ctxpc_idx *ix) {
    int64_t bd = CTXPC_I(c, ix->bd);
    return ix->bloom && CTXPC_I(c, ix->hh) < bd ? CTXPC_I(c, ix->hh) : bd;
}

/* A prompt-cache length for batch b: 0, 1, around BLOCK_N, or random */
static inline int64_t ctxpc_gen_plen(td_producer *p, int64_t BN, uint64_t *classes) {
    int64_t pl;
    switch (td_prod_u32(p, 0, 5)) {
    case 0: pl = 0; break;
    case 1: pl = 1; break;
    case 2: pl = BN > 1 ? BN - 1 : 1; break;
    case 3: pl = BN; break;
    case 4: pl = BN + 1; break;
    default: pl = (int64_t)td_prod_u32(p, 0, 24); break;
    }
    if (pl == 0) *classes |= TD_BC(TD_BC_META_EXTREME);
    return pl;
}

/* The token table [nreq, W] (W >= every total length, plus padding), its strides, in
 * one of three fillings: sequential, an affine shuffle, random slots with repeats.
 * Returns the slots (rows of K and V) it names. */
static inline int64_t ctxpc_gen_table(td_producer *p, td_case *c, const ctxpc_idx *ix, int64_t maxtot, td_rng *r,
                                      int *nreq_out) {
    int nreq = (int)td_prod_u32(p, 1, 4);
    int64_t W = maxtot + (int64_t)td_prod_u32(p, 0, 3);
    int64_t sreqs = td_prod_u32(p, 0, 4) == 0 ? 2 : 1, sreqb = W * sreqs + (int64_t)td_prod_u32(p, 0, 2);
    int ntok = (int)td_prod_u32(p, 1, 64);
    td_case_alloc(c, ix->req, (size_t)((nreq - 1) * sreqb + (W - 1) * sreqs + 1));
    td_rng_seed(r, td_prod_u64(p));
    int perm = td_prod_u32(p, 0, 2);
    for (int q = 0; q < nreq; q++)
        for (int64_t n = 0; n < W; n++) {
            int64_t slot = perm == 0 ? (q * W + n) % ntok : perm == 1 ? (n * 5 + q * 11 + 3) % ntok
                                                                    : (int64_t)td_rng_below(r, (uint64_t)ntok);
            td_seti(c, ix->req, (size_t)(q * sreqb + n * sreqs), slot);
        }
    CTXPC_I(c, ix->sreq) = sreqb, CTXPC_I(c, ix->sreq + 1) = sreqs;
    *nreq_out = nreq;
    return ntok;
}

/* The launch: B in 1..3 batches of packed new tokens (attn2_varlen: tails against
 * BLOCK_M, empty sequences, gaps, another storage order), prompt-cache lengths
 * (ctxpc_gen_plen), H in 1..3 heads, BLOCK_M, BLOCK_N, BLOCK_DMODEL powers of two up to
 * 16 (BLOCK_M != BLOCK_N), head_dim (bloom) at or below BLOCK_DMODEL, a grid with
 * surplus query blocks, the token table (gather) or per-batch caches with a surplus of
 * positions (fwd), its own layout for each of Q, K, V, Out (attn2_layout: padded
 * strides, head-major or token-major), sm_scale (typical: 1/sqrt(D), times log2 e for
 * the base-2 kernels) up to 16, |q|, |k| <= 8, |v| <= 1024.  The draws of llama come
 * first and in its order (its decoding is fixed); the others' draws are added where
 * llama makes none. */
static inline void ctxpc_gen(td_producer *p, td_case *c, const ctxpc_idx *ix, int io) {
    int B = (int)td_prod_u32(p, 1, 3), H = (int)td_prod_u32(p, 1, 3);
    int64_t BM = td_gen_pow2(p, 0, 4), BN = td_gen_pow2(p, 0, 4), D = td_gen_pow2(p, 0, 4), HD = D;
    if (ix->bloom && td_prod_u32(p, 0, 2) == 0) { /* head_dim below BLOCK_DMODEL: masked lanes */
        HD = (int64_t)td_prod_u32(p, 1, (uint32_t)D);
        if (HD < D) c->classes |= TD_BC(TD_BC_TAIL);
    }
    int64_t nq[3], qstart[3], plen[3], tot[3], maxq = 1, maxtot = 1;
    int64_t nqtok;
    if (ix->ragged) { /* lengths 0, 1, BM - 1, BM, BM + 1, 40, random; packed, the last at the end */
        td_rng lr;
        td_rng_seed(&lr, td_prod_u64(p));
        int64_t st4[4];
        nqtok = td_gen_ragged(p, &lr, nq, st4, B, 0, 40, BM, &c->classes);
        memcpy(qstart, st4, sizeof qstart);
    } else
        nqtok = attn2_varlen(p, B, BM, 40, 1, nq, qstart, &c->classes);
    for (int b = 0; b < B; b++) {
        plen[b] = ctxpc_gen_plen(p, BN, &c->classes);
        tot[b] = nq[b] + plen[b];
        maxq = nq[b] > maxq ? nq[b] : maxq;
        maxtot = tot[b] > maxtot ? tot[b] : maxtot;
    }
    int64_t mil = maxq + (td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, (uint32_t)BM) : 0);
    int64_t NM = (mil + BM - 1) / BM;
    if (NM * BM > maxq + BM - 1) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    if (NM > 1 || maxtot > BN) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    for (int b = 0; ix->ragged && b < B; b++) /* each sequence against BLOCK_M (attn2_varlen marks its own) */
        td_gen_mark_shape((uint64_t)nq[b], (uint64_t)BM, (uint64_t)(NM * B * H), &c->classes);
    td_rng r;
    int nreq = 0;
    int64_t ntok = ix->gather ? ctxpc_gen_table(p, c, ix, maxtot, &r, &nreq) : 0;
    td_case_alloc(c, ix->start, (size_t)B);
    td_case_alloc(c, ix->seqlen, (size_t)B);
    if (ix->gather) td_case_alloc(c, ix->reqidx, (size_t)B);
    td_case_alloc(c, ix->plen, (size_t)B);
    for (int b = 0; b < B; b++) {
        td_seti(c, ix->start, (size_t)b, qstart[b]);
        td_seti(c, ix->seqlen, (size_t)b, tot[b]);
        if (ix->gather) td_seti(c, ix->reqidx, (size_t)b, (int64_t)td_rng_below(&r, (uint64_t)nreq));
        td_seti(c, ix->plen, (size_t)b, plen[b]);
    }
    /* layouts: Q over (query tokens, H, head_dim); Out over (query tokens, H, BLOCK_DMODEL)
     * (hOInj is stated over the whole BLOCK_DMODEL tile); K and V over (slots, H, head_dim)
     * or (B, H, positions, head_dim) */
    int64_t nqd[3] = {nqtok > 0 ? nqtok : 1, H, HD}, nod[3] = {nqd[0], H, D}, nkd[3] = {ntok, H, HD}, sk[4], sv[4];
    int64_t nkc[4] = {B, H, maxtot + (ix->gather ? 0 : (int64_t)td_prod_u32(p, 0, 3)), HD};
    int kdims = ix->gather ? 3 : 4;
    const int64_t *nk = ix->gather ? nkd : nkc;
    int64_t sq[3], so[3];
    td_case_alloc(c, ix->q, attn2_layout(p, 3, nqd, sq, 0, &c->classes));
    td_case_alloc(c, ix->out, attn2_layout(p, 3, nod, so, 0, &c->classes));
    td_case_alloc(c, ix->k, attn2_layout(p, kdims, nk, sk, 0, &c->classes));
    td_case_alloc(c, ix->v, attn2_layout(p, kdims, nk, sv, 0, &c->classes));
    for (int k = 0; k < 3; k++) CTXPC_I(c, ix->sq + k) = sq[k], CTXPC_I(c, ix->so + k) = so[k];
    /* fwd's parameter order is (b, h, s, d): the layout's dims (B, H, S, D) */
    for (int k = 0; k < kdims; k++) CTXPC_I(c, ix->sk + k) = sk[k], CTXPC_I(c, ix->sv + k) = sv[k];
    c->p[ix->sm].r = attn2_gen_scale(p, (ix->bloom ? 1.0 : 1.4426950408889634) / sqrt((double)HD), 1.0 / 64, 16);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    td_vgen_fill(&g, c, ix->q);
    td_vgen_fill(&g, c, ix->k);
    td_vgen gv;
    td_vgen_init(&gv, p, c, TD_VM_ALL, 1024);
    td_vgen_fill(&gv, c, ix->v);
    CTXPC_I(c, ix->hh) = ix->bloom ? HD : H;
    CTXPC_I(c, ix->bd) = D, CTXPC_I(c, ix->bm) = BM, CTXPC_I(c, ix->bn) = BN;
    if (io) {
        int64_t nt = (maxtot + BM - 1) / BM;
        CTXPC_I(c, ix->nt) = (nt > NM ? nt : NM) + (int64_t)td_prod_u32(p, 0, 1);
    }
    uint32_t g3[3] = {(uint32_t)NM, (uint32_t)(B * H), 1}, b3[3] = {(uint32_t)B, (uint32_t)H, (uint32_t)NM};
    memcpy(c->grid, ix->bloom ? b3 : g3, sizeof g3);
    if (NM * B * H == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}

/* (i, d) -> i*so + d*sd injective on [BM] x [BD] */
static inline int ctxpc_injective2(int64_t BM, int64_t BD, int64_t so, int64_t sd) {
    for (int64_t i1 = 0; i1 < BM; i1++)
        for (int64_t d1 = 0; d1 < BD; d1++)
            for (int64_t i2 = i1; i2 < BM; i2++)
                for (int64_t d2 = 0; d2 < BD; d2++)
                    if ((i1 != i2 || d1 != d2) && i1 * so + d1 * sd == i2 * so + d2 * sd) return 0;
    return 1;
}

/* the grid's batches and its query blocks */
static inline int64_t ctxpc_batches(const td_case *c, const ctxpc_idx *ix) {
    return ix->bloom ? (int64_t)c->grid[0] : (int64_t)c->grid[1] / ctxpc_heads(c, ix);
}
static inline int64_t ctxpc_mblocks(const td_case *c, const ctxpc_idx *ix) {
    return ix->bloom ? (int64_t)c->grid[2] : (int64_t)c->grid[0];
}

/* Offsets beyond 2^31 (gen_far.h): Q's head axis (H <= 3 heads, program axis 1:
 * cur_head * stride_qh, an int32 product in the kernel) moved to a stride near 2^31
 * over a sparse mapping, the query rows (up to the last batch's end) and the head-dim
 * lanes packed, when some batch has a query row (every head reads it).  Metadata, K, V,
 * Out and the launch are kept. */
static inline void ctxpc_far(td_producer *p, td_case *c, const ctxpc_idx *ix) {
    int64_t rows = 1, live = 0;
    for (int64_t b = 0; b < ctxpc_batches(c, ix); b++) {
        int64_t nq = td_geti(c, ix->seqlen, (size_t)b) - td_geti(c, ix->plen, (size_t)b);
        int64_t end = td_geti(c, ix->start, (size_t)b) + nq;
        rows = end > rows ? end : rows;
        live |= nq > 0;
    }
    if (!live) return; /* no query row is read: no offset reaches the last head */
    int64_t n[3] = {rows, ctxpc_heads(c, ix), ctxpc_dm(c, ix)}, s[3];
    for (int k = 0; k < 3; k++) s[k] = CTXPC_I(c, ix->sq + k);
    if (!td_far_move_axis(p, c, ix->q, 3, n, s, 1)) return;
    for (int k = 0; k < 3; k++) CTXPC_I(c, ix->sq + k) = s[k];
}

/* every key row 0 .. tot-1 of batch b lies inside K and V (and, gathered, the table) */
static inline const char *ctxpc_check_keys(const td_case *c, const ctxpc_idx *ix, int64_t b, int64_t tot) {
    int64_t H = ctxpc_heads(c, ix), E = ctxpc_dm(c, ix) - 1;
    if (!ix->gather) {
        for (int rg = 0; rg < 2; rg++) {
            int s = rg ? ix->sv : ix->sk;
            if (tot > 0 && b * CTXPC_I(c, s) + (H - 1) * CTXPC_I(c, s + 1) + (tot - 1) * CTXPC_I(c, s + 2) +
                                   E * CTXPC_I(c, s + 3) >=
                               (int64_t)c->r[rg ? ix->v : ix->k].len)
                return "K and V hold every position of the batch's cache";
        }
        return NULL;
    }
    int64_t req = td_geti(c, ix->reqidx, (size_t)b);
    if (req < 0) return "metadata are Nat";
    for (int64_t j = 0; j < tot; j++) {
        int64_t o = req * CTXPC_I(c, ix->sreq) + j * CTXPC_I(c, ix->sreq + 1);
        if (o >= (int64_t)c->r[ix->req].len) return "Req_to_tokens holds every position of the sequence";
        int64_t slot = td_geti(c, ix->req, (size_t)o);
        if (slot < 0 ||
            slot * CTXPC_I(c, ix->sk) + (H - 1) * CTXPC_I(c, ix->sk + 1) + E * CTXPC_I(c, ix->sk + 2) >=
                (int64_t)c->r[ix->k].len ||
            slot * CTXPC_I(c, ix->sv) + (H - 1) * CTXPC_I(c, ix->sv + 1) + E * CTXPC_I(c, ix->sv + 2) >=
                (int64_t)c->r[ix->v].len)
            return "every token slot of the table is a row of K and V";
    }
    return NULL;
}

/* the batch's query rows lie inside region rg (strides from s) */
static inline int ctxpc_rows_fit(const td_case *c, int rg, int s, int64_t st, int64_t nq, int64_t H, int64_t E) {
    return nq <= 0 ||
           (st + nq - 1) * CTXPC_I(c, s) + (H - 1) * CTXPC_I(c, s + 1) + E * CTXPC_I(c, s + 2) < (int64_t)c->r[rg].len;
}

static inline const char *ctxpc_check(const td_case *c, const ctxpc_idx *ix, int io) {
    if ((double)(float)c->p[ix->sm].r != c->p[ix->sm].r) return "sm_scale is the kernel's binary32 scalar";
    for (int k = ix->sm + 1; k < (io ? ix->nt + 1 : ix->nt); k++)
        if (c->p[k].i < 0) return "strides and sizes are Nat";
    int64_t BD = CTXPC_I(c, ix->bd), BM = CTXPC_I(c, ix->bm), BN = CTXPC_I(c, ix->bn);
    if (BD <= 0) return "hD: 0 < BLOCK_DMODEL";
    if (BN <= 0) return "hBN: 0 < BLOCK_N";
    if (BM <= 0) return io ? "hBM: 0 < BLOCK_M" : "BLOCK_M > 0 (a Triton block; the generator's domain)";
    if (BN > 256 || BM > 64) return "BLOCK_N <= 256, BLOCK_M <= 64 (the spec engine's tile; the generator's domain)";
    if (io && c->p[ix->nt].i <= 0) return "hNT: 0 < NT";
    int64_t H = ctxpc_heads(c, ix);
    if (H <= 0 || (!ix->bloom && c->grid[1] % (uint32_t)H) || (ix->bloom && c->grid[2] == 0))
        return ix->bloom ? "the grid is (batch, heads, query blocks)" : "the grid's axis 1 is batch * H";
    if (!ctxpc_injective2(BM, BD, CTXPC_I(c, ix->so), CTXPC_I(c, ix->so + 2)))
        return "hOInj: the output tile's offsets are injective";
    int64_t NM = ctxpc_mblocks(c, ix), E = ctxpc_dm(c, ix) - 1;
    for (int64_t b = 0; b < ctxpc_batches(c, ix); b++) {
        int64_t st = td_geti(c, ix->start, (size_t)b), tot = td_geti(c, ix->seqlen, (size_t)b),
                pl = td_geti(c, ix->plen, (size_t)b);
        if (st < 0 || tot < 0 || pl < 0) return "metadata are Nat";
        if (pl > tot) return "b_prompt_cache_len <= B_Seqlen (the generator's domain: the kernel's int32 difference)";
        if (io && NM > c->p[ix->nt].i) return "pre: the query-block program id < NT for every program";
        if (io && tot > c->p[ix->nt].i * BM) return "pre: B_Seqlen <= NT * BLOCK_M";
        if (tot - pl > NM * BM) return "the grid covers every query row";
        const char *e = ctxpc_check_keys(c, ix, b, tot);
        if (e) return e;
        if (!ctxpc_rows_fit(c, ix->q, ix->sq, st, tot - pl, H, E)) return "Q holds every query row";
        if (!ctxpc_rows_fit(c, ix->out, ix->so, st, tot - pl, H, E)) return "Out holds every query row";
    }
    return NULL;
}

/* writeIf gi = m*BM + i < B_Seqlen - plen (and, bloom, d < head_dim), at
 * (start + gi)*sobs + h*soh + d*sod; idx = (b, h, gi, d); programs in the grid's order */
static inline void ctxpc_writes(const td_case *c, td_wset *ws, const ctxpc_idx *ix) {
    int64_t H = ctxpc_heads(c, ix), BM = CTXPC_I(c, ix->bm), DM = ctxpc_dm(c, ix);
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p2 = 0; p2 < c->grid[2]; p2++) {
                int64_t b = ix->bloom ? p0 : p1 / H, h = ix->bloom ? p1 : p1 % H, m = ix->bloom ? p2 : p0;
                int64_t st = td_geti(c, ix->start, (size_t)b);
                int64_t nq = td_geti(c, ix->seqlen, (size_t)b) - td_geti(c, ix->plen, (size_t)b);
                for (int64_t i = 0; i < BM && m * BM + i < nq; i++)
                    for (int64_t d = 0; d < DM; d++) {
                        int64_t gi = m * BM + i;
                        td_olane l = {.region = (uint32_t)ix->out,
                                      .off = (uint64_t)((st + gi) * CTXPC_I(c, ix->so) + h * CTXPC_I(c, ix->so + 1) +
                                                        d * CTXPC_I(c, ix->so + 2)),
                                      .pid = {p0, p1, p2}, .j = (uint64_t)(i * CTXPC_I(c, ix->bd) + d),
                                      .idx = {b, h, gi, d}};
                        td_wset_add(ws, &l);
                    }
            }
}

/* the spec engines' view of the (batch, head) of an output lane */
static inline attn2_ctx ctxpc_ctx_of(const td_case *c, const td_olane *l, const ctxpc_idx *ix) {
    int64_t b = l->idx[0], h = l->idx[1], H = ctxpc_heads(c, ix);
    int fwd = !ix->gather; /* K, V strides (b, h, s, d) */
    attn2_ctx x = {
        .rq = ix->q, .rk = ix->k, .rv = ix->v,
        .sq = {CTXPC_I(c, ix->sq), CTXPC_I(c, ix->sq + 1), CTXPC_I(c, ix->sq + 2)},
        .sk = {CTXPC_I(c, ix->sk + (fwd ? 2 : 0)), CTXPC_I(c, ix->sk + 1), CTXPC_I(c, ix->sk + (fwd ? 3 : 2))},
        .sv = {CTXPC_I(c, ix->sv + (fwd ? 2 : 0)), CTXPC_I(c, ix->sv + 1), CTXPC_I(c, ix->sv + (fwd ? 3 : 2))},
        .kbase = fwd ? b * CTXPC_I(c, ix->sk) : 0, .vbase = fwd ? b * CTXPC_I(c, ix->sv) : 0,
        .h = h, .start = td_geti(c, ix->start, (size_t)b), .kstart = 0, .rtab = ix->gather ? ix->req : -1,
        .tab0 = ix->gather ? td_geti(c, ix->reqidx, (size_t)b) * CTXPC_I(c, ix->sreq) : 0,
        .tabs = ix->gather ? CTXPC_I(c, ix->sreq + 1) : 0,
        .BN = CTXPC_I(c, ix->bn), .DM = ctxpc_dm(c, ix), .plen = td_geti(c, ix->plen, (size_t)b),
        .sm_scale = c->p[ix->sm].r, .sw = 0, .rowid = (uint64_t)((b * H + h) * (ctxpc_mblocks(c, ix) * CTXPC_I(c, ix->bm)))};
    return x;
}

#endif /* TD_CTX_PC_COMMON_H */
