/* attention_fwd_triton2: SageAttention-style _attn_fwd, bfloat16 output (catalogue part 1, src lines 279-378).
 *
 *   attention_fwd_triton2_output_summary_general  lowering exists AND (Realizes_without_Rounding)
 *   attention_fwd_triton2_io_correctness          attentionFwdTriton2IO (StreamMasked3DKernelIO_5) |=[R],
 *                                                 hfp16: R.round .fp16 = id, hBDHD: BLOCK_DMODEL <= HEAD_DIM
 *   Out[m,d] (m < N_CTX = BLOCK_N*numKVBlocks, d < HEAD_ACTIVE) = attentionRealBase2PerKeyScale(q, k, v, keyScale)[m,d]
 *     = sum_n 2^S[m,n] V[n,d] / sum_n 2^S[m,n],  S[m,n] = (sum_{e<HEAD_ACTIVE} Q[m,e]K[n,e]) * Q_scale[blk m] * K_scale[blk n]
 *   (the same contract as attention_forward_triton; read4 = p1*cdiv(N_CTX,BLOCK_M)+p0, read5 = p1*cdiv(N_CTX,BLOCK_N)+t).
 *
 * Checked against bench/tritonbench_g/attention_fwd_triton2/attention_fwd_triton2.py: the
 * program is attention_forward_triton's except tl.dot(p, v.to(tl.float16), out_dtype=
 * tl.float16) and the output tensor o = torch.empty_like(q, dtype=torch.bfloat16).  The
 * [named] reading (the same spec as attention_forward_triton) matches.  V is fp16 (the
 * launcher's q, k, v are fp16), so v.to(tl.float16) is exact and needs no cast slot.
 *
 * Rounding.  Both theorems are over the reals (hfp16: R.round .fp16 = id makes every fp16
 * rounding an identity; outDType .real).  A real kernel rounds P to fp16, the block's
 * P.V product to fp16 (out_dtype) and stores bfloat16: it is checked under the profiles
 * it implements, "p" and "pv" fp16:rne:inf, "store" bf16:rne:inf (the contract's value
 * with each conversion applied as the kernel's R rounds it).  Error model and generator:
 * as attention_forward_triton (attn_online_common.h), with HEAD_DIM >= BLOCK_DMODEL for
 * the IO theorem's hBDHD.
 */
#include "attn_online_common.h"

enum { F_SQZ, F_SQH, F_Z, F_H, F_BM, F_BN, F_NKV, F_HD, F_BD, F_HA, F_STAGE, F_NP };
enum { I_SQZ, I_SQH, I_Z, I_H, I_HD, I_BM, I_BN, I_BD, I_HA, I_STAGE, I_NKV, I_NP };
enum { C_P, C_PV, C_STORE, NC };

static const at_sage_idx X_OS = {F_SQZ, F_SQH, F_Z, F_H, -1, F_HD, F_BM, F_BN, F_BD, F_HA, F_STAGE, F_NKV,
                                 0,     0,     C_P, C_PV, -1, C_STORE};
static const at_sage_idx X_IO = {I_SQZ, I_SQH, I_Z, I_H, -1, I_HD, I_BM, I_BN, I_BD, I_HA, I_STAGE, I_NKV,
                                 0,     1,     C_P, C_PV, -1, C_STORE};

#define TD_SPEC_FILE "attention_fwd_triton2.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_os[F_NP] = {
    {"stride_qz", TD_P_INT}, {"stride_qh", TD_P_INT},     {"Z", TD_P_INT},           {"H", TD_P_INT},
    {"BLOCK_M", TD_P_INT},   {"BLOCK_N", TD_P_INT},       {"numKVBlocks", TD_P_INT}, {"HEAD_DIM", TD_P_INT},
    {"BLOCK_DMODEL", TD_P_INT}, {"HEAD_ACTIVE", TD_P_INT}, {"STAGE", TD_P_INT}};
static const td_param_decl params_io[I_NP] = {
    {"stride_qz", TD_P_INT},   {"stride_qh", TD_P_INT}, {"Z", TD_P_INT},       {"H", TD_P_INT},
    {"HEAD_DIM", TD_P_INT},    {"BLOCK_M", TD_P_INT},   {"BLOCK_N", TD_P_INT}, {"BLOCK_DMODEL", TD_P_INT},
    {"HEAD_ACTIVE", TD_P_INT}, {"STAGE", TD_P_INT},     {"numKVBlocks", TD_P_INT}};
static const td_region_decl regions[AS_NR] = {
    {"Q", TD_F16, TD_R_IN},       {"K", TD_F16, TD_R_IN},       {"V", TD_F16, TD_R_IN},
    {"Q_scale", TD_F32, TD_R_IN}, {"K_scale", TD_F32, TD_R_IN}, {"Out", TD_BF16, TD_R_OUT}};
static const td_cast_decl casts[NC] = {
    {"p", "fp16:rne:inf", "p = p.to(tl.float16): the P operand of the P.V dot (not the row sum)"},
    {"pv", "fp16:rne:inf", "tl.dot(p, v.to(tl.float16), out_dtype=tl.float16): the block's P.V product, rounded once"},
    {"store", "bf16:rne:inf", "Out store: acc.to(Out.type.element_ty), Out bfloat16 (outDType .real)"}};

static void gen_os(td_producer *p, td_case *c) { at_sage_gen(p, c, &X_OS); }
static void gen_io(td_producer *p, td_case *c) { at_sage_gen(p, c, &X_IO); }
static void far_os(td_producer *p, td_case *c) { at_sage_far(p, c, &X_OS); }
static void far_io(td_producer *p, td_case *c) { at_sage_far(p, c, &X_IO); }
static const char *check_os(const td_case *c) { return at_sage_check(c, &X_OS); }
static const char *check_io(const td_case *c) { return at_sage_check(c, &X_IO); }
static void writes_os(const td_case *c, td_wset *ws) { at_sage_writes(c, ws, &X_OS); }
static void writes_io(const td_case *c, td_wset *ws) { at_sage_writes(c, ws, &X_IO); }

#define AF2_CLASSES                                                                                                 \
    (TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_TAIL_BELOW) |           \
     TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) |      \
     TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_SINGLE_LANE) | \
     TD_BC(TD_BC_OFFSET_2_31))
#define AF2_COMMON                                                                                                  \
    .file = "attention_fwd_triton2", .family = "attention", .nregions = AS_NR, .regions = regions, .ncasts = NC,   \
    .casts = casts, .sv = TD_SV_REAL, .classes = AF2_CLASSES,                                                       \
    .sv_note = "finite inputs, bounded scores; every row keeps every key, so l >= 1 (no 0/0)",                     \
    .error_model = "online softmax in kernel order: binary32 dot (gamma_{HEAD_ACTIVE-1}) * q_scale * k_scale, exp2 " \
                   "budget, tree row sums, fp16 P (any scale; any KV blocking), fp16 P.V per block, acc*alpha, one division, bf16 store"

static const char *gap_os(const td_case *c) { return at_sage_gap(c, &X_OS); }
static const td_intent i_os = {
    .operation = AT_SAGE_OP,
    .definition = AT_SAGE_DEF,
    TD_SPECS(af2_os_intent),
    .gap = gap_os,
};
static const char *gap_io(const td_case *c) { return at_sage_gap(c, &X_IO); }
static const td_intent i_io = {
    .operation = AT_SAGE_OP,
    .definition = AT_SAGE_DEF,
    TD_SPECS(af2_io_intent),
    .gap = gap_io,
};

const td_contract td_c_attention_fwd_triton2_os = {
    .id = "attention_fwd_triton2.attention_fwd_triton2_output_summary_general",
    .io_class = "Realizes_without_Rounding (lowering exists; whole-tile value contract)",
    .kind = "exact",
    .formula = "Out[m,d] = sum_n 2^S[m,n] V[n,d] / sum_n 2^S[m,n], S = (Q.K)[m,n] * Q_scale[blk m] * K_scale[blk n]",
    .nparams = F_NP,
    .params = params_os,
    .far = far_os, /* at_sage_far: Q, K, V and Out at one far qvk_offset */
    .gen = gen_os,
    .check = check_os,
    .writes = writes_os,
    AF2_COMMON,
    TD_SPECS(af2_os),
    .intent = &i_os,
};

const td_contract td_c_attention_fwd_triton2_io = {
    .id = "attention_fwd_triton2.attention_fwd_triton2_io_correctness",
    .io_class = "StreamMasked3DKernelIO_5 (attentionFwdTriton2IO), outDType .real",
    .kind = "rounding",
    .formula = "out[j] = attentionFwdTriton2IOOutSpec(Lane2D.decode j); R = the kernel's casts",
    .nparams = I_NP,
    .params = params_io,
    .far = far_io, /* at_sage_far: Q, K, V and Out at one far qvk_offset */
    .gen = gen_io,
    .check = check_io,
    .writes = writes_io,
    AF2_COMMON,
    TD_SPECS(af2_io),
    .intent = &i_io,
};
