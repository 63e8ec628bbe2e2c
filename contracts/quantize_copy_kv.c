/* quantize_copy_kv (catalogue part 2): lightllm's _fwd_kernel_destindex_copy_quantize_kv,
 * the per-head int8 KV-cache quantizer with an fp16 scale.
 *
 *   destindex_copy_quantize_kv_output_summary_general (hD: 0 < BLOCK_DMODEL, hOut: Out !=
 *     OutScale, hValInj / hScaleInj: the tile's value / scale offsets injective), per
 *     program state s (ComputeCorrect over TileIndex [BLOCK_HEAD, BLOCK_DMODEL]):
 *     Out[Dest_loc[t]*stride_o_bs + stride_o_h*h + stride_o_d*d] = quantizeCopyKvSurfaceIntValue
 *     = realToInt8(K[t, h, d] / fp16(max_d |K[t, h, d]| / 127)), active h < head_num;
 *     OutScale[Dest_loc[t]*stride_os_bs + h*stride_os_h] = quantizeCopyKvScaleCell
 *     = fp16(max_d |K[t, h, d]| / 127), scaleActive h < head_num.
 *   quantize_copy_kv_io_correctness (the same hypotheses): MetaMasked2DKernelIO_1x2 ⊨[R]:
 *     out1[j] = valueXsR R (the int of x / R(scale), the scale rounded by R to fp16 BEFORE
 *     the division), out2[i] = scaleRealXs stored with out2DType fp16; mbuf1 = Dest_loc,
 *     mwin1 = pid0; read = pid0*stride_k_bs + (j/BD)*stride_k_h + stride_k_d*(j%BD),
 *     write1 = m1*stride_o_bs + stride_o_h*(j/BD) + stride_o_d*(j%BD), write2 =
 *     m1*stride_os_bs + stride_os_h*i; mask j/BD < head_num, writeMask2 i < head_num.
 *
 * Readings checked against VeriTile's bench/tritonbench_g/quantize_copy_kv (.py and
 * QuantizeCopyKv.lean): the named value conversion WithBot.realToInt8 is
 * tritonTruncTowardZero (VeriTile/Triton/Semantics/Scalar.lean), which is what the
 * kernel's `(src_data / data_scale).to(tl.int8)` does (fptosi), so the store slot is
 * int8:rtz:sat; the scale is `(tl.max(abs, axis=1) / 127.).to(tl.float16)` and the value
 * divides by that fp16 scale (valueXsR), so the spec casts the scale (slot "scale",
 * fp16:rne:inf) and divides by the cast value; both theorems state the same numbers and
 * share the generator, checker, write set and spec (the summary's exact form erases the
 * casts over R, the ⊨[R] form keeps them: the kernel stores what the ⊨[R] form says).
 * BLOCK_DMODEL is head_dim itself (the host passes K.shape[2]; tl.arange needs a power of
 * two), so there is no dim mask; BLOCK_HEAD = next_power_of_2(head_num), padded heads
 * masked (kv_dim_block also draws 2x and 4x padding).  The theorem is per program; the
 * launch (grid = (seq_len,)) composes programs, so Dest_loc is injective (td_gen_slots).
 *
 * Error model (contracts/kvquant_common.spec.h, shadow-derived): the absmax is exact; the
 * scale m / 127 (or m * RN(1/127)) is one binary32 rounding (two), then the fp16 cast:
 * the reference casts the exact m / 127, the tolerance admits both fp16 neighbours where
 * the binary32 interval straddles an fp16 rounding boundary; the quotient x / s (or
 * x * (1/s)) is charged the backend's division budget (div.full is not correctly rounded)
 * and the truncating store admits the integers over that interval (an exact integer
 * quotient k admits k - 1 on the side of zero: a quotient a rounding below k truncates to
 * k - 1, which Triton's own div.full may give).  Domain: each head's absmax is 0 or in
 * [2^-6, 2^22] (kvquant_common.h: the fp16 scale normal, |q| < 128). */
#include "kvquant_common.h"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_SSBS, P_SSH, P_SSD, P_HEADS, P_BD, P_BH, NP };
enum { R_K, R_DEST, R_OUT, R_OS, NR };
enum { C_STORE, C_SCALE, C_IROUND };

#define QCKV_LO 0x1p-6
#define QCKV_HI 0x1p22

#define TD_SPEC_FILE "quantize_copy_kv.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride_k_bs", TD_P_INT},  {"stride_k_h", TD_P_INT},  {"stride_k_d", TD_P_INT},  {"stride_o_bs", TD_P_INT},
    {"stride_o_h", TD_P_INT},   {"stride_o_d", TD_P_INT},  {"stride_os_bs", TD_P_INT}, {"stride_os_h", TD_P_INT},
    {"stride_os_d", TD_P_INT},  {"head_num", TD_P_INT},    {"BLOCK_DMODEL", TD_P_INT}, {"BLOCK_HEAD", TD_P_INT}};
static const td_region_decl regions[NR] = {{"K", TD_F32, TD_R_IN},
                                           {"Dest_loc", TD_I64, TD_R_META},
                                           {"Out", TD_I8, TD_R_OUT},
                                           {"Out_scale", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[3] = {
    {"store", "int8:rtz:sat", "(src / scale).to(tl.int8): fptosi, truncation toward zero"},
    {"scale", "fp16:rne:inf", "(max|src| / 127.).to(tl.float16), the scale the value divides by and the store"},
    {"intent_round", "int8:rne:sat", "the intent's round to nearest (torch.round: half to even), clamped to int8; no kernel store"}};

static void gen(td_producer *p, td_case *c) {
    int64_t H, BH;
    kv_dim_block(p, 8, &H, &BH, &c->classes);
    int64_t D = (int64_t)td_gen_pow2(p, 0, 6); /* BLOCK_DMODEL = head_dim: 1 .. 64 */
    int64_t ntok = td_prod_u32(p, 0, 3) == 0 ? 1 : (int64_t)td_prod_u32(p, 1, 16);
    int64_t cap = kv_cache_rows(p, ntok);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, QCKV_HI);
    int64_t dest[16], kn[3] = {ntok, H, D}, on[3] = {cap, H, D}, sn[3] = {cap, H, 1}, ks[3], os[3], ss[3];
    td_gen_slots(p, &g.rng, dest, ntok, cap, &c->classes);
    int64_t kspan = td_gen_layout(p, 3, kn, ks, 0, &c->classes);
    int64_t ospan = td_gen_layout(p, 3, on, os, 0, &c->classes);
    int64_t sspan = td_gen_layout(p, 3, sn, ss, 0, &c->classes);
    const int64_t v[NP] = {ks[0], ks[1], ks[2], os[0], os[1], os[2], ss[0], ss[1], ss[2], H, D, BH};
    for (int i = 0; i < NP; i++) c->p[i].i = v[i];
    td_case_alloc(c, R_K, (size_t)kspan);
    td_vgen_fill(&g, c, R_K);
    for (int64_t t = 0; t < ntok; t++)
        for (int64_t h = 0; h < H; h++) kvq_shape_row(&g.rng, c, R_K, t * ks[0] + h * ks[1], ks[2], D, QCKV_LO, &c->classes);
    kv_store_meta(c, R_DEST, dest, ntok, 0);
    td_case_alloc(c, R_OUT, (size_t)(ospan + td_prod_u32(p, 0, 8)));
    td_case_alloc(c, R_OS, (size_t)(sspan + td_prod_u32(p, 0, 4)));
    c->grid[0] = (uint32_t)ntok, c->grid[1] = c->grid[2] = 1;
    if (ntok == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (ntok * H * D == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
}

/* Offsets beyond 2^31: kv_far_tokens (kvcopy_common.h) moves K's rows, values kept. */
static void far(td_producer *p, td_case *c) {
    kv_far_tokens(p, c, R_K, P_SKBS, P_SKH, P_SKD, c->p[P_HEADS].i, c->p[P_BD].i);
}

static const char *check(const td_case *c) {
    const td_pval *q = c->p;
    int64_t ntok = c->grid[0], H = q[P_HEADS].i, D = q[P_BD].i, BH = q[P_BH].i;
    if (!(D > 0)) return "hD: 0 < BLOCK_DMODEL";
    if ((D & (D - 1)) || BH < 1 || (BH & (BH - 1))) return "BLOCK_DMODEL, BLOCK_HEAD powers of two (tl.arange)";
    if (H < 0 || BH < H) return "BLOCK_HEAD >= head_num (the tile covers every head)";
    if (!kv_injective2(H, D, q[P_SOH].i, q[P_SOD].i)) return "hValInj: the tile's value offsets are injective";
    if (H > 1 && q[P_SSH].i < 1) return "hScaleInj: the tile's scale offsets are injective";
    int64_t kn[3] = {ntok, H, D}, ks[3] = {q[P_SKBS].i, q[P_SKH].i, q[P_SKD].i},
            os[3] = {q[P_SOBS].i, q[P_SOH].i, q[P_SOD].i}, ss[2] = {q[P_SSBS].i, q[P_SSH].i};
    const char *e = kvq_check_tensors(c, R_K, R_DEST, R_OUT, R_OS, 3, kn, ks, os, ss);
    if (e) return e;
    for (int64_t t = 0; t < ntok; t++)
        for (int64_t h = 0; h < H; h++)
            if ((e = kvq_check_row(c, R_K, t * ks[0] + h * ks[1], ks[2], D, QCKV_LO, QCKV_HI))) return e;
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    const td_pval *q = c->p;
    for (uint32_t t = 0; t < c->grid[0]; t++) {
        int64_t m = td_geti(c, R_DEST, t);
        for (int64_t h = 0; h < q[P_HEADS].i; h++) {
            for (int64_t d = 0; d < q[P_BD].i; d++) {
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
    .operation = "symmetric absmax int8 quantization of each KV head, written at its cache slot: s = max|x| / 127 "
                 "(stored as fp16), q = round(x / s)",
    .definition = "the absmax int8 quantization formula (LLM.int8, lightllm's int8 KV cache): s = max_d |x[h, d]| / "
                  "127, q = round-half-even(x / s) as int8 (torch.round), dequantized as q * s; a zero head gives 0",
    TD_SPECS(qckv_intent),
};

#define QCKV_COMMON                                                                                                \
    .file = "quantize_copy_kv", .family = "quantization", .nparams = NP, .params = params, .nregions = NR,        \
    .regions = regions, .ncasts = 3, .casts = casts, .sv = TD_SV_REAL,                                           \
    .sv_note = "finite K, each head's absmax 0 or in [2^-6, 2^22] (fp16 scale normal, |q| < 128); a zero head "   \
               "stores q = 0 and scale 0 (Lean's x / 0 = 0; the kernel's NaN converts to 0)",                    \
    .error_model = "exact absmax; m / 127 one binary32 rounding then the fp16 cast; x / s the division budget; "  \
                   "the truncating int8 store admits the integers of the quotient's interval",                  \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | \
               TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_IDX_PERMUTATION) |         \
               TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |            \
               TD_BC(TD_BC_OFFSET_2_31),                                                                           \
    .gen = gen, .far = far, .check = check, .writes = writes, TD_SPECS(qckv), .intent = &intent

const td_contract td_c_quantize_copy_kv_summary = {
    .id = "quantize_copy_kv.destindex_copy_quantize_kv_output_summary_general",
    .io_class = "ComputeCorrect over TileIndex [BLOCK_HEAD, BLOCK_DMODEL] (value) + raw fp16 scale readback",
    .kind = "exact",
    .formula = "Out[Dest_loc[t], h, d] = trunc_int8(K[t, h, d] / fp16(max_d |K[t, h, :]| / 127)); "
               "Out_scale[Dest_loc[t], h] = fp16(max_d |K[t, h, :]| / 127)  (h < head_num)",
    QCKV_COMMON,
};
const td_contract td_c_quantize_copy_kv_io = {
    .id = "quantize_copy_kv.quantize_copy_kv_io_correctness",
    .io_class = "MetaMasked2DKernelIO_1x2 ⊨[R] (out1 int, out2 fp16)",
    .kind = "rounding",
    .formula = "out1 = trunc_int8(x / R_fp16(max_d |x| / 127)), out2 = R_fp16(max_d |x| / 127) per head, at "
               "Dest_loc[pid0]",
    QCKV_COMMON,
};
