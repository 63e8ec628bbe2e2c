/* chunk_gated_attention: the state stores of the gated ABC chunk kernel (catalogue
 * part 2, src lines 2310-2390).
 *
 *   chunk_gated_attention_state_stores_io_correctness (hInj1, hInj2), two
 *     Masked3DTileKernelIO_1 slices on one grid (cdiv(VSize, BV), cdiv(KSize, BK), B*H),
 *     tile [BK, BV], lane (r, c): k = p1*BK + r, v = p0*BV + c, mask k < KSize && v < VSize:
 *       h_stateIO:     H[p2*s_h_h + i_t*KSize*VSize + k*s_h_t + v*s_h_d] = BH[same];
 *       final_stateIO: Ht[p2*KSize*VSize + k*VSize + v] = BHFinal[same].
 *   chunk_gated_attention_state_stores_io_correctnessR: the same |=[R, .real].
 *
 * Checked against bench/tritonbench_g/chunk_gated_attention (the .py and
 * ChunkGatedAttention.lean): these are the two stores of chunk_gated_abc_fwd_kernel_h
 * (the chunk state tile to h + i_bh*s_h_h + i_t*K*V with strides (s_h_t, s_h_d), and
 * the final state to ht, rows of V), written as slices that copy a SUPPLIED tile
 * (BH, BHFinal: the producer's register state is outside them).  Pid roles: p0 the V
 * block, p1 the K block (the kernel's i_v, i_k).  One launch runs both slices on every
 * program.  hInj1 is met by construction: s_h_d >= 1, s_h_t >= (VSize - 1)*s_h_d + 1 (rows
 * disjoint), or the transposed layout (s_h_t = 1, s_h_d >= KSize); s_h_h >=
 * (i_t + 1)*KSize*VSize + the tile's extent (heads disjoint); hInj2 holds for the
 * contiguous [B*H, KSize, VSize] final state.  The load's other=0 is never stored (the
 * store has the same mask).  The .real rounding of the R theorem is the identity on a
 * binary32 store.
 * Error model: copies, tolerance 0.  Values: any finite binary32 (|x| <= 2^100,
 * subnormals and -0 among the special menu: a copy keeps the bits; -0 and +0 are equal
 * as reals).
 */
#include "gen.h"

enum { P_IT, P_SHH, P_SHT, P_SHD, P_K, P_V, P_BK, P_BV, NP };
enum { R_BH, R_H, R_BHF, R_HT, NR };
enum { O_H, O_HT };

#define TD_SPEC_FILE "chunk_gated_attention.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"i_t", TD_P_INT},   {"s_h_h", TD_P_INT}, {"s_h_t", TD_P_INT},
                                         {"s_h_d", TD_P_INT}, {"KSize", TD_P_INT}, {"VSize", TD_P_INT},
                                         {"BK", TD_P_INT},    {"BV", TD_P_INT}};
static const td_region_decl regions[NR] = {{"BH", TD_F32, TD_R_IN}, {"H", TD_F32, TD_R_OUT},
                                           {"BHFinal", TD_F32, TD_R_IN}, {"Ht", TD_F32, TD_R_OUT}};

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* the last element of a head's tile + 1 (s_h_h must reach past it for hInj1) */
static int64_t cga_extent(const td_case *c) {
    int64_t K = c->p[P_K].i, V = c->p[P_V].i;
    return c->p[P_IT].i * K * V + (K - 1) * c->p[P_SHT].i + (V - 1) * c->p[P_SHD].i + 1;
}

/* Shape: KSize, VSize 1..24, BK, BV powers of two up to 32, B*H 1..3, i_t 0..3; the
 * state rows contiguous (s_h_d = 1, s_h_t = VSize, the kernel's h.stride), padded, or
 * transposed (s_h_t = 1, s_h_d = KSize + pad). */
static void gen(td_producer *p, td_case *c) {
    int64_t K = td_prod_u32(p, 1, 24), V = td_prod_u32(p, 1, 24), BK = td_gen_pow2(p, 0, 5), BV = td_gen_pow2(p, 0, 5);
    int64_t BH = td_prod_u32(p, 1, 3), it = td_prod_u32(p, 0, 3), lay = td_prod_u32(p, 0, 3);
    int64_t pad = lay ? td_prod_u32(p, 0, 3) : 0;
    c->p[P_IT].i = it, c->p[P_K].i = K, c->p[P_V].i = V, c->p[P_BK].i = BK, c->p[P_BV].i = BV;
    if (lay == 3) c->p[P_SHT].i = 1, c->p[P_SHD].i = K + pad;
    else c->p[P_SHT].i = V + pad, c->p[P_SHD].i = 1;
    c->p[P_SHH].i = cga_extent(c) + (lay ? td_prod_u32(p, 0, 5) : 0);
    c->grid[0] = (uint32_t)cdiv(V, BV), c->grid[1] = (uint32_t)cdiv(K, BK), c->grid[2] = (uint32_t)BH;
    td_case_alloc(c, R_BH, (size_t)(BH * c->p[P_SHH].i));
    td_case_alloc(c, R_H, (size_t)(BH * c->p[P_SHH].i) + 3);
    td_case_alloc(c, R_BHF, (size_t)(BH * K * V)), td_case_alloc(c, R_HT, (size_t)(BH * K * V) + 3);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, R_BH);
    td_vgen_fill(&g, c, R_BHF);
    c->classes |= (K % BK || V % BV ? TD_BC(TD_BC_TAIL) : TD_BC(TD_BC_EXACT_MULTIPLE)) |
                  (BK >= 4 * K || BV >= 4 * V ? TD_BC(TD_BC_BLOCK_GT_N) : 0) |
                  (lay ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (c->grid[0] * c->grid[1] > 1 ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0) |
                  (c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0);
}

static const char *check(const td_case *c) {
    for (int i = 0; i < NP; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t K = c->p[P_K].i, V = c->p[P_V].i, BK = c->p[P_BK].i, BV = c->p[P_BV].i;
    int64_t sht = c->p[P_SHT].i, shd = c->p[P_SHD].i, BH = c->grid[2];
    if (BK <= 0 || BV <= 0 || (BK & (BK - 1)) || (BV & (BV - 1))) return "BK, BV are powers of two (tl.arange)";
    if (K <= 0 || V <= 0) return "KSize, VSize > 0";
    if (c->grid[0] != (uint32_t)cdiv(V, BV) || c->grid[1] != (uint32_t)cdiv(K, BK) || BH == 0)
        return "grid = (cdiv(VSize, BV), cdiv(KSize, BK), B*H)";
    int rows = shd >= 1 && sht >= (V - 1) * shd + 1, cols = sht >= 1 && shd >= (K - 1) * sht + 1;
    if (!rows && !cols) return "hInj1: (k, v) -> k*s_h_t + v*s_h_d injective (row- or column-disjoint layout)";
    if (c->p[P_SHH].i < cga_extent(c)) return "hInj1: s_h_h past each head's tile (heads disjoint)";
    if (c->r[R_BH].len < (size_t)(BH * c->p[P_SHH].i) || c->r[R_H].len < (size_t)(BH * c->p[P_SHH].i) ||
        c->r[R_BHF].len < (size_t)(BH * K * V) || c->r[R_HT].len < (size_t)(BH * K * V))
        return "BH, H hold B*H*s_h_h, BHFinal, Ht hold B*H*KSize*VSize";
    return NULL; /* hInj2: the contiguous final state is injective */
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t K = c->p[P_K].i, V = c->p[P_V].i, BK = c->p[P_BK].i, BV = c->p[P_BV].i;
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
                for (int64_t r = 0; r < BK; r++)
                    for (int64_t cc = 0; cc < BV; cc++) {
                        int64_t k = p1 * BK + r, v = p0 * BV + cc;
                        if (k >= K || v >= V) continue;
                        int64_t oh = p2 * c->p[P_SHH].i + c->p[P_IT].i * K * V + k * c->p[P_SHT].i + v * c->p[P_SHD].i;
                        td_olane a = {.o = O_H, .region = R_H, .off = (uint64_t)oh, .pid = {p0, p1, p2},
                                      .j = (uint64_t)(r * BV + cc)};
                        td_olane b = {.o = O_HT, .region = R_HT, .off = (uint64_t)(p2 * K * V + k * V + v),
                                      .pid = {p0, p1, p2}, .j = (uint64_t)(r * BV + cc)};
                        td_wset_add(ws, &a);
                        td_wset_add(ws, &b);
                    }
}

#define CGA_STORES_COMMON                                                                                           \
    .file = "chunk_gated_attention", .family = "recurrence",                                                        \
    .io_class = "Masked3DTileKernelIO_1 x 2 (h_stateIO + final_stateIO)", .nparams = NP, .params = params,          \
    .nregions = NR, .regions = regions, .sv = TD_SV_REAL, .sv_note = "finite inputs; copies",                       \
    .error_model = "copies: tolerance 0",                                                                           \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) |                         \
               TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) |                     \
               TD_BC(TD_BC_VALUES_SPECIAL),                                                                         \
    .gen = gen, .check = check, .writes = writes, TD_SPECS(cga_copy)

const td_contract td_c_chunk_gated_attention_stores = {
    .id = "chunk_gated_attention.chunk_gated_attention_state_stores_io_correctness",
    .kind = "exact",
    .formula = "H[p2*s_h_h + i_t*K*V + k*s_h_t + v*s_h_d] = BH[same]; Ht[p2*K*V + k*V + v] = BHFinal[same]",
    CGA_STORES_COMMON,
};
const td_contract td_c_chunk_gated_attention_stores_r = {
    .id = "chunk_gated_attention.chunk_gated_attention_state_stores_io_correctnessR",
    .kind = "rounding",
    .formula = "H[idx] = R.round(.real)(BH[idx]); Ht[idx] = R.round(.real)(BHFinal[idx])  (.real: exact)",
    CGA_STORES_COMMON,
};
