/* context_attn_bloom: LightLLM's BLOOM prefill attention with a prompt cache and a token
 * table (bench/tritonbench_g/context_attn_bloom/context_attn_bloom.py, _fwd_kernel),
 * catalogue part 1, src lines 2713-2825.
 *
 *   context_attn_bloom_surface_compute_correct_general  Realizes_without_Rounding
 *     (kv_group_num = 1): Out at outOffset (writeIf active: pid2*BM + i < B_Seqlen - plen
 *     ∧ d < head_dim) = bloomFwdGenuineOutValueG: the natural-exp online softmax,
 *     normalised every block, over keys j <= gi + plen, score sm_scale * q_gi·k_j (the dot
 *     over d < head_dim of the BLOCK_DMODEL tile), k_j / v_j the rows
 *     Req_to_tokens[req*stride_req_b + j*stride_req_s] of K / V; hD, hBN > 0, hOInj.
 *   context_attn_bloom_io_correctness  contextAttnBloomIO ... NT ⊨[R] contextAttnBloomIOSpec:
 *     StreamMetaGatherMasked3DKernelIO₃, meta (start, plen, B_Seqlen, req_idx) of batch
 *     pid0, gather at stride_req_b*m3 + stride_req_s*(t*BN + j) masked below
 *     bloomFwdIOBel, pre pid2 < NT ∧ B_Seqlen <= NT*BM, write masked pid2*BM + i <
 *     B_Seqlen - plen ∧ d < head_dim; hD, hBN, hBM, hNT > 0, hOInj; .real out.
 *
 * Checked against the kernel and ContextAttnBloom.lean (bloomFwdGenuineOutValueG,
 * contextAttnBloomExactFoldMG): the catalogue asks whether BLOOM's kernel adds ALiBi
 * slopes: it does not (the Lean file says so too: no slope or positional bias; BLOOM's
 * ALiBi lives elsewhere in LightLLM, not in this kernel).  The loop is the FlashAttention-1
 * form of context_attn_nopad: m_ij = tl.max(qk) (masked lanes -1e8), p = exp(qk - m_ij),
 * m_new = max(m_i, m_ij), alpha, beta, l_new = alpha*l_i + beta*l_ij, p *= beta / l_new,
 * acc *= l_i / l_new * alpha (forced to 1 on a block wholly past the row's causal keys),
 * acc += p.to(fp16) @ v, and acc is stored as it stands.  Its value is the causal softmax
 * over keys 0 .. gi + plen; the sentinel's keys in a block with a live key get exp(-1e8 -
 * m_ij), 0 in binary32 and below every tolerance in the reference (weight 0 in the spec);
 * a block whose keys all lie past gi + plen (BLOCK_M > BLOCK_N) is an exact no-op: m_ij =
 * -1e8, beta = exp(-1e8 - m_i) = 0, alpha = 1, l unchanged, p_scale = 0, acc_scale = 1, so
 * the spec skips it.  For an active row every causal key lies below block_end_loc.  The
 * grid is (batch, head, query block), not llama's (query block, batch * H).
 *
 * hOInj is stated over the whole [BLOCK_M, BLOCK_DMODEL] tile, including the lanes d >=
 * head_dim the kernel never stores; a contiguous [tokens, 1, head_dim] Out with head_dim <
 * BLOCK_DMODEL violates it, so the generator lays Out's rows at least BLOCK_DMODEL apart.
 *
 * The spec is that online algorithm (attn2_common.spec.h, a2c_out, shared with
 * context_attn_nopad and _mistral; the keys gathered through the table), equal to the
 * closed form in exact arithmetic; the error model (shadow) is the kernel's evaluation:
 * exact fp16 products summed in binary32 along the head dim, times sm_scale; exp budgets;
 * tl.sum's tree over BLOCK_N (masked lanes exact zeros); the rescale arithmetic; P cast to
 * fp16 before P·V (kernel-side); the dot's binary32 sum; the fp16 store (kernel-side for
 * the genuine contract, the declared store R.round .real for the IO contract).  Any other
 * KV blocking is admissible: a2_reblock's terms bound what it can change.
 *
 * Formats: Q, K, V, Out fp16, metadata int32.  Generator (ctx_pc_common.h, shared with
 * llama and fwd): as context_attn_llama's, plus head_dim below BLOCK_DMODEL (masked head
 * lanes), the (batch, head, query block) grid, sm_scale 1/sqrt(head_dim) (natural exp).
 */
#include "ctx_pc_common.h"

enum { P_SM, P_SQBS, P_SQH, P_SQD, P_SREQB, P_SREQS, P_SKBS, P_SKH, P_SKD, P_SVBS, P_SVH, P_SVD,
       P_SOBS, P_SOH, P_SOD, P_HD, P_BD, P_BM, P_BN, P_NT, NP };
enum { R_Q, R_K, R_V, R_OUT, R_START, R_SEQLEN, R_REQ, R_REQIDX, R_PLEN, NR };
enum { C_STORE };
static const ctxpc_idx ix = {.gather = 1, .bloom = 1, .ragged = 1, .sm = P_SM, .sq = P_SQBS, .sreq = P_SREQB, .sk = P_SKBS,
                             .sv = P_SVBS, .so = P_SOBS, .hh = P_HD, .bd = P_BD, .bm = P_BM, .bn = P_BN, .nt = P_NT,
                             .q = R_Q, .k = R_K, .v = R_V, .out = R_OUT, .start = R_START, .seqlen = R_SEQLEN,
                             .req = R_REQ, .reqidx = R_REQIDX, .plen = R_PLEN};

#define TD_SPEC_FILE "context_attn_bloom.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"sm_scale", TD_P_REAL},  {"stride_qbs", TD_P_INT}, {"stride_qh", TD_P_INT},  {"stride_qd", TD_P_INT},
    {"stride_req_b", TD_P_INT}, {"stride_req_s", TD_P_INT}, {"stride_kbs", TD_P_INT}, {"stride_kh", TD_P_INT},
    {"stride_kd", TD_P_INT},  {"stride_vbs", TD_P_INT}, {"stride_vh", TD_P_INT},  {"stride_vd", TD_P_INT},
    {"stride_obs", TD_P_INT}, {"stride_oh", TD_P_INT},  {"stride_od", TD_P_INT},  {"head_dim", TD_P_INT},
    {"BLOCK_DMODEL", TD_P_INT}, {"BLOCK_M", TD_P_INT},  {"BLOCK_N", TD_P_INT},   {"NT", TD_P_INT}};
static const td_region_decl regions_g[NR] = {
    {"Q", TD_F16, TD_R_IN},           {"K", TD_F16, TD_R_IN},            {"V", TD_F16, TD_R_IN},
    {"Out", TD_F16, TD_R_OUT},        {"B_Start_Loc", TD_I32, TD_R_META}, {"B_Seqlen", TD_I32, TD_R_META},
    {"Req_to_tokens", TD_I32, TD_R_META}, {"B_req_idx", TD_I32, TD_R_META}, {"B_Prompt_Cache_Len", TD_I32, TD_R_META}};
static const td_region_decl regions_io[NR] = {
    {"Q", TD_F16, TD_R_IN},           {"K", TD_F16, TD_R_IN},            {"V", TD_F16, TD_R_IN},
    {"Out", TD_F16, TD_R_OUT},        {"B_Start_Loc", TD_I32, TD_R_META}, {"B_Seqlen", TD_I32, TD_R_META},
    {"Req_to_tokens", TD_I32, TD_R_META}, {"B_req_idx", TD_I32, TD_R_META}, {"b_prompt_cache_len", TD_I32, TD_R_META}};
static const td_cast_decl casts[1] = {{"store", "fp16:rne:inf", "R.round .real: the store of acc into the fp16 Out"}};

static void gen_g(td_producer *p, td_case *c) { ctxpc_gen(p, c, &ix, 0); }
static void gen_io(td_producer *p, td_case *c) { ctxpc_gen(p, c, &ix, 1); }
static const char *check_g(const td_case *c) { return ctxpc_check(c, &ix, 0); }
static const char *check_io(const td_case *c) { return ctxpc_check(c, &ix, 1); }
static void writes(const td_case *c, td_wset *ws) { ctxpc_writes(c, ws, &ix); }
/* Offsets beyond 2^31: Q's head axis (ctxpc_far, ctx_pc_common.h). */
static void far(td_producer *p, td_case *c) { ctxpc_far(p, c, &ix); }

#define BLOOM_SV_NOTE                                                                                             \
    "the -1e8 sentinel's weight is 0 (binary32 exactly, the reference below e^-99999000); plen <= B_Seqlen; " \
    "finite data, output inside fp16"

/* ---- intent (docs/intent.md): both theorems are read as the same operation ---- */
static const td_intent i_bloom = {
    .operation = "causal scaled dot-product attention of each new token (position gi + prompt_cache_len) over the sequence's tokens 0 .. gi + prompt_cache_len",
    .definition = "torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask = causal at the positions, scale = sm_scale) (PyTorch documentation), exact (no fp16 P)",
    TD_SPECS(bloom_intent),
};

const td_contract td_c_ctx_bloom = {
    .id = "context_attn_bloom.context_attn_bloom_surface_compute_correct_general",
    .file = "context_attn_bloom",
    .family = "attention",
    .io_class = "Realizes_without_Rounding (surface, kv_group_num = 1)",
    .kind = "exact",
    .formula = "Out[start+gi, h, d<head_dim] = sum_{j<=gi+plen} e^(sm*q.k_j) V[tok(j), h, d] / sum e^(sm*q.k_j), "
               "tok(j) = Req_to_tokens[req, j]   (fp16)",
    .nparams = NP - 1,
    .params = params,
    .nregions = NR,
    .regions = regions_g,
    .sv = TD_SV_REAL,
    .sv_note = BLOOM_SV_NOTE,
    .error_model = "natural-exp online softmax normalised every block, in the kernel's order; P cast to fp16 and "
                   "the fp16 store (kernel-side)",
    .classes = CTXPC_CLASSES_RAGGED,
    .gen = gen_g,
    .far = far,
    .check = check_g,
    .writes = writes,
    TD_SPECS(bloom),
    .intent = &i_bloom,
};

const td_contract td_c_ctx_bloom_io = {
    .id = "context_attn_bloom.context_attn_bloom_io_correctness",
    .file = "context_attn_bloom",
    .family = "attention",
    .io_class = "StreamMetaGatherMasked3DKernelIO_3 (contextAttnBloomIO)",
    .kind = "rounding",
    .formula = "Out[start+gi, h, d<head_dim] = R.round(.real)(prompt-cache causal softmax @ V), R = the fp16 store",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions_io,
    .ncasts = 1,
    .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = BLOOM_SV_NOTE,
    .error_model = "natural-exp online softmax normalised every block, in the kernel's order; P cast to fp16 "
                   "(kernel-side); the declared store",
    .classes = CTXPC_CLASSES_RAGGED,
    .gen = gen_io,
    .far = far,
    .check = check_io,
    .writes = writes,
    TD_SPECS(bloom_io),
    .intent = &i_bloom,
};
