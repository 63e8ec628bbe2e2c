/* int4_matmul: a GEMM of binary32 activations against group-wise int4 weights
 * (catalogue part 2, src lines 5415-5440).
 *
 *   int4_matmul_exec_genuine (hK : K = BK * numKBlocks) (hBK8 : BK % 8 = 0) (hpid1 :
 *     pid1 = 0) (hInj : cAddr injective over the tile): for every lane with row < M,
 *     col < N (grouped order, pid_m = first_pid_m + pid % group_size_m),
 *       C[stride_cm*row + stride_cn*col] = accSpec row col
 *         = sum_{k<K} a[row*sam + k*sak] * ((bNib(k, col) - zpNib(k / gs, col)) * bs[(k / gs)*sbsk + col*sbsn]),
 *       bNib = (b[(k / 8)*sbk + col*sbn] >> 4*(k % 8)) & 0xF,
 *       zpNib = (bzp[(k / gs)*sbzpk + (col / 8)*sbzpn] >> 4*(col % 8)) & 0xF.
 *
 * The [named] reading, checked against the original (VeriTile
 * bench/tritonbench_g/int4_matmul/int4_matmul.py, matmul_kernel, and Int4Matmul.lean:
 * accSpec / accStep, the headline): SPLIT_K = 1 (hpid1); rows and columns loaded at
 * % M / % N; b_ptrs advance by BK*stride_bk // 8 per step (exact under hBK8); the
 * scale and zero-point rows from (offs_k + k*BK) // group_size; the weight
 * `((int_b - int_bzp) * bs).to(a.dtype)`; `accumulator += tl.dot(a, b)` in binary32;
 * the masked store of `accumulator.to(c.dtype)`.  The Lean Nat regions b, bzp and the
 * kernel's arithmetic int32 shifts agree after & 0xF (int32 regions, any pattern).
 * The contract takes a, bs and C binary32 (a.dtype = float32: both .to casts are the
 * identity); an fp16 activation would add the weight's fp16 rounding.
 *
 * Error model (u = 2^-24): the nibble difference is exact; the weight one binary32
 * product u|w|; each a*w one binary32 product (or fused into an FMA) u|a w|; the K-sum
 * in any order, gamma_{K-1} sum|a_k w_k| (Higham, ASNA 2nd ed., 3.1 and 4.2; the
 * shadow's any-order accumulator).  Values: |a| <= the family's menu bound (finite
 * sums), scales |s| < 16, nibble differences in [-15, 15] (TD_SV_IEEE as the family).
 */
#include "imm_common.h"

enum { P_M, P_N, P_K, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_SBSK, P_SBSN, P_SBZK, P_SBZN, P_GS, P_BM, P_BN,
       P_BK, P_GM, P_NKB, NP };
enum { R_A, R_C, R_BS, R_B, R_BZP, NR };

static const int i4_map[MMF_COUNT] = {
    [MMF_M] = P_M,     [MMF_N] = P_N,     [MMF_K] = P_K,     [MMF_BM] = P_BM,   [MMF_BN] = P_BN,
    [MMF_BK] = P_BK,   [MMF_T] = P_NKB,   [MMF_GM] = P_GM,   [MMF_SAM] = P_SAM, [MMF_SAK] = P_SAK,
    [MMF_SBK] = -1,    [MMF_SBN] = -1,    [MMF_SCM] = P_SCM, [MMF_SCN] = P_SCN};
static const mm_2d i4_d2 = {MM_SWZ_SIMPLE, MM_IDX_WRAP, MM_IDX_WRAP, R_A, R_BS, R_C};

#define TD_SPEC_FILE "int4_matmul.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"M", TD_P_INT},          {"N", TD_P_INT},          {"K", TD_P_INT},           {"stride_am", TD_P_INT},
    {"stride_ak", TD_P_INT},  {"stride_bk", TD_P_INT},  {"stride_bn", TD_P_INT},   {"stride_cm", TD_P_INT},
    {"stride_cn", TD_P_INT},  {"stride_bsk", TD_P_INT}, {"stride_bsn", TD_P_INT},  {"stride_bzpk", TD_P_INT},
    {"stride_bzpn", TD_P_INT}, {"group_size", TD_P_INT}, {"BM", TD_P_INT},         {"BN", TD_P_INT},
    {"BK", TD_P_INT},         {"GM", TD_P_INT},         {"numKBlocks", TD_P_INT}};
static const td_region_decl regions[NR] = {{"a_ptr", TD_F32, TD_R_IN},  {"c_ptr", TD_F32, TD_R_OUT},
                                           {"bs_ptr", TD_F32, TD_R_IN}, {"b_ptr", TD_I32, TD_R_IN},
                                           {"bzp_ptr", TD_I32, TD_R_IN}};

/* packed words: random, or every nibble 0 / 15 / 8 */
static void i4_fill_words(td_rng *r, td_case *c, int reg, int64_t rows, int64_t cols, int64_t sr, int mode) {
    static const uint32_t fixed[3] = {0u, 0xffffffffu, 0x88888888u};
    td_case_alloc(c, reg, mm_span(rows, cols, sr, 1));
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) {
            uint32_t w = mode == 0 ? (uint32_t)td_rng_next(r) : fixed[mode - 1];
            td_set(c, reg, (size_t)(i * sr + j), (double)(int32_t)w);
        }
}

static void gen(td_producer *p, td_case *c) {
    td_rng r;
    c->seed = td_prod_u64(p);
    td_rng_seed(&r, c->seed);
    mm_shape s;
    mm_shape_opts o = {.bm_lo = 0, .bm_hi = 4, .bn_lo = 0, .bn_hi = 4, .bk_lo = 3, .bk_hi = 5, .max_mn = 40,
                       .max_T = 4, .c_any = 1, .group = 1, .work = 1 << 15};
    mm_gen_shape(p, c, &o, 0, &s);
    static const int64_t gsz[6] = {1, 8, 16, 32, 3, 5};
    int64_t gs = td_prod_u32(p, 0, 7) < 6 ? gsz[td_prod_u32(p, 0, 5)] : (int64_t)td_prod_u32(p, 1, (uint32_t)s.K + 8);
    if (s.K % gs) c->classes |= TD_BC(TD_BC_TAIL); /* a partial last group */
    int64_t kw = s.K / 8, kg = mm_cdiv(s.K, gs), nz = mm_cdiv(s.N, 8), pad = td_prod_bool(p) ? 2 : 0;
    mm_shape_put(c, i4_map, &s);
    int64_t v[6] = {s.N + pad, 1, s.N + pad, 1, nz + pad, 1};
    for (int i = 0; i < 6; i++) c->p[P_SBK + (i < 2 ? i : i + 2)].i = v[i];
    c->p[P_GS].i = gs;
    c->grid[0] = (uint32_t)(mm_cdiv(s.M, s.BM) * mm_cdiv(s.N, s.BN));
    td_case_alloc(c, R_A, mm_span(s.M, s.K, s.sam, s.sak));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F32));
    mm_fill_view(&g, c, R_A, s.M, s.K, s.sam, s.sak);
    int mb = td_prod_u32(p, 0, 7) < 5 ? 0 : (int)td_prod_u32(p, 1, 3), mz = (int)td_prod_u32(p, 0, 3);
    if (mz) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
    i4_fill_words(&r, c, R_B, kw, s.N, s.N + pad, mb);
    i4_fill_words(&r, c, R_BZP, kg, nz, nz + pad, mz);
    int smode = (int)td_prod_u32(p, 0, IMM_S_COUNT - 1);
    td_case_alloc(c, R_BS, mm_span(kg, s.N, s.N + pad, 1));
    for (int64_t i = 0; i < kg; i++)
        for (int64_t j = 0; j < s.N; j++) td_set(c, R_BS, (size_t)(i * (s.N + pad) + j), imm_scale(&r, smode, 1));
    td_case_alloc(c, R_C, mm_span(s.M, s.N, s.scm, s.scn) + (td_prod_bool(p) ? (size_t)s.BN : 0));
}

static const char *check(const td_case *c) {
    mm_shape s;
    mm_shape_get(c, i4_map, &s);
    for (int k = 0; k < NP; k++)
        if (c->p[k].i < 0) return "parameters are Nat";
    if (s.BM <= 0 || s.BN <= 0 || s.BK <= 0 || s.GM <= 0 || s.M <= 0 || s.N <= 0) return "BM, BN, BK, GM, M, N > 0";
    if (s.K != s.BK * s.T) return "hK: K = BK * numKBlocks";
    if (s.BK % 8) return "hBK8: BK % 8 = 0";
    int64_t gs = c->p[P_GS].i;
    if (gs <= 0) return "group_size > 0";
    if ((int64_t)c->grid[0] != mm_cdiv(s.M, s.BM) * mm_cdiv(s.N, s.BN) || c->grid[1] != 1 || c->grid[2] != 1)
        return "hpid1: grid = (cdiv(M, BM) * cdiv(N, BN), 1)";
    if (!((s.scn == 1 && s.scm >= s.N) || (s.scm == 1 && s.scn >= s.M))) return "hInj: C's active cells distinct";
    if (c->r[R_A].len < mm_span(s.M, s.K, s.sam, s.sak)) return "a holds the rows read";
    if (c->r[R_C].len < mm_span(s.M, s.N, s.scm, s.scn)) return "c holds the write window";
    int64_t kg = mm_cdiv(s.K, gs);
    if (c->r[R_B].len < mm_span(s.K / 8, s.N, c->p[P_SBK].i, c->p[P_SBN].i)) return "b holds K/8 packed rows";
    if (c->r[R_BS].len < mm_span(kg, s.N, c->p[P_SBSK].i, c->p[P_SBSN].i)) return "bs holds the groups' scales";
    if (c->r[R_BZP].len < mm_span(kg, mm_cdiv(s.N, 8), c->p[P_SBZK].i, c->p[P_SBZN].i)) return "bzp holds the zero points";
    if (!imm_scales_ok(c, R_BS)) return "scales finite, |s| < 16";
    return NULL;
}

/* Offsets beyond 2^31: a's rows at a stride_am near 2^31 (mm_far_2d; rows load at % M,
 * so the M cut to TD_FAR_MAX_ROWS keeps every read inside the moved rows).  The
 * kernel's offs_am[:, None] * stride_am is int32 arithmetic in Triton. */
static void far(td_producer *p, td_case *c) { mm_far_2d(p, c, i4_map, &i4_d2); }

static void writes(const td_case *c, td_wset *ws) {
    mm_shape s;
    mm_shape_get(c, i4_map, &s);
    mm_writes_2d(c, ws, &s, &i4_d2);
}

static const td_intent i4_intent = {
    .operation = "C = A @ W, W[k, n] = (q[k, n] - zp[k // group_size, n]) * scale[k // group_size, n]",
    .definition = "torch.matmul of A and the group-wise dequantized int4 weight (GPTQ/AWQ-style), the exact value "
                  "rounded once to C's format",
    TD_SPECS(i4_intent),
};

const td_contract td_c_int4_matmul = {
    .id = "int4_matmul.int4_matmul_exec_genuine",
    .file = "int4_matmul", .family = "matmul", .kind = "exact",
    .io_class = "exec-existential over TileIndex [BM,BN]",
    .formula = "C[scm*row + scn*col] = sum_{k<K} a[row,k] * ((nib(b[k/8, col], k%8) - nib(bzp[k/gs, col/8], col%8)) "
               "* bs[k/gs, col])",
    .nparams = NP, .params = params, .nregions = NR, .regions = regions, .sv = TD_SV_IEEE,
    .sv_note = "finite binary32 activations within the family's bound, |scale| < 16: sums finite",
    .error_model = "exact nibble difference; binary32 weight product; products and a K-sum in any order",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen, .far = far, .check = check, .writes = writes,
    TD_SPECS(i4),
    .intent = &i4_intent,
};
