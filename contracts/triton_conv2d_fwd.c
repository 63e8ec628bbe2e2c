/* triton_conv2d_fwd: the grouped 2-D convolution forward (catalogue part 2).
 *
 *   conv2d_output_summary (hBIN : 0 < BIN) (hundef) (hIGD : in_feat_dim / groups = BIN *
 *     numCBlocks) (hOutInj : outputOffset injective): Realizes_without_Rounding over
 *     TileIndex [BHW, OF], fp16 = true:
 *     Output[outputOffset (i, j)] = convSpec = sum_{h < KH} sum_{w < KW} sum_{c < BIN*numCBlocks}
 *       In[IBS*b + IIFS*(g*IGD + c) + IHS*ih + IWS*iw] * W[WOFS*(g*OGD + f) + WIFS*c + WHS*h + WWS*w]
 *       (a term is 0 where ih = h - PH + SH*oh or iw = w - PW + SW*ow leaves [0, in_height) x
 *       [0, in_width): the masked load, zero padding)
 *     where (b, oh, ow) = the flat index pid0*BHW + i split by out_height, out_width,
 *     f = pid1*OF + j, g = pid2, IGD = in_feat_dim / groups, OGD = out_feat_dim / groups,
 *     written where b < batch_dim and f < OGD (writeIf active).
 *   triton_conv2d_fwd_io_correctness (R) (hfp16 : R.round .fp16 = id) (hBIN) (hIGD)
 *     (hOutInj over every pid): StreamMetaMasked3DKernelIO_2 (nMeta = 0), T = KH*KW*numCBlocks
 *     steps (h, w, c-block), outDType .real: out[l] = convStreamSum, the same sum.
 *
 * Checked against bench/tritonbench_g/triton_conv2d_fwd/triton_conv2d_fwd.py and
 * TritonConv2dFwd.lean: the [named] convSpec is the kernel's sum (input_height_offset =
 * h - padding_height + stride_height * output_height_offset, the six-conjunct input mask,
 * weight_mask c < in_group_dim & f < out_group_dim, the group offsets on both pointers,
 * output_mask).  The kernel has no dilation parameter (dilation 1).  The launcher's grid
 * is (cdiv(batch*out_h*out_w, BHW), cdiv(out_feat_dim, OF), groups): with groups > 1
 * the programs with pid1*OF >= out_group_dim are fully masked; it computes out_height =
 * (in_height + 2*PH - KH) // SH + 1 (the generator does too; the theorem holds for any
 * out_height).  Weights are [out_feat_dim, in_feat_dim / groups, KH, KW].
 *
 * fp16.  Both theorems fix the kernel's fp16 flag true: the loaded binary32 blocks are
 * cast .to(tl.float16) before tl.dot, which the model reads as the identity (the
 * closed form's real semantics; the IO theorem's hfp16).  The regions are binary32 (the
 * launcher's tensors) and the generator promises values that binary16 holds exactly,
 * so that the cast is the identity on every case (checker: "hfp16 domain"); tf32 then
 * changes nothing either (a binary16 value is a tf32 value).  Outside that domain the
 * theorems say nothing.
 *
 * Error model (any implementation of the spec): the output is the binary32 accumulator,
 * stored without a cast (outDType .real into a float32 tensor).  Each product of two
 * binary16 values is exact in binary32 (22 significant bits; exponents within range),
 * charged u|p| all the same by N(mul); the n = (number of in-bounds terms) products are
 * summed in any order, tree shape, split over blocks of channels or kernel positions
 * (TD_ORDER_ANY): gamma_{n-1} sum |p| (Higham, ASNA 2nd ed., 4.2).  A masked term is an
 * exact 0 (x + 0 = x in every order), so it adds no rounding and is not counted in n.
 * Special values: finite operands with |v| <= 65504 and at most 1200 terms: every partial
 * sum stays below 2^43 (finite); the real policy.
 */
#include "triton_conv2d_fwd.h"

#define TD_SPEC_FILE "triton_conv2d_fwd.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[CV_NP] = {
    {"batch_dim", TD_P_INT},   {"in_feat_dim", TD_P_INT}, {"in_height", TD_P_INT},    {"in_width", TD_P_INT},
    {"out_feat_dim", TD_P_INT}, {"out_height", TD_P_INT}, {"out_width", TD_P_INT},    {"IBS", TD_P_INT},
    {"IIFS", TD_P_INT},        {"IHS", TD_P_INT},         {"IWS", TD_P_INT},          {"WOFS", TD_P_INT},
    {"WIFS", TD_P_INT},        {"WHS", TD_P_INT},         {"WWS", TD_P_INT},          {"OBS", TD_P_INT},
    {"OOFS", TD_P_INT},        {"OHS", TD_P_INT},         {"OWS", TD_P_INT},          {"KH", TD_P_INT},
    {"KW", TD_P_INT},          {"SH", TD_P_INT},          {"SW", TD_P_INT},           {"PH", TD_P_INT},
    {"PW", TD_P_INT},          {"groups", TD_P_INT},      {"tf32", TD_P_BOOL},        {"BHW", TD_P_INT},
    {"BIN", TD_P_INT},         {"OF", TD_P_INT},          {"numCBlocks", TD_P_INT}};
static const td_region_decl regions[CV_NR] = {
    {"Input", TD_F32, TD_R_IN}, {"Weight", TD_F32, TD_R_IN}, {"Output", TD_F32, TD_R_OUT}};

/* Spatial extent: the output size first (1 often), the padding at its edges (0, KH-1,
 * beyond KH: windows wholly in the padding), the input size derived so that the
 * launcher's formula gives back out (with the stride's remainder), else out from in. */
static void cv_axis(td_producer *p, int64_t *k, int64_t *s, int64_t *pad, int64_t *in, int64_t *out) {
    static const unsigned kw[5] = {3, 1, 4, 1, 1}; /* 1..5: 1 and 3 favoured */
    *k = 1 + td_prod_pick(p, kw, 5);
    *s = td_prod_u32(p, 1, 4);
    static const unsigned pw[4] = {3, 2, 2, 1}; /* 0, k-1, anything up to k, k+1 */
    switch (td_prod_pick(p, pw, 4)) {
    case 0: *pad = 0; break;
    case 1: *pad = *k - 1; break;
    case 2: *pad = td_prod_u32(p, 0, (uint32_t)*k); break;
    default: *pad = *k + 1; break;
    }
    int64_t o = td_prod_bool(p) ? 1 : td_prod_u32(p, 1, 6);
    int64_t rem = td_prod_u32(p, 0, (uint32_t)(*s - 1));
    *in = (o - 1) * *s + *k - 2 * *pad + rem;
    if (*in < 1) *in = 1;
    *out = (*in + 2 * *pad - *k) / *s + 1;
}

static int64_t cv_span4(const int64_t *ext, const int64_t *st) {
    int64_t m = 0;
    for (int d = 0; d < 4; d++) {
        if (ext[d] <= 0) return 0;
        m += (ext[d] - 1) * st[d];
    }
    return m + 1;
}

/* Strides of a 4-D tensor [d0, d1, d2, d3]: d1 innermost-but-one order "channels first"
 * (d0, d1, d2, d3) or "channels last" (d0, d2, d3, d1), with a pad on the row stride. */
static void cv_strides(td_producer *p, const int64_t *ext, int64_t *st, uint64_t *cls) {
    int64_t pad = td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, 3) : 0;
    if (pad) *cls |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (td_prod_u32(p, 0, 2) == 0) { /* channels last */
        st[1] = 1, st[3] = ext[1], st[2] = ext[3] * ext[1] + pad, st[0] = ext[2] * st[2];
    } else {
        st[3] = 1, st[2] = ext[3] + pad, st[1] = ext[2] * st[2], st[0] = ext[1] * st[1];
    }
}

static void gen(td_producer *p, td_case *c) {
    uint64_t cls = 0;
    int64_t G = td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 2, 3) : 1;
    int64_t BIN = td_gen_pow2(p, 0, 3), NCB = td_prod_u32(p, 1, 3), OF = td_gen_pow2(p, 0, 3);
    int64_t OGD = td_prod_u32(p, 1, 5), B = td_prod_u32(p, 1, 2);
    int64_t KH, KW, SH, SW, PH, PW, IH, IW, OH, OW;
    cv_axis(p, &KH, &SH, &PH, &IH, &OH);
    cv_axis(p, &KW, &SW, &PW, &IW, &OW);
    /* keep the work (lanes x terms) near 2^15: fewer channel blocks, then batches */
    while (NCB > 1 && B * G * OGD * OH * OW * KH * KW * BIN * NCB > (1 << 15)) NCB--;
    while (B > 1 && B * G * OGD * OH * OW * KH * KW * BIN * NCB > (1 << 15)) B--;
    int64_t IGD = BIN * NCB;
    /* channels beyond the last group (floor division), now and then */
    int64_t cin = G * IGD + (G > 1 && td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, (uint32_t)G - 1) : 0);
    int64_t cout = G * OGD + (G > 1 && td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, (uint32_t)G - 1) : 0);
    int64_t BHW = td_gen_pow2(p, 0, 6);
    int64_t n = B * OH * OW, g0 = (n + BHW - 1) / BHW, g1 = (cout + OF - 1) / OF;
    int64_t iext[4] = {B, cin, IH, IW}, wext[4] = {cout, IGD, KH, KW}, oext[4] = {B, cout, OH, OW};
    int64_t ist[4], wst[4], ost[4];
    cv_strides(p, iext, ist, &cls);
    cv_strides(p, wext, wst, &cls);
    cv_strides(p, oext, ost, &cls);
    int64_t v[CV_NP] = {B,      cin,    IH,     IW,     cout,   OH,     OW,     ist[0], ist[1], ist[2], ist[3],
                        wst[0], wst[1], wst[2], wst[3], ost[0], ost[1], ost[2], ost[3], KH,     KW,     SH,
                        SW,     PH,     PW,     G,      0,      BHW,    BIN,    OF,     NCB};
    for (int k = 0; k < CV_NP; k++) c->p[k].i = v[k];
    c->p[CV_TF32].i = td_prod_bool(p);
    c->grid[0] = (uint32_t)g0, c->grid[1] = (uint32_t)g1, c->grid[2] = (uint32_t)G;
    uint64_t shape = 0; /* the BHW axis against its block; one lane only with one output channel too */
    td_gen_mark_shape((uint64_t)n, (uint64_t)BHW, (uint64_t)(g0 * g1 * G), &shape);
    cls |= shape & ~TD_BC(TD_BC_SINGLE_LANE);
    if (n * OGD * G == 1) cls |= TD_BC(TD_BC_SINGLE_LANE);
    if (KH * KW * NCB > 1) cls |= TD_BC(TD_BC_MULTI_TILE);
    if ((g1 - 1) * OF >= OGD) cls |= TD_BC(TD_BC_FULLY_MASKED); /* the last pid1 has no active feature */
    c->classes |= cls;
    td_case_alloc(c, CV_IN, (size_t)cv_span4(iext, ist));
    td_case_alloc(c, CV_W, (size_t)cv_span4(wext, wst));
    td_case_alloc(c, CV_OUT, (size_t)cv_span4(oext, ost) + (td_prod_bool(p) ? (size_t)OF : 0));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F16));
    /* binary16 values in the binary32 regions (the hfp16 domain, see the header) */
    td_vgen_fill_as(&g, c, CV_IN, 0, c->r[CV_IN].len, TD_F16);
    td_vgen_fill_as(&g, c, CV_W, 0, c->r[CV_W].len, TD_F16);
}

/* Offsets beyond 2^31 (gen_far.h): Input's channel axis (one group of 2 to
 * TD_FAR_MAX_ROWS channels: the last one's input_feat_offset * input_in_feat_stride is
 * the term that passes 2^31), else its batch axis (2 batches), moved to a stride near
 * 2^31 over a sparse region (td_far_move_param_axis: the other axes packed, every element
 * where the new strides put it), as the kernel's input_in_feat_stride * (channel) and
 * input_batch_stride * batch_offset, int32 in Triton, get wrong.  Weight and Output
 * keep their layouts. */
/* some window position (k < K, o < out) reads an input row inside [0, in) */
static int cv_axis_reads(int64_t K, int64_t S, int64_t P, int64_t in, int64_t out) {
    for (int64_t k = 0; k < K; k++)
        for (int64_t o = 0; o < out; o++)
            if (k - P + S * o >= 0 && k - P + S * o < in) return 1;
    return 0;
}
static void far(td_producer *p, td_case *c) {
    cv_dims d;
    cv_get(c, &d);
    /* the last batch or channel moved must be read (a window inside the input, a channel
     * of some group), or nothing addresses the far row */
    if (!cv_axis_reads(d.KH, d.SH, d.PH, d.IH, d.OH) || !cv_axis_reads(d.KW, d.SW, d.PW, d.IW, d.OW)) return;
    const int64_t n[4] = {d.B, d.cin, d.IH, d.IW};
    static const int ps[4] = {CV_IBS, CV_IIFS, CV_IHS, CV_IWS};
    int axis = d.G == 1 && d.cin >= 2 && d.cin <= TD_FAR_MAX_ROWS && d.cin == d.IGD ? 1 : 0;
    (void)td_far_move_param_axis(p, c, CV_IN, 4, n, ps, axis);
}

/* Input and Weight hold binary16 values; of a sparse Input (offsets beyond 2^31) only
 * the pages written can hold anything but zeros, which binary16 holds */
typedef struct cv_f16scan {
    const td_case *c;
    int reg, bad;
} cv_f16scan;
static void cv_f16_span(void *u, size_t lo, size_t hi) {
    cv_f16scan *q = u;
    size_t eb = td_fmt_get(q->c->r[q->reg].fmt)->bytes;
    for (size_t k = lo / eb; k < hi / eb && k < q->c->r[q->reg].len && !q->bad; k++) {
        double x = td_get(q->c, q->reg, k);
        q->bad = !(fabs(x) <= 65504) ||
                 td_decode(TD_F16, td_encode_f64((td_profile){TD_F16, TD_RNE, TD_OVF_SAT, false}, x)) != x;
    }
}
static int cv_f16_values(const td_case *c, int reg) {
    cv_f16scan q = {c, reg, 0};
    size_t bytes = c->r[reg].len * td_fmt_get(c->r[reg].fmt)->bytes;
    if (c->r[reg].mapped) td_touched_pages(c->r[reg].data, bytes, cv_f16_span, &q);
    else cv_f16_span(&q, 0, bytes);
    return !q.bad;
}

static const char *check(const td_case *c) {
    cv_dims d;
    cv_get(c, &d);
    for (int k = 0; k < CV_NP; k++)
        if (c->p[k].i < 0) return "parameters are Nat";
    if (d.BIN <= 0) return "hBIN: 0 < BIN";
    if (d.G <= 0 || d.BHW <= 0 || d.OF <= 0 || d.SH <= 0 || d.SW <= 0 || d.OH <= 0 || d.OW <= 0)
        return "groups, BHW, OF, strides, out_height, out_width > 0 (a launchable grid)";
    if (d.cin / d.G != d.BIN * d.NCB) return "hIGD: in_feat_dim / groups = BIN * numCBlocks";
    if (d.B * d.OH * d.OW > (1 << 24) || d.cout > (1 << 16)) return "sizes within the generator's domain";
    if (c->grid[0] != (uint64_t)((d.B * d.OH * d.OW + d.BHW - 1) / d.BHW) ||
        c->grid[1] != (uint64_t)((d.cout + d.OF - 1) / d.OF) || c->grid[2] != (uint64_t)d.G)
        return "grid = (cdiv(batch*out_h*out_w, BHW), cdiv(out_feat_dim, OF), groups)";
    int64_t iext[4] = {d.B, d.cin, d.IH, d.IW}, wext[4] = {d.cout, d.IGD, d.KH, d.KW};
    int64_t oext[4] = {d.B, d.cout, d.OH, d.OW};
    if (c->r[CV_IN].len < (size_t)cv_span4(iext, d.is)) return "Input holds read1's window";
    if (c->r[CV_W].len < (size_t)cv_span4(wext, d.ws)) return "Weight holds read2's window";
    if (c->r[CV_OUT].len < (size_t)cv_span4(oext, d.os)) return "Output holds the write window";
    if (!cv_out_injective(&d)) return "hOutInj: the output layout keeps active lanes apart";
    for (int r = CV_IN; r <= CV_W; r++)
        if (!cv_f16_values(c, r))
            return "hfp16 domain: Input and Weight hold binary16 values (the fp16 cast is the identity)";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    cv_dims d;
    cv_get(c, &d);
    for (uint32_t g = 0; g < c->grid[2]; g++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
                for (int64_t i = 0; i < d.BHW; i++)
                    for (int64_t j = 0; j < d.OF; j++) {
                        int64_t bhw = p0 * d.BHW + i, b = bhw / d.OW / d.OH, oh = bhw / d.OW % d.OH;
                        int64_t ow = bhw % d.OW, f = p1 * d.OF + j;
                        if (!(b < d.B && f < d.OGD)) continue; /* output_mask */
                        int64_t oc = g * d.OGD + f;
                        td_olane l = {.region = CV_OUT,
                                      .off = (uint64_t)(d.os[0] * b + d.os[1] * oc + d.os[2] * oh + d.os[3] * ow),
                                      .pid = {p0, p1, g}, .j = (uint64_t)(i * d.OF + j), .idx = {b, oc, oh, ow}};
                        td_wset_add(ws, &l);
                    }
}

static const td_intent cv_intent = {
    .operation = "2-D convolution of Input by Weight (stride, zero padding, groups), float32 out",
    .definition = "torch.nn.functional.conv2d(input, weight, stride=(SH, SW), padding=(PH, PW), groups) (PyTorch "
                  "documentation: out[b, oc] = sum over the group's in-channels k of weight[oc, k] cross-correlated "
                  "with the zero-padded input[b, g*IGD + k]), the exact value rounded once to float32",
    TD_SPECS(cv_intent),
};

#define CV_COMMON                                                                                                  \
    .file = "triton_conv2d_fwd", .family = "conv", .nparams = CV_NP, .params = params, .nregions = CV_NR,          \
    .regions = regions, .sv = TD_SV_REAL,                                                                           \
    .sv_note = "finite binary16-valued operands (the fp16 flag's cast is the identity on them), every partial sum " \
               "finite; zero padding is exact",                                                                    \
    .error_model = "binary16 products (exact in binary32), summed in any order over the in-bounds window: "        \
                   "gamma_{n-1} sum|p|; no output cast",                                                           \
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) |                      \
               TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) |                          \
               TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED) |                  \
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_MULTI_TILE) |                  \
               TD_BC(TD_BC_OFFSET_2_31), .far = far,                                                               \
    .gen = gen, .check = check, .writes = writes, TD_SPECS(cv), .intent = &cv_intent

const td_contract td_c_triton_conv2d_fwd_cf = {
    .id = "triton_conv2d_fwd.conv2d_output_summary",
    .io_class = "Realizes_without_Rounding over TileIndex [BHW, OF] (fp16 = true), writeIf active",
    .kind = "exact",
    .formula = "Out[b, g*OGD+f, oh, ow] = sum_{h<KH, w<KW, c<BIN*numCBlocks} In[b, g*IGD+c, oh*SH-PH+h, ow*SW-PW+w] "
               "* W[g*OGD+f, c, h, w] (0 outside the input)",
    CV_COMMON,
};
const td_contract td_c_triton_conv2d_fwd_io = {
    .id = "triton_conv2d_fwd.triton_conv2d_fwd_io_correctness",
    .io_class = "StreamMetaMasked3DKernelIO_2 (nMeta = 0), T = KH*KW*numCBlocks, outDType .real, hfp16",
    .kind = "rounding",
    .formula = "out[l] = convStreamSum: sum_t sum_e mask1 * xs[t][(i,e)] * mask2 * ys[t][(e,j)]",
    CV_COMMON,
};
