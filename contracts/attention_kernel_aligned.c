/* attention_kernel_aligned: relative-position bias attention with one shared layout
 * (_fwd_kernel_aligned of bench/tritonbench_g/attention_kernel_aligned/
 * attention_kernel_aligned.py), catalogue part 1, src lines 830-900.
 *
 *   attention_kernel_aligned_output_summary_general  (∃ alg, lowers) ∧ Realizes_without_Rounding
 *     of the surface at q/k/v/o strides (stride_qh, HEAD, 1), Z = 2, H = 4, N_CTX = BLOCK_N*nB,
 *     B0_NUMEL = 128, fp16: Out[p1*stride_qh + (p0*BM + r)*HEAD + d] = MemCell.of .fp16
 *     (real.cast fp16 (alignedClosedForm ...)) = RN16( Σ_j 2^s_j V[j, d] / Σ_j 2^s_j ),
 *     s_j = (sm_scale*1.44269504) Σ_e Q[r, e] K[j, e] + b0[r, j/BN] + b1[r, j%BN]
 *     (attentionRealBase2ScalarScaleBias with log2e := 1.44269504; the bias is NOT scaled);
 *     hKN, hBM, hHD > 0, hnB: 1 <= nB.
 *   attention_kernel_aligned_io_correctness (R) (hfp16 : R.round .fp16 = id) ...
 *     attentionKernelAlignedIO ⊨[R] attnGenScore(akaIOscoreT, akaIOvT): as attention_kernel's
 *     IO contract with K and V at stride_qh.
 *
 * Checked in AttentionKernelAligned.lean (alignedClosedForm, akaIOscoreT, log2e) and the
 * Python kernel, whose differences from attention_kernel are exactly the readings above
 * plus one the real-valued spec cannot see: qk += tl.dot(q, k, out_dtype=OUT_DTYPE) with a
 * zeros(fp16) seed accumulates q·k in fp16 and keeps qk fp16, so the scores are fp16 values
 * (qk + (b0 + b1) is an fp16 addition too).
 *
 * R.round .fp16 = id: as for attention_kernel (see attention_kernel.c): no real fp16 store
 * is the identity; tilediff checks the kernel under its real store profile fp16:rne:inf as
 * the declared cast "store", which makes the IO claim the genuine one (RN16 of the exact
 * value), and the in-loop roundings are kernel-side errors.
 *
 * The error model (attn2_common.h, a2k_score / a2k_out with aligned = 1): q' =
 * RN16(RN32(q * qk_scale)); the dot with every partial sum rounded to fp16 (the host model
 * of an fp16-accumulating tl.dot: exact fp16 products, each step RN16(RN32(acc + q'k)));
 * RN16(qk + RN16(b0 + b1)); then as attention_kernel: running max (base 2), exp2 budgets, P
 * cast to fp16, P·V in binary32, tl.sum tree, acc / l, the declared store.  The fp16
 * accumulation makes this kernel's bound wide when q·k is large (u16 ~ 4.9e-4 per step, in
 * score units): it is the kernel's true accuracy, and the mutants are still caught.
 *
 * Generator: as attention_kernel (attn2_ak_gen) with stride_qh >= max(query rows, N_CTX)*HEAD
 * (Q, K, V, Out share it); scores stay inside fp16 (|q'| <= 92, HEAD <= 16).
 */
#include "attn2_common.h"

enum { P_SM, P_SQH, P_SB0H, P_BM, P_BN, P_HD, P_BLS, P_SB0M, P_NB, NP };
enum { C_STORE };

static attn2_ak ak_of(const td_case *c) {
    attn2_ak k = {1, c->p[P_SM].r, c->p[P_SQH].i, c->p[P_SQH].i, c->p[P_SB0H].i, c->p[P_SB0M].i, c->p[P_BM].i,
                  c->p[P_BN].i, c->p[P_HD].i, c->p[P_BLS].i, c->p[P_NB].i, 0};
    k.rows = (int64_t)c->grid[0] * k.BM;
    return k;
}

#define TD_SPEC_FILE "attention_kernel_aligned.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"sm_scale", TD_P_REAL}, {"stride_qh", TD_P_INT},  {"stride_b0h", TD_P_INT}, {"BLOCK_M", TD_P_INT},
    {"BLOCK_N", TD_P_INT},   {"HEAD", TD_P_INT},       {"BIAS_LAST_SIZE", TD_P_INT}, {"stride_b0m", TD_P_INT},
    {"nB", TD_P_INT}};
static const td_region_decl regions[A2K_NR] = {{"Q", TD_F16, TD_R_IN}, {"K", TD_F16, TD_R_IN}, {"V", TD_F16, TD_R_IN},
                                               {"B0", TD_F16, TD_R_IN}, {"Out", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "fp16:rne:inf", "the fp16 store of acc / l (genuine: real.cast fp16; IO: R.round .fp16 read as the real store)"}};

static void gen(td_producer *p, td_case *c) {
    attn2_ak k;
    attn2_ak_gen(p, c, &k);
    int64_t nctx = k.BN * k.nB;
    if (k.sqh < nctx * k.HD) k.sqh = nctx * k.HD + (k.sqh - k.rows * k.HD); /* one stride for Q, K, V, Out */
    attn2_ak_fill(p, c, &k, k.sqh);
    const int64_t v[NP] = {0, k.sqh, k.sb0h, k.BM, k.BN, k.HD, k.BLS, k.sb0m, k.nB};
    for (int i = 1; i < NP; i++) c->p[i].i = v[i];
    c->p[P_SM].r = k.sm_scale;
}
static const char *check(const td_case *c) {
    attn2_ak k = ak_of(c);
    if (k.sqh < k.BN * k.nB * k.HD) return "heads' keys of K / V do not overlap";
    return attn2_ak_check(c, &k, k.sqh);
}
static void writes(const td_case *c, td_wset *ws) {
    attn2_ak k = ak_of(c);
    attn2_ak_writes(c, ws, &k);
}

/* ---- intent (docs/intent.md; attn2_common.h) ---- */
static const char *intent_gap(const td_case *c) {
    attn2_ak k = ak_of(c);
    return attn2_ak_intent_gap(&k);
}
static void intent_writes(const td_case *c, td_wset *ws) {
    attn2_ak k = ak_of(c);
    attn2_ak_intent_writes(c, ws, &k);
}
static const td_intent i_ak = {.operation = A2K_INTENT_OP, .definition = A2K_INTENT_DEF, TD_SPECS(aka_intent),
                               .gap = intent_gap, .writes = intent_writes};

/* Offsets beyond 2^31: Q, K, V and Out (q_offset = kv_offset = off_hz * stride_qh, Out
 * at q_offset) at a head stride whose last head passes 2^31 (attn2_ak_far: all 8 heads
 * kept); Q and Out slabs of the launch's rows, K and V of N_CTX keys */
static void far(td_producer *p, td_case *c) {
    attn2_ak k = ak_of(c);
    const int regs[4] = {A2K_Q, A2K_K, A2K_V, A2K_OUT};
    const int64_t w[4] = {k.rows * k.HD, k.BN * k.nB * k.HD, k.BN * k.nB * k.HD, k.rows * k.HD};
    attn2_ak_far(p, c, regs, w, 4, P_SQH);
}

#define AKA_COMMON                                                                                            \
    .file = "attention_kernel_aligned", .family = "attention", .kind = "rounding", .nparams = NP,             \
    .params = params, .nregions = A2K_NR, .regions = regions, .ncasts = 1, .casts = casts, .sv = TD_SV_REAL,  \
    .sv_note = "finite fp16 data, |q * qk_scale| < 65504 and fp16 scores; every row has all N_CTX keys",      \
    .error_model = "base-2 online softmax in the kernel's order; fp16 q', fp16-accumulated q.k, fp16 bias "   \
                   "add, P to fp16 (kernel-side); the declared fp16 store",                                   \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) |                   \
               TD_BC(TD_BC_OFFSET_2_31),                                                                      \
    .gen = gen, .far = far, .check = check, .writes = writes

const td_contract td_c_attention_kernel_aligned = {
    .id = "attention_kernel_aligned.attention_kernel_aligned_output_summary_general",
    .io_class = "Realizes_without_Rounding (fp16 store cast in the expected value) + lowering",
    .formula = "Out[p1, r, d] = RN16(sum_j 2^s_j V[j,d] / sum_j 2^s_j), s_j = (sm*1.44269504) q_r.k_j + "
               "b0[r, j/BN] + b1[r, j%BN]",
    AKA_COMMON,
    TD_SPECS(aka),
    .intent = &i_ak,
};
const td_contract td_c_attention_kernel_aligned_io = {
    .id = "attention_kernel_aligned.attention_kernel_aligned_io_correctness",
    .io_class = "StreamMasked3DKernelIO_4 (attentionKernelAlignedIO), R.round .fp16 = id",
    .formula = "Out[p1, r, d] = R.round(.fp16)(attnGenScore(akaIOscoreT, akaIOvT)), R = the real fp16 store",
    AKA_COMMON,
    TD_SPECS(aka),
    .intent = &i_ak,
};
