/* token_attn_llama2: LightLLM's decode-time Q·K score stage with GQA
 * (_fwd_kernel_token_att1), catalogue part 2.
 *
 *   token_attn_llama2_output_summary_general (∃ alg, lowers) ∧ Realizes_without_Rounding:
 *     Att_Out[h*ash + (start + n)*asbs] = tokenAttnLlama2ClosedForm
 *       = sm_scale * Σ_{d < BLOCK_DMODEL} Q[b*sqbs + h*sqh + d*sqd] * K[loc*skbs + (h/kvg)*skh + d*skd],
 *     loc = B_Loc[b*sblb + (max_input_len - seqlen + n)*sbls], for n < seqlen; hOutInj.
 *   token_attn_llama2_io_correctness  llama2IO ... ⊨[R] llama2IOSpec
 *     StreamMetaGatherMasked3DKernelIO_2, meta m = (seqlen, start) of batch pid0, T = 1;
 *     gather B_Loc at sblb*pid0 + sbls*((mil - m0) + pid2*BN + j), masked < mil (other 0);
 *     read1 Q at pid0*sqbs + pid1*sqh + d*sqd, read2 K at G*skbs + (pid1/kvg)*skh + d*skd;
 *     write pid1*ash + (m1 + pid2*BN + i)*asbs, writeMask pid2*BN < m0 ∧
 *     (mil - m0) + pid2*BN + i < mil (i.e. pid2*BN + i < m0); outDType .real.
 *
 * The Triton kernel (VeriTile bench/tritonbench_g/token_attn_llama2/token_attn_llama2.py),
 * grid (batch, head, cdiv(max_input_len, BLOCK_N)): a program whose block starts at or
 * past seqlen does nothing (block_mask); otherwise it loads q (BLOCK_DMODEL), the
 * BLOCK_N token slots of the right-aligned B_Loc row (columns mil - seqlen + n), the
 * gathered K rows of KV head h // kv_group_num, att = tl.sum(q * k, 1) * sm_scale, and
 * stores the lanes n < seqlen at start + n.  The named closed form and the IO spec are
 * that value, checked against TokenAttnLlama2.lean (llama2IOSpec = sm_scale * the dot
 * over BD of q and the gathered row; the Nat subtraction mil - m0 needs seqlen <= mil,
 * which the launcher's max_input_len guarantees and the generator keeps).
 *
 * Formats: Q, K and Att_Out binary32 (the catalogue's test and the kernel's fp32 math;
 * the IO contract's R.round .real into a binary32 region is the identity on the value
 * the kernel holds, so both contracts share one spec).
 *
 * Error model (admissible implementations, issue 12): the BD products q_d*k_d and their
 * sum in any order, with or without FMA contraction (the accumulator's gamma_{BD} bound
 * on sum |q_d k_d|), then one binary32 multiply by sm_scale (u |result|).  A kernel that
 * pre-scales q by sm_scale computes another expression (q*s rounded, then the dot): it
 * is not this contract's form, and N(either) gives it as the second admissible form so
 * it is judged by its own bound, not flagged.
 *
 * Generator: a ragged batch (td_gen_ragged, block BLOCK_N: lengths 0, 1, BN-1, BN, BN+1,
 * max_input_len) packed in the Att_Out token axis (slack or none after it), per-batch
 * token tables right-aligned in B_Loc rows of max_input_len (+ padding) with distinct
 * slots (td_gen_slots: permutations, the first and last slot) or repeated ones
 * (td_gen_indices), GQA groups 1..3, strided layouts for Q, K and Att_Out
 * (attn2_layout), surplus programs along the block axis.  Values |q|, |k| <= 2^6 from the
 * project's menu, sm_scale 1/sqrt(BD) or another binary32 scale.
 */
#include "attn2_common.h"
#include "gen_far.h"
#include "gen_meta.h"

enum { P_SCALE, P_MIL, P_SBLB, P_SBLS, P_SQBS, P_SQH, P_SQD, P_SKBS, P_SKH, P_SKD, P_ASH, P_ASBS, P_KVG, P_BD, P_BN, NP };
enum { R_Q, R_K, R_BLOC, R_START, R_SEQLEN, R_ATT, NR };
#define TA_MAXB 3

#define TD_SPEC_FILE "token_attn_llama2.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"sm_scale", TD_P_REAL},       {"max_input_len", TD_P_INT}, {"stride_b_loc_b", TD_P_INT},
    {"stride_b_loc_s", TD_P_INT},  {"stride_qbs", TD_P_INT},    {"stride_qh", TD_P_INT},
    {"stride_qd", TD_P_INT},       {"stride_kbs", TD_P_INT},    {"stride_kh", TD_P_INT},
    {"stride_kd", TD_P_INT},       {"att_stride_h", TD_P_INT},  {"att_stride_bs", TD_P_INT},
    {"kv_group_num", TD_P_INT},    {"BLOCK_DMODEL", TD_P_INT},  {"BLOCK_N", TD_P_INT}};
static const td_region_decl regions[NR] = {{"Q", TD_F32, TD_R_IN},           {"K", TD_F32, TD_R_IN},
                                           {"B_Loc", TD_I32, TD_R_META},     {"B_Start_Loc", TD_I32, TD_R_META},
                                           {"B_Seqlen", TD_I32, TD_R_META},  {"Att_Out", TD_F32, TD_R_OUT}};

/* B_Loc rows: the right-aligned window of each sequence from td_gen_slots (distinct) or
 * td_gen_indices (repeats); the unread columns on the left hold valid slots too. */
static void gen_bloc(td_producer *p, td_rng *r, td_case *c, const int64_t *lens, int nb, int64_t mil, int64_t W,
                     int64_t cap) {
    int64_t row[256];
    for (int b = 0; b < nb; b++) {
        int64_t len = lens[b];
        if (len > 0 && len <= cap && td_prod_bool(p)) td_gen_slots(p, r, row, len, cap, &c->classes);
        else if (len > 0) td_gen_indices(p, r, row, len, cap, &c->classes);
        for (int64_t s = 0; s < W; s++) {
            int64_t v = s >= mil - len && s < mil ? row[s - (mil - len)] : (int64_t)td_rng_below(r, (uint64_t)cap);
            td_seti(c, R_BLOC, (size_t)(b * W + s), v);
        }
    }
}

static void gen(td_producer *p, td_case *c) {
    int nb = (int)td_prod_u32(p, 1, TA_MAXB);
    int64_t Hkv = td_prod_u32(p, 1, 2), kvg = td_prod_u32(p, 1, 3), Hq = Hkv * kvg;
    int64_t BN = td_gen_pow2(p, 0, 5), BD = td_gen_pow2(p, 0, 6);
    int64_t nfull = td_prod_u32(p, 1, 3); /* one draw per statement: C leaves operand order open */
    int64_t mil = nfull * BN + (int64_t)td_prod_u32(p, 0, 2) - 1; /* k*BN - 1, k*BN, k*BN + 1 */
    if (mil < 1) mil = 1;
    td_rng r;
    td_rng_seed(&r, td_prod_u64(p));
    int64_t lens[TA_MAXB], starts[TA_MAXB + 1];
    int64_t total = td_gen_ragged(p, &r, lens, starts, nb, 0, mil, BN, &c->classes);
    int64_t slack = td_prod_u32(p, 0, 2) ? 0 : 1 + (int64_t)td_prod_u32(p, 0, (uint32_t)BN);
    if (slack) c->classes &= ~TD_BC(TD_BC_SEQ_ENDS_AT_END);
    int64_t ntok = total + slack > 0 ? total + slack : 1;
    for (int b = 0; b < nb; b++)
        if (lens[b] == 0) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    if (kvg > 1) c->classes |= TD_BC(TD_BC_META_EXTREME);
    int64_t nblk = (mil + BN - 1) / BN + (int64_t)td_prod_u32(p, 0, 1); /* surplus block programs */
    if (nblk > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    /* the K cache: at least every sequence's tokens, up to a few more slots */
    int64_t cap = mil * nb + (int64_t)td_prod_u32(p, 0, 4);
    int64_t W = mil + (td_prod_u32(p, 0, 2) ? 0 : (int64_t)td_prod_u32(p, 1, 3));
    if (W > mil) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    td_case_alloc(c, R_BLOC, (size_t)(nb * W));
    td_case_alloc(c, R_START, (size_t)nb);
    td_case_alloc(c, R_SEQLEN, (size_t)nb);
    gen_bloc(p, &r, c, lens, nb, mil, W, cap);
    for (int b = 0; b < nb; b++) {
        td_seti(c, R_START, (size_t)b, starts[b]);
        td_seti(c, R_SEQLEN, (size_t)b, lens[b]);
    }
    int64_t nq[3] = {nb, Hq, BD}, sq[3], nk[3] = {cap, Hkv, BD}, sk[3], na[2] = {Hq, ntok}, sa[2];
    td_case_alloc(c, R_Q, attn2_layout(p, 3, nq, sq, 0, &c->classes));
    td_case_alloc(c, R_K, attn2_layout(p, 3, nk, sk, 0, &c->classes));
    int tokmajor = td_prod_bool(p);
    int64_t na2[2] = {ntok, Hq}, sa2[2];
    td_case_alloc(c, R_ATT, tokmajor ? attn2_layout(p, 2, na2, sa2, 0, &c->classes)
                                     : attn2_layout(p, 2, na, sa, 0, &c->classes));
    if (tokmajor) sa[0] = sa2[1], sa[1] = sa2[0];
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p6);
    td_vgen_fill(&g, c, R_Q);
    td_vgen_fill(&g, c, R_K);
    double scale = attn2_gen_scale(p, 1.0 / sqrt((double)BD), 1.0 / 64, 4);
    c->p[P_SCALE].r = scale;
    const int64_t v[NP] = {0, mil, W, 1, sq[0], sq[1], sq[2], sk[0], sk[1], sk[2], sa[0], sa[1], kvg, BD, BN};
    for (int k = 1; k < NP; k++) c->p[k].i = v[k];
    c->grid[0] = (uint32_t)nb;
    c->grid[1] = (uint32_t)Hq;
    c->grid[2] = (uint32_t)nblk;
    if (nb * Hq * nblk == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}

static const char *check_meta(const td_case *c, int64_t *ntok) {
    int64_t nb = c->grid[0], mil = c->p[P_MIL].i, BN = c->p[P_BN].i, Hq = c->grid[1];
    *ntok = 0;
    if ((uint64_t)nb > c->r[R_START].len || (uint64_t)nb > c->r[R_SEQLEN].len) return "a start and a length per batch";
    for (int64_t b = 0; b < nb; b++) {
        int64_t st = td_geti(c, R_START, (size_t)b), len = td_geti(c, R_SEQLEN, (size_t)b);
        if (st < 0 || len < 0) return "B_Start_Loc and B_Seqlen are Nat";
        if (len > mil) return "seqlen <= max_input_len (the Nat subtraction mil - seqlen)";
        int64_t w = len < (int64_t)c->grid[2] * BN ? len : (int64_t)c->grid[2] * BN;
        if (w == 0) continue;
        for (int64_t a = 0; a < b; a++) {
            int64_t sa = td_geti(c, R_START, (size_t)a), la = td_geti(c, R_SEQLEN, (size_t)a);
            if (la > 0 && sa < st + w && st < sa + la) return "hOutInj across programs: disjoint sequences";
        }
        *ntok = st + w > *ntok ? st + w : *ntok;
        for (int64_t n = 0; n < w; n++) {
            int64_t col = (mil - len + n) * c->p[P_SBLS].i + b * c->p[P_SBLB].i;
            if (col >= (int64_t)c->r[R_BLOC].len) return "B_Loc holds every active token slot";
            int64_t slot = td_geti(c, R_BLOC, (size_t)col);
            int64_t last = slot * c->p[P_SKBS].i + ((Hq - 1) / c->p[P_KVG].i) * c->p[P_SKH].i +
                           (c->p[P_BD].i - 1) * c->p[P_SKD].i;
            if (slot < 0 || last >= (int64_t)c->r[R_K].len) return "every gathered slot is a row of K";
        }
    }
    return NULL;
}

static const char *check(const td_case *c) {
    for (int k = 1; k < NP; k++)
        if (c->p[k].i < 0) return "strides and sizes are Nat";
    if ((double)(float)c->p[P_SCALE].r != c->p[P_SCALE].r) return "sm_scale is the kernel's binary32 scalar";
    if (c->p[P_BD].i <= 0 || c->p[P_BN].i <= 0) return "BLOCK_DMODEL, BLOCK_N > 0 (tl.arange)";
    if (c->p[P_KVG].i <= 0) return "kv_group_num >= 1 (Triton's cur_head // kv_group_num; the generator's domain)";
    int64_t nb = c->grid[0], Hq = c->grid[1], BD = c->p[P_BD].i, ntok;
    const char *e = check_meta(c, &ntok);
    if (e) return e;
    if ((nb - 1) * c->p[P_SQBS].i + (Hq - 1) * c->p[P_SQH].i + (BD - 1) * c->p[P_SQD].i >= (int64_t)c->r[R_Q].len)
        return "Q holds every (batch, head) row";
    if (ntok == 0) return NULL;
    int64_t ash = c->p[P_ASH].i, asbs = c->p[P_ASBS].i;
    if ((Hq - 1) * ash + (ntok - 1) * asbs >= (int64_t)c->r[R_ATT].len) return "Att_Out holds every active write";
    int inj = (asbs >= 1 && (Hq == 1 || ash >= (ntok - 1) * asbs + 1)) || (ash >= 1 && asbs >= (Hq - 1) * ash + 1);
    if (!inj) return "hOutInj: (head, token) -> h*att_stride_h + token*att_stride_bs injective";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t BN = c->p[P_BN].i;
    for (uint32_t b = 0; b < c->grid[0]; b++) {
        int64_t st = td_geti(c, R_START, b), len = td_geti(c, R_SEQLEN, b);
        for (uint32_t h = 0; h < c->grid[1]; h++)
            for (int64_t n = 0; n < len && n / BN < (int64_t)c->grid[2]; n++) {
                td_olane l = {.region = R_ATT,
                              .off = (uint64_t)(h * c->p[P_ASH].i + (st + n) * c->p[P_ASBS].i),
                              .pid = {b, h, (uint32_t)(n / BN)}, .j = (uint64_t)(n % BN), .idx = {b, h, n}};
                td_wset_add(ws, &l);
            }
    }
}

/* Offsets beyond 2^31 (gen_far.h): Q's batch axis (up to TA_MAXB = 3 batches, program
 * axis 0: cur_batch * stride_qbs, an int32 product in the kernel) moved to a stride near
 * 2^31 over a sparse mapping, heads and BLOCK_DMODEL packed.  The batches after the last
 * non-empty one are dropped from the launch (the last batch kept reads its q row); K,
 * B_Loc and Att_Out are kept. */
static void far(td_producer *p, td_case *c) {
    int64_t R = c->grid[0];
    while (R > 0 && td_geti(c, R_SEQLEN, (size_t)(R - 1)) == 0) R--; /* the last batch kept reads its q */
    int64_t n[3] = {R, c->grid[1], c->p[P_BD].i}, s[3] = {c->p[P_SQBS].i, c->p[P_SQH].i, c->p[P_SQD].i};
    if (!td_far_move_axis(p, c, R_Q, 3, n, s, 0)) return;
    c->p[P_SQBS].i = s[0], c->p[P_SQH].i = s[1], c->p[P_SQD].i = s[2], c->grid[0] = (uint32_t)R;
}

/* ---- intent (docs/intent.md) ---- */
static const td_intent i_sc = {
    .operation = "decode attention's scores: att[h, token n] = q[b, h] . k[token n, h // kv_group_num] * sm_scale "
                 "over the sequence's B_Seqlen tokens",
    .definition = "the scaled scores q k^T * scale of torch.nn.functional.scaled_dot_product_attention (PyTorch "
                  "documentation) before the softmax, the keys the page table B_Loc gathers, query head h reading "
                  "KV head h // kv_group_num (enable_gqa=True), exact",
    TD_SPECS(llama2_intent),
};

#define TAL_CLASSES                                                                                                    \
    (TD_BC(TD_BC_SEQ_EMPTY) | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_SEQ_ENDS_AT_END) | \
     TD_BC(TD_BC_IDX_PERMUTATION) | TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_IDX_REPEATS) |                           \
     TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_ONE_PROGRAM) |      \
     TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31))

#define TAL_COMMON                                                                                                     \
    .file = "token_attn_llama2", .family = "attention", .nparams = NP, .params = params, .nregions = NR,               \
    .regions = regions, .sv = TD_SV_REAL,                                                                              \
    .sv_note = "finite Q, K with |q|, |k| <= 64: every score finite; an empty sequence or block writes nothing",       \
    .error_model = "BD binary32 products summed in any order (FMA or not), times sm_scale (one multiply); or "         \
                   "q pre-scaled by sm_scale, then the dot",                                                           \
    .classes = TAL_CLASSES, .gen = gen, .far = far, .check = check, .writes = writes, TD_SPECS(llama2), .intent = &i_sc

const td_contract td_c_token_attn_llama2 = {
    .id = "token_attn_llama2.token_attn_llama2_output_summary_general",
    .io_class = "ComputeCorrect over Fin BLOCK_N + lowering",
    .kind = "exact",
    .formula = "Att_Out[h, start+n] = sm_scale * sum_d Q[b,h,d] * K[B_Loc[b, mil-seqlen+n], h/kvg, d], n < seqlen",
    TAL_COMMON,
};

const td_contract td_c_token_attn_llama2_io = {
    .id = "token_attn_llama2.token_attn_llama2_io_correctness",
    .io_class = "StreamMetaGatherMasked3DKernelIO_2 (llama2IO), T = 1",
    .kind = "rounding",
    .formula = "out[i] = R.round(.real)(sm_scale * sum_{d<BD} q[d] * k_gathered[i, d]), R = the binary32 value held",
    TAL_COMMON,
};
