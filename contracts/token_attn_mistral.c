/* token_attn_mistral: LightLLM's Mistral decode P·V stage with a sliding window
 * (_fwd_kernel_token_att2), catalogue part 2.
 *
 *   token_attn_mistral_output_summary_general (∃ alg, lowers) ∧ Realizes_without_Rounding:
 *     Out[b*sobs + h*soh + d*sod] = tokenAttnMistralClosedForm
 *       = Σ_{n < att_seqlen} Prob[h*sph + (att_start + n)] * V[loc(n)*svbs + (h/kvg)*svh + d*svd],
 *     loc(n) = Req_to_tokens[req_idx*srtb + (seqlen - sliding_window) + n] (Nat subtraction:
 *     0 when seqlen < sliding_window); hpbs: spbs = 1, hrts: srts = 1, hBN > 0, hOutInj.
 *   token_attn_mistral_io_correctness  mistralIO ... T ⊨[R] mistralIOSpec
 *     StreamMetaGatherMasked3DKernelIO_2, meta m = (seqlen, att_start, req_idx, att_seqlen);
 *     gather at m2*srtb + ((m0 - sw) + t*BN + jL)*srts masked (m0 - sw) + t*BN + jL < m0;
 *     P at pid1*sph + (m1 + t*BN + jL)*spbs masked t*BN + jL < m3; V masked like the gather;
 *     write pid0*sobs + pid1*soh + d*sod (all d); pre m3 <= T*BLOCK_N; outDType .real.
 *
 * The Triton kernel (VeriTile bench/tritonbench_g/token_attn_mistral/token_attn_mistral.py):
 * per (batch, head) program, window start ws = max(seqlen - sliding_window, 0); over
 * blocks of BLOCK_N positions n < att_seqlen: p masked n < att_seqlen, the slot and V
 * row masked ws + n < seqlen (other 0), acc += tl.sum(p * v, 0); acc.to(Out dtype), the
 * store.  Checked against TokenAttnMistral.lean: the closed form sums n < att_seqlen of
 * P * V[slot(ws + n)].  The kernel's V mask drops the terms with ws + n >= seqlen, the
 * closed form does not: they agree when att_seqlen <= seqlen - ws = min(seqlen, sw),
 * which is how LightLLM builds B_Att_Seqlen (att_seqlen = min(seqlen, sliding_window));
 * the generator makes exactly that and the checker names it as the generator's domain.
 * B_Start_Loc is a parameter of the kernel it never reads (the statement says so too).
 *
 * Formats (as token_attn_reduceV): Prob binary32, V fp16, Out fp16.  The genuine
 * contract is real-valued: the fp16 store is a kernel-side rounding (attn2_common.h);
 * the IO contract's R.round .real is that store (slot "store", fp16:rne:inf).
 *
 * Error model (admissible implementations, issue 12): the att_seqlen products p*v
 * rounded in binary32 and summed in any order or blocking (gamma_n sum |p v|: any
 * BLOCK_N, split or sequential), then the fp16 store.
 *
 * Generator: sequence lengths from td_gen_ragged (block BLOCK_N), windows below, at and
 * above them (sliding_window in 1 .. 2*max length, = BLOCK_N sometimes), att windows
 * packed in Prob with or without slack after the last one, each request's token row
 * from td_gen_slots (distinct slots into the V cache), requests in shuffled rows, GQA
 * groups 1..3, strided V and Out layouts (attn2_layout), surplus stream steps T.
 */
#include "attn2_common.h"
#include "gen_far.h"
#include "gen_meta.h"

enum { P_SRTB, P_SRTS, P_SPH, P_SPBS, P_SVBS, P_SVH, P_SVD, P_SOBS, P_SOH, P_SOD, P_KVG, P_SW, P_BD, P_BN, P_T, NP };
enum { R_PROB, R_V, R_OUT, R_REQ, R_REQIDX, R_START, R_SEQLEN, R_ASTART, R_ASEQLEN, NR };
enum { C_STORE };
#define TM_MAXB 3
#define TM_MAXLEN 64

/* the window start max(seqlen - sliding_window, 0) (the spec uses it too) */
static inline int64_t tm_ws(int64_t len, int64_t sw) { return len > sw ? len - sw : 0; }

#define TD_SPEC_FILE "token_attn_mistral.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_g[NP - 1] = {
    {"stride_req_to_tokens_b", TD_P_INT}, {"stride_req_to_tokens_s", TD_P_INT}, {"stride_ph", TD_P_INT},
    {"stride_pbs", TD_P_INT},             {"stride_vbs", TD_P_INT},             {"stride_vh", TD_P_INT},
    {"stride_vd", TD_P_INT},              {"stride_obs", TD_P_INT},             {"stride_oh", TD_P_INT},
    {"stride_od", TD_P_INT},              {"kv_group_num", TD_P_INT},           {"sliding_window", TD_P_INT},
    {"BLOCK_DMODEL", TD_P_INT},           {"BLOCK_N", TD_P_INT}};
static const td_param_decl params_io[NP] = {
    {"srtb", TD_P_INT}, {"srts", TD_P_INT}, {"sph", TD_P_INT},  {"spbs", TD_P_INT}, {"svbs", TD_P_INT},
    {"svh", TD_P_INT},  {"svd", TD_P_INT},  {"sobs", TD_P_INT}, {"soh", TD_P_INT},  {"sod", TD_P_INT},
    {"kvg", TD_P_INT},  {"sw", TD_P_INT},   {"BLOCK_DMODEL", TD_P_INT}, {"BLOCK_N", TD_P_INT}, {"T", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"Prob", TD_F32, TD_R_IN},           {"V", TD_F16, TD_R_IN},          {"Out", TD_F16, TD_R_OUT},
    {"Req_to_tokens", TD_I32, TD_R_META}, {"B_req_idx", TD_I32, TD_R_META}, {"B_Start_Loc", TD_I32, TD_R_META},
    {"B_Seqlen", TD_I32, TD_R_META},      {"B_Att_Start_Loc", TD_I32, TD_R_META},
    {"B_Att_Seqlen", TD_I32, TD_R_META}};
static const td_cast_decl casts[1] = {{"store", "fp16:rne:inf", "R.round .real: acc.to(Out.dtype) and the store"}};

/* The metadata: sequence lengths (td_gen_ragged), att windows min(seqlen, sw) packed
 * in Prob's token axis, one token row per request (td_gen_slots: distinct slots into a
 * V cache of cap rows), batches mapped to requests by a rotation. */
static void gen_meta(td_producer *p, td_rng *r, td_case *c, int nb, int64_t BN, int64_t sw, int64_t *att_total,
                     int64_t *maxatt, int64_t *cap_out) {
    int64_t lens[TM_MAXB], starts[TM_MAXB + 1], row[TM_MAXLEN];
    td_gen_ragged(p, r, lens, starts, nb, 0, TM_MAXLEN, BN, &c->classes);
    c->classes &= ~TD_BC(TD_BC_SEQ_ENDS_AT_END);
    int nreq = nb + (int)td_prod_u32(p, 0, 2);
    int64_t W = TM_MAXLEN + (int64_t)td_prod_u32(p, 0, 2), cap = nb * TM_MAXLEN + (int64_t)td_prod_u32(p, 0, 4);
    td_case_alloc(c, R_REQ, (size_t)(nreq * W));
    for (int q = 0; q < nreq; q++) {
        td_gen_slots(p, r, row, TM_MAXLEN, cap, &c->classes);
        for (int64_t s = 0; s < W; s++) td_seti(c, R_REQ, (size_t)(q * W + s), s < TM_MAXLEN ? row[s] : 0);
    }
    int64_t off = 0, amax = 0, rot = (int64_t)td_prod_u32(p, 0, (uint32_t)(nreq - 1));
    for (int b = 0; b < nb; b++) {
        int64_t att = lens[b] < sw ? lens[b] : sw;
        td_seti(c, R_SEQLEN, (size_t)b, lens[b]);
        td_seti(c, R_START, (size_t)b, starts[b]);
        td_seti(c, R_ASTART, (size_t)b, off);
        td_seti(c, R_ASEQLEN, (size_t)b, att);
        td_seti(c, R_REQIDX, (size_t)b, (b + rot) % nreq); /* distinct requests, rotated rows */
        if (lens[b] > sw) c->classes |= TD_BC(TD_BC_TAIL_ABOVE); /* the window cuts the sequence */
        off += att;
        amax = att > amax ? att : amax;
    }
    if (nb > 0 && td_geti(c, R_ASEQLEN, (size_t)(nb - 1)) > 0) c->classes |= TD_BC(TD_BC_SEQ_ENDS_AT_END);
    c->p[P_SRTB].i = W;
    *att_total = off;
    *maxatt = amax;
    *cap_out = cap;
}

static void gen_common(td_producer *p, td_case *c, int io) {
    int nb = (int)td_prod_u32(p, 1, TM_MAXB);
    int64_t Hkv = td_prod_u32(p, 1, 2), kvg = td_prod_u32(p, 1, 3), Hq = Hkv * kvg;
    int64_t BN = td_gen_pow2(p, 0, 5), BD = td_gen_pow2(p, 0, 5);
    int64_t sw = td_prod_u32(p, 0, 3) ? (int64_t)td_prod_u32(p, 1, 2 * TM_MAXLEN) : BN;
    td_rng r;
    td_rng_seed(&r, td_prod_u64(p));
    td_case_alloc(c, R_REQIDX, (size_t)nb);
    td_case_alloc(c, R_START, (size_t)nb);
    td_case_alloc(c, R_SEQLEN, (size_t)nb);
    td_case_alloc(c, R_ASTART, (size_t)nb);
    td_case_alloc(c, R_ASEQLEN, (size_t)nb);
    int64_t att_total, maxatt, cap;
    gen_meta(p, &r, c, nb, BN, sw, &att_total, &maxatt, &cap);
    /* Prob [Hq, att tokens]: none or up to a BLOCK_N of slack (real values a kernel that
     * forgets the tail mask reads) */
    int64_t slack = td_prod_u32(p, 0, 2) ? 0 : 1 + (int64_t)td_prod_u32(p, 0, (uint32_t)BN);
    if (slack) c->classes &= ~TD_BC(TD_BC_SEQ_ENDS_AT_END);
    int64_t sph = att_total + slack + (int64_t)td_prod_u32(p, 0, 2);
    if (sph < 1) sph = 1;
    td_case_alloc(c, R_PROB, (size_t)(Hq * sph));
    int64_t T = (maxatt + BN - 1) / BN + (int64_t)td_prod_u32(p, 0, 1);
    if (T == 0) T = 1;
    if (T > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (maxatt == 0) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    if (kvg > 1) c->classes |= TD_BC(TD_BC_META_EXTREME);
    int64_t nv[3] = {cap, Hkv, BD}, sv[3], no[3] = {nb, Hq, BD}, so[3];
    td_case_alloc(c, R_V, attn2_layout(p, 3, nv, sv, 0, &c->classes));
    td_case_alloc(c, R_OUT, attn2_layout(p, 3, no, so, 0, &c->classes));
    int probs = td_prod_u32(p, 0, 2) != 0;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, probs ? 0x1p15 : 0x1p7);
    td_vgen_fill(&g, c, R_V);
    td_vgen gp;
    td_vgen_init(&gp, p, c, TD_VM_ALL, probs ? 1.0 : 4.0);
    for (size_t i = 0; i < c->r[R_PROB].len; i++) {
        double x = td_vgen_value(&gp, TD_F32);
        td_set(c, R_PROB, i, probs ? fabs(x) / 64 : x); /* |P| <= 1/64: a window of <= 64 sums to <= 1 */
    }
    const int64_t v[NP] = {c->p[P_SRTB].i, 1, sph, 1, sv[0], sv[1], sv[2], so[0], so[1], so[2], kvg, sw, BD, BN, T};
    for (int k = 0; k < (io ? NP : NP - 1); k++) c->p[k].i = v[k];
    c->grid[0] = (uint32_t)nb;
    c->grid[1] = (uint32_t)Hq;
    c->grid[2] = 1;
    if (nb * Hq == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}
static void gen_g(td_producer *p, td_case *c) { gen_common(p, c, 0); }
static void gen_io(td_producer *p, td_case *c) { gen_common(p, c, 1); }

static const char *check_batch(const td_case *c, int64_t b, int io) {
    int64_t len = td_geti(c, R_SEQLEN, (size_t)b), ast = td_geti(c, R_ASTART, (size_t)b),
            att = td_geti(c, R_ASEQLEN, (size_t)b), q = td_geti(c, R_REQIDX, (size_t)b);
    int64_t sw = c->p[P_SW].i, ws = tm_ws(len, sw), Hq = c->grid[1], srtb = c->p[P_SRTB].i;
    int64_t nreq = srtb > 0 ? (int64_t)c->r[R_REQ].len / srtb : 0;
    if (len < 0 || ast < 0 || att < 0 || q < 0 || q >= nreq) return "metadata are Nat and B_req_idx names a row";
    if (att > len - ws) return "att_seqlen <= min(seqlen, sliding_window) (the generator's domain: LightLLM's B_Att_Seqlen)";
    if (io && att > c->p[P_T].i * c->p[P_BN].i) return "pre: m3 <= T * BLOCK_N";
    if ((Hq - 1) * c->p[P_SPH].i + ast + att > (int64_t)c->r[R_PROB].len) return "Prob holds every att window";
    if (ws + att > srtb) return "a Req_to_tokens row holds the window";
    for (int64_t n = 0; n < att; n++) {
        int64_t slot = td_geti(c, R_REQ, (size_t)(q * srtb + ws + n));
        if (slot < 0 || slot * c->p[P_SVBS].i + ((Hq - 1) / c->p[P_KVG].i) * c->p[P_SVH].i +
                                (c->p[P_BD].i - 1) * c->p[P_SVD].i >= (int64_t)c->r[R_V].len)
            return "every gathered token slot is a row of V";
    }
    return NULL;
}

static const char *check_common(const td_case *c, int io) {
    for (int k = 0; k < (io ? NP : NP - 1); k++)
        if (c->p[k].i < 0) return "strides and sizes are Nat";
    if (c->p[P_BN].i <= 0) return "hBN: 0 < BLOCK_N";
    if (c->p[P_BD].i <= 0) return "0 < BLOCK_DMODEL (tl.arange)";
    if (c->p[P_SPBS].i != 1) return "hpbs: stride_pbs = 1";
    if (c->p[P_SRTS].i != 1) return "hrts: stride_req_to_tokens_s = 1";
    if (c->p[P_KVG].i <= 0) return "kv_group_num >= 1 (Triton's cur_head // kv_group_num; the generator's domain)";
    int64_t B = c->grid[0], Hq = c->grid[1], BD = c->p[P_BD].i;
    for (int k = R_REQIDX; k <= R_ASEQLEN; k++)
        if (c->r[k].len < (uint64_t)B) return "one metadata entry per batch";
    if (BD > 1 && c->p[P_SOD].i == 0) return "hOutInj: i -> pid0*sobs + pid1*soh + i*sod injective";
    if ((B - 1) * c->p[P_SOBS].i + (Hq - 1) * c->p[P_SOH].i + (BD - 1) * c->p[P_SOD].i >= (int64_t)c->r[R_OUT].len)
        return "Out holds every (batch, head) row";
    for (int64_t b = 0; b < B; b++) {
        const char *e = check_batch(c, b, io);
        if (e) return e;
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
 * mapping, each head's row (every att token and the slack after them) kept whole
 * (stride_pbs stays 1).  Query heads past TD_FAR_MAX_ROWS are dropped from the launch
 * (heads 0..3 keep their KV head h / kv_group_num); V, Out and the metadata are kept. */
static void far(td_producer *p, td_case *c) {
    int64_t H = c->grid[1] < TD_FAR_MAX_ROWS ? c->grid[1] : TD_FAR_MAX_ROWS, live = 0;
    for (uint32_t b = 0; b < c->grid[0]; b++) live |= td_geti(c, R_ASEQLEN, b) > 0;
    if (!live) return; /* every sequence empty: P is never read */
    int64_t n[2] = {H, c->p[P_SPH].i}, s[2] = {c->p[P_SPH].i, c->p[P_SPBS].i};
    if (!td_far_move_axis(p, c, R_PROB, 2, n, s, 0)) return;
    c->p[P_SPH].i = s[0], c->grid[1] = (uint32_t)H;
}

#define TAM_CLASSES                                                                                                    \
    (TD_BC(TD_BC_SEQ_EMPTY) | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_SEQ_ENDS_AT_END) | \
     TD_BC(TD_BC_IDX_PERMUTATION) | TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_TAIL_ABOVE) |                           \
     TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_ONE_PROGRAM) |      \
     TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31))

#define TAM_NOTE "finite P and V with |sum| well inside fp16; an empty window stores 0 (the empty sum)"

/* ---- intent (docs/intent.md) ---- */
static const td_intent i_tm = {
    .operation = "sliding-window decode attention's P.V: out[b, h, d] = sum over the window's tokens (the last "
                 "min(seqlen, sliding_window)) of P[h, n] * V[token, h // kv_group_num, d]",
    .definition = "the P.V product of attention (softmax(q k^T) v, torch.nn.functional.scaled_dot_product_attention, PyTorch documentation) with the weights given: torch.matmul(P, V) over the rows the page table gathers, query head h reading KV head h // kv_group_num (scaled_dot_product_attention(enable_gqa=True)), exact" " (Mistral 7B's sliding window, Jiang et al. 2023)",
    TD_SPECS(mistral_intent),
};

const td_contract td_c_token_attn_mistral = {
    .id = "token_attn_mistral.token_attn_mistral_output_summary_general",
    .file = "token_attn_mistral",
    .family = "attention",
    .io_class = "ComputeCorrect over Fin BLOCK_DMODEL + lowering",
    .kind = "exact",
    .formula = "Out[b,h,d] = sum_{n<att_seqlen} Prob[h, att_start+n] * V[Req_to_tokens[req, ws+n], h/kvg, d], "
               "ws = max(seqlen - sw, 0)   (Out fp16)",
    .nparams = NP - 1,
    .params = params_g,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = TAM_NOTE,
    .error_model = "att_seqlen binary32 products summed in any order or blocking; fp16 store (kernel-side)",
    .classes = TAM_CLASSES,
    .gen = gen_g,
    .far = far,
    .check = check_g,
    .writes = writes,
    TD_SPECS(mistral),
    .intent = &i_tm,
};

const td_contract td_c_token_attn_mistral_io = {
    .id = "token_attn_mistral.token_attn_mistral_io_correctness",
    .file = "token_attn_mistral",
    .family = "attention",
    .io_class = "StreamMetaGatherMasked3DKernelIO_2 (mistralIO)",
    .kind = "rounding",
    .formula = "Out[b,h,d] = R.round(.real)(sum_{n<m3} Prob[h, m1+n] * V[G[ws+n], h/kvg, d]), R = the fp16 store",
    .nparams = NP,
    .params = params_io,
    .nregions = NR,
    .regions = regions,
    .ncasts = 1,
    .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = TAM_NOTE,
    .error_model = "att_seqlen binary32 products summed in any order or blocking; the declared fp16 store",
    .classes = TAM_CLASSES,
    .gen = gen_io,
    .far = far,
    .check = check_io,
    .writes = writes,
    TD_SPECS(mistral_io),
    .intent = &i_tm,
};
