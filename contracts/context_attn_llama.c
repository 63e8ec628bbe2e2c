/* context_attn_llama: LightLLM's LLaMA prefill attention with a prompt cache and a
 * token table (bench/tritonbench_g/context_attn_llama/context_attn_llama.py, _fwd_kernel),
 * catalogue part 1, src lines 2927-3035.
 *
 *   context_attn_llama_surface_compute_correct_general  Realizes_without_Rounding (kv_group_num
 *     = 1): Out at outOffset (writeIf active: pid0*BM + i < seqLen = B_Seqlen - plen) =
 *     ctxFwdGenuineOutValueG: the ⊥-seeded base-2 online-softmax fold over keys j of the
 *     streamed window, score sm_scale * q_gi·k_j on j <= gi + plen and the sentinel -1e8
 *     elsewhere, k_j / v_j the rows Req_to_tokens[req*stride_req_b + j*stride_req_s] of K / V
 *     (masked to 0 past block_end_loc); hD, hBN > 0, hOInj.
 *   context_attn_llama_io_correctness  contextAttnLlamaIO ... NT ⊨[R] contextAttnLlamaIOSpec:
 *     StreamMetaGatherMasked3DKernelIO₃, meta (start, plen, B_Seqlen, req_idx) of batch
 *     pid1 / H, gather Req_to_tokens at stride_req_b*m3 + stride_req_s*(t*BN + j) masked
 *     t*BN + j < block_end_loc, T = ceil(NT*BM / BN), pre pid0 < NT ∧ B_Seqlen <= NT*BM;
 *     hD, hBN, hBM, hNT > 0, hOInj; .real out.
 *
 * Checked in ContextAttnLlama.lean (contextAttnExactFoldMG, osStepBot, ctxKVMG,
 * contextAttnLlamaIOSpec) against the kernel: the fold is the kernel's loop (m_ij =
 * maximum(m_i, tl.max(qk)), p = exp2(qk - m_ij), l = l*alpha + tl.sum(p), acc = tl.dot(p,
 * v, acc*alpha), acc / l).  Its value is the causal softmax over keys 0 .. gi + plen,
 * plus the sentinel keys: their weight 2^(-1e8 - m) (< 2^-99999000) is exactly 0 in
 * binary32 and negligible in the reference (below every tolerance: a lane's ek is at
 * least 2^-150 once a product enters it), so the spec gives them weight 0.  For an active
 * row every causal key j <= gi + plen lies below block_end_loc, so the load masks never
 * act on a live key, and a KV block whose keys all lie past gi + plen leaves the row's
 * state exactly unchanged in the kernel (exp2(-1e8 - m) = 0, alpha = exp2(0) = 1): the
 * spec skips it.
 *
 * The spec is the kernel's online algorithm (attn2_common.spec.h, a2c_out_deferred, shared
 * with context_attn_fwd), equal to the softmax in exact arithmetic;
 * the error model (shadow) is the kernel's evaluation: fp16 products of q·k exact, summed
 * in binary32 along the head dim, times sm_scale (which carries log2 e, from the
 * launcher); the running max as a comparison (a2_rescale, base 2: alpha is exactly 1 when
 * the old max stays); qk - m_ij and exp2 budgets; l = l*alpha + tl.sum(p) (tree over
 * BLOCK_N, masked lanes exact zeros); P cast to fp16 (kernel-side rounding); the dot
 * accumulating onto acc*alpha in order; the final division; the fp16 store (kernel-side
 * for the genuine contract; the declared store for the IO contract's R.round .real).
 *
 * Formats: Q, K, V, Out fp16 (the Python test), metadata int32.  Generator (ctx_pc_common.h,
 * shared with context_attn_fwd and _bloom; llama's draws keep their order): packed new
 * tokens (tails relative to BLOCK_M, empty sequences), prompt-cache lengths 0, 1, around
 * BLOCK_N and random, BLOCK_M != BLOCK_N, a token table shuffled / with repeats, its own
 * layout for each of Q, K, V, Out (strides larger than the row, head-major or
 * token-major), surplus programs and stream steps, sm_scale (with log2 e) up to 16.
 */
#include "ctx_pc_common.h"

enum { P_SM, P_SQBS, P_SQH, P_SQD, P_SREQB, P_SREQS, P_SKBS, P_SKH, P_SKD, P_SVBS, P_SVH, P_SVD,
       P_SOBS, P_SOH, P_SOD, P_H, P_BD, P_BM, P_BN, P_NT, NP };
enum { R_Q, R_K, R_V, R_OUT, R_START, R_SEQLEN, R_REQ, R_REQIDX, R_PLEN, NR };
enum { C_STORE };
static const ctxpc_idx ix = {.gather = 1, .sm = P_SM, .sq = P_SQBS, .sreq = P_SREQB, .sk = P_SKBS, .sv = P_SVBS,
                             .so = P_SOBS, .hh = P_H, .bd = P_BD, .bm = P_BM, .bn = P_BN, .nt = P_NT,
                             .q = R_Q, .k = R_K, .v = R_V, .out = R_OUT, .start = R_START, .seqlen = R_SEQLEN,
                             .req = R_REQ, .reqidx = R_REQIDX, .plen = R_PLEN};

#define TD_SPEC_FILE "context_attn_llama.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"sm_scale", TD_P_REAL},  {"stride_qbs", TD_P_INT}, {"stride_qh", TD_P_INT},  {"stride_qd", TD_P_INT},
    {"stride_req_b", TD_P_INT}, {"stride_req_s", TD_P_INT}, {"stride_kbs", TD_P_INT}, {"stride_kh", TD_P_INT},
    {"stride_kd", TD_P_INT},  {"stride_vbs", TD_P_INT}, {"stride_vh", TD_P_INT},  {"stride_vd", TD_P_INT},
    {"stride_obs", TD_P_INT}, {"stride_oh", TD_P_INT},  {"stride_od", TD_P_INT},  {"H", TD_P_INT},
    {"BLOCK_DMODEL", TD_P_INT}, {"BLOCK_M", TD_P_INT},  {"BLOCK_N", TD_P_INT},   {"NT", TD_P_INT}};
static const td_region_decl regions_g[NR] = {
    {"Q", TD_F16, TD_R_IN},           {"K", TD_F16, TD_R_IN},            {"V", TD_F16, TD_R_IN},
    {"Out", TD_F16, TD_R_OUT},        {"B_Start_Loc", TD_I32, TD_R_META}, {"B_Seqlen", TD_I32, TD_R_META},
    {"Req_to_tokens", TD_I32, TD_R_META}, {"B_req_idx", TD_I32, TD_R_META}, {"B_Prompt_Cache_Len", TD_I32, TD_R_META}};
static const td_region_decl regions_io[NR] = {
    {"Q", TD_F16, TD_R_IN},           {"K", TD_F16, TD_R_IN},            {"V", TD_F16, TD_R_IN},
    {"Out", TD_F16, TD_R_OUT},        {"B_Start_Loc", TD_I32, TD_R_META}, {"B_Seqlen", TD_I32, TD_R_META},
    {"Req_to_tokens", TD_I32, TD_R_META}, {"B_req_idx", TD_I32, TD_R_META}, {"b_prompt_cache_len", TD_I32, TD_R_META}};
static const td_cast_decl casts[1] = {{"store", "fp16:rne:inf", "R.round .real: the store of acc / l into the fp16 Out"}};

static void gen_g(td_producer *p, td_case *c) { ctxpc_gen(p, c, &ix, 0); }
static void gen_io(td_producer *p, td_case *c) { ctxpc_gen(p, c, &ix, 1); }
static const char *check_g(const td_case *c) { return ctxpc_check(c, &ix, 0); }
static const char *check_io(const td_case *c) { return ctxpc_check(c, &ix, 1); }
static void writes(const td_case *c, td_wset *ws) { ctxpc_writes(c, ws, &ix); }
/* Offsets beyond 2^31: Q's head axis (ctxpc_far, ctx_pc_common.h). */
static void far(td_producer *p, td_case *c) { ctxpc_far(p, c, &ix); }

/* ---- intent (docs/intent.md): both theorems are read as the same operation ---- */
static const td_intent i_ll = {
    .operation = "causal scaled dot-product attention of each new token (position gi + prompt_cache_len) over the "
                 "sequence's tokens 0 .. gi + prompt_cache_len gathered through Req_to_tokens",
    .definition = "torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask = causal at the positions, "
                  "scale = sm_scale * ln 2) (PyTorch documentation; the host folds log2 e into sm_scale and the "
                  "kernel takes exp2), exact (no fp16 P)",
    TD_SPECS(ll_intent),
};

const td_contract td_c_ctx_llama = {
    .id = "context_attn_llama.context_attn_llama_surface_compute_correct_general",
    .file = "context_attn_llama",
    .family = "attention",
    .io_class = "Realizes_without_Rounding (surface, kv_group_num = 1)",
    .kind = "exact",
    .formula = "Out[start+gi, h, d] = sum_{j<=gi+plen} 2^(sm*q.k_j) V[tok(j), h, d] / sum 2^(sm*q.k_j), "
               "tok(j) = Req_to_tokens[req, j]   (fp16)",
    .nparams = NP - 1,
    .params = params,
    .nregions = NR,
    .regions = regions_g,
    .sv = TD_SV_REAL,
    .sv_note = "the -1e8 sentinel's weight is 0 (binary32 exactly, the reference below 2^-99999000); plen <= "
               "B_Seqlen; finite data, output inside fp16",
    .error_model = "base-2 online softmax in the kernel's order; P cast to fp16 and the fp16 store (kernel-side)",
    .classes = CTXPC_CLASSES,
    .gen = gen_g,
    .far = far,
    .check = check_g,
    .writes = writes,
    TD_SPECS(llama),
    .intent = &i_ll,
};

const td_contract td_c_ctx_llama_io = {
    .id = "context_attn_llama.context_attn_llama_io_correctness",
    .file = "context_attn_llama",
    .family = "attention",
    .io_class = "StreamMetaGatherMasked3DKernelIO_3 (contextAttnLlamaIO)",
    .kind = "rounding",
    .formula = "Out[start+gi, h, d] = R.round(.real)(prompt-cache causal base-2 softmax @ V), R = the fp16 store",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions_io,
    .ncasts = 1,
    .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = "the -1e8 sentinel's weight is 0 (binary32 exactly, the reference below 2^-99999000); plen <= "
               "B_Seqlen; finite data, output inside fp16",
    .error_model = "base-2 online softmax in the kernel's order; P cast to fp16 (kernel-side); the declared store",
    .classes = CTXPC_CLASSES,
    .gen = gen_io,
    .far = far,
    .check = check_io,
    .writes = writes,
    TD_SPECS(llama_io),
    .intent = &i_ll,
};
