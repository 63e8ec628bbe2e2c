/* token_attn_reduceV: LightLLM token attention, the P·V reduction of decoding
 * (_fwd_kernel_token_att2), catalogue part 2.
 *
 *   token_attn_reducev_output_summary_general (∃ alg, lowers) ∧ Realizes_without_Rounding:
 *     Out[b*sobs + h*soh + d*sod] = tokenAttnReduceVClosedForm
 *       = Σ_{n < seqlen} Prob[h*sph + (start + n)*spbs] * V[loc(n)*svbs + (h/kvg)*svh + d*svd],
 *     loc(n) = Req_to_tokens[req_idx*srtb + n*srts]; hBD, hBN > 0, hpbs: spbs = 1,
 *     hrts: srts = 1, hOutInj.
 *   token_attn_reducev_io_correctness  tokenAttnReduceVIO ... T ⊨[R] tokenAttnReduceVIOSpec
 *     StreamMetaGatherMasked3DKernelIO₂: meta m = (seqlen, start, req_idx) of batch pid0;
 *     gather Req_to_tokens at m2*srtb + (t*BN + jL)*srts, masked t*BN + jL < m0 (other 0);
 *     read1 Prob at pid1*sph + (m1 + t*BN + jL)*spbs, read2 V at G*svbs + (pid1/kvg)*svh + d*svd,
 *     write pid0*sobs + pid1*soh + d*sod, pre m0 <= T*BN, outDType .real.
 *
 * The Triton kernel (bench/tritonbench_g/token_attn_reduceV/token_attn_reduceV.py): per
 * (batch, head) program, over blocks of BLOCK_N tokens, masked loads (other 0) of P,
 * the token slots and the gathered V rows of KV head h // kv_group_num;
 * acc += tl.sum(p[:, None] * v, 0); finally acc.to(Out.dtype) and the store.  The
 * named closed form and the IO spec are that sum (checked in TokenAttnReduceV.lean).
 *
 * Formats: Prob binary32 (softmax output), V fp16 (the KV cache), Out fp16 (LightLLM's
 * decoding).  The genuine contract is real-valued: the final fp16 cast + store is a
 * kernel-side rounding (attn2_common.h).  The IO contract's R.round .real is that store
 * (slot "store", fp16:rne:inf): the reference is RN16 of the exact sum and the
 * interval-aware cast decides each lane.
 *
 * Error model, in the kernel's order: each block's products p*v rounded in binary32,
 * summed by tl.sum's pairwise tree over the BLOCK_N lanes (masked lanes contribute an
 * exact 0 but keep their place in the tree: the tree's depth is log2 BLOCK_N), the
 * block sum added to acc (the first add is to 0: exact).
 *
 * Generator: packed sequences with tails relative to BLOCK_N, empty ones, surplus
 * stream steps (T), GQA groups 1..3 (kv_group_num >= 1: Triton's h // kvg; the contract
 * has no hypothesis for kvg = 0, where Lean's h/0 = 0 and Triton's is undefined),
 * token slots shuffled and repeated, permuted V/Out layouts.  P is a probability
 * vector (near one-hot sometimes) or signed values (the contract does not restrict
 * P); magnitudes keep the sum inside the fp16 range.
 */
#include "attn2_common.h"
#include "gen_far.h"

enum { P_SRTB, P_SRTS, P_SPH, P_SPBS, P_SVBS, P_SVH, P_SVD, P_SOBS, P_SOH, P_SOD, P_KVG, P_BD, P_BN, P_T, NP };
enum { R_PROB, R_V, R_OUT, R_REQ, R_REQIDX, R_START, R_SEQLEN, NR };
enum { C_STORE };

#define TD_SPEC_FILE "token_attn_reduceV.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_g[NP - 1] = {
    {"stride_req_to_tokens_b", TD_P_INT}, {"stride_req_to_tokens_s", TD_P_INT}, {"stride_ph", TD_P_INT},
    {"stride_pbs", TD_P_INT},             {"stride_vbs", TD_P_INT},             {"stride_vh", TD_P_INT},
    {"stride_vd", TD_P_INT},              {"stride_obs", TD_P_INT},             {"stride_oh", TD_P_INT},
    {"stride_od", TD_P_INT},              {"kv_group_num", TD_P_INT},           {"BLOCK_DMODEL", TD_P_INT},
    {"BLOCK_N", TD_P_INT}};
static const td_param_decl params_io[NP] = {
    {"srtb", TD_P_INT}, {"srts", TD_P_INT}, {"sph", TD_P_INT}, {"spbs", TD_P_INT}, {"svbs", TD_P_INT},
    {"svh", TD_P_INT},  {"svd", TD_P_INT},  {"sobs", TD_P_INT}, {"soh", TD_P_INT}, {"sod", TD_P_INT},
    {"kvg", TD_P_INT},  {"BLOCK_DMODEL", TD_P_INT}, {"BLOCK_N", TD_P_INT}, {"T", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"Prob", TD_F32, TD_R_IN},           {"V", TD_F16, TD_R_IN},         {"Out", TD_F16, TD_R_OUT},
    {"Req_to_tokens", TD_I32, TD_R_META}, {"B_req_idx", TD_I32, TD_R_META}, {"B_Start_Loc", TD_I32, TD_R_META},
    {"B_Seqlen", TD_I32, TD_R_META}};
static const td_cast_decl casts[1] = {{"store", "fp16:rne:inf", "R.round .real: acc.to(Out.dtype) and the store"}};

static void gen_common(td_producer *p, td_case *c, int io) {
    int B = (int)td_prod_u32(p, 1, 3);
    int Hkv = (int)td_prod_u32(p, 1, 2), kvg = (int)td_prod_u32(p, 1, 3), Hq = Hkv * kvg;
    int64_t BN = td_gen_pow2(p, 0, 5), BD = td_gen_pow2(p, 0, 5);
    int64_t len[3], start[3];
    int64_t total = attn2_varlen(p, B, BN, 64, 1, len, start, &c->classes);
    int64_t maxlen = 0;
    for (int b = 0; b < B; b++) maxlen = len[b] > maxlen ? len[b] : maxlen;
    int64_t T = (maxlen + BN - 1) / BN + (int64_t)td_prod_u32(p, 0, 2); /* surplus stream steps */
    if (T == 0) T = 1;
    if (T * BN > maxlen + BN - 1 || maxlen == 0) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    if (T > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (kvg > 1) c->classes |= TD_BC(TD_BC_META_EXTREME);
    /* Prob [Hq, tokens]: a whole BLOCK_N of slack after the last token, so a kernel that
     * forgets the tail mask reads real (wrong) data, not past the region */
    int64_t sph = total + BN + (int64_t)td_prod_u32(p, 0, 3);
    td_case_alloc(c, R_PROB, (size_t)(Hq * sph));
    /* Req_to_tokens [nreq, W], rows as wide as the stream (T*BN) plus padding */
    int nreq = (int)td_prod_u32(p, 1, 4);
    int64_t W = T * BN + (int64_t)td_prod_u32(p, 0, 2);
    int ntok = (int)td_prod_u32(p, 1, 48);
    td_case_alloc(c, R_REQ, (size_t)(nreq * W));
    td_case_alloc(c, R_REQIDX, (size_t)B);
    td_case_alloc(c, R_START, (size_t)B);
    td_case_alloc(c, R_SEQLEN, (size_t)B);
    td_rng r;
    td_rng_seed(&r, td_prod_u64(p));
    int perm = td_prod_u32(p, 0, 2); /* 0: slots 0,1,2.. 1: shuffled, 2: with repeats */
    for (int q = 0; q < nreq; q++)
        for (int64_t n = 0; n < W; n++) {
            int64_t slot = perm == 0 ? n % ntok : (int64_t)td_rng_below(&r, (uint64_t)ntok);
            if (perm == 1) slot = (n * 7 + q * 3 + 1) % ntok;
            td_seti(c, R_REQ, (size_t)(q * W + n), slot);
        }
    for (int b = 0; b < B; b++) {
        td_seti(c, R_REQIDX, (size_t)b, (int64_t)td_rng_below(&r, (uint64_t)nreq));
        td_seti(c, R_START, (size_t)b, start[b]);
        td_seti(c, R_SEQLEN, (size_t)b, len[b]);
    }
    /* V [ntok, Hkv, BD], Out [B, Hq, BD] */
    int64_t nv[3] = {ntok, Hkv, BD}, sv[3], no[3] = {B, Hq, BD}, so[3];
    td_case_alloc(c, R_V, attn2_layout(p, 3, nv, sv, 0, &c->classes));
    td_case_alloc(c, R_OUT, attn2_layout(p, 3, no, so, 0, &c->classes));
    /* values: P a probability vector per (head, sequence), or signed values */
    int probs = td_prod_u32(p, 0, 2) != 0;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, probs ? 0x1p15 : 0x1p7);
    td_vgen_fill(&g, c, R_V);
    td_vgen gp;
    td_vgen_init(&gp, p, c, TD_VM_ALL, probs ? 1.0 : 4.0);
    for (size_t i = 0; i < c->r[R_PROB].len; i++) {
        double x = td_vgen_value(&gp, TD_F32);
        td_set(c, R_PROB, i, probs ? fabs(x) / 64 : x); /* |P| <= 1/64: a row of <= 64 sums to <= 1 */
    }
    if (probs && td_prod_u32(p, 0, 2) == 0) { /* near one-hot rows */
        for (int h = 0; h < Hq; h++)
            for (int b = 0; b < B; b++)
                if (len[b] > 0) {
                    int64_t at = start[b] + (int64_t)td_rng_below(&r, (uint64_t)len[b]);
                    for (int64_t n = 0; n < len[b]; n++) {
                        size_t o = (size_t)(h * sph + start[b] + n);
                        td_set(c, R_PROB, o, start[b] + n == at ? 0.999755859375 : td_get(c, R_PROB, o) * 0x1p-12);
                    }
                }
        c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
    }
    const int64_t v[NP] = {W, 1, sph, 1, sv[0], sv[1], sv[2], so[0], so[1], so[2], kvg, BD, BN, T};
    for (int k = 0; k < (io ? NP : NP - 1); k++) c->p[k].i = v[k];
    c->grid[0] = (uint32_t)B;
    c->grid[1] = (uint32_t)Hq;
    c->grid[2] = 1;
    if (B * Hq == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}
static void gen_g(td_producer *p, td_case *c) { gen_common(p, c, 0); }
static void gen_io(td_producer *p, td_case *c) { gen_common(p, c, 1); }

static const char *check_common(const td_case *c, int io) {
    for (int k = 0; k < (io ? NP : NP - 1); k++)
        if (c->p[k].i < 0) return "strides and sizes are Nat";
    if (c->p[P_BD].i <= 0) return "hBD: 0 < BLOCK_DMODEL";
    if (c->p[P_BN].i <= 0) return "hBN: 0 < BLOCK_N";
    if (c->p[P_SPBS].i != 1) return "hpbs: stride_pbs = 1";
    if (c->p[P_SRTS].i != 1) return "hrts: stride_req_to_tokens_s = 1";
    if (c->p[P_KVG].i <= 0) return "kv_group_num >= 1 (Triton's cur_head // kv_group_num; the generator's domain)";
    int64_t B = c->grid[0], Hq = c->grid[1], BD = c->p[P_BD].i;
    if (BD > 1 && c->p[P_SOD].i == 0) return "hOutInj: i -> pid0*sobs + pid1*soh + i*sod injective";
    if ((B - 1) * c->p[P_SOBS].i + (Hq - 1) * c->p[P_SOH].i + (BD - 1) * c->p[P_SOD].i >= (int64_t)c->r[R_OUT].len)
        return "Out holds every (batch, head) row";
    int64_t nreq = (int64_t)(c->r[R_REQ].len / (uint64_t)(c->p[P_SRTB].i ? c->p[P_SRTB].i : 1));
    for (int64_t b = 0; b < B; b++) {
        int64_t len = td_geti(c, R_SEQLEN, (size_t)b), st = td_geti(c, R_START, (size_t)b),
                q = td_geti(c, R_REQIDX, (size_t)b);
        if (len < 0 || st < 0 || q < 0 || q >= nreq) return "metadata are Nat and B_req_idx names a row of Req_to_tokens";
        if (io && len > c->p[P_T].i * c->p[P_BN].i) return "pre: m0 <= T * BLOCK_N";
        if ((Hq - 1) * c->p[P_SPH].i + st + len > (int64_t)c->r[R_PROB].len) return "Prob holds every sequence";
        if (len > c->p[P_SRTB].i) return "a Req_to_tokens row holds the sequence";
        for (int64_t n = 0; n < len; n++) {
            int64_t slot = td_geti(c, R_REQ, (size_t)(q * c->p[P_SRTB].i + n));
            if (slot < 0 || slot * c->p[P_SVBS].i + ((Hq - 1) / c->p[P_KVG].i) * c->p[P_SVH].i +
                                    (BD - 1) * c->p[P_SVD].i >=
                                (int64_t)c->r[R_V].len)
                return "every gathered token slot is a row of V";
        }
    }
    return NULL;
}
static const char *check_g(const td_case *c) { return check_common(c, 0); }
static const char *check_io(const td_case *c) { return check_common(c, 1); }

static void writes(const td_case *c, td_wset *ws) {
    for (uint32_t b = 0; b < c->grid[0]; b++)
        for (uint32_t h = 0; h < c->grid[1]; h++)
            for (int64_t d = 0; d < c->p[P_BD].i; d++) {
                td_olane l = {.region = R_OUT,
                              .off = (uint64_t)(b * c->p[P_SOBS].i + h * c->p[P_SOH].i + d * c->p[P_SOD].i),
                              .pid = {b, h, 0}, .j = (uint64_t)d, .idx = {b, h, d}};
                td_wset_add(ws, &l);
            }
}

/* Offsets beyond 2^31 (gen_far.h): Prob's head axis (program axis 1: cur_head *
 * stride_ph, an int32 product in the kernel) moved to a stride near 2^31 over a sparse
 * mapping, each head's row (every token and the slack after them) kept whole
 * (stride_pbs stays 1).  Query heads past TD_FAR_MAX_ROWS are dropped from the launch
 * (heads 0..3 keep their KV head h / kv_group_num); V, Out and the metadata are kept. */
static void far(td_producer *p, td_case *c) {
    int64_t H = c->grid[1] < TD_FAR_MAX_ROWS ? c->grid[1] : TD_FAR_MAX_ROWS, live = 0;
    for (uint32_t b = 0; b < c->grid[0]; b++) live |= td_geti(c, R_SEQLEN, b) > 0;
    if (!live) return; /* every sequence empty: P is never read */
    int64_t n[2] = {H, c->p[P_SPH].i}, s[2] = {c->p[P_SPH].i, c->p[P_SPBS].i};
    if (!td_far_move_axis(p, c, R_PROB, 2, n, s, 0)) return;
    c->p[P_SPH].i = s[0], c->grid[1] = (uint32_t)H;
}

#define TARV_CLASSES                                                                                            \
    (TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_FULLY_MASKED) |     \
     TD_BC(TD_BC_OFFSET_2_31))

/* ---- intent (docs/intent.md) ---- */
static const td_intent i_rv = {
    .operation = "decode attention's P.V: out[b, h, d] = sum over the sequence's B_Seqlen tokens n of P[h, n] * "
                 "V[token n, h // kv_group_num, d]",
    .definition = "the P.V product of attention (softmax(q k^T) v, torch.nn.functional.scaled_dot_product_attention, PyTorch documentation) with the weights given: torch.matmul(P, V) over the rows the page table gathers, query head h reading KV head h // kv_group_num (scaled_dot_product_attention(enable_gqa=True)), exact",
    TD_SPECS(reducev_intent),
};

const td_contract td_c_token_attn_reducev = {
    .id = "token_attn_reduceV.token_attn_reducev_output_summary_general",
    .file = "token_attn_reduceV",
    .family = "attention",
    .io_class = "ComputeCorrect over Fin BLOCK_DMODEL + lowering",
    .kind = "exact",
    .formula = "Out[b,h,d] = sum_{n<seqlen} Prob[h, start+n] * V[Req_to_tokens[req, n], h/kvg, d]   (Out fp16)",
    .nparams = NP - 1,
    .params = params_g,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite P and V with |sum| well inside fp16; an empty sequence stores 0 (the empty sum)",
    .error_model = "per block: binary32 products, tl.sum tree over BLOCK_N, added to acc; fp16 store (kernel-side)",
    .classes = TARV_CLASSES,
    .gen = gen_g,
    .far = far,
    .check = check_g,
    .writes = writes,
    TD_SPECS(reducev),
    .intent = &i_rv,
};

const td_contract td_c_token_attn_reducev_io = {
    .id = "token_attn_reduceV.token_attn_reducev_io_correctness",
    .file = "token_attn_reduceV",
    .family = "attention",
    .io_class = "StreamMetaGatherMasked3DKernelIO_2 (tokenAttnReduceVIO)",
    .kind = "rounding",
    .formula = "Out[b,h,d] = R.round(.real)(sum_{n<m0} Prob[h, m1+n] * V[G[n], h/kvg, d]), R = the fp16 store",
    .nparams = NP,
    .params = params_io,
    .nregions = NR,
    .regions = regions,
    .ncasts = 1,
    .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = "finite P and V with |sum| well inside fp16; an empty sequence stores 0 (the empty sum)",
    .error_model = "per block: binary32 products, tl.sum tree over BLOCK_N, added to acc; the declared fp16 store",
    .classes = TARV_CLASSES,
    .gen = gen_io,
    .far = far,
    .check = check_io,
    .writes = writes,
    TD_SPECS(reducev_io),
    .intent = &i_rv,
};
