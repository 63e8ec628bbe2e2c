/* Helpers shared by the rotary-embedding (RoPE) contracts: the write-set lane of one
 * rotated element, and the cos/sin tables from real angles.
 *
 * A rotary kernel rotates pairs (x0, x1) of one head vector by the angle of the token's
 * position: x0' = x0*cos - x1*sin, x1' = x1*cos + x0*sin (the backward pass rotates
 * by -angle: sin negated).  Which elements pair up is the layout (half-split: i and
 * i + d/2; interleaved: 2i and 2i + 1), the contract's business; the lane records it:
 *   idx[0] = offset of x0, idx[1] = offset of x1 (in the lane's own region),
 *   idx[2] = offset in the cos region, idx[3] = offset in the sin region,
 *   o bit 0: the lane is the pair's second element (x1'), o bit 1: backward rotation.
 * The spec half is rope_common.spec.h.
 *
 * Included at the top of a contract file (before spec_instantiate.h); no NUM-generic code. */
#ifndef TD_ROPE_COMMON_H
#define TD_ROPE_COMMON_H

#include <stdlib.h>

#include "gen.h"
#include "gen_meta.h"

/* one rotated element written to (reg, off), its pair read elsewhere (idx[0], idx[1] in the
 * source region the spec names: e.g. a rotated key stored into a cache) */
static inline void rope_lane_to(td_wset *ws, int reg, int64_t off, int64_t x0, int64_t x1, int64_t coff, int64_t soff,
                                int second, uint32_t p0, uint32_t p1, uint64_t j) {
    td_olane l = {0};
    l.region = (uint32_t)reg;
    l.o = (uint32_t)(second ? 1 : 0);
    l.off = (uint64_t)off;
    l.pid[0] = p0, l.pid[1] = p1;
    l.j = j;
    l.idx[0] = x0, l.idx[1] = x1, l.idx[2] = coff, l.idx[3] = soff;
    td_wset_add(ws, &l);
}

/* one rotated element: region reg, pair (x0, x1), table offsets, pids, lane j */
static inline void rope_lane(td_wset *ws, int reg, int64_t x0, int64_t x1, int64_t coff, int64_t soff, int second,
                             int bwd, uint32_t p0, uint32_t p1, uint64_t j) {
    td_olane l = {0};
    l.region = (uint32_t)reg;
    l.o = (uint32_t)(second ? 1 : 0) | (uint32_t)(bwd ? 2 : 0);
    l.off = (uint64_t)(second ? x1 : x0);
    l.pid[0] = p0, l.pid[1] = p1;
    l.j = j;
    l.idx[0] = x0, l.idx[1] = x1, l.idx[2] = coff, l.idx[3] = soff;
    td_wset_add(ws, &l);
}

/* The largest position of the tables: the table's own rows, a 4k context, a 128k
 * context, 2^20 (angles far from 0, where a float angle computed in the kernel would be
 * wrong by whole radians: the reason tables are computed in high precision). */
static inline int64_t rope_max_pos(td_producer *p, int64_t rows) {
    static const unsigned w[] = {2, 2, 2, 1};
    static const int64_t far[] = {0, 4095, 131071, 1 << 20};
    int k = td_prod_pick(p, w, 4);
    return k == 0 || far[k] < rows - 1 ? rows - 1 : far[k];
}

/* Fills `rows` rows of a cos and a sin table, row r at r * stride, elements i < half at
 * column i * col (col = 1 for a contiguous row), with the binary32 values of
 * cos/sin(pos[r] * theta_i) (td_gen_rotary_table); pos[r] from td_gen_positions, so
 * positions 0 and the largest one, and non-monotone positions, are reached.  Every cell
 * the kernel must not read (row padding) holds a value from the case's menu, so a
 * wrong table read shows.  Positions are returned in pos_out when it is not NULL. */
static inline void rope_fill_tables(td_producer *p, td_case *c, td_vgen *g, int reg_cos, int64_t cstride,
                                    int64_t ccol, int reg_sin, int64_t sstride, int64_t scol, int64_t rows,
                                    int64_t half, int64_t *pos_out) {
    int64_t *pos = malloc((size_t)(rows > 0 ? rows : 1) * sizeof *pos);
    double *cs = malloc((size_t)(rows * half > 0 ? rows * half : 1) * sizeof *cs);
    double *sn = malloc((size_t)(rows * half > 0 ? rows * half : 1) * sizeof *sn);
    if (!pos || !cs || !sn) abort();
    int64_t maxp = rope_max_pos(p, rows);
    td_gen_positions(p, &g->rng, pos, rows, maxp, 1, &c->classes);
    td_gen_rotary_table(p, pos, rows, half, cs, sn);
    td_vgen_fill(g, c, reg_cos);
    td_vgen_fill(g, c, reg_sin);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t i = 0; i < half; i++) {
            td_set(c, reg_cos, (size_t)(r * cstride + i * ccol), cs[r * half + i]);
            td_set(c, reg_sin, (size_t)(r * sstride + i * scol), sn[r * half + i]);
        }
    if (pos_out)
        for (int64_t r = 0; r < rows; r++) pos_out[r] = pos[r];
    free(pos), free(cs), free(sn);
}

/* ---- intents (docs/intent.md; values: rope_intent in rope_common.spec.h) ----
 * The rotary embedding rotates each pair (x0, x1) of a head vector by the angle of the
 * token's position, the angles' cos and sin given as tables (the kernels read them;
 * the operation does not fix how they were computed).  Two public definitions, which
 * differ in the pairs:
 *   GPT-NeoX (Black et al. 2022; HF transformers' apply_rotary_pos_emb with rotate_half):
 *     x * cos + rotate_half(x) * sin, pairs (i, i + d/2): the half-split layout;
 *   RoFormer (Su et al. 2021, eq. 34) and GPT-J: pairs (2i, 2i + 1): interleaved.
 * Each contract names the one its kernel follows.  The backward pass is the gradient of
 * the rotation with respect to its input: R(theta)^T g = R(-theta) g. */
#define ROPE_DEF_NEOX                                                                                              \
    "GPT-NeoX rotary embedding (Black et al. 2022; HF transformers apply_rotary_pos_emb: x*cos + "                  \
    "rotate_half(x)*sin), pairs (i, i + d/2), the position's cos/sin table row, exact"
#define ROPE_DEF_GPTJ                                                                                              \
    "RoFormer rotary embedding (Su et al. 2021, eq. 34; GPT-J's interleaved layout), pairs (2i, 2i + 1), the "       \
    "position's cos/sin table row, exact"
#define ROPE_DEF_NEOX_BWD ROPE_DEF_NEOX "; backward: the input gradient R(theta)^T g = R(-theta) g"

/* rotate_half splits the head in two equal halves: an odd head dimension has no such
 * split (the kernels pair i with i + hd//2 and leave the last column unrotated). */
static inline const char *rope_odd_gap(int64_t hd) {
    return hd % 2 ? "head_dim is odd: the half-split rotation pairs i with i + d/2 of an even head dimension (the "
                    "kernel leaves the last column unrotated)"
                  : NULL;
}

#endif
