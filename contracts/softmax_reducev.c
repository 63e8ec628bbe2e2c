/* softmax_reducev: LightLLM token attention, fused softmax + P·V of decoding
 * (_fwd_kernel in bench/tritonbench_g/softmax_reducev/softmax_reducev.py), catalogue
 * part 2.
 *
 *   softmax_reducev_genuine_output_compute_correct_general  Realizes_without_Rounding:
 *     Out[pid0*sob + pid1*soh + d*sod] = softmaxReducevWeightedSum
 *       = Σ_{j<L} exp(l_j - mr) * V[loc_j, pid1, d] / Σ_{j<L} exp(l_j - mr),
 *     l_j = Logics[pid1*slh + (start + j)*slb], loc_j = BLoc[pid0*sb + (mil - L + j)*ss],
 *     L = BSeqLen[pid0], start = BStartLoc[pid0];
 *     hD, hN > 0, hseqmod: L % BLOCK_N = 0, hseqpos: 0 < L, hOutInj,
 *     hM: the running max of the program's logits is mr.
 *   softmax_reducev_io_correctness  softmaxReducevIO ⊨[R] softmaxReducevIOSpec:
 *     StreamMetaGatherMasked3DKernelIO₂, meta (m0 = L, m1 = start) of batch pid0, gather
 *     BLoc at pid0*sb + (mil - m0)*ss + (t*BN + jL)*ss masked t*BN + jL < m0 (other
 *     other_kv_index), read1 Logics at pid1*slh + (m1 + t*BN + jL)*slb, read2 V at
 *     G*svbs + pid1*svh + d*svd, write pid0*sob + pid1*soh + d*sod; pre: m0 <= mil,
 *     0 < m0, m0 % BLOCK_N = 0; outDType .real.
 *
 * The kernel: per (batch, head), blocks of BLOCK_N tokens; n_e_max = max(tl.max(qk),
 * e_max), old_scale = exp(e_max - n_e_max), p = exp(qk - n_e_max),
 * e_sum = e_sum*old_scale + tl.sum(p), acc = acc*old_scale + tl.sum(p[:, None]*v, 0);
 * finally acc / e_sum, stored.  hseqmod makes every block full, so the masks and
 * other_kv_index never act (a row of BLoc beyond the sequence is never read).
 *
 * hM ties a single real parameter mr to the running max of "the" program's logits;
 * over a launch of many programs it holds for each of them only if they share their
 * maximum, so the generator builds logits that way (one logit per program equal to
 * mr, the others below it) and the checker verifies hM for every program.  The value
 * is shift-invariant, so mr does not restrict which softmax rows are reachable beyond
 * their maximum (which can be large: scores that overflow a naive exp).
 *
 * The spec is the kernel's online algorithm (running max per block, old_scale,
 * e_sum, acc, acc / e_sum); in exact arithmetic it equals the closed form above, so
 * the MPFR value is the contract's value, and through the shadow it is the error
 * model of the kernel's evaluation: binary32 subtractions and exps (the math model's
 * budget), products p*v, tl.sum's pairwise trees over BLOCK_N, the rescaling
 * multiplications and adds, the final division.  Per-row quantities (running maxima,
 * p, old_scale, e_sum) are memoised per (program, block).
 *
 * Formats: binary32 everywhere (the Python test).  R.round .real of the IO contract is
 * the binary32 store (slot "store", fp32:rne:inf), which rounds nothing.
 */
#include "attn2_common.h"
#include "gen_far.h"

enum { P_MIL, P_SLH, P_SLB, P_SVBS, P_SVH, P_SVD, P_SOB, P_SOH, P_SOD, P_SB, P_SS, P_BD, P_BN, P_OTHER, P_MR, NP };
enum { R_LOGICS, R_V, R_OUT, R_BLOC, R_START, R_SEQLEN, NR };
enum { C_STORE };
enum { TAG_MAX = 1, TAG_SCALE, TAG_P, TAG_SUM };

#define TD_SPEC_FILE "softmax_reducev.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"mil", TD_P_INT},          {"slh", TD_P_INT},          {"slb", TD_P_INT}, {"svbs", TD_P_INT},
    {"svh", TD_P_INT},          {"svd", TD_P_INT},          {"sob", TD_P_INT}, {"soh", TD_P_INT},
    {"sod", TD_P_INT},          {"sb", TD_P_INT},           {"ss", TD_P_INT},  {"BLOCK_DMODEL", TD_P_INT},
    {"BLOCK_N", TD_P_INT},      {"other_kv_index", TD_P_INT}, {"mr", TD_P_REAL}};
static const td_region_decl regions[NR] = {{"Logics", TD_F32, TD_R_IN},    {"V", TD_F32, TD_R_IN},
                                           {"Out", TD_F32, TD_R_OUT},      {"BLoc", TD_I32, TD_R_META},
                                           {"BStartLoc", TD_I32, TD_R_META}, {"BSeqLen", TD_I32, TD_R_META}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round .real: the store into the binary32 Out"}};

static void gen_common(td_producer *p, td_case *c, int io) {
    int B = (int)td_prod_u32(p, 1, 3), H = (int)td_prod_u32(p, 1, 3);
    int64_t BN = td_gen_pow2(p, 0, 5), BD = td_gen_pow2(p, 0, 5);
    /* L = k * BLOCK_N (hseqmod, hseqpos), at most 64 tokens */
    int64_t kmax = 64 / BN, len[3], start[3], pos = 0;
    for (int b = 0; b < B; b++) {
        int64_t k = td_prod_u32(p, 0, 2) == 0 ? 1 : (int64_t)td_prod_u32(p, 1, (uint32_t)kmax);
        len[b] = k * BN;
        if (k > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    }
    int gaps = td_prod_bool(p);
    for (int b = 0; b < B; b++) {
        if (gaps) pos += td_prod_u32(p, 0, 5);
        start[b] = pos;
        pos += len[b];
    }
    c->classes |= TD_BC(TD_BC_EXACT_MULTIPLE);
    int64_t maxlen = 0;
    for (int b = 0; b < B; b++) maxlen = len[b] > maxlen ? len[b] : maxlen;
    int64_t mil = maxlen + (td_prod_u32(p, 0, 2) == 0 ? 0 : (int64_t)td_prod_u32(p, 1, 8));
    if (mil == maxlen) c->classes |= TD_BC(TD_BC_META_EXTREME);
    /* Logics [H, tokens] with slb >= 1; BLoc [B, >= mil]; V [ntok, H, BD]; Out [B, H, BD] */
    int64_t slb = td_prod_u32(p, 0, 3) == 0 ? 2 : 1, slh = pos * slb + (int64_t)td_prod_u32(p, 0, 3);
    if (slb > 1) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    td_case_alloc(c, R_LOGICS, (size_t)((H - 1) * slh + (pos - 1) * slb + 1));
    int64_t ss = td_prod_u32(p, 0, 3) == 0 ? 2 : 1, sb = mil * ss + (int64_t)td_prod_u32(p, 0, 2);
    td_case_alloc(c, R_BLOC, (size_t)((B - 1) * sb + (mil - 1) * ss + 1));
    int ntok = (int)td_prod_u32(p, 1, 48);
    int64_t nv[3] = {ntok, H, BD}, sv[3], no[3] = {B, H, BD}, so[3];
    td_case_alloc(c, R_V, attn2_layout(p, 3, nv, sv, 0, &c->classes));
    td_case_alloc(c, R_OUT, attn2_layout(p, 3, no, so, 0, &c->classes));
    td_case_alloc(c, R_START, (size_t)B);
    td_case_alloc(c, R_SEQLEN, (size_t)B);
    for (int b = 0; b < B; b++) td_seti(c, R_START, (size_t)b, start[b]), td_seti(c, R_SEQLEN, (size_t)b, len[b]);
    td_rng r;
    td_rng_seed(&r, td_prod_u64(p));
    int perm = td_prod_u32(p, 0, 2);
    for (size_t i = 0; i < c->r[R_BLOC].len; i++)
        td_seti(c, R_BLOC, i, perm == 0 ? (int64_t)(i % (size_t)ntok) : (int64_t)td_rng_below(&r, (uint64_t)ntok));
    /* V from the menu */
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p40);
    td_vgen_fill(&g, c, R_V);
    /* logits: mr minus a draw from the menu, one of them exactly mr per program (hM) */
    double mr;
    switch (td_prod_u32(p, 0, 3)) {
    case 0: mr = 0; break;
    case 1: mr = td_prod_bool(p) ? 1 : -1, mr *= td_prod_u32(p, 90, 3000); /* exp(mr) overflows; sequenced draws */
            c->classes |= TD_BC(TD_BC_VALUES_LARGE);
            break;
    default: mr = td_gen_real(p, -20, 20); break;
    }
    td_vgen gl;
    td_vgen_init(&gl, p, c, TD_VM_ALL, 200);
    for (int h = 0; h < H; h++)
        for (int b = 0; b < B; b++) {
            int64_t at = (int64_t)td_rng_below(&r, (uint64_t)len[b]);
            for (int64_t j = 0; j < len[b]; j++) {
                double x = j == at ? mr : (double)(float)(mr - fabs(td_vgen_value(&gl, TD_F32)));
                if (x > mr) x = mr;
                td_set(c, R_LOGICS, (size_t)(h * slh + (start[b] + j) * slb), x);
            }
        }
    int64_t other = td_prod_u32(p, 0, 2) == 0 ? -1 : (int64_t)td_prod_u32(p, 0, (uint32_t)ntok - 1);
    const int64_t v[NP - 1] = {mil, slh, slb, sv[0], sv[1], sv[2], so[0], so[1], so[2], sb, ss, BD, BN, other};
    for (int k = 0; k < NP - 1; k++) c->p[k].i = v[k];
    if (!io) c->p[P_MR].r = mr;
    c->grid[0] = (uint32_t)B;
    c->grid[1] = (uint32_t)H;
    c->grid[2] = 1;
    if (B * H == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}
static void gen_g(td_producer *p, td_case *c) { gen_common(p, c, 0); }
static void gen_io(td_producer *p, td_case *c) { gen_common(p, c, 1); }

/* Offsets beyond 2^31 (gen_far.h): Logics' head axis (H <= 3 heads, program axis 1:
 * cur_head * stride_logic_h, an int32 product in the kernel) moved to a stride near 2^31
 * over a sparse mapping, every token of the buffer packed (slb becomes 1).  The check's
 * hM scan reads only the active logits, so it touches the rows kept.  BLoc, V, Out and
 * the launch are kept. */
static void far(td_producer *p, td_case *c) {
    int64_t H = c->grid[1], slh = c->p[P_SLH].i, slb = c->p[P_SLB].i;
    if (H < 2 || slb <= 0) return;
    int64_t n[2] = {H, ((int64_t)c->r[R_LOGICS].len - 1 - (H - 1) * slh) / slb + 1}, s[2] = {slh, slb};
    if (n[1] < 1 || !td_far_move_axis(p, c, R_LOGICS, 2, n, s, 0)) return;
    c->p[P_SLH].i = s[0], c->p[P_SLB].i = s[1];
}

static const char *check_common(const td_case *c, int io) {
    for (int k = 0; k < P_OTHER; k++)
        if (c->p[k].i < 0) return "strides and sizes are Nat";
    if (c->p[P_BD].i <= 0) return "hD: 0 < BLOCK_DMODEL";
    if (c->p[P_BN].i <= 0) return "hN: 0 < BLOCK_N";
    int64_t B = c->grid[0], H = c->grid[1], BD = c->p[P_BD].i, mil = c->p[P_MIL].i;
    if (BD > 1 && c->p[P_SOD].i == 0) return "hOutInj: i -> pid0*sob + pid1*soh + i*sod injective";
    if ((B - 1) * c->p[P_SOB].i + (H - 1) * c->p[P_SOH].i + (BD - 1) * c->p[P_SOD].i >= (int64_t)c->r[R_OUT].len)
        return "Out holds every (batch, head) row";
    if (!io && (double)(float)c->p[P_MR].r != c->p[P_MR].r) return "mr is a real the generator holds in binary32";
    for (int64_t b = 0; b < B; b++) {
        int64_t L = td_geti(c, R_SEQLEN, (size_t)b), st = td_geti(c, R_START, (size_t)b);
        if (L <= 0) return io ? "pre: 0 < m0" : "hseqpos: 0 < seqLen";
        if (L % c->p[P_BN].i) return io ? "pre: m0 % BLOCK_N = 0" : "hseqmod: seqLen % BLOCK_N = 0";
        if (L > mil) return "pre: m0 <= mil (the BLoc window (mil - L, mil] is inside the row)";
        if (st < 0 || (H - 1) * c->p[P_SLH].i + (st + L - 1) * c->p[P_SLB].i >= (int64_t)c->r[R_LOGICS].len)
            return "Logics holds every sequence";
        for (int64_t j = 0; j < L; j++) {
            int64_t o = b * c->p[P_SB].i + (mil - L + j) * c->p[P_SS].i;
            if (o >= (int64_t)c->r[R_BLOC].len) return "BLoc holds every gathered index";
            int64_t loc = td_geti(c, R_BLOC, (size_t)o);
            if (loc < 0 || loc * c->p[P_SVBS].i + (H - 1) * c->p[P_SVH].i + (BD - 1) * c->p[P_SVD].i >=
                               (int64_t)c->r[R_V].len)
                return "every gathered index is a row of V";
        }
        if (!io)
            for (int64_t h = 0; h < H; h++) {
                double m = -INFINITY;
                for (int64_t j = 0; j < L; j++) {
                    double x = td_get(c, R_LOGICS, (size_t)(h * c->p[P_SLH].i + (st + j) * c->p[P_SLB].i));
                    m = x > m ? x : m;
                }
                if (m != c->p[P_MR].r) return "hM: the running max of every program's logits is mr";
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
                              .off = (uint64_t)(b * c->p[P_SOB].i + h * c->p[P_SOH].i + d * c->p[P_SOD].i),
                              .pid = {b, h, 0}, .j = (uint64_t)d, .idx = {b, h, d}};
                td_wset_add(ws, &l);
            }
}

#define SRV_CLASSES                                                                                             \
    (TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_STRIDE_GT_ROW) | \
     TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31))

/* ---- intent (docs/intent.md) ---- */
static const td_intent i_srv = {
    .operation = "decode attention from its scores: out[b, h, d] = softmax over the sequence's L logits of head h, "
                 "times V[token, h, d] of the tokens B_Loc gathers",
    .definition = "softmax(scores) v of torch.nn.functional.scaled_dot_product_attention (PyTorch documentation) "
                  "with the scores given (torch.softmax(logits, -1) @ V), exact",
    TD_SPECS(srv_intent),
};

const td_contract td_c_softmax_reducev = {
    .id = "softmax_reducev.softmax_reducev_genuine_output_compute_correct_general",
    .file = "softmax_reducev",
    .family = "attention",
    .io_class = "ComputeCorrect over Fin BLOCK_DMODEL",
    .kind = "exact",
    .formula = "Out[b,h,d] = sum_j exp(l_j - mr) V[BLoc[b, mil-L+j], h, d] / sum_j exp(l_j - mr)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "L > 0 and L % BLOCK_N = 0 (every block full: no masked lane); logits finite, max mr up to +-3000",
    .error_model = "online softmax in the kernel's order: exp(l - m_t), old_scale, tl.sum trees, rescale, divide",
    .classes = SRV_CLASSES,
    .gen = gen_g,
    .far = far,
    .check = check_g,
    .writes = writes,
    TD_SPECS(srv),
    .intent = &i_srv,
};

const td_contract td_c_softmax_reducev_io = {
    .id = "softmax_reducev.softmax_reducev_io_correctness",
    .file = "softmax_reducev",
    .family = "attention",
    .io_class = "StreamMetaGatherMasked3DKernelIO_2 (softmaxReducevIO)",
    .kind = "rounding",
    .formula = "Out[b,h,d] = R.round(.real)(softmax over m0 logits weighting gathered V rows), R = the fp32 store",
    .nparams = NP - 1,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .ncasts = 1,
    .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = "0 < m0, m0 % BLOCK_N = 0 (every block full: no masked lane); logits finite, up to +-3000",
    .error_model = "online softmax in the kernel's order: exp(l - m_t), old_scale, tl.sum trees, rescale, divide",
    .classes = SRV_CLASSES,
    .gen = gen_io,
    .far = far,
    .check = check_io,
    .writes = writes,
    TD_SPECS(srv_io),
    .intent = &i_srv,
};
