/* Shared pieces of the KV-cache copy contracts (destindex_copy*, kcache_copy_triton,
 * kv_cache_copy, kv_cache_filling, var_len_copy, cache_transform_triton): every one is
 * a pure data movement, so its spec is a load and its tolerance is 0 (a copy rounds
 * nothing: any correct implementation stores the loaded binary32 value bit for bit up to
 * the sign of zero, which a spec over the reals does not see).  What these contracts
 * test is the addressing: the metadata (destination slots, sequence lengths, block
 * tables) comes from contracts/gen_meta.h, the strided layouts from td_gen_layout, and
 * the caches are larger than the write set so a stray write lands on a sentinel cell.
 */
#ifndef TD_KVCOPY_COMMON_H
#define TD_KVCOPY_COMMON_H

#include <string.h>

#include "gen.h"
#include "gen_far.h"
#include "gen_meta.h"

/* the value domain of a copy: every finite binary32 (a copy cannot overflow) */
#define KV_VALUE_BOUND 0x1.fffffep127

/* A logical extent n in [1, max] and the power-of-two block B >= n a Triton launch uses
 * for it: next_power_of_2(n) as the hosts call it, or two or four times that (a padded
 * tile: half or three quarters of the lanes masked off).  Marks the tail classes of (n, B). */
static inline void kv_dim_block(td_producer *p, int64_t max, int64_t *n, int64_t *B, uint64_t *classes) {
    static const unsigned w[] = {2, 2, 1, 3}; /* 1, max, a power of two, free */
    int64_t v;
    switch (td_prod_pick(p, w, 4)) {
    case 0: v = 1; break;
    case 1: v = max; break;
    case 2: v = (int64_t)td_gen_pow2(p, 0, 5); break;
    default: v = (int64_t)td_prod_u32(p, 1, (uint32_t)max); break;
    }
    v = v > max ? max : v;
    int64_t b = 1;
    while (b < v) b *= 2;
    uint32_t pad = td_prod_u32(p, 0, 5); /* a padded tile: half or three quarters of it masked */
    if (pad == 0) b *= 2;
    else if (pad == 1) b *= 4;
    *n = v, *B = b;
    if (b > v) *classes |= TD_BC(TD_BC_TAIL);
    if (b >= 4 * v) *classes |= TD_BC(TD_BC_BLOCK_GT_N);
    if (b == v) *classes |= TD_BC(TD_BC_EXACT_MULTIPLE);
}

/* The largest offset of a layout over extents n[0..k) (0 when an extent is 0). */
static inline int64_t kv_max_off(int k, const int64_t *n, const int64_t *stride) {
    int64_t m = 0;
    for (int d = 0; d < k; d++)
        if (n[d] > 0) m += (n[d] - 1) * stride[d];
    return m;
}

/* A cache of cap >= need rows: exactly need (a permutation of the whole cache), or a few
 * to many more (random injections leave sentinel rows between the written ones). */
static inline int64_t kv_cache_rows(td_producer *p, int64_t need) {
    static const unsigned w[] = {2, 3, 2};
    switch (td_prod_pick(p, w, 3)) {
    case 0: return need;
    case 1: return need + (int64_t)td_prod_u32(p, 1, 3);
    default: return need + (int64_t)td_prod_u32(p, 1, (uint32_t)(2 * need + 4));
    }
}

/* Stores n int64 metadata values into region reg (allocated here with n + extra cells). */
static inline void kv_store_meta(td_case *c, int reg, const int64_t *v, int64_t n, int64_t extra) {
    td_case_alloc(c, reg, (size_t)(n + extra > 0 ? n + extra : 1));
    for (int64_t i = 0; i < n; i++) td_seti(c, reg, (size_t)i, v[i]);
}

/* NULL when entries [0, n) of region reg are distinct values in [0, cap). */
static inline const char *kv_check_slots(const td_case *c, int reg, int64_t n, int64_t cap, const char *name) {
    if ((int64_t)c->r[reg].len < n) return "the destination index region holds one entry per program";
    for (int64_t i = 0; i < n; i++) {
        int64_t v = td_geti(c, reg, (size_t)i);
        if (v < 0 || v >= cap) return name;
        for (int64_t k = 0; k < i; k++)
            if (td_geti(c, reg, (size_t)k) == v) return name;
    }
    return NULL;
}

/* NULL when Dest_loc (region dest) holds ntok distinct cache rows (kv_check_slots);
 * *cap = the rows they address, max(ntok, max Dest_loc + 1): the output's extent. */
static inline const char *kv_check_dest(const td_case *c, int dest, int64_t ntok, int64_t *cap) {
    *cap = ntok;
    for (int64_t t = 0; t < ntok && t < (int64_t)c->r[dest].len; t++)
        if (td_geti(c, dest, (size_t)t) + 1 > *cap) *cap = td_geti(c, dest, (size_t)t) + 1;
    return kv_check_slots(c, dest, ntok, *cap, "Dest_loc: injective (one token per cache row)");
}

/* NULL when strides are Nat and a k-dim layout over extents n fits in region reg. */
static inline const char *kv_check_fits(const td_case *c, int reg, int k, const int64_t *n, const int64_t *stride) {
    for (int d = 0; d < k; d++)
        if (stride[d] < 0) return "strides are Nat";
    for (int d = 0; d < k; d++)
        if (n[d] <= 0) return NULL; /* nothing addressed */
    if ((uint64_t)kv_max_off(k, n, stride) >= c->r[reg].len) return "the region holds every addressed lane";
    return NULL;
}

/* NULL when (i, j) -> i*si + j*sj is injective on [0, ni) x [0, nj): the catalogue's
 * per-tile injectivity hypotheses (hInj, hOutInj).  Small tiles: a quadratic scan. */
static inline int kv_injective2(int64_t ni, int64_t nj, int64_t si, int64_t sj) {
    for (int64_t a = 0; a < ni * nj; a++)
        for (int64_t b = 0; b < a; b++)
            if ((a / nj) * si + (a % nj) * sj == (b / nj) * si + (b % nj) * sj) return 0;
    return 1;
}

/* ---- paged caches (kcache_copy_triton, kv_cache_copy) ----
 * bsz sequences of context length lens[b] >= 1 (td_gen_ragged: 1, block edges
 * block_size - 1 / block_size / block_size + 1, the longest a table row allows), each with
 * a row of maxb block-table entries; the entries of all rows are one injection into the
 * nblocks physical blocks (td_gen_slots: a paged cache never shares a block between
 * sequences), so the last slots (block of (len-1)/block_size, slot (len-1)%block_size) of
 * two sequences never collide.  The table's layout (stride_bts, stride_btb) comes from
 * td_gen_layout; cells of the layout's padding hold 0 (a valid block id: a wrong cell
 * read sends the write to a block the write set does not own). */
enum { KV_MAX_SEQS = 8, KV_MAX_TBL = 4 };
typedef struct kv_paged {
    int64_t bsz, bs, maxb, nblocks, bts, btb, tspan;
    int64_t lens[KV_MAX_SEQS], tbl[KV_MAX_SEQS * KV_MAX_TBL]; /* tbl[b*maxb + k] */
} kv_paged;

static inline void kv_gen_paged(td_producer *p, td_rng *r, kv_paged *pg, uint64_t *classes) {
    int64_t starts[KV_MAX_SEQS + 1];
    pg->bsz = td_prod_u32(p, 0, 3) == 0 ? 1 : (int64_t)td_prod_u32(p, 1, KV_MAX_SEQS);
    pg->bs = td_prod_u32(p, 0, 1) ? (int64_t)td_gen_pow2(p, 0, 4) : (int64_t)td_prod_u32(p, 1, 12);
    pg->maxb = td_prod_u32(p, 1, KV_MAX_TBL);
    td_gen_ragged(p, r, pg->lens, starts, (int)pg->bsz, 1, pg->maxb * pg->bs, pg->bs, classes);
    *classes &= ~TD_BC(TD_BC_SEQ_ENDS_AT_END); /* lengths only: no packed buffer here */
    pg->nblocks = kv_cache_rows(p, pg->bsz * pg->maxb);
    td_gen_slots(p, r, pg->tbl, pg->bsz * pg->maxb, pg->nblocks, classes);
    int64_t n[2] = {pg->bsz, pg->maxb}, s[2];
    pg->tspan = td_gen_layout(p, 2, n, s, 0, classes);
    pg->bts = s[0], pg->btb = s[1];
}

/* Stores the block table (padding cells 0) into region reg. */
static inline void kv_store_table(td_case *c, int reg, const kv_paged *pg) {
    td_case_alloc(c, reg, (size_t)pg->tspan);
    for (int64_t b = 0; b < pg->bsz; b++)
        for (int64_t k = 0; k < pg->maxb; k++) td_seti(c, reg, (size_t)(b * pg->bts + k * pg->btb), pg->tbl[b * pg->maxb + k]);
}

/* The physical block and slot of sequence b's last token (m1 = its context length):
 * block_table[b*bts + ((m1-1)/block_size)*btb] and (m1-1)%block_size; -1 when a read
 * leaves its region or m1 < 1. */
static inline int64_t kv_last_block(const td_case *c, int r_tbl, int r_len, int64_t b, int64_t bts, int64_t btb,
                                    int64_t bs, int64_t *slot) {
    *slot = 0;
    if (b >= (int64_t)c->r[r_len].len || bs < 1) return -1;
    int64_t m1 = td_geti(c, r_len, (size_t)b), cell;
    if (m1 < 1) return -1;
    cell = b * bts + ((m1 - 1) / bs) * btb;
    if (cell < 0 || cell >= (int64_t)c->r[r_tbl].len) return -1;
    *slot = (m1 - 1) % bs;
    return td_geti(c, r_tbl, (size_t)cell);
}

/* NULL when every sequence's last (block, slot) is readable and no two collide. */
static inline const char *kv_check_paged(const td_case *c, int r_tbl, int r_len, int64_t bsz, int64_t bts,
                                         int64_t btb, int64_t bs) {
    if (bs < 1) return "block_size >= 1";
    if (bts < 0 || btb < 0) return "strides are Nat";
    for (int64_t b = 0; b < bsz; b++) {
        int64_t sb, blk = kv_last_block(c, r_tbl, r_len, b, bts, btb, bs, &sb);
        if (blk < 0) return "context lengths >= 1 and their block-table cells in range (and ids Nat)";
        for (int64_t k = 0; k < b; k++) {
            int64_t sk, bk = kv_last_block(c, r_tbl, r_len, k, bts, btb, bs, &sk);
            if (bk == blk && sk == sb) return "two sequences' last tokens share a cache slot (WriteInj)";
        }
    }
    return NULL;
}

/* Offsets beyond 2^31 (gen_far.h) for a token-indexed copy whose program t reads
 * K[t, h, d] at t*stride(psbs) + h*stride(psh) + d*stride(psd), h < H, d < D: up to
 * TD_FAR_MAX_ROWS tokens at a token stride near 2^31 over a sparse region, as a kernel
 * that forms t * stride in int32 gets wrong (the program id and a stride below 2^31 are
 * int32 in Triton).  K is re-laid out token-major (each token's heads and dims
 * contiguous, whatever order the generator nested them in), so every case of two tokens
 * or more has rows to move; the metadata's first tokens and the outputs keep theirs. */
static inline void kv_far_tokens(td_producer *p, td_case *c, int reg, int psbs, int psh, int psd, int64_t H,
                                 int64_t D) {
    int64_t R = c->grid[0], sbs = c->p[psbs].i, sh = c->p[psh].i, sd = c->p[psd].i;
    if (R < 2 || H <= 0 || D <= 0) return;
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t w = H * D, s = td_far_stride(p, R, w);
    td_region old = c->r[reg];
    size_t eb = td_fmt_get(old.fmt)->bytes;
    c->r[reg].data = NULL, c->r[reg].mapped = 0, c->r[reg].len = 0;
    uint8_t *k = (uint8_t *)td_case_alloc_sparse(c, reg, (size_t)((R - 1) * s + w));
    if (!k) {
        c->r[reg] = old;
        return;
    }
    for (int64_t t = 0; t < R; t++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t d = 0; d < D; d++)
                memcpy(k + (size_t)(t * s + h * D + d) * eb,
                       (const uint8_t *)old.data + (size_t)(t * sbs + h * sh + d * sd) * eb, eb);
    td_region_release(&old);
    c->grid[0] = (uint32_t)R;
    c->p[psbs].i = s, c->p[psh].i = D, c->p[psd].i = 1;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

#endif
