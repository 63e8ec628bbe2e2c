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
 * The spec is the kernel's online algorithm, equal to the softmax in exact arithmetic;
 * the error model (shadow) is the kernel's evaluation: fp16 products of q·k exact, summed
 * in binary32 along the head dim, times sm_scale (which carries log2 e, from the
 * launcher); the running max as a comparison (a2_rescale, base 2: alpha is exactly 1 when
 * the old max stays); qk - m_ij and exp2 budgets; l = l*alpha + tl.sum(p) (tree over
 * BLOCK_N, masked lanes exact zeros); P cast to fp16 (kernel-side rounding); the dot
 * accumulating onto acc*alpha in order; the final division; the fp16 store (kernel-side
 * for the genuine contract; the declared store for the IO contract's R.round .real).
 *
 * Formats: Q, K, V, Out fp16 (the Python test), metadata int32.  Generator: packed new
 * tokens (tails relative to BLOCK_M, empty sequences), prompt-cache lengths 0, 1, around
 * BLOCK_N and random, BLOCK_M != BLOCK_N, a token table shuffled / with repeats, its own
 * layout for each of Q, K, V, Out (strides larger than the row, head-major or
 * token-major), surplus programs and stream steps, sm_scale (with log2 e) up to 16.
 */
#include "attn2_common.h"

enum { P_SM, P_SQBS, P_SQH, P_SQD, P_SREQB, P_SREQS, P_SKBS, P_SKH, P_SKD, P_SVBS, P_SVH, P_SVD,
       P_SOBS, P_SOH, P_SOD, P_H, P_BD, P_BM, P_BN, P_NT, NP };
enum { R_Q, R_K, R_V, R_OUT, R_START, R_SEQLEN, R_REQ, R_REQIDX, R_PLEN, NR };
enum { C_STORE };
enum { TAG_S = 1, TAG_M, TAG_A, TAG_L, TAG_P16 };

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

static void gen_common(td_producer *p, td_case *c, int io) {
    int B = (int)td_prod_u32(p, 1, 3), H = (int)td_prod_u32(p, 1, 3);
    int64_t BM = td_gen_pow2(p, 0, 4), BN = td_gen_pow2(p, 0, 4), D = td_gen_pow2(p, 0, 4);
    int64_t nq[3], qstart[3], plen[3], tot[3], maxq = 1, maxtot = 1;
    int64_t nqtok = attn2_varlen(p, B, BM, 40, 1, nq, qstart, &c->classes);
    for (int b = 0; b < B; b++) {
        switch (td_prod_u32(p, 0, 5)) {
        case 0: plen[b] = 0; break;
        case 1: plen[b] = 1; break;
        case 2: plen[b] = BN > 1 ? BN - 1 : 1; break;
        case 3: plen[b] = BN; break;
        case 4: plen[b] = BN + 1; break;
        default: plen[b] = (int64_t)td_prod_u32(p, 0, 24); break;
        }
        if (plen[b] == 0) c->classes |= TD_BC(TD_BC_META_EXTREME);
        tot[b] = nq[b] + plen[b];
        maxq = nq[b] > maxq ? nq[b] : maxq;
        maxtot = tot[b] > maxtot ? tot[b] : maxtot;
    }
    int64_t mil = maxq + (td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, (uint32_t)BM) : 0);
    int64_t NM = (mil + BM - 1) / BM;
    if (NM * BM > maxq + BM - 1) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    if (NM > 1 || maxtot > BN) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    /* token table [nreq, W]: W >= every total length, plus padding */
    int nreq = (int)td_prod_u32(p, 1, 4);
    int64_t W = maxtot + (int64_t)td_prod_u32(p, 0, 3);
    int64_t sreqs = td_prod_u32(p, 0, 4) == 0 ? 2 : 1, sreqb = W * sreqs + (int64_t)td_prod_u32(p, 0, 2);
    int ntok = (int)td_prod_u32(p, 1, 64);
    td_case_alloc(c, R_REQ, (size_t)((nreq - 1) * sreqb + (W - 1) * sreqs + 1));
    td_rng r;
    td_rng_seed(&r, td_prod_u64(p));
    int perm = td_prod_u32(p, 0, 2);
    for (int q = 0; q < nreq; q++)
        for (int64_t n = 0; n < W; n++) {
            int64_t slot = perm == 0 ? (q * W + n) % ntok : perm == 1 ? (n * 5 + q * 11 + 3) % ntok
                                                                    : (int64_t)td_rng_below(&r, (uint64_t)ntok);
            td_seti(c, R_REQ, (size_t)(q * sreqb + n * sreqs), slot);
        }
    td_case_alloc(c, R_START, (size_t)B);
    td_case_alloc(c, R_SEQLEN, (size_t)B);
    td_case_alloc(c, R_REQIDX, (size_t)B);
    td_case_alloc(c, R_PLEN, (size_t)B);
    for (int b = 0; b < B; b++) {
        td_seti(c, R_START, (size_t)b, qstart[b]);
        td_seti(c, R_SEQLEN, (size_t)b, tot[b]);
        td_seti(c, R_REQIDX, (size_t)b, (int64_t)td_rng_below(&r, (uint64_t)nreq));
        td_seti(c, R_PLEN, (size_t)b, plen[b]);
    }
    /* layouts: Q and Out over (query tokens, H, D), K and V over (slots, H, D) */
    int64_t nqd[3] = {nqtok > 0 ? nqtok : 1, H, D}, nkd[3] = {ntok, H, D}, sq[3], so[3], sk[3], sv[3];
    td_case_alloc(c, R_Q, attn2_layout(p, 3, nqd, sq, 0, &c->classes));
    td_case_alloc(c, R_OUT, attn2_layout(p, 3, nqd, so, 0, &c->classes));
    td_case_alloc(c, R_K, attn2_layout(p, 3, nkd, sk, 0, &c->classes));
    td_case_alloc(c, R_V, attn2_layout(p, 3, nkd, sv, 0, &c->classes));
    c->p[P_SM].r = attn2_gen_scale(p, 1.4426950408889634 / sqrt((double)D), 1.0 / 64, 16);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    td_vgen_fill(&g, c, R_Q);
    td_vgen_fill(&g, c, R_K);
    td_vgen gv;
    td_vgen_init(&gv, p, c, TD_VM_ALL, 1024);
    td_vgen_fill(&gv, c, R_V);
    const int64_t v[NP - 1] = {0,     sq[0], sq[1], sq[2], sreqb, sreqs, sk[0], sk[1], sk[2], sv[0],
                               sv[1], sv[2], so[0], so[1], so[2], H,     D,     BM,    BN};
    for (int k = 1; k < NP - 1; k++) c->p[k].i = v[k];
    if (io) {
        int64_t nt = (maxtot + BM - 1) / BM;
        c->p[P_NT].i = (nt > NM ? nt : NM) + (int64_t)td_prod_u32(p, 0, 1);
    }
    c->grid[0] = (uint32_t)NM;
    c->grid[1] = (uint32_t)(B * H);
    c->grid[2] = 1;
    if (NM * B * H == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}
static void gen_g(td_producer *p, td_case *c) { gen_common(p, c, 0); }
static void gen_io(td_producer *p, td_case *c) { gen_common(p, c, 1); }

/* (i, d) -> i*so + d*sd injective on [BM] x [BD] */
static int injective2(int64_t BM, int64_t BD, int64_t so, int64_t sd) {
    for (int64_t i1 = 0; i1 < BM; i1++)
        for (int64_t d1 = 0; d1 < BD; d1++)
            for (int64_t i2 = i1; i2 < BM; i2++)
                for (int64_t d2 = 0; d2 < BD; d2++)
                    if ((i1 != i2 || d1 != d2) && i1 * so + d1 * sd == i2 * so + d2 * sd) return 0;
    return 1;
}

static const char *check_common(const td_case *c, int io) {
    if ((double)(float)c->p[P_SM].r != c->p[P_SM].r) return "sm_scale is the kernel's binary32 scalar";
    for (int k = 1; k < (io ? NP : NP - 1); k++)
        if (c->p[k].i < 0) return "strides and sizes are Nat";
    int64_t H = c->p[P_H].i, BD = c->p[P_BD].i, BM = c->p[P_BM].i, BN = c->p[P_BN].i;
    if (BD <= 0) return "hD: 0 < BLOCK_DMODEL";
    if (BN <= 0) return "hBN: 0 < BLOCK_N";
    if (BM <= 0) return io ? "hBM: 0 < BLOCK_M" : "BLOCK_M > 0 (a Triton block; the generator's domain)";
    if (BN > 256 || BM > 64) return "BLOCK_N <= 256, BLOCK_M <= 64 (the spec engine's tile; the generator's domain)";
    if (io && c->p[P_NT].i <= 0) return "hNT: 0 < NT";
    if (H <= 0 || c->grid[1] % (uint32_t)H) return "the grid's axis 1 is batch * H";
    if (!injective2(BM, BD, c->p[P_SOBS].i, c->p[P_SOD].i)) return "hOInj: the output tile's offsets are injective";
    int64_t nreq = (int64_t)c->r[R_REQIDX].len;
    (void)nreq;
    for (uint32_t b = 0; b < c->grid[1] / (uint32_t)H; b++) {
        int64_t st = td_geti(c, R_START, b), tot = td_geti(c, R_SEQLEN, b), pl = td_geti(c, R_PLEN, b),
                req = td_geti(c, R_REQIDX, b);
        if (st < 0 || tot < 0 || pl < 0 || req < 0) return "metadata are Nat";
        if (pl > tot) return "b_prompt_cache_len <= B_Seqlen (the generator's domain: the kernel's int32 difference)";
        if (io && (int64_t)c->grid[0] > c->p[P_NT].i) return "pre: pid0 < NT for every program";
        if (io && tot > c->p[P_NT].i * BM) return "pre: B_Seqlen <= NT * BLOCK_M";
        if (tot - pl > (int64_t)c->grid[0] * BM) return "the grid covers every query row";
        for (int64_t j = 0; j < tot; j++) {
            int64_t o = req * c->p[P_SREQB].i + j * c->p[P_SREQS].i;
            if (o >= (int64_t)c->r[R_REQ].len) return "Req_to_tokens holds every position of the sequence";
            int64_t slot = td_geti(c, R_REQ, (size_t)o);
            if (slot < 0 ||
                slot * c->p[P_SKBS].i + (H - 1) * c->p[P_SKH].i + (BD - 1) * c->p[P_SKD].i >= (int64_t)c->r[R_K].len ||
                slot * c->p[P_SVBS].i + (H - 1) * c->p[P_SVH].i + (BD - 1) * c->p[P_SVD].i >= (int64_t)c->r[R_V].len)
                return "every token slot of the table is a row of K and V";
        }
        if (tot - pl > 0 && (st + tot - pl - 1) * c->p[P_SQBS].i + (H - 1) * c->p[P_SQH].i + (BD - 1) * c->p[P_SQD].i >=
                                (int64_t)c->r[R_Q].len)
            return "Q holds every query row";
        if (tot - pl > 0 && (st + tot - pl - 1) * c->p[P_SOBS].i + (H - 1) * c->p[P_SOH].i + (BD - 1) * c->p[P_SOD].i >=
                                (int64_t)c->r[R_OUT].len)
            return "Out holds every query row";
    }
    return NULL;
}
static const char *check_g(const td_case *c) { return check_common(c, 0); }
static const char *check_io(const td_case *c) { return check_common(c, 1); }

/* writeIf pid0*BM + i < B_Seqlen - plen, at (start + pid0*BM + i)*sobs + (pid1 % H)*soh + d*sod */
static void writes(const td_case *c, td_wset *ws) {
    int64_t H = c->p[P_H].i, BM = c->p[P_BM].i, BD = c->p[P_BD].i;
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++) {
            int64_t b = p1 / H, h = p1 % H;
            int64_t st = td_geti(c, R_START, (size_t)b);
            int64_t nq = td_geti(c, R_SEQLEN, (size_t)b) - td_geti(c, R_PLEN, (size_t)b);
            for (int64_t i = 0; i < BM && p0 * BM + i < nq; i++)
                for (int64_t d = 0; d < BD; d++) {
                    int64_t gi = p0 * BM + i;
                    td_olane l = {.region = R_OUT,
                                  .off = (uint64_t)((st + gi) * c->p[P_SOBS].i + h * c->p[P_SOH].i + d * c->p[P_SOD].i),
                                  .pid = {p0, p1, 0}, .j = (uint64_t)(i * BD + d), .idx = {b, h, gi, d}};
                    td_wset_add(ws, &l);
                }
        }
}

#define LLAMA_CLASSES                                                                                         \
    (TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_FULLY_MASKED))

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
    .classes = LLAMA_CLASSES,
    .gen = gen_g,
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
    .classes = LLAMA_CLASSES,
    .gen = gen_io,
    .check = check_io,
    .writes = writes,
    TD_SPECS(llama_io),
    .intent = &i_ll,
};
