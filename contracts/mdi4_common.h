/* The int4 weight dequantization stage (dequantize_kernel) shared by
 * matmul_dequant_int4.c and matmul_dequantize.c: the VeriTile port says the two
 * kernel files hold byte-identical dequantize_kernel sources, so both contracts have
 * one parameter list, generator, checker, write set, spec and intent (the statement,
 * the reading and the error model are derived in contracts/matmul_dequant_int4.c).
 * The names below (P_*, R_*) are the statement's; a file including this header uses
 * other names for its other contracts. */
#ifndef TD_MDI4_COMMON_H
#define TD_MDI4_COMMON_H

#include "imm_common.h"

enum { P_K, P_N, P_GS, P_SBK, P_SBN, P_SBSK, P_SBSN, P_SBZK, P_SBZN, P_SFK, P_SFN, P_BK, P_BN, NP };
enum { R_B, R_S, R_ZP, R_F, NR };

#define TD_SPEC_FILE "matmul_dequant_int4.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"K", TD_P_INT},           {"N", TD_P_INT},           {"group_size", TD_P_INT},  {"stride_bk", TD_P_INT},
    {"stride_bn", TD_P_INT},   {"stride_bsk", TD_P_INT},  {"stride_bsn", TD_P_INT},  {"stride_bzpk", TD_P_INT},
    {"stride_bzpn", TD_P_INT}, {"stride_fpbk", TD_P_INT}, {"stride_fpbn", TD_P_INT}, {"BK", TD_P_INT},
    {"BN", TD_P_INT}};
static const td_region_decl regions[NR] = {{"b_ptr", TD_I32, TD_R_IN},
                                           {"b_scale_ptr", TD_F32, TD_R_IN},
                                           {"b_zp_ptr", TD_I32, TD_R_IN},
                                           {"fpb_ptr", TD_F32, TD_R_OUT}};

/* A packed 32-bit word: random, all nibbles 0, all 15, or all 8 (the symmetric zero point). */
static double mdi4_word(td_rng *r, int mode) {
    static const uint32_t fixed[3] = {0u, 0xffffffffu, 0x88888888u};
    uint32_t w = mode == 0 ? (uint32_t)td_rng_next(r) : fixed[mode - 1];
    return (double)(int32_t)w;
}

/* Fills a strided [rows, cols] view with packed words of one mode. */
static void mdi4_fill_words(td_rng *r, td_case *c, int reg, int64_t rows, int64_t cols, int64_t sr, int64_t sc,
                            int mode) {
    td_case_alloc(c, reg, mm_span(rows, cols, sr, sc));
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) td_set(c, reg, (size_t)(i * sr + j * sc), mdi4_word(r, mode));
}

static int64_t mdi4_group(td_producer *p, int64_t K, uint64_t *cls) {
    static const int64_t g[6] = {1, 8, 16, 32, 3, 5};
    int64_t gs = td_prod_u32(p, 0, 7) < 6 ? g[td_prod_u32(p, 0, 5)] : (int64_t)td_prod_u32(p, 1, (uint32_t)K + 8);
    if (K % gs) *cls |= TD_BC(TD_BC_TAIL); /* the last group partial */
    return gs;
}

static void gen(td_producer *p, td_case *c) {
    td_rng r;
    c->seed = td_prod_u64(p);
    td_rng_seed(&r, c->seed);
    uint64_t cls = 0;
    int64_t BK = td_gen_pow2(p, 0, 5), BN = td_gen_pow2(p, 0, 5);
    int64_t K = (int64_t)td_gen_count(p, (uint64_t)BK, 96, &cls), N = (int64_t)td_gen_count(p, (uint64_t)BN, 96, &cls);
    int64_t gs = mdi4_group(p, K, &cls), kw = mm_cdiv(K, 8), kg = mm_cdiv(K, gs), nz = mm_cdiv(N, 8);
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 5) : 0;
    if (pad) cls |= TD_BC(TD_BC_STRIDE_GT_ROW);
    int64_t sbk = N + pad, sbn = 1, sbsk = N + pad, sbsn = 1, sbzk = nz + pad, sbzn = 1, sfk, sfn;
    if (td_prod_u32(p, 0, 3) == 0) sbk = 1, sbn = kw + pad; /* column-major packed weights */
    if (td_prod_u32(p, 0, 3) == 0) sfk = 1, sfn = mm_max(K, BK) + pad;
    else sfk = mm_max(N, BN) + pad, sfn = 1;
    int64_t gk = mm_cdiv(K, BK), gn = mm_cdiv(N, BN);
    td_gen_mark_shape((uint64_t)(K * N), (uint64_t)(BK * BN), (uint64_t)(gk * gn), &cls);
    c->grid[0] = (uint32_t)gk, c->grid[1] = (uint32_t)gn;
    int64_t v[NP] = {K, N, gs, sbk, sbn, sbsk, sbsn, sbzk, sbzn, sfk, sfn, BK, BN};
    for (int i = 0; i < NP; i++) c->p[i].i = v[i];
    int mb = td_prod_u32(p, 0, 7) < 5 ? 0 : (int)td_prod_u32(p, 1, 3), mz = (int)td_prod_u32(p, 0, 3);
    if (mz) cls |= TD_BC(TD_BC_VALUES_SPECIAL); /* zero points at the edges (0, 15) or 8 */
    c->classes |= cls;
    mdi4_fill_words(&r, c, R_B, kw, N, sbk, sbn, mb);
    mdi4_fill_words(&r, c, R_ZP, kg, nz, sbzk, sbzn, mz);
    int smode = (int)td_prod_u32(p, 0, IMM_S_COUNT - 1);
    td_case_alloc(c, R_S, mm_span(kg, N, sbsk, sbsn));
    for (int64_t i = 0; i < kg; i++)
        for (int64_t j = 0; j < N; j++) td_set(c, R_S, (size_t)(i * sbsk + j * sbsn), imm_scale(&r, smode, 1));
    td_case_alloc(c, R_F, mm_span(gk * BK, gn * BN, sfk, sfn));
}

static const char *check(const td_case *c) {
    for (int k = 0; k < NP; k++)
        if (c->p[k].i < 0) return "parameters are Nat";
    int64_t K = c->p[P_K].i, N = c->p[P_N].i, gs = c->p[P_GS].i, BK = c->p[P_BK].i, BN = c->p[P_BN].i;
    int64_t sfk = c->p[P_SFK].i, sfn = c->p[P_SFN].i;
    if (gs <= 0) return "group_size > 0 (k // group_size)";
    if (BK <= 0 || BN <= 0) return "BK, BN > 0 (tl.arange extents)";
    if (c->grid[2] != 1) return "a 2-D grid";
    if (!mm_tile_injective(BK, BN, sfk, sfn)) return "hInj: a tile's fp_b addresses are distinct";
    if (!((sfn == 1 && sfk >= N) || (sfk == 1 && sfn >= K))) return "distinct programs write distinct cells";
    int64_t rows = mm_min(K, (int64_t)c->grid[0] * BK), cols = mm_min(N, (int64_t)c->grid[1] * BN);
    if (rows <= 0 || cols <= 0) return NULL; /* nothing is read */
    if (c->r[R_B].len < mm_span(mm_cdiv(rows, 8), cols, c->p[P_SBK].i, c->p[P_SBN].i)) return "b holds the packed rows";
    if (c->r[R_ZP].len < mm_span(mm_cdiv(rows, gs), mm_cdiv(cols, 8), c->p[P_SBZK].i, c->p[P_SBZN].i))
        return "b_zp holds the packed zero points";
    if (c->r[R_S].len < mm_span(mm_cdiv(rows, gs), cols, c->p[P_SBSK].i, c->p[P_SBSN].i)) return "b_scale holds the groups";
    if (c->r[R_F].len < mm_span(rows, cols, sfk, sfn)) return "fp_b holds the write window";
    if (!imm_scales_ok(c, R_S)) return "scales finite, |s| < 16";
    return NULL;
}

/* Offsets beyond 2^31: b's first packed rows (K cut to 8 * TD_FAR_MAX_ROWS, the K blocks
 * recounted) at a stride_bk near 2^31 over a sparse region, as the kernel's b_offs,
 * int32 arithmetic in Triton, gets wrong.  Only a row-major b (stride_bn = 1); the
 * scales and zero points keep their (fewer) group rows, fp_b (the output) stays dense. */
static void far(td_producer *p, td_case *c) {
    int64_t K = c->p[P_K].i, N = c->p[P_N].i, sbk = c->p[P_SBK].i;
    int64_t Kc = K < 8 * TD_FAR_MAX_ROWS ? K : 8 * TD_FAR_MAX_ROWS, R = mm_cdiv(Kc, 8);
    if (c->p[P_SBN].i != 1 || R < 2 || sbk < N) return;
    int64_t s = td_far_stride(p, R, N);
    if (td_far_restride(c, R_B, R, N, sbk, s)) return;
    c->p[P_K].i = Kc, c->p[P_SBK].i = s;
    c->grid[0] = (uint32_t)mm_cdiv(Kc, c->p[P_BK].i);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t K = c->p[P_K].i, N = c->p[P_N].i, BK = c->p[P_BK].i, BN = c->p[P_BN].i;
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            for (int64_t i = 0; i < BK; i++)
                for (int64_t j = 0; j < BN; j++) {
                    int64_t k = p0 * BK + i, n = p1 * BN + j;
                    if (!(k < K && n < N)) continue; /* mask = n_mask & k_mask */
                    td_olane l = {.region = R_F, .off = (uint64_t)(k * c->p[P_SFK].i + n * c->p[P_SFN].i),
                                  .pid = {p0, p1, 0}, .j = (uint64_t)(i * BN + j), .idx = {k, n}};
                    td_wset_add(ws, &l);
                }
}

static const td_intent mdi4_intent = {
    .operation = "fp_b[k, n] = (q[k, n] - zp[k // group_size, n]) * scale[k // group_size, n]",
    .definition = "asymmetric group-wise int4 dequantization (GPTQ/AWQ-style): unsigned 4-bit weight minus its "
                  "group's 4-bit zero point, times the group's scale, rounded once to binary32",
    TD_SPECS(mdi4_intent),
};

#endif /* TD_MDI4_COMMON_H */
