/* The GPTQ-style int4 GEMM matmul4_kernel, shared by matmul_dequantize.c
 * (matmul_dequantize_matmul4_exec_genuine) and matmul_dequantize_int4.c
 * (matmul_dequantize_int4_exec_genuine): the VeriTile port says the two sources differ
 * only in a `.to(a.dtype)` on the dot's weight operand and in the spelling of a dead
 * cast, and both statements read the stored value back as the same accSpec.
 *
 *   (hInj : cAddr injective over the tile): for every lane with row < M, col < N
 *   (grouped order, pid_m = first_pid_m + pid % group_size_m),
 *     c[scm*row + scn*col] = accSpec row col
 *       = sum_{kb < cdiv(K, BK)} sum_{e < BK} a[row, kb*BK + e] * bDequant(kb, e, col),
 *     bDequant = bNib * scales[g, col] - zNib(g, col) * scales[g, col],
 *     bNib = (b[(e/8 + kb*(BK/8))*sbk + col*sbn] >> 4(e%8)) & 15,
 *     zNib = (zeros[g*szg + (col/8)*szn] >> 4(col%8)) & 15,
 *     g = groupRow = NO_GROUPS ? 0 : kb / (groupsize / BK).
 *
 * The [named] reading (VeriTile matmul_dequantize.py / matmul_dequantize_int4.py,
 * matmul4_kernel, MatmulDequantize.lean and MatmulDequantizeInt4.lean: aElem, bWord,
 * bNibble, groupRow, zeroScaled, bDequant, accStep, accSpec, the headlines): as above.
 * The kernel stores `accumulator` (its `c = accumulator.to(...)` is dead), so the
 * statement is the binary32 accumulator itself, no output cast; A's loads are masked
 * by row < M (other 0); b, scales and zeros are loaded unmasked at the tile's columns
 * (up to cdiv(N, BN) * BN - 1: the regions hold them) and the store is masked.
 * Preconditions beyond hInj, the source's documented assumptions ("WARNING: This kernel
 * assumes that K is a multiple of BLOCK_SIZE_K ... groupsize is a multiple of
 * BLOCK_SIZE_K"; the packing needs BLOCK_SIZE_K % 8 == 0 for b_ptrs' advance by
 * BK // 8 words): K = BK * numKBlocks, BK % 8 == 0 and, with groups, groupsize % BK ==
 * 0.  Under them bNib is the nibble of k = kb*BK + e in word k / 8 and groupRow is
 * k / groupsize, so the spec sums over k < K.  (Without them the Lean statement is
 * about a sum over lanes past K, a b pointer that does not advance for BK < 8 and a
 * division by 0 for groupsize < BK: not what the kernel was written for.)  NO_GROUPS
 * is a free Bool parameter (the wrapper passes groupsize == K): under it every k reads
 * group row 0 whatever groupsize is.
 * Formats: the contract takes a, scales and c binary32 (then `.to(a.dtype)` is the
 * identity and the store exact); b and zeros int32 regions of any bit pattern (the Lean
 * .nat containers and the kernel's arithmetic int32 shifts agree after & 0xF).
 *
 * Error model (u = 2^-24): the nibbles exact; nib * s and zNib * s one binary32 product
 * each, u|product|, their difference one rounding u|w| (Higham 2.2; the shadow
 * propagates each term's bound through the subtraction, so cancellation is charged
 * where it happens; an FMA or the algebraically equal (nib - zNib) * s stay inside
 * that bound); each a * w one product (or fused), the K-sum in any order,
 * gamma_{K-1} sum|a_k w_k| (Higham 3.1 and 4.2: the shadow's any-order accumulator).
 * Special values: finite binary32 a within the family's bound, |s| < 16, nibbles in
 * [0, 15]: every binary32 value finite (TD_SV_IEEE as the family).
 */
#ifndef TD_GPTQ4_COMMON_H
#define TD_GPTQ4_COMMON_H

#include "imm_common.h"

enum { G4_M, G4_N, G4_K, G4_SAM, G4_SAK, G4_SBK, G4_SBN, G4_SCM, G4_SCN, G4_SSG, G4_SSN, G4_SZG, G4_SZN, G4_GS,
       G4_NOG, G4_BM, G4_BN, G4_BK, G4_GM, G4_NP };
enum { G4_RA, G4_RC, G4_RS, G4_RB, G4_RZ, G4_NR };

static const int g4_map[MMF_COUNT] = {
    [MMF_M] = G4_M,   [MMF_N] = G4_N,     [MMF_K] = G4_K,     [MMF_BM] = G4_BM,   [MMF_BN] = G4_BN,
    [MMF_BK] = G4_BK, [MMF_T] = -1,       [MMF_GM] = G4_GM,   [MMF_SAM] = G4_SAM, [MMF_SAK] = G4_SAK,
    [MMF_SBK] = -1,   [MMF_SBN] = -1,     [MMF_SCM] = G4_SCM, [MMF_SCN] = G4_SCN};
static const mm_2d g4_d2 = {MM_SWZ_SIMPLE, MM_IDX_RAW, MM_IDX_RAW, G4_RA, G4_RS, G4_RC};

#define TD_SPEC_FILE "gptq4.spec.h"
#include "spec_instantiate.h"

static const td_param_decl g4_params[G4_NP] = {
    {"M", TD_P_INT},          {"N", TD_P_INT},          {"K", TD_P_INT},               {"stride_am", TD_P_INT},
    {"stride_ak", TD_P_INT},  {"stride_bk", TD_P_INT},  {"stride_bn", TD_P_INT},       {"stride_cm", TD_P_INT},
    {"stride_cn", TD_P_INT},  {"stride_scales_g", TD_P_INT}, {"stride_scales_n", TD_P_INT}, {"stride_zeros_g", TD_P_INT},
    {"stride_zeros_n", TD_P_INT}, {"groupsize", TD_P_INT}, {"NO_GROUPS", TD_P_BOOL},   {"BM", TD_P_INT},
    {"BN", TD_P_INT},         {"BK", TD_P_INT},         {"GM", TD_P_INT}};
static const td_region_decl g4_regions[G4_NR] = {{"a_ptr", TD_F32, TD_R_IN},      {"c_ptr", TD_F32, TD_R_OUT},
                                                 {"scales_ptr", TD_F32, TD_R_IN}, {"b_ptr", TD_I32, TD_R_IN},
                                                 {"zeros_ptr", TD_I32, TD_R_IN}};

/* packed words of one mode (random; every nibble 0, 15 or 8) into a [rows, cols] view */
static void g4_words(td_rng *r, td_case *c, int reg, int64_t rows, int64_t cols, int64_t sr, int64_t sc, int mode) {
    static const uint32_t fixed[3] = {0u, 0xffffffffu, 0x88888888u};
    td_case_alloc(c, reg, mm_span(rows, cols, sr, sc));
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) {
            uint32_t w = mode == 0 ? (uint32_t)td_rng_next(r) : fixed[mode - 1];
            td_set(c, reg, (size_t)(i * sr + j * sc), (double)(int32_t)w);
        }
}

/* groups: NO_GROUPS (the wrapper's groupsize == K, or any groupsize), or a multiple of
 * BK: one block, several, more than K (one partial group), not dividing K */
static void g4_groups(td_producer *p, td_case *c, const mm_shape *s) {
    int64_t nog = td_prod_u32(p, 0, 3) == 0, gs;
    if (nog) gs = td_prod_bool(p) ? s->K : s->BK * td_prod_u32(p, 1, 4);
    else gs = s->BK * td_prod_u32(p, 1, (uint32_t)s->T + 1);
    if (!nog && s->K % gs) c->classes |= TD_BC(TD_BC_TAIL); /* a partial last group */
    c->p[G4_GS].i = gs, c->p[G4_NOG].i = nog;
}

static void g4_gen(td_producer *p, td_case *c) {
    td_rng r;
    c->seed = td_prod_u64(p);
    td_rng_seed(&r, c->seed);
    mm_shape s;
    mm_shape_opts o = {.bm_lo = 0, .bm_hi = 4, .bn_lo = 0, .bn_hi = 4, .bk_lo = 3, .bk_hi = 5, .max_mn = 40,
                       .max_T = 4, .c_any = 1, .group = 1, .work = 1 << 15};
    mm_gen_shape(p, c, &o, 0, &s); /* A's rows: M (masked); B's columns: the raw tile columns */
    mm_shape_put(c, g4_map, &s);
    g4_groups(p, c, &s);
    int64_t gs = c->p[G4_GS].i, kg = c->p[G4_NOG].i ? 1 : mm_cdiv(s.K, gs), cols = mm_cdiv(s.N, s.BN) * s.BN;
    int64_t kw = s.K / 8, nz = mm_cdiv(cols, 8), pad = td_prod_bool(p) ? 3 : 0, sbk = cols + pad, sbn = 1;
    if (td_prod_u32(p, 0, 3) == 0) sbk = 1, sbn = kw + pad; /* column-major packed weights */
    int64_t v[6] = {sbk, sbn, cols + pad, 1, nz + pad, 1};
    for (int i = 0; i < 6; i++) c->p[G4_SBK + (i < 2 ? i : i + 2)].i = v[i];
    c->grid[0] = (uint32_t)(mm_cdiv(s.M, s.BM) * mm_cdiv(s.N, s.BN));
    td_case_alloc(c, G4_RA, mm_span(s.M, s.K, s.sam, s.sak));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F32));
    mm_fill_view(&g, c, G4_RA, s.M, s.K, s.sam, s.sak);
    int mb = td_prod_u32(p, 0, 7) < 5 ? 0 : (int)td_prod_u32(p, 1, 3), mz = (int)td_prod_u32(p, 0, 3);
    if (mz) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL); /* zero points 0, 15 or 8 throughout */
    g4_words(&r, c, G4_RB, kw, cols, sbk, sbn, mb);
    g4_words(&r, c, G4_RZ, kg, nz, nz + pad, 1, mz);
    int smode = (int)td_prod_u32(p, 0, IMM_S_COUNT - 1);
    td_case_alloc(c, G4_RS, mm_span(kg, cols, cols + pad, 1));
    for (int64_t i = 0; i < kg; i++)
        for (int64_t j = 0; j < cols; j++) td_set(c, G4_RS, (size_t)(i * (cols + pad) + j), imm_scale(&r, smode, 1));
    td_case_alloc(c, G4_RC, mm_span(s.M, s.N, s.scm, s.scn) + (td_prod_bool(p) ? (size_t)s.BN : 0));
}

static const char *g4_check(const td_case *c) {
    mm_shape s;
    mm_shape_get(c, g4_map, &s);
    for (int k = 0; k < G4_NP; k++)
        if (c->p[k].i < 0) return "parameters are Nat";
    if (s.BM <= 0 || s.BN <= 0 || s.BK <= 0 || s.GM <= 0 || s.M <= 0 || s.N <= 0) return "BM, BN, BK, GM, M, N > 0";
    if (s.K <= 0 || s.K % s.BK) return "K a positive multiple of BLOCK_SIZE_K (the source's WARNING)";
    if (s.BK % 8) return "BLOCK_SIZE_K % 8 == 0 (b_ptrs advance by BK // 8 packed rows)";
    int64_t gs = c->p[G4_GS].i, nog = c->p[G4_NOG].i;
    if (!nog && (gs <= 0 || gs % s.BK)) return "groupsize a multiple of BLOCK_SIZE_K (the source's WARNING)";
    if ((int64_t)c->grid[0] != mm_cdiv(s.M, s.BM) * mm_cdiv(s.N, s.BN) || c->grid[1] != 1 || c->grid[2] != 1)
        return "grid = cdiv(M, BM) * cdiv(N, BN) programs";
    if (!((s.scn == 1 && s.scm >= s.N) || (s.scm == 1 && s.scn >= s.M))) return "hInj: C's active cells distinct";
    int64_t cols = mm_cdiv(s.N, s.BN) * s.BN, kg = nog ? 1 : mm_cdiv(s.K, gs);
    if (c->r[G4_RA].len < mm_span(s.M, s.K, s.sam, s.sak)) return "a holds the rows read";
    if (c->r[G4_RC].len < mm_span(s.M, s.N, s.scm, s.scn)) return "c holds the write window";
    if (c->r[G4_RB].len < mm_span(s.K / 8, cols, c->p[G4_SBK].i, c->p[G4_SBN].i))
        return "b holds K/8 packed rows of every tile column (unmasked loads)";
    if (c->r[G4_RS].len < mm_span(kg, cols, c->p[G4_SSG].i, c->p[G4_SSN].i)) return "scales hold the groups' rows";
    if (c->r[G4_RZ].len < mm_span(kg, mm_cdiv(cols, 8), c->p[G4_SZG].i, c->p[G4_SZN].i))
        return "zeros hold the groups' packed rows";
    if (!imm_scales_ok(c, G4_RS)) return "scales finite, |s| < 16";
    return NULL;
}

/* Offsets beyond 2^31: a's rows at a stride_am near 2^31 (mm_far_2d).  A's loads are
 * masked by row < M, so only the M rows are read, as for rows wrapped or clamped to M
 * (mm_far_2d refuses raw tile rows only because they would be read).  The kernel's
 * offs_am[:, None] * stride_am is int32 arithmetic in Triton. */
static void g4_far(td_producer *p, td_case *c) {
    mm_2d d = g4_d2;
    d.rowmode = MM_IDX_CLAMP;
    mm_far_2d(p, c, g4_map, &d);
}

static void g4_writes(const td_case *c, td_wset *ws) {
    mm_shape s;
    mm_shape_get(c, g4_map, &s);
    mm_writes_2d(c, ws, &s, &g4_d2);
}

static const td_intent g4_intent = {
    .operation = "C = A @ W, W[k, n] = (q[k, n] - z[g, n]) * scale[g, n], g = k // groupsize (0 without groups)",
    .definition = "GPTQ 4-bit dequantizing matmul (AutoGPTQ's matmul4): the packed unsigned 4-bit weight minus its "
                  "group's zero point, times the group's scale, multiplied by A in exact arithmetic and rounded "
                  "once to binary32",
    TD_SPECS(g4_intent),
};

#define G4_CONTRACT_FIELDS                                                                                         \
    .family = "matmul", .kind = "exact", .io_class = "exec-existential over TileIndex [BM,BN]",                    \
    .formula = "c[scm*row + scn*col] = sum_{k<K} a[row,k] * (nib(b[k/8, col], k%8) * s[g, col] - "                  \
               "nib(z[g, col/8], col%8) * s[g, col]), g = NO_GROUPS ? 0 : k / groupsize",                           \
    .nparams = G4_NP, .params = g4_params, .nregions = G4_NR, .regions = g4_regions, .sv = TD_SV_IEEE,             \
    .sv_note = "finite binary32 activations within the family's bound, |scale| < 16: sums finite",                  \
    .error_model = "exact nibbles; two binary32 products and their difference per weight; products and a K-sum "   \
                   "in any order",                                                                                 \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31), .gen = g4_gen,         \
    .far = g4_far, .check = g4_check,                  \
    .writes = g4_writes, TD_SPECS(g4), .intent = &g4_intent

#endif /* TD_GPTQ4_COMMON_H */
