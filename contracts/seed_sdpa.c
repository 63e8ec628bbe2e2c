/* seed_sdpa.scaled_dot_product_f32: accy's scaled-dot-product attention (seed 004,
 * tiny.accy.kernel.library.attention, `scaledDotProductF32`).
 *
 *   ScaledDotProduct{batch, queries, keys, qk, value, threads}, equation
 *   "bqh,bkh,bkv->bqv": for every (b, q, v) with b < batch, q < queries, v < value,
 *     dst[b, q, v] = sum_k softmax_k(s_bqk) * value[b, k, v],
 *     s_bqk = scale * sum_{h < qk} query[b, q, h] key[b, k, h],  scale = 1/sqrt(qk),
 *   query [batch][queries][qk], key [batch][keys][qk], value [batch][keys][value],
 *   dst [batch][queries][value], all binary32 and row-major; qk and value widths differ.
 *   Launch: launch3D(value, queries, batch, threads): grid = (cdiv(value, tx),
 *   cdiv(queries, ty), cdiv(batch, tz)), block (tx, ty, tz); thread (x, y, z) of block
 *   (bx, by, bz) owns (v, q, b) = (bx tx + x, by ty + y, bz tz + z) when all are in range.
 *   Argument order as the kernel's artifact: dst first, then query, key, value.
 *
 * The kernel (scaled_dot_product_each / weightedValueSum) is three passes per output
 * element, each recomputing every score:
 *   scale  = constantFloat(.f32, 1.0 / @sqrt(f64 qk)): computed in binary64, rounded
 *            once to binary32 (NOT 1.0f / sqrtf: the two differ for 151 widths in
 *            1..512); the contract takes that binary32 value, as the kernel holds it;
 *   s_k    = RN(dot_k * scale), dot_k = foldRange(0, qk) from 0.0 of acc + q*k
 *            (a product, then a sum);
 *   m      = fold max over keys 1..keys-1 starting from s_0;
 *   den    = fold over keys from 0.0 of acc + exp(s_k - m);
 *   dst    = fold over keys from 0.0 of acc + (exp(s_k - m) / den) * value[b, k, v].
 * Checked against expectedOutput (the seed's f32 reference: the same formula with the
 * maximum from -inf) and the test's launch assertions.
 *
 * Error model: the three folds in their sequential order (gamma_{qk-1} for the dot over
 * its rounded products, gamma over the keys for den and dst), exp charged the backend's
 * budget, one division per weight, one product per term.  The exp and div are logical
 * operations whose lowering the seed does not show: the host port calls libm's expf
 * and IEEE division ("libm" model), the CUDA port CUDA's full-precision expf and
 * __fdiv_rn ("cuda" model); an approximate lowering would be another math model.
 *
 * Special values: REAL.  The seed has no guards: keys = 0 reads score 0 out of bounds
 * and qk = 0 gives scale = +inf (score NaN); the contract requires every extent >= 1
 * (hext) and the generator meets it.  Inputs are finite; with the maximum subtracted
 * every exp argument is <= 0 and den >= 1.
 */
#include "attn_common.h"
#include "gen_large.h"

enum { P_BATCH, P_QUERIES, P_KEYS, P_QK, P_VALUE, P_TX, P_TY, P_TZ, NP };
enum { R_DST, R_QUERY, R_KEY, R_VALUE, NR };

#define SDPA_TAG_DEN 1
#define SDPA_TAG_W 2
#define SDPA_MAX_KEYS 64 /* the spec's row buffers (the generator draws <= 24) */

typedef struct sdpa_geo {
    int64_t batch, queries, keys, qk, value, tx, ty, tz;
    double scale;
} sdpa_geo;

/* scale = RN32(1 / sqrt(qk)), the binary64 quotient rounded once */
static inline double sdpa_scale(int64_t qk) { return at_f32(1.0 / sqrt((double)qk)); }

static void sdpa_geo_get(const td_case *c, sdpa_geo *g) {
    g->batch = c->p[P_BATCH].i, g->queries = c->p[P_QUERIES].i, g->keys = c->p[P_KEYS].i, g->qk = c->p[P_QK].i;
    g->value = c->p[P_VALUE].i, g->tx = c->p[P_TX].i, g->ty = c->p[P_TY].i, g->tz = c->p[P_TZ].i;
    g->scale = g->qk > 0 ? sdpa_scale(g->qk) : 0;
}

#define TD_SPEC_FILE "seed_sdpa.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"batch", TD_P_INT}, {"queries", TD_P_INT}, {"keys", TD_P_INT},
                                         {"qk", TD_P_INT},    {"value", TD_P_INT},   {"threads_x", TD_P_INT},
                                         {"threads_y", TD_P_INT}, {"threads_z", TD_P_INT}};
static const td_region_decl regions[NR] = {{"dst", TD_F32, TD_R_OUT},
                                           {"query", TD_F32, TD_R_IN},
                                           {"key", TD_F32, TD_R_IN},
                                           {"value", TD_F32, TD_R_IN}};

static void gen(td_producer *p, td_case *c) {
    int64_t tx = td_prod_u32(p, 1, 4), ty = td_prod_u32(p, 1, 4), tz = td_prod_u32(p, 1, 2);
    int64_t value = (int64_t)td_gen_count(p, (uint64_t)tx, 16, &c->classes);
    int64_t queries = (int64_t)td_gen_count(p, (uint64_t)ty, 12, &c->classes);
    int64_t keys = td_prod_u32(p, 0, 3) == 0 ? 1 : td_prod_u32(p, 1, 24);
    int64_t qk = td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, 3) : td_prod_u32(p, 1, 32);
    int64_t batch = td_prod_u32(p, 1, 3);
    if (keys == 1) c->classes |= TD_BC(TD_BC_META_EXTREME); /* the output must equal V exactly */
    c->p[P_BATCH].i = batch, c->p[P_QUERIES].i = queries, c->p[P_KEYS].i = keys, c->p[P_QK].i = qk;
    c->p[P_VALUE].i = value, c->p[P_TX].i = tx, c->p[P_TY].i = ty, c->p[P_TZ].i = tz;
    c->grid[0] = (uint32_t)at_cdiv(value, tx), c->grid[1] = (uint32_t)at_cdiv(queries, ty);
    c->grid[2] = (uint32_t)at_cdiv(batch, tz);
    if (c->grid[0] * c->grid[1] * c->grid[2] > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 4);
    td_rng *r = &g.rng;
    size_t slack = td_rng_below(r, 2) ? 2 : 0;
    td_case_alloc(c, R_DST, (size_t)(batch * queries * value) + slack);
    td_case_alloc(c, R_QUERY, (size_t)(batch * queries * qk) + slack);
    td_case_alloc(c, R_KEY, (size_t)(batch * keys * qk) + slack);
    td_case_alloc(c, R_VALUE, (size_t)(batch * keys * value) + slack);
    double scale = sdpa_scale(qk);
    at_land_opts lo = {AT_LM_ALL, -100, 400, 4, TD_F32};
    unsigned vk = (1u << AT_V_MENU) | (1u << AT_V_DISTINCT) | (1u << AT_V_CONST);
    double *qa = at_calloc((size_t)(queries * qk), sizeof *qa), *ka = at_calloc((size_t)(keys * qk), sizeof *ka);
    double *va = at_calloc((size_t)(keys * value), sizeof *va);
    for (int64_t b = 0; b < batch; b++) {
        at_fill_qk(&g, qa, queries, ka, keys, qk, scale, &lo, &c->classes);
        at_fill_v(&g, va, keys, value, TD_F32, 0x1p20, vk);
        for (int64_t i = 0; i < queries * qk; i++) td_set(c, R_QUERY, (size_t)(b * queries * qk + i), qa[i]);
        for (int64_t i = 0; i < keys * qk; i++) td_set(c, R_KEY, (size_t)(b * keys * qk + i), ka[i]);
        for (int64_t i = 0; i < keys * value; i++) td_set(c, R_VALUE, (size_t)(b * keys * value + i), va[i]);
    }
    free(qa);
    free(ka);
    free(va);
}

static const char *check(const td_case *c) {
    sdpa_geo g;
    sdpa_geo_get(c, &g);
    if (g.batch < 1 || g.queries < 1 || g.keys < 1 || g.qk < 1 || g.value < 1)
        return "hext: every extent >= 1 (keys = 0 reads out of bounds, qk = 0 makes the scale inf)";
    if (g.keys > SDPA_MAX_KEYS) return "keys <= 64 (the sizes the generator draws)";
    if (g.tx < 1 || g.ty < 1 || g.tz < 1) return "threads >= 1 on every axis";
    if (c->grid[0] != (uint64_t)at_cdiv(g.value, g.tx) || c->grid[1] != (uint64_t)at_cdiv(g.queries, g.ty) ||
        c->grid[2] != (uint64_t)at_cdiv(g.batch, g.tz))
        return "launch3D: grid = (cdiv(value, tx), cdiv(queries, ty), cdiv(batch, tz))";
    if (c->r[R_DST].len < (size_t)(g.batch * g.queries * g.value) ||
        c->r[R_QUERY].len < (size_t)(g.batch * g.queries * g.qk) || c->r[R_KEY].len < (size_t)(g.batch * g.keys * g.qk) ||
        c->r[R_VALUE].len < (size_t)(g.batch * g.keys * g.value))
        return "the buffers hold their shapes (bqv, bqh, bkh, bkv)";
    /* (a large case: query's window rows; every other element reads 0) */
    for (int r = R_QUERY; r <= R_VALUE; r++)
        for (uint64_t e = td_large_next(c, r, 0); e < c->r[r].len; e = td_large_next(c, r, e + 1))
            if (!isfinite(td_get(c, r, (size_t)e))) return "query, key, value hold real values";
    return NULL;
}

static void sdpa_lanes(const sdpa_geo *g, td_wset *ws, int64_t b, int64_t q) {
    for (int64_t v = 0; v < g->value; v++) {
        td_olane l = {.o = 0, .region = R_DST, .off = (uint64_t)((b * g->queries + q) * g->value + v),
                      .pid = {(uint32_t)(v / g->tx), (uint32_t)(q / g->ty), (uint32_t)(b / g->tz)},
                      .j = (uint64_t)(((b % g->tz) * g->ty + q % g->ty) * g->tx + v % g->tx), .idx = {b, q, v}};
        td_wset_add(ws, &l);
    }
}

/* every (b, q, v); a large case (batch 1, row-block r = queries [r G, (r + 1) G): large
 * below): the queries of its window row-blocks, the other lanes only counted */
static void writes(const td_case *c, td_wset *ws) {
    sdpa_geo g;
    sdpa_geo_get(c, &g);
    if (!c->nwin) {
        for (int64_t b = 0; b < g.batch; b++)
            for (int64_t q = 0; q < g.queries; q++) sdpa_lanes(&g, ws, b, q);
        return;
    }
    uint64_t G = c->win_unit[R_DST] / (uint64_t)g.value, R = (uint64_t)g.queries / G, seen = 0;
    for (uint64_t r = td_large_row_next(c, 0); r < R; r = td_large_row_next(c, r + 1), seen++)
        for (uint64_t q = r * G; q < (r + 1) * G; q++) sdpa_lanes(&g, ws, 0, (int64_t)q);
    ws->dropped += (R - seen) * G * (uint64_t)g.value;
}

/* The large tier (gen_large.h, td_rows_large): the seed's queryIndex b*queries*qk + q*qk
 * + h passes 2^31 when queries * qk > 2^31 (nothing in the seed bounds queries; its i64
 * indices do not wrap, a port forming them in int32 does).  Every output element
 * recomputes its scores three times, so the case is made as cheap as it can be: batch 1,
 * value 1 (value's column 0 kept), at most 2 keys (the first ones: softmax still weighs
 * the query), qk as drawn -- about 6 x 2^31 x keys loads and 2 x keys x 2^31 / qk exps
 * (59 s measured on the host at qk = 3, 2 keys; the int32 mutant dies at its launch-wide
 * check in about a second).  No choice of qk cuts the loads below 3 x 2^31 per key: every
 * query element is read three times per key, and query must pass 2^31.  The row-
 * blocks are G queries (query: G * qk, dst: G; G the drawn query count or more, so a
 * block holds >= TD_ROWS_LARGE_MIN_LEN elements, the added query rows zero); key and
 * value are not indexed by the query and stay.  dst passes only 2^31 / qk elements. */
static void large(td_producer *p, td_case *c) {
    sdpa_geo g;
    sdpa_geo_get(c, &g);
    int64_t keys = g.keys < 2 ? g.keys : 2, G = g.queries, lo = (TD_ROWS_LARGE_MIN_LEN + g.qk - 1) / g.qk;
    if (G < lo) G = lo;
    td_rows_region rr[2] = {{R_QUERY, (uint64_t)(G * g.qk), (uint64_t)(g.queries * g.qk)}, {R_DST, (uint64_t)G, 0}};
    uint64_t R;
    if (td_rows_large(p, c, 1, rr, 2, &R) != 0) return;
    for (int64_t k = 0; k < keys; k++) td_set(c, R_VALUE, (size_t)k, td_get(c, R_VALUE, (size_t)(k * g.value)));
    int64_t queries = (int64_t)R * G;
    c->p[P_BATCH].i = 1, c->p[P_QUERIES].i = queries, c->p[P_KEYS].i = keys, c->p[P_VALUE].i = 1;
    c->grid[0] = 1, c->grid[1] = (uint32_t)at_cdiv(queries, g.ty), c->grid[2] = 1;
    /* the shape classes of the new extents (gen's were those of the drawn value and queries) */
    c->classes &= ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) |
                    TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_BLOCK_GT_N));
    td_gen_mark_shape(1, (uint64_t)g.tx, 1, &c->classes);
    td_gen_mark_shape((uint64_t)queries, (uint64_t)g.ty, c->grid[1], &c->classes);
}

/* The intent: torch.nn.functional.scaled_dot_product_attention(query, key, value) with
 * no mask and its default scale, 1/sqrt(qk) (PyTorch documentation: scale_factor = 1 /
 * math.sqrt(query.size(-1))), taken exactly.  The kernel holds RN32(1/sqrt(qk)), a
 * relative 2^-24 away; that is a rounding of the operation's constant like any other the
 * kernel makes (torch's own binary32 SDPA rounds it too), not another operation, so the
 * intent does not copy it: where it mattered beyond the contract's tolerance the audit
 * would say so. */
static const td_intent intent = {
    .operation = "scaled dot-product attention softmax(query key^T / sqrt(qk)) value of each (batch, query) row",
    .definition = "torch.nn.functional.scaled_dot_product_attention(query, key, value) (PyTorch documentation: "
                  "softmax(q k^T * scale + mask) v, default scale 1/sqrt(E), no mask), exact (scale 1/sqrt(qk) "
                  "unrounded, no intermediate rounding)",
    TD_SPECS(sdpa_intent),
};

const td_contract td_c_seed_sdpa = {
    .id = "seed_sdpa.scaled_dot_product_f32",
    .file = "seed_sdpa",
    .family = "attention-seeds",
    .io_class = "launch3D(value, queries, batch, threads): one thread per output element",
    .kind = "exact",
    .formula = "dst[b,q,v] = sum_k (exp(s_bqk - m_bq) / sum_k' exp(s_bqk' - m_bq)) value[b,k,v], s_bqk = "
               "RN32(1/sqrt(qk)) * query[b,q,:] . key[b,k,:]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "every extent >= 1 (the seed does not reject zero extents); finite inputs; den >= 1",
    .error_model = "three sequential folds as the kernel evaluates them: the dot, exp(s - m) summed, one division "
                   "per weight and a product per term",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_META_EXTREME),
    /* no far hook: no strides (the seed's queryIndex etc.: b * queries*qk + q * qk + h, constants of i64
     * type, indexUpper); every element of the dense row-major regions is read, so an offset past 2^31
     * means 2^31 elements: the large tier's (`large`, row-blocks of queries) */
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(sdpa),
    .intent = &intent,
};
