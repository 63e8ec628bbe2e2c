/* quantize_kv_copy (catalogue part 2): lightllm's groupwise _fwd_kernel_destindex_copy_quantize_kv,
 * int8 KV-cache quantization with one scale per group of BLOCK_GROUP_DIM dims.
 *
 *   destindex_copy_quantize_kv_group_output_summary_general (hD: 0 < BLOCK_GROUP_DIM, hOut:
 *     Out != OutScale, hOutInj / hScaleInj), per program state s = (t, head): Out[Dest_loc[t]
 *     *stride_o_bs + head*stride_o_h + g*stride_o_g + d] = quantizeKvCopyGroupSurfaceIntValue
 *     = realToInt8(K[t, head, g, d] / scale_g), scale_g = max_d |K[t, head, g, d]| / 127,
 *     active g < group_size; OutScale[Dest_loc[t]*stride_os_bs + head*stride_os_h + g] =
 *     scale_g (scaleActive g < group_size).
 *   quantize_kv_copy_io_correctness (hD, hOut, hValInj: (g, d) -> g*stride_o_g + d injective
 *     on [BLOCK_GROUP_NUM, BLOCK_GROUP_DIM]): MetaMasked2DKernelIO_1x2 ⊨ (out1 .int, out2
 *     .float): B = BGN*BGD, C = BGN; read = pid0*stride_k_bs + pid1*stride_k_h +
 *     (j/BGD)*stride_k_g + (j%BGD); write1 = m1*stride_o_bs + pid1*stride_o_h +
 *     (j/BGD)*stride_o_g + (j%BGD); write2 = m1*stride_os_bs + pid1*stride_os_h + i; mask
 *     j/BGD < group_size, writeMask2 i < group_size.
 *
 * Readings checked against VeriTile's bench/tritonbench_g/quantize_kv_copy (.py and
 * QuantizeKvCopy.lean): the catalogue's "int(round(...))" is realToInt8 =
 * tritonTruncTowardZero (Scalar.lean), what `(src / data_scale[:, None]).to(tl.int8)` does
 * (fptosi): slot "store" int8:rtz:sat, not a rounding to nearest.  group_size is the NUMBER
 * of groups per head (head_dim / 8 in the host, which views K as [seq, heads, groups, 8]);
 * BLOCK_GROUP_NUM = next_power_of_2(group_size) (kv_dim_block: also 2x and 4x padding),
 * BLOCK_GROUP_DIM = 8 in the host (drawn 8 mostly, any power of two up to 16 otherwise).
 * The kernel never multiplies by stride_k_d, stride_o_d or stride_os_g (unit inner
 * strides, as the statement's offsets say): the layouts here keep d and the scale's group
 * contiguous and those parameters are 1.  The scale is cast to Out_scale's dtype, typed
 * .float: binary32 here, so the value divides by the binary32 scale.  Grid (seq_len,
 * head_num): head_num is no parameter, the grid's second axis.  Dest_loc injective
 * (td_gen_slots): the launch composes the per-program theorem.
 *
 * Error model (contracts/kvquant_common.spec.h, shadow-derived): exact absmax; m / 127 one
 * binary32 rounding (or m * RN(1/127)); x / s (or x * (1/s)) the backend's division budget;
 * the truncating store admits the integers over the quotient's interval.  Domain: each
 * group's absmax 0 or in [2^-100, 2^100] (kvquant_common.h). */
#include "kvquant_common.h"

enum { P_SKBS, P_SKH, P_SKG, P_SKD, P_SOBS, P_SOH, P_SOG, P_SOD, P_SSBS, P_SSH, P_SSG, P_G, P_BGN, P_BGD, NP };
enum { R_K, R_DEST, R_OUT, R_OS, NR };
enum { C_STORE, C_IROUND };

#define QKVC_LO 0x1p-100
#define QKVC_HI 0x1p100

#define TD_SPEC_FILE "quantize_kv_copy.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride_k_bs", TD_P_INT},  {"stride_k_h", TD_P_INT},      {"stride_k_g", TD_P_INT},     {"stride_k_d", TD_P_INT},
    {"stride_o_bs", TD_P_INT},  {"stride_o_h", TD_P_INT},      {"stride_o_g", TD_P_INT},     {"stride_o_d", TD_P_INT},
    {"stride_os_bs", TD_P_INT}, {"stride_os_h", TD_P_INT},     {"stride_os_g", TD_P_INT},    {"group_size", TD_P_INT},
    {"BLOCK_GROUP_NUM", TD_P_INT}, {"BLOCK_GROUP_DIM", TD_P_INT}};
static const td_region_decl regions[NR] = {{"K", TD_F32, TD_R_IN},
                                           {"Dest_loc", TD_I64, TD_R_META},
                                           {"Out", TD_I8, TD_R_OUT},
                                           {"Out_scale", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[2] = {
    {"store", "int8:rtz:sat", "(src / scale).to(tl.int8): fptosi, truncation toward zero"},
    {"intent_round", "int8:rne:sat", "the intent's round to nearest (torch.round: half to even), clamped to int8; no kernel store"}};

/* a layout over k dims of chunks of w contiguous elements: element strides, element span */
static int64_t qkvc_layout(td_producer *p, int k, const int64_t *n, int64_t w, int64_t *s, uint64_t *classes) {
    td_gen_layout(p, k, n, s, 0, classes);
    for (int d = 0; d < k; d++) s[d] *= w;
    return kv_max_off(k, n, s) + w;
}

static void gen(td_producer *p, td_case *c) {
    int64_t G, BGN;
    kv_dim_block(p, 16, &G, &BGN, &c->classes);
    int64_t BGD = td_prod_u32(p, 0, 3) ? 8 : (int64_t)td_gen_pow2(p, 0, 4);
    int64_t H = td_prod_u32(p, 0, 2) == 0 ? 1 : (int64_t)td_prod_u32(p, 1, 6);
    int64_t ntok = td_prod_u32(p, 0, 3) == 0 ? 1 : (int64_t)td_prod_u32(p, 1, 12);
    int64_t cap = kv_cache_rows(p, ntok);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, QKVC_HI);
    int64_t dest[12], kn[3] = {ntok, H, G}, on[3] = {cap, H, G}, sn[2] = {cap, H}, ks[3], os[3], ss[2];
    td_gen_slots(p, &g.rng, dest, ntok, cap, &c->classes);
    int64_t kspan = qkvc_layout(p, 3, kn, BGD, ks, &c->classes);
    int64_t ospan = qkvc_layout(p, 3, on, BGD, os, &c->classes);
    int64_t sspan = qkvc_layout(p, 2, sn, G, ss, &c->classes);
    const int64_t v[NP] = {ks[0], ks[1], ks[2], 1, os[0], os[1], os[2], 1, ss[0], ss[1], 1, G, BGN, BGD};
    for (int i = 0; i < NP; i++) c->p[i].i = v[i];
    td_case_alloc(c, R_K, (size_t)kspan);
    td_vgen_fill(&g, c, R_K);
    for (int64_t t = 0; t < ntok; t++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t k = 0; k < G; k++)
                kvq_shape_row(&g.rng, c, R_K, t * ks[0] + h * ks[1] + k * ks[2], 1, BGD, QKVC_LO, &c->classes);
    kv_store_meta(c, R_DEST, dest, ntok, 0);
    td_case_alloc(c, R_OUT, (size_t)(ospan + td_prod_u32(p, 0, 8)));
    td_case_alloc(c, R_OS, (size_t)(sspan + td_prod_u32(p, 0, 4)));
    c->grid[0] = (uint32_t)ntok, c->grid[1] = (uint32_t)H, c->grid[2] = 1;
    if (ntok * H == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (ntok * H * G * BGD == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
}

/* Offsets beyond 2^31: K's token rows moved to a far stride_k_bs (td_far_move_rows),
 * each token's heads and groups kept where the layout put them; Dest_loc's first
 * tokens and the outputs keep theirs, and every group's values are what gen shaped. */
static void far(td_producer *p, td_case *c) {
    const td_pval *q = c->p;
    int64_t H = c->grid[1], G = q[P_G].i, BGD = q[P_BGD].i;
    if (H >= 1 && G >= 1) td_far_move_rows(p, c, R_K, 0, P_SKBS, (H - 1) * q[P_SKH].i + (G - 1) * q[P_SKG].i + BGD);
}

static const char *check(const td_case *c) {
    const td_pval *q = c->p;
    int64_t ntok = c->grid[0], H = c->grid[1], G = q[P_G].i, BGN = q[P_BGN].i, BGD = q[P_BGD].i;
    if (!(BGD > 0)) return "hD: 0 < BLOCK_GROUP_DIM";
    if ((BGD & (BGD - 1)) || BGN < 1 || (BGN & (BGN - 1))) return "BLOCK_GROUP_NUM, BLOCK_GROUP_DIM powers of two";
    if (G < 1 || BGN < G) return "BLOCK_GROUP_NUM >= group_size >= 1 (the tile covers every group)";
    if (q[P_SKD].i != 1 || q[P_SOD].i != 1 || q[P_SSG].i != 1)
        return "unit inner strides (the kernel adds offs_d and offs_g unscaled)";
    if (BGN > 1 && q[P_SOG].i < BGD) return "hValInj: (g, d) -> g*stride_o_g + d injective on the tile";
    int64_t kn[4] = {ntok, H, G, BGD}, ks[4] = {q[P_SKBS].i, q[P_SKH].i, q[P_SKG].i, 1},
            os[4] = {q[P_SOBS].i, q[P_SOH].i, q[P_SOG].i, 1}, ss[3] = {q[P_SSBS].i, q[P_SSH].i, 1};
    const char *e = kvq_check_tensors(c, R_K, R_DEST, R_OUT, R_OS, 4, kn, ks, os, ss);
    if (e) return e;
    for (int64_t t = 0; t < ntok; t++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t k = 0; k < G; k++)
                if ((e = kvq_check_row(c, R_K, t * ks[0] + h * ks[1] + k * ks[2], 1, BGD, QKVC_LO, QKVC_HI))) return e;
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    const td_pval *q = c->p;
    int64_t G = q[P_G].i, BGD = q[P_BGD].i;
    for (uint32_t t = 0; t < c->grid[0]; t++) {
        int64_t m = td_geti(c, R_DEST, t);
        for (uint32_t h = 0; h < c->grid[1]; h++)
            for (int64_t k = 0; k < G; k++) {
                for (int64_t d = 0; d < BGD; d++) {
                    td_olane l = {.o = 0, .region = R_OUT, .pid = {t, h, 0}, .j = (uint64_t)(k * BGD + d),
                                  .idx = {t, h, k, d}};
                    l.off = (uint64_t)(m * q[P_SOBS].i + h * q[P_SOH].i + k * q[P_SOG].i + d);
                    td_wset_add(ws, &l);
                }
                td_olane s = {.o = 1, .region = R_OS, .pid = {t, h, 0}, .j = (uint64_t)k, .idx = {t, h, k, 0}};
                s.off = (uint64_t)(m * q[P_SSBS].i + h * q[P_SSH].i + k);
                td_wset_add(ws, &s);
            }
    }
}

static const td_intent intent = {
    .operation = "symmetric absmax int8 quantization of each KV group, written at its cache slot: s = max|x| / 127, "
                 "q = round(x / s)",
    .definition = "the absmax int8 quantization formula (LLM.int8, lightllm's int8 KV cache): s = max_d |x[h, g, d]| / 127, "
                  "q = round-half-even(x / s) as int8 (torch.round), dequantized as q * s; a zero group gives 0",
    TD_SPECS(qkvc_intent),
};

#define QKVC_COMMON                                                                                                \
    .file = "quantize_kv_copy", .family = "quantization", .kind = "exact", .nparams = NP, .params = params,       \
    .nregions = NR, .regions = regions, .ncasts = 2, .casts = casts, .sv = TD_SV_REAL,                           \
    .sv_note = "finite K, each group's absmax 0 or in [2^-100, 2^100] (scale normal, |q| < 128); a zero group "   \
               "stores q = 0 and scale 0 (Lean's x / 0 = 0; the kernel's NaN converts to 0)",                    \
    .error_model = "exact absmax per group; m / 127 one binary32 rounding; x / s the division budget; the "       \
                   "truncating int8 store admits the integers of the quotient's interval",                      \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | \
               TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_IDX_PERMUTATION) |         \
               TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |           \
               TD_BC(TD_BC_OFFSET_2_31),                                                                           \
    .gen = gen, .far = far, .check = check, .writes = writes, TD_SPECS(qkvc), .intent = &intent

const td_contract td_c_quantize_kv_copy_summary = {
    .id = "quantize_kv_copy.destindex_copy_quantize_kv_group_output_summary_general",
    .io_class = "ComputeCorrect over TileIndex [BLOCK_GROUP_NUM, BLOCK_GROUP_DIM] (int value, float scale)",
    .formula = "Out[Dest_loc[t], h, g, d] = trunc_int8(K[t, h, g, d] / s_g), Out_scale[Dest_loc[t], h, g] = s_g, "
               "s_g = max_d |K[t, h, g, d]| / 127  (g < group_size)",
    QKVC_COMMON,
};
const td_contract td_c_quantize_kv_copy_io = {
    .id = "quantize_kv_copy.quantize_kv_copy_io_correctness",
    .io_class = "MetaMasked2DKernelIO_1x2 ⊨ (out1 int, out2 float)",
    .formula = "out1 = trunc_int8(x / s_g), out2 = s_g = max_d |x[g, d]| / 127 per group, at Dest_loc[pid0], "
               "head pid1",
    QKVC_COMMON,
};
