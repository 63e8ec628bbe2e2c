/* quantize_kv_transform (catalogue part 2): lightllm's _fwd_kernel_destindex_copy_quantize_kv
 * with an explicit head_dim (padded BLOCK_DMODEL) and the scale in Out_scale's dtype.
 *
 *   destindex_copy_quantize_kv_transform_output_summary_general (hD: 0 < BLOCK_DMODEL, hOut:
 *     Out != OutScale, hValInj / hScaleInj), per program state s: Out[Dest_loc[t]*stride_o_bs
 *     + stride_o_h*h + stride_o_d*d] = quantizeKvTransformSurfaceIntValue =
 *     realToInt8(K[t, h, d] / scale_h), scale_h = max_{d < head_dim} |K[t, h, d]| / 127,
 *     active h < head_num and d < head_dim; OutScale[Dest_loc[t]*stride_os_bs +
 *     h*stride_os_h] = scale_h (scaleActive h < head_num).
 *   quantize_kv_transform_io_correctness (the same hypotheses): MetaMasked2DKernelIO_1x2 ⊨
 *     (out1 .int, out2 .float): out1[j] = valueXs, out2[i] = scaleCellXs; read =
 *     pid0*stride_k_bs + (j/BD)*stride_k_h + stride_k_d*(j%BD), write1 = m1*stride_o_bs +
 *     stride_o_h*(j/BD) + stride_o_d*(j%BD), write2 = m1*stride_os_bs + stride_os_h*i;
 *     mask j/BD < head_num && j%BD < head_dim; writeMask2 i < head_num.
 *
 * Readings checked against VeriTile's bench/tritonbench_g/quantize_kv_transform (.py and
 * QuantizeKvTransform.lean): realToInt8 is tritonTruncTowardZero, the kernel's
 * `(src / scale).to(tl.int8)` (slot "store" int8:rtz:sat); the load is masked in both
 * axes (other=0.0), so the padded dims d >= head_dim never raise the absmax (an unmasked
 * load is the "absmax over padding" mutant); the scale is cast to Out_scale's dtype, which
 * the catalogue types .float: this contract's Out_scale is binary32, so the cast is the
 * identity and the value divides by the binary32 scale (the spec charges m / 127's
 * rounding).  BLOCK_DMODEL = next_power_of_2(head_dim), BLOCK_HEAD = next_power_of_2
 * (head_num) (kv_dim_block: also 2x and 4x padding).  The theorem is per program; the
 * launch composes programs, so Dest_loc is injective (td_gen_slots).
 *
 * Error model (contracts/kvquant_common.spec.h, shadow-derived): exact absmax; m / 127 (or
 * m * RN(1/127)) one binary32 rounding (two); x / s (or x * (1/s)) the backend's division
 * budget; the truncating store admits the integers over the quotient's interval.  Domain:
 * each head's absmax 0 or in [2^-100, 2^100] (s normal, |q| < 128; kvquant_common.h). */
#include "kvquant_common.h"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_SSBS, P_SSH, P_SSD, P_HEADS, P_HDIM, P_BD, P_BH, NP };
enum { R_K, R_DEST, R_OUT, R_OS, NR };
enum { C_STORE, C_IROUND };

#define QKVT_LO 0x1p-100
#define QKVT_HI 0x1p100

#define TD_SPEC_FILE "quantize_kv_transform.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride_k_bs", TD_P_INT},  {"stride_k_h", TD_P_INT},  {"stride_k_d", TD_P_INT},   {"stride_o_bs", TD_P_INT},
    {"stride_o_h", TD_P_INT},   {"stride_o_d", TD_P_INT},  {"stride_os_bs", TD_P_INT}, {"stride_os_h", TD_P_INT},
    {"stride_os_d", TD_P_INT},  {"head_num", TD_P_INT},    {"head_dim", TD_P_INT},     {"BLOCK_DMODEL", TD_P_INT},
    {"BLOCK_HEAD", TD_P_INT}};
static const td_region_decl regions[NR] = {{"K", TD_F32, TD_R_IN},
                                           {"Dest_loc", TD_I64, TD_R_META},
                                           {"Out", TD_I8, TD_R_OUT},
                                           {"Out_scale", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[2] = {
    {"store", "int8:rtz:sat", "(src / scale).to(tl.int8): fptosi, truncation toward zero"},
    {"intent_round", "int8:rne:sat", "the intent's round to nearest (torch.round: half to even), clamped to int8; no kernel store"}};

static void gen(td_producer *p, td_case *c) {
    int64_t H, BH, D, BD;
    kv_dim_block(p, 8, &H, &BH, &c->classes);
    kv_dim_block(p, 48, &D, &BD, &c->classes);
    int64_t ntok = td_prod_u32(p, 0, 3) == 0 ? 1 : (int64_t)td_prod_u32(p, 1, 16);
    int64_t cap = kv_cache_rows(p, ntok);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, QKVT_HI);
    int64_t dest[16], kn[3] = {ntok, H, D}, on[3] = {cap, H, D}, sn[3] = {cap, H, 1}, ks[3], os[3], ss[3];
    td_gen_slots(p, &g.rng, dest, ntok, cap, &c->classes);
    int64_t kspan = td_gen_layout(p, 3, kn, ks, 0, &c->classes);
    int64_t ospan = td_gen_layout(p, 3, on, os, 0, &c->classes);
    int64_t sspan = td_gen_layout(p, 3, sn, ss, 0, &c->classes);
    const int64_t v[NP] = {ks[0], ks[1], ks[2], os[0], os[1], os[2], ss[0], ss[1], ss[2], H, D, BD, BH};
    for (int i = 0; i < NP; i++) c->p[i].i = v[i];
    td_case_alloc(c, R_K, (size_t)kspan);
    td_vgen_fill(&g, c, R_K);
    for (int64_t t = 0; t < ntok; t++)
        for (int64_t h = 0; h < H; h++) kvq_shape_row(&g.rng, c, R_K, t * ks[0] + h * ks[1], ks[2], D, QKVT_LO, &c->classes);
    kv_store_meta(c, R_DEST, dest, ntok, 0);
    td_case_alloc(c, R_OUT, (size_t)(ospan + td_prod_u32(p, 0, 8)));
    td_case_alloc(c, R_OS, (size_t)(sspan + td_prod_u32(p, 0, 4)));
    c->grid[0] = (uint32_t)ntok, c->grid[1] = c->grid[2] = 1;
    if (ntok == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (ntok * H * D == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
}

/* Offsets beyond 2^31: kv_far_tokens (kvcopy_common.h) moves K's rows, values kept. */
static void far(td_producer *p, td_case *c) {
    kv_far_tokens(p, c, R_K, P_SKBS, P_SKH, P_SKD, c->p[P_HEADS].i, c->p[P_HDIM].i);
}

static const char *check(const td_case *c) {
    const td_pval *q = c->p;
    int64_t ntok = c->grid[0], H = q[P_HEADS].i, D = q[P_HDIM].i, BD = q[P_BD].i, BH = q[P_BH].i;
    if (!(BD > 0)) return "hD: 0 < BLOCK_DMODEL";
    if ((BD & (BD - 1)) || BH < 1 || (BH & (BH - 1))) return "BLOCK_DMODEL, BLOCK_HEAD powers of two (tl.arange)";
    if (H < 0 || D < 1 || BH < H || BD < D) return "BLOCK_HEAD >= head_num, BLOCK_DMODEL >= head_dim >= 1";
    if (!kv_injective2(H, D, q[P_SOH].i, q[P_SOD].i)) return "hValInj: the tile's value offsets are injective";
    if (H > 1 && q[P_SSH].i < 1) return "hScaleInj: the tile's scale offsets are injective";
    int64_t kn[3] = {ntok, H, D}, ks[3] = {q[P_SKBS].i, q[P_SKH].i, q[P_SKD].i},
            os[3] = {q[P_SOBS].i, q[P_SOH].i, q[P_SOD].i}, ss[2] = {q[P_SSBS].i, q[P_SSH].i};
    const char *e = kvq_check_tensors(c, R_K, R_DEST, R_OUT, R_OS, 3, kn, ks, os, ss);
    if (e) return e;
    for (int64_t t = 0; t < ntok; t++)
        for (int64_t h = 0; h < H; h++)
            if ((e = kvq_check_row(c, R_K, t * ks[0] + h * ks[1], ks[2], D, QKVT_LO, QKVT_HI))) return e;
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    const td_pval *q = c->p;
    for (uint32_t t = 0; t < c->grid[0]; t++) {
        int64_t m = td_geti(c, R_DEST, t);
        for (int64_t h = 0; h < q[P_HEADS].i; h++) {
            for (int64_t d = 0; d < q[P_HDIM].i; d++) {
                td_olane l = {.o = 0, .region = R_OUT, .pid = {t, 0, 0}, .j = (uint64_t)(h * q[P_BD].i + d),
                              .idx = {t, h, d, m}};
                l.off = (uint64_t)(m * q[P_SOBS].i + h * q[P_SOH].i + d * q[P_SOD].i);
                td_wset_add(ws, &l);
            }
            td_olane s = {.o = 1, .region = R_OS, .pid = {t, 0, 0}, .j = (uint64_t)h, .idx = {t, h, 0, m}};
            s.off = (uint64_t)(m * q[P_SSBS].i + h * q[P_SSH].i);
            td_wset_add(ws, &s);
        }
    }
}

static const td_intent intent = {
    .operation = "symmetric absmax int8 quantization of each KV head, written at its cache slot: s = max|x| / 127, "
                 "q = round(x / s)",
    .definition = "the absmax int8 quantization formula (LLM.int8, lightllm's int8 KV cache): s = max_{d < head_dim} |x[h, d]| / 127, "
                  "q = round-half-even(x / s) as int8 (torch.round), dequantized as q * s; a zero head gives 0",
    TD_SPECS(qkvt_intent),
};

#define QKVT_COMMON                                                                                                \
    .file = "quantize_kv_transform", .family = "quantization", .kind = "exact", .nparams = NP, .params = params,  \
    .nregions = NR, .regions = regions, .ncasts = 2, .casts = casts, .sv = TD_SV_REAL,                           \
    .sv_note = "finite K, each head's absmax 0 or in [2^-100, 2^100] (scale normal, |q| < 128); a zero head "     \
               "stores q = 0 and scale 0 (Lean's x / 0 = 0; the kernel's NaN converts to 0)",                    \
    .error_model = "exact absmax over d < head_dim; m / 127 one binary32 rounding; x / s the division budget; "   \
                   "the truncating int8 store admits the integers of the quotient's interval",                  \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | \
               TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_IDX_PERMUTATION) |         \
               TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |            \
               TD_BC(TD_BC_OFFSET_2_31),                                                                           \
    .gen = gen, .far = far, .check = check, .writes = writes, TD_SPECS(qkvt), .intent = &intent

const td_contract td_c_quantize_kv_transform_summary = {
    .id = "quantize_kv_transform.destindex_copy_quantize_kv_transform_output_summary_general",
    .io_class = "ComputeCorrect over TileIndex [BLOCK_HEAD, BLOCK_DMODEL] (int value, float scale via readMem)",
    .formula = "Out[Dest_loc[t], h, d] = trunc_int8(K[t, h, d] / s_h), Out_scale[Dest_loc[t], h] = s_h, "
               "s_h = max_{d < head_dim} |K[t, h, d]| / 127  (h < head_num, d < head_dim)",
    QKVT_COMMON,
};
const td_contract td_c_quantize_kv_transform_io = {
    .id = "quantize_kv_transform.quantize_kv_transform_io_correctness",
    .io_class = "MetaMasked2DKernelIO_1x2 ⊨ (out1 int, out2 float)",
    .formula = "out1 = trunc_int8(x / s_h), out2 = s_h = max_{d < head_dim} |x[h, d]| / 127, at Dest_loc[pid0]",
    QKVT_COMMON,
};
