/* context_attn_fwd: LightLLM's PPL prefill attention with a prompt cache over per-batch
 * K/V caches (bench/tritonbench_g/context_attn_fwd/context_attn_fwd.py,
 * _fwd_kernel_int8kv), catalogue part 1, src lines 2827-2925.
 *
 *   context_attn_fwd_surface_compute_correct_general  Realizes_without_Rounding
 *     (kv_group_num = 1): Out at outOffset (writeIf active: pid0*BM + i < seqLen =
 *     B_Seqlen - plen) = ctxFwdGenuineOutValueG: the base-2 online-softmax fold over the
 *     keys j of the streamed window, score sm_scale * q_gi·k_j on j <= gi + plen and the
 *     sentinel -1e8 elsewhere, k_j / v_j at (pid1 / H)*stride_kb + j*stride_ks +
 *     (pid1 % H)*stride_kh + d*stride_kd (masked to 0 past block_end_loc); hD, hBN > 0, hOInj.
 *   context_attn_fwd_io_correctness  contextAttnFwdIO ... NT ⊨[R] contextAttnFwdIOSpec:
 *     StreamMetaMasked3DKernelIO₃, meta (start, seqlen, plen) of batch pid1 / H,
 *     T = ctxFwdIOT(NT, BM, BN), pre pid0 < NT ∧ B_Seqlen <= NT*BM, reads as above, write
 *     masked pid0*BM + i < B_Seqlen - plen; hD, hBN, hBM, hNT > 0, hOInj; .real out.
 *
 * Checked against the kernel and ContextAttnFwd.lean (contextAttnExactFoldMG,
 * ctxFwdGenuineOutValueG): the kernel is context_attn_llama's loop with the token table
 * replaced by the batch's own cache rows (K[cur_batch, cur_kv_head, j, :]), nothing else:
 * m_ij = maximum(m_i, tl.max(qk)), p = exp2(qk - m_ij), l = l*alpha + tl.sum(p),
 * acc = tl.dot(p.to(fp16), v, acc*alpha), acc / l at the end.  The "int8kv" of the name is
 * not in the code (K and V are loaded as the fp16 tensors the test passes); Lean's "casts
 * are mathematical" is the same reading.  The fold's value is the causal softmax over keys
 * 0 .. gi + plen; the -1e8 sentinel's keys have weight 2^(-1e8 - m), exactly 0 in binary32
 * and below every tolerance in the reference, so the spec gives them weight 0; for an active
 * row every causal key lies below block_end_loc (the load masks never act on a live key);
 * a KV block past gi + plen is an exact no-op in the kernel (p = 0, alpha = 1): skipped.
 *
 * The spec (attn2_common.spec.h, a2c_out_deferred, shared with context_attn_llama) is that
 * online algorithm, equal to the softmax in exact arithmetic; the error model (shadow) is
 * the kernel's evaluation: exact fp16 products of q·k summed in binary32, times sm_scale
 * (log2 e folded in by the launcher); the running max as a comparison (a2_rescale); exp2
 * budgets; tl.sum's tree over BLOCK_N (masked lanes exact zeros); P cast to fp16
 * (kernel-side); the dot onto acc*alpha; the division; the fp16 store (kernel-side for the
 * genuine contract, the declared store R.round .real of the IO contract).  Any other KV
 * blocking of the same sums is admissible: the reblocking terms of a2_reblock
 * (td_sh_reblock, td_sh_kround_abs_to) bound what it can change.
 *
 * Formats: Q, K, V, Out fp16 (the Python test), metadata int32.  Generator (ctx_pc_common.h,
 * shared with llama and bloom): packed new tokens (tails against BLOCK_M, empty ones),
 * prompt-cache lengths 0, 1, around BLOCK_N and random, BLOCK_M != BLOCK_N, per-batch
 * caches (B, H, positions, D) longer than the sequence, its own layout for each of Q, K,
 * V, Out (padded, head-major or token-major), surplus programs and stream steps, sm_scale
 * (with log2 e) up to 16.
 */
#include "ctx_pc_common.h"

enum { P_SM, P_SQBS, P_SQH, P_SQD, P_SKB, P_SKH, P_SKS, P_SKD, P_SVB, P_SVH, P_SVS, P_SVD,
       P_SOBS, P_SOH, P_SOD, P_H, P_BD, P_BM, P_BN, P_NT, NP };
enum { R_Q, R_K, R_V, R_OUT, R_START, R_SEQLEN, R_PLEN, NR };
enum { C_STORE };
static const ctxpc_idx ix = {.gather = 0, .ragged = 1, .sm = P_SM, .sq = P_SQBS, .sreq = -1, .sk = P_SKB, .sv = P_SVB,
                             .so = P_SOBS, .hh = P_H, .bd = P_BD, .bm = P_BM, .bn = P_BN, .nt = P_NT,
                             .q = R_Q, .k = R_K, .v = R_V, .out = R_OUT, .start = R_START, .seqlen = R_SEQLEN,
                             .req = -1, .reqidx = -1, .plen = R_PLEN};

#define TD_SPEC_FILE "context_attn_fwd.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"sm_scale", TD_P_REAL},  {"stride_qbs", TD_P_INT}, {"stride_qh", TD_P_INT},  {"stride_qd", TD_P_INT},
    {"stride_kb", TD_P_INT},  {"stride_kh", TD_P_INT},  {"stride_ks", TD_P_INT},  {"stride_kd", TD_P_INT},
    {"stride_vb", TD_P_INT},  {"stride_vh", TD_P_INT},  {"stride_vs", TD_P_INT},  {"stride_vd", TD_P_INT},
    {"stride_obs", TD_P_INT}, {"stride_oh", TD_P_INT},  {"stride_od", TD_P_INT},  {"H", TD_P_INT},
    {"BLOCK_DMODEL", TD_P_INT}, {"BLOCK_M", TD_P_INT},  {"BLOCK_N", TD_P_INT},   {"NT", TD_P_INT}};
static const td_region_decl regions_g[NR] = {
    {"Q", TD_F16, TD_R_IN},    {"K", TD_F16, TD_R_IN},             {"V", TD_F16, TD_R_IN},
    {"Out", TD_F16, TD_R_OUT}, {"B_Start_Loc", TD_I32, TD_R_META}, {"B_Seqlen", TD_I32, TD_R_META},
    {"B_Prompt_Cache_Len", TD_I32, TD_R_META}};
static const td_region_decl regions_io[NR] = {
    {"Q", TD_F16, TD_R_IN},    {"K", TD_F16, TD_R_IN},             {"V", TD_F16, TD_R_IN},
    {"Out", TD_F16, TD_R_OUT}, {"B_Start_Loc", TD_I32, TD_R_META}, {"B_Seqlen", TD_I32, TD_R_META},
    {"b_prompt_cache_len", TD_I32, TD_R_META}};
static const td_cast_decl casts[1] = {{"store", "fp16:rne:inf", "R.round .real: the store of acc / l into the fp16 Out"}};

static void gen_g(td_producer *p, td_case *c) { ctxpc_gen(p, c, &ix, 0); }
static void gen_io(td_producer *p, td_case *c) { ctxpc_gen(p, c, &ix, 1); }
static const char *check_g(const td_case *c) { return ctxpc_check(c, &ix, 0); }
static const char *check_io(const td_case *c) { return ctxpc_check(c, &ix, 1); }
static void writes(const td_case *c, td_wset *ws) { ctxpc_writes(c, ws, &ix); }
/* Offsets beyond 2^31: Q's head axis (ctxpc_far, ctx_pc_common.h). */
static void far(td_producer *p, td_case *c) { ctxpc_far(p, c, &ix); }

#define FWD_SV_NOTE                                                                                              \
    "the -1e8 sentinel's weight is 0 (binary32 exactly, the reference below 2^-99999000); plen <= B_Seqlen; " \
    "finite data, output inside fp16"

/* ---- intent (docs/intent.md): both theorems are read as the same operation ---- */
static const td_intent i_fwd = {
    .operation = "causal scaled dot-product attention of each new token (position gi + prompt_cache_len) over the batch's cached tokens 0 .. gi + prompt_cache_len",
    .definition = "torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask = causal at the positions, scale = sm_scale * ln 2) (PyTorch documentation; the host folds log2 e into sm_scale and the kernel takes exp2), exact (no fp16 P)",
    TD_SPECS(fwd_intent),
};

const td_contract td_c_ctx_fwd = {
    .id = "context_attn_fwd.context_attn_fwd_surface_compute_correct_general",
    .file = "context_attn_fwd",
    .family = "attention",
    .io_class = "Realizes_without_Rounding (surface, kv_group_num = 1)",
    .kind = "exact",
    .formula = "Out[start+gi, h, d] = sum_{j<=gi+plen} 2^(sm*q.k_j) V[b, h, j, d] / sum 2^(sm*q.k_j)   (fp16)",
    .nparams = NP - 1,
    .params = params,
    .nregions = NR,
    .regions = regions_g,
    .sv = TD_SV_REAL,
    .sv_note = FWD_SV_NOTE,
    .error_model = "base-2 online softmax in the kernel's order; P cast to fp16 and the fp16 store (kernel-side)",
    .classes = CTXPC_CLASSES_RAGGED,
    .gen = gen_g,
    .far = far,
    .check = check_g,
    .writes = writes,
    TD_SPECS(fwd),
    .intent = &i_fwd,
};

const td_contract td_c_ctx_fwd_io = {
    .id = "context_attn_fwd.context_attn_fwd_io_correctness",
    .file = "context_attn_fwd",
    .family = "attention",
    .io_class = "StreamMetaMasked3DKernelIO_3 (contextAttnFwdIO)",
    .kind = "rounding",
    .formula = "Out[start+gi, h, d] = R.round(.real)(prompt-cache causal base-2 softmax @ V), R = the fp16 store",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions_io,
    .ncasts = 1,
    .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = FWD_SV_NOTE,
    .error_model = "base-2 online softmax in the kernel's order; P cast to fp16 (kernel-side); the declared store",
    .classes = CTXPC_CLASSES_RAGGED,
    .gen = gen_io,
    .far = far,
    .check = check_io,
    .writes = writes,
    TD_SPECS(fwd_io),
    .intent = &i_fwd,
};
