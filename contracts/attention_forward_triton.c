/* attention_forward_triton: SageAttention-style _attn_fwd (catalogue part 1, src lines 117-213).
 *
 *   attention_forward_triton_closed_form_correct  (Realizes_without_Rounding)
 *   attention_forward_triton_io_correctness       attnFwdIO (StreamMasked3DKernelIO_5) |=[R], hfp16: R.round .fp16 = id
 *   Out[m,d] (m < N_CTX = BLOCK_N*numKVBlocks, d < HEAD_ACTIVE)
 *     = attentionRealBase2PerKeyScale(q, k, v, keyScale)[m,d]
 *     = sum_n 2^(S[m,n]) V[n,d] / sum_n 2^(S[m,n]),  S[m,n] = (sum_{e<HEAD_ACTIVE} Q[m,e] K[n,e]) * keyScale(n),
 *   keyScale(n) = Q_scale[pid1*cdiv(N_CTX,BLOCK_M) + pid0] * K_scale[pid1*cdiv(N_CTX,BLOCK_N) + n/BLOCK_N];
 *   every tensor at base(pid1) + row*HEAD_DIM + lane, base = pid1/H*stride_qz + pid1%H*stride_qh;
 *   write if row < N_CTX and lane < HEAD_ACTIVE (mask1 = writeMask of the IO class).
 *
 * Checked against bench/tritonbench_g/attention_forward_triton/attention_forward_triton.py,
 * the spec sheet (attentionRealBase2PerKeyScale, keyScale) and the IO definition: the
 * [named] readings match.  The Python kernel hard-codes tl.arange(0, 128) < 96; the Lean
 * port (and this one) has BLOCK_DMODEL and HEAD_ACTIVE in their place.  STAGE is unused
 * (the inner loop always covers range(0, N_CTX, BLOCK_N)).  The program: q masked to
 * rows < N_CTX and lanes < HEAD_ACTIVE; per block qk = dot(q, k) * q_scale * k_scale,
 * m_ij = max(m_i, rowmax), p = exp2(qk - m_ij), l_i = l_i*alpha + rowsum(p), acc =
 * acc*alpha + dot(p.to(fp16), v, out_dtype=fp16); Out = (acc / l_i).to(fp16).  l_i
 * starts at 1.0, wiped by the first block's alpha = exp2(-inf) = 0.
 *
 * Rounding.  The closed form is over the reals and the IO theorem assumes R.round .fp16
 * = id, i.e. the kernel's three fp16 roundings are identities there: P to fp16, the
 * fp16 result of tl.dot(..., out_dtype=tl.float16) (rounded once per block, after a
 * binary32 accumulation in this port), and the Out store (o = torch.empty_like(q,
 * dtype=torch.float16); outDType .real in the IO class).  A real fp16 store rounds, so
 * the kernel is checked under the profile it implements, fp16:rne:inf for the three cast
 * slots "p", "pv", "store".  The store is the contract's output cast (MPFR exactly, the
 * shadow interval-aware); P and the P.V partials are roundings the real spec does not
 * make, at scales that depend on the kernel's KV blocking: kernel-side (the reference
 * does not round them; attn_online_common.h, "Admissible blockings").
 *
 * Error model (attn_online_common.h): a binary32 dot over HEAD_ACTIVE lanes (the masked
 * lanes are exact zeros; gamma_{HEAD_ACTIVE-1} sum|q k|), two binary32 scale products,
 * exp2 budgets on binary32 differences, tree row sums over BLOCK_N lanes, the P cast,
 * a binary32 P.V accumulation over the block then its fp16 rounding, acc*alpha + that,
 * one division, the fp16 store.
 *
 * Generator: N_CTX multiple of BLOCK_N (hN), BLOCK_M tails and BLOCK_M > N_CTX (rows
 * masked), HEAD_ACTIVE <= BLOCK_DMODEL and <= HEAD_DIM with the unread lanes poisoned
 * (NaN), padded head/batch strides in either order, per-block scales that are ones,
 * halves, zeros, random, signed or powers of two, and the family's value modes (large
 * scores, near one-hot rows, equal scores, integers, special values).
 */
#include "attn_online_common.h"

enum { F_SQZ, F_SQH, F_Z, F_H, F_BM, F_BN, F_NKV, F_HD, F_BD, F_HA, F_STAGE, F_NP };
enum { I_SQZ, I_SQH, I_Z, I_H, I_HD, I_BM, I_BN, I_BD, I_HA, I_STAGE, I_NKV, I_NP };
enum { C_P, C_PV, C_STORE, NC };

static const at_sage_idx X_CF = {F_SQZ, F_SQH, F_Z, F_H, -1, F_HD, F_BM, F_BN, F_BD, F_HA, F_STAGE, F_NKV,
                                 0,     0,     C_P, C_PV, -1, C_STORE};
static const at_sage_idx X_IO = {I_SQZ, I_SQH, I_Z, I_H, -1, I_HD, I_BM, I_BN, I_BD, I_HA, I_STAGE, I_NKV,
                                 0,     0,     C_P, C_PV, -1, C_STORE};

#define TD_SPEC_FILE "attention_forward_triton.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_cf[F_NP] = {
    {"stride_qz", TD_P_INT}, {"stride_qh", TD_P_INT},     {"Z", TD_P_INT},           {"H", TD_P_INT},
    {"BLOCK_M", TD_P_INT},   {"BLOCK_N", TD_P_INT},       {"numKVBlocks", TD_P_INT}, {"HEAD_DIM", TD_P_INT},
    {"BLOCK_DMODEL", TD_P_INT}, {"HEAD_ACTIVE", TD_P_INT}, {"STAGE", TD_P_INT}};
static const td_param_decl params_io[I_NP] = {
    {"stride_qz", TD_P_INT},    {"stride_qh", TD_P_INT},    {"Z", TD_P_INT},       {"H", TD_P_INT},
    {"HEAD_DIM", TD_P_INT},     {"BLOCK_M", TD_P_INT},      {"BLOCK_N", TD_P_INT}, {"BLOCK_DMODEL", TD_P_INT},
    {"HEAD_ACTIVE", TD_P_INT},  {"STAGE", TD_P_INT},        {"numKVBlocks", TD_P_INT}};
static const td_region_decl regions_cf[AS_NR] = {
    {"Q", TD_F16, TD_R_IN},       {"K", TD_F16, TD_R_IN},       {"V", TD_F16, TD_R_IN},
    {"Q_scale", TD_F32, TD_R_IN}, {"K_scale", TD_F32, TD_R_IN}, {"Out", TD_F16, TD_R_OUT}};
static const td_region_decl regions_io[AS_NR] = {
    {"Q", TD_F16, TD_R_IN},      {"K", TD_F16, TD_R_IN},      {"V", TD_F16, TD_R_IN},
    {"QScale", TD_F32, TD_R_IN}, {"KScale", TD_F32, TD_R_IN}, {"Out", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[NC] = {
    {"p", "fp16:rne:inf", "p = p.to(tl.float16): the P operand of the P.V dot (not the row sum)"},
    {"pv", "fp16:rne:inf", "tl.dot(p, v, out_dtype=tl.float16): the block's P.V product, rounded once"},
    {"store", "fp16:rne:inf", "Out store: acc.to(Out.type.element_ty), Out fp16 (outDType .real; id under hfp16)"}};

static void gen_cf(td_producer *p, td_case *c) { at_sage_gen(p, c, &X_CF); }
static void gen_io(td_producer *p, td_case *c) { at_sage_gen(p, c, &X_IO); }
static void far_cf(td_producer *p, td_case *c) { at_sage_far(p, c, &X_CF); }
static void far_io(td_producer *p, td_case *c) { at_sage_far(p, c, &X_IO); }
static const char *check_cf(const td_case *c) { return at_sage_check(c, &X_CF); }
static const char *check_io(const td_case *c) { return at_sage_check(c, &X_IO); }
static void writes_cf(const td_case *c, td_wset *ws) { at_sage_writes(c, ws, &X_CF); }
static void writes_io(const td_case *c, td_wset *ws) { at_sage_writes(c, ws, &X_IO); }

#define AFT_CLASSES                                                                                                 \
    (TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_TAIL_BELOW) |           \
     TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) |      \
     TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_SINGLE_LANE) | \
     TD_BC(TD_BC_OFFSET_2_31))
#define AFT_COMMON                                                                                                  \
    .file = "attention_forward_triton", .family = "attention", .nregions = AS_NR, .ncasts = NC, .casts = casts,     \
    .sv = TD_SV_REAL, .classes = AFT_CLASSES,                                                                       \
    .sv_note = "finite inputs, bounded scores; every row keeps every key, so l >= 1 (no 0/0)",                     \
    .error_model = "online softmax in kernel order: binary32 dot (gamma_{HEAD_ACTIVE-1}) * q_scale * k_scale, exp2 " \
                   "budget, tree row sums, fp16 P (any scale; any KV blocking), fp16 P.V per block, acc*alpha, one division, fp16 store"

static const char *gap_cf(const td_case *c) { return at_sage_gap(c, &X_CF); }
static const td_intent i_cf = {
    .operation = AT_SAGE_OP,
    .definition = AT_SAGE_DEF,
    TD_SPECS(aft_cf_intent),
    .gap = gap_cf,
};
static const char *gap_io(const td_case *c) { return at_sage_gap(c, &X_IO); }
static const td_intent i_io = {
    .operation = AT_SAGE_OP,
    .definition = AT_SAGE_DEF,
    TD_SPECS(aft_io_intent),
    .gap = gap_io,
};

const td_contract td_c_attention_forward_triton_cf = {
    .id = "attention_forward_triton.attention_forward_triton_closed_form_correct",
    .io_class = "Realizes_without_Rounding (whole-tile value contract)",
    .kind = "exact",
    .formula = "Out[m,d] = sum_n 2^S[m,n] V[n,d] / sum_n 2^S[m,n], S = (Q.K)[m,n] * Q_scale[blk m] * K_scale[blk n]",
    .nparams = F_NP,
    .params = params_cf,
    .regions = regions_cf,
    .far = far_cf, /* at_sage_far: Q, K, V and Out at one far qvk_offset */
    .gen = gen_cf,
    .check = check_cf,
    .writes = writes_cf,
    AFT_COMMON,
    TD_SPECS(aft_cf),
    .intent = &i_cf,
};

const td_contract td_c_attention_forward_triton_io = {
    .id = "attention_forward_triton.attention_forward_triton_io_correctness",
    .io_class = "StreamMasked3DKernelIO_5 (attnFwdIO), outDType .real",
    .kind = "rounding",
    .formula = "out[j] = attnFwdIOOutSpec(row j/BLOCK_DMODEL, lane j%BLOCK_DMODEL) where lane < HEAD_ACTIVE; R = the kernel's casts",
    .nparams = I_NP,
    .params = params_io,
    .regions = regions_io,
    .far = far_io, /* at_sage_far: Q, K, V and Out at one far qvk_offset */
    .gen = gen_io,
    .check = check_io,
    .writes = writes_io,
    AFT_COMMON,
    TD_SPECS(aft_io),
    .intent = &i_io,
};
