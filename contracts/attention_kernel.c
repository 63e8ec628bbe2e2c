/* attention_kernel: relative-position bias attention (_fwd_kernel_aligned of
 * bench/tritonbench_g/attention_kernel/attention_kernel.py), catalogue part 1, src lines
 * 761-828.
 *
 *   attention_kernel_genuine_output_compute_correct_general  Realizes_without_Rounding of
 *     the surface at q/o strides (stride_qh, HEAD, 1), k/v (stride_kh, HEAD, 1), Z = 2, H = 4,
 *     N_CTX = BLOCK_N*nB, P_SEQ = 0, B0_NUMEL = 128, fp16:
 *     Out[p1*stride_qh + (p0*BM + r)*HEAD + d] = MemCell.of .fp16 (real.cast fp16
 *       (attentionKernelSpec ...)) = RN16( Σ_j 2^s_j V[j, d] / Σ_j 2^s_j ),
 *     s_j = (sm_scale*1.44269504) Σ_e Q[r, e] K[j, e] + (b0[r, j/BN] + b1[r, j%BN])*1.44269504,
 *     b0 = B0[p1*sb0h + r*sb0m + j/BN], b1 = B0[p1*sb0h + r*sb0m + (j%BN)%BLS + BLS];
 *     hKN, hBM, hHD > 0, hnB: 1 <= nB.
 *   attention_kernel_io_correctness (R) (hfp16 : R.round .fp16 = id) ...
 *     attentionKernelIO ... ⊨[R] attnGenScore(akIOscoreT ...)(akIOvT ...): the same value,
 *     StreamMasked3DKernelIO₄ with T = nB streams of Q, K, V and the [BM, BN+1] bias pack
 *     (read4: columns < BN at (c % BLS) + BLS, column BN at t), every mask True, outDType fp16.
 *
 * Checked in AttentionKernel.lean (attentionKernelSpec = attnGenScore (fscore ...) (vFlat ...),
 * attnGenScore = base-2 softmax, akIOscoreT): the named readings are the base-2 softmax of
 * the scores above, with the constant 1.44269504 (not log2 e) as the kernel writes it.
 *
 * R.round .fp16 = id.  No real rounding model is the identity on fp16 (the fp16 store of a
 * real value is not the value): the IO theorem speaks about no real fp16 store, and its
 * hypothesis also erases the kernel's in-loop fp16 roundings (q pre-scaled to fp16, the fp16
 * bias arithmetic, P to fp16 before P·V).  tilediff checks the kernel under the profile of
 * its real store, fp16:rne:inf (Triton's .to(fp16): cvt.rn, IEEE overflow), as the declared
 * cast "store": the reference is RN16 of the exact value, which is exactly the genuine
 * contract's expected value, and the in-loop roundings are kernel-side errors of the model.
 * Both contracts thus check the same claim.
 *
 * The spec is the kernel's online algorithm (attn2_common.h, a2k_out), equal to the softmax
 * in exact arithmetic.  The error model (shadow) is the kernel's evaluation: qk_scale =
 * RN32(sm_scale * RN32(1.44269504)); q' = RN16(RN32(q * qk_scale)) (kernel-side); the dot in
 * binary32 (exact fp16 products); the bias (b0 + b1) and its product with the literal in fp16
 * ((b0 + b1) is an fp16 tensor and a Python float does not take part in Triton's promotion,
 * so the literal is RN16(1.44269504) = 1.4423828125), added to qk in binary32; the running max
 * (a2_rescale, base 2); exp2 budgets; P cast to fp16 (kernel-side); the P·V sum from 0 added
 * to acc*alpha; l*alpha + tl.sum(p) (tree over BLOCK_N); acc / l; the store (declared).
 *
 * Generator: the fixed launch (grid (cdiv(N_CTX, BLOCK_M), 8)), N_CTX = BLOCK_N*nB with
 * query rows rounded up to BLOCK_M (extra rows exist in each head's slab, as the kernel reads
 * them without a boundary check), BIAS_LAST_SIZE 64 (the launcher's 128/2) or smaller than
 * BLOCK_N (b1 wraps), padded head / bias-row strides, sm_scale 1/sqrt(HEAD), powers of two or
 * up to 8 (near one-hot rows; scores in the thousands: a naive exp2 overflows).
 * BIAS_LAST_SIZE = 0 (Lean's x % 0 = x; Triton's is undefined) is outside the generator.
 */
#include "attn2_common.h"

enum { P_SM, P_SQH, P_SKH, P_SB0H, P_BM, P_BN, P_HD, P_BLS, P_SB0M, P_NB, NP };
enum { C_STORE };

static attn2_ak ak_of(const td_case *c) {
    attn2_ak k = {0, c->p[P_SM].r, c->p[P_SQH].i, c->p[P_SKH].i, c->p[P_SB0H].i, c->p[P_SB0M].i, c->p[P_BM].i,
                  c->p[P_BN].i, c->p[P_HD].i, c->p[P_BLS].i, c->p[P_NB].i, 0};
    k.rows = (int64_t)c->grid[0] * k.BM;
    return k;
}

#define TD_SPEC_FILE "attention_kernel.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"sm_scale", TD_P_REAL}, {"stride_qh", TD_P_INT}, {"stride_kh", TD_P_INT},      {"stride_b0h", TD_P_INT},
    {"BLOCK_M", TD_P_INT},   {"BLOCK_N", TD_P_INT},   {"HEAD", TD_P_INT},           {"BIAS_LAST_SIZE", TD_P_INT},
    {"stride_b0m", TD_P_INT}, {"nB", TD_P_INT}};
static const td_region_decl regions[A2K_NR] = {{"Q", TD_F16, TD_R_IN}, {"K", TD_F16, TD_R_IN}, {"V", TD_F16, TD_R_IN},
                                               {"B0", TD_F16, TD_R_IN}, {"Out", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "fp16:rne:inf", "the fp16 store of acc / l (genuine: real.cast fp16; IO: R.round .fp16 read as the real store)"}};

static void gen(td_producer *p, td_case *c) {
    attn2_ak k;
    attn2_ak_gen(p, c, &k);
    attn2_ak_fill(p, c, &k, k.skh);
    const int64_t v[NP] = {0, k.sqh, k.skh, k.sb0h, k.BM, k.BN, k.HD, k.BLS, k.sb0m, k.nB};
    for (int i = 1; i < NP; i++) c->p[i].i = v[i];
    c->p[P_SM].r = k.sm_scale;
}
static const char *check(const td_case *c) {
    attn2_ak k = ak_of(c);
    if (k.skh < k.BN * k.nB * k.HD) return "heads' keys of K / V do not overlap";
    return attn2_ak_check(c, &k, k.skh);
}
static void writes(const td_case *c, td_wset *ws) {
    attn2_ak k = ak_of(c);
    attn2_ak_writes(c, ws, &k);
}

/* Offsets beyond 2^31: Q and Out (Out written at Q's q_offset = off_hz * stride_qh) at a
 * head stride whose last head passes 2^31 (attn2_ak_far: all 8 heads kept) */
static void far(td_producer *p, td_case *c) {
    attn2_ak k = ak_of(c);
    const int regs[2] = {A2K_Q, A2K_OUT};
    const int64_t w[2] = {k.rows * k.HD, k.rows * k.HD};
    attn2_ak_far(p, c, regs, w, 2, P_SQH);
}

#define AK_COMMON                                                                                             \
    .file = "attention_kernel", .family = "attention", .kind = "rounding", .nparams = NP, .params = params,   \
    .nregions = A2K_NR, .regions = regions, .ncasts = 1, .casts = casts, .sv = TD_SV_REAL,                     \
    .sv_note = "finite fp16 data with |q * qk_scale| < 65504; every row has all N_CTX keys (no masks)",       \
    .error_model = "base-2 online softmax in the kernel's order; in-loop fp16 roundings (q', bias, P) "        \
                   "kernel-side; the declared fp16 store",                                                    \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) |                   \
               TD_BC(TD_BC_OFFSET_2_31),                                                                      \
    .gen = gen, .far = far, .check = check, .writes = writes

/* ---- intent (docs/intent.md; attn2_common.h) ---- */
static const char *intent_gap(const td_case *c) {
    attn2_ak k = ak_of(c);
    return attn2_ak_intent_gap(&k);
}
static void intent_writes(const td_case *c, td_wset *ws) {
    attn2_ak k = ak_of(c);
    attn2_ak_intent_writes(c, ws, &k);
}
static const td_intent i_ak = {.operation = A2K_INTENT_OP, .definition = A2K_INTENT_DEF, TD_SPECS(ak_intent),
                               .gap = intent_gap, .writes = intent_writes};

const td_contract td_c_attention_kernel = {
    .id = "attention_kernel.attention_kernel_genuine_output_compute_correct_general",
    .io_class = "Realizes_without_Rounding (fp16 store cast in the expected value)",
    .formula = "Out[p1, r, d] = RN16(sum_j 2^s_j V[j,d] / sum_j 2^s_j), s_j = (sm*1.44269504) q_r.k_j + "
               "(b0[r, j/BN] + b1[r, j%BN])*1.44269504",
    AK_COMMON,
    TD_SPECS(ak),
    .intent = &i_ak,
};
const td_contract td_c_attention_kernel_io = {
    .id = "attention_kernel.attention_kernel_io_correctness",
    .io_class = "StreamMasked3DKernelIO_4 (attentionKernelIO), R.round .fp16 = id",
    .formula = "Out[p1, r, d] = R.round(.fp16)(attnGenScore(akIOscoreT, akIOvT)), R = the real fp16 store",
    AK_COMMON,
    TD_SPECS(ak),
    .intent = &i_ak,
};
