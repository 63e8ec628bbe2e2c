/* Shared by token_softmax_llama.c and token_softmax_bloom.c: LightLLM's decode-time
 * token softmax (_fwd_kernel_token_softmax).  The two catalogue files hold the same
 * Triton kernel, character for character, and the same statement shape
 * (MetaMasked2DKernelIO_1: m1 = B_Start_Loc[pid0], m2 = B_Seqlen[pid0]); each contract
 * file includes this header after declaring nothing of its own, and names its spec.
 *
 * Launch: grid (batch, head).  Program (b, h) loads the tile of BLOCK_SIZE lanes
 *   Logics[h*stride_logic_h + (m1 + j)*stride_logic_bs],  mask j < m2 (other -inf),
 * and stores the tile softmax at Prob_Out[h*stride_prob_h + (m1 + j)*stride_prob_bs]
 * under the same mask.  So w = min(m2, BLOCK_SIZE) lanes are reduced and written (the
 * host picks BLOCK_SIZE = next_power_of_2(max_input_len), so normally w = m2; the
 * theorems quantify over j : Fin BLOCK_SIZE and allow m2 > BLOCK_SIZE, where the
 * kernel truncates the row; the generator reaches that case too).
 *
 * Error model: the family's softmax (softmax_common.h / .spec.h) under the
 * admissible-implementation rules (issue 12): max exact, d_j = x_j - max one binary32
 * subtraction, the backend's exp (libm, CUDA, or exp2(x*log2 e) with ex2.approx: the
 * oracle's exp budget covers each), the sum of w exponentials in ANY order or online
 * with rescaling (N(rescaled), gamma_{w-1} sum plus the rescaling factors' error), one
 * division or reciprocal-multiply (N(div) is charged for both).  Nothing is fitted to
 * the tree order of our ports.
 *
 * Generator (contracts/gen_meta.h): a ragged batch from td_gen_ragged with the kernel's
 * BLOCK_SIZE as its block (lengths 0, 1, BLOCK_SIZE - 1, BLOCK_SIZE, BLOCK_SIZE + 1),
 * start locations consistent with the lengths (cu_seqlens), the last sequence ending
 * exactly at the end of the token buffer or followed by real logits (so a kernel that
 * reads past its sequence sees numbers, not guard cells); head-major [H, tokens] or
 * token-major [tokens, H] layouts with gaps for both Logics and Prob_Out.  Values: the
 * softmax family's hard inputs (rows shifted far past exp's overflow, one dominant
 * element, equal rows, spreads into the subnormal range, scores near 88.7).
 *
 * Special values (TD_SV_REAL): exp(x - max) <= 1 and the sum >= 1 (the max lane
 * contributes exp(0) = 1): no overflow, no division by 0.  An empty sequence (m2 = 0)
 * writes nothing (its tile is all -inf, whose NaN softmax the mask never stores). */
#ifndef TD_TOKEN_SOFTMAX_COMMON_H
#define TD_TOKEN_SOFTMAX_COMMON_H

#include "gen_far.h"
#include "gen_meta.h"
#include "softmax_common.h"

enum { P_SLH, P_SLBS, P_SPH, P_SPBS, P_BS, NP };
enum { R_LOGICS, R_START, R_SEQLEN, R_PROB, NR };
#define TS_MAXB 4

static const td_param_decl ts_params[NP] = {{"stride_logic_h", TD_P_INT},
                                            {"stride_logic_bs", TD_P_INT},
                                            {"stride_prob_h", TD_P_INT},
                                            {"stride_prob_bs", TD_P_INT},
                                            {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl ts_regions[NR] = {{"Logics", TD_F32, TD_R_IN},
                                              {"B_Start_Loc", TD_I32, TD_R_META},
                                              {"B_Seqlen", TD_I32, TD_R_META},
                                              {"Prob_Out", TD_F32, TD_R_OUT}};

static inline int64_t ts_w(int64_t len, int64_t BS) { return len < BS ? len : BS; }

/* [H, ntok] head-major (sh = ntok + gap, sbs = 1) or [ntok, H] token-major (sh = 1,
 * sbs = H + gap): distinct (h, token) cells are distinct.  Returns the cells needed. */
static inline size_t ts_layout(td_producer *p, int64_t H, int64_t ntok, int64_t *sh, int64_t *sbs, uint64_t *cl) {
    int64_t gap = td_prod_bool(p) ? 0 : (int64_t)td_prod_u32(p, 1, 5);
    if (gap) *cl |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (td_prod_u32(p, 0, 2)) *sh = ntok + gap, *sbs = 1;
    else *sh = 1, *sbs = H + gap;
    return (size_t)((H - 1) * *sh + (ntok - 1) * *sbs + 1);
}

static inline void ts_gen(td_producer *p, td_case *c) {
    int nb = (int)td_prod_u32(p, 1, TS_MAXB);
    int64_t H = td_prod_u32(p, 1, 4), BS = td_gen_pow2(p, 0, 9);
    int64_t maxlen = td_prod_u32(p, 0, 5) ? BS : BS + 1 + (int64_t)td_prod_u32(p, 0, 8); /* > BS: truncated row */
    td_rng r;
    td_rng_seed(&r, td_prod_u64(p));
    int64_t lens[TS_MAXB], starts[TS_MAXB + 1];
    int64_t total = td_gen_ragged(p, &r, lens, starts, nb, 0, maxlen, BS, &c->classes);
    /* slack: 0 (the last sequence ends at the buffer's end) or up to one tile of real logits */
    int64_t slack = td_prod_u32(p, 0, 2) ? 0 : 1 + (int64_t)td_prod_u32(p, 0, (uint32_t)BS);
    if (slack) c->classes &= ~TD_BC(TD_BC_SEQ_ENDS_AT_END);
    int64_t ntok = total + slack > 0 ? total + slack : 1;
    for (int b = 0; b < nb; b++) {
        if (lens[b] == 0) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
        if (lens[b] > BS) c->classes |= TD_BC(TD_BC_TAIL_ABOVE);
        if (lens[b] > 0 && 4 * lens[b] <= BS) c->classes |= TD_BC(TD_BC_BLOCK_GT_N);
    }
    if (nb * H == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    int64_t slh, slbs, sph, spbs;
    td_case_alloc(c, R_LOGICS, ts_layout(p, H, ntok, &slh, &slbs, &c->classes));
    td_case_alloc(c, R_PROB, ts_layout(p, H, ntok, &sph, &spbs, &c->classes));
    td_case_alloc(c, R_START, (size_t)nb);
    td_case_alloc(c, R_SEQLEN, (size_t)nb);
    for (int b = 0; b < nb; b++) {
        td_seti(c, R_START, (size_t)b, starts[b]);
        td_seti(c, R_SEQLEN, (size_t)b, lens[b]);
    }
    sm_vals v;
    sm_vals_init(&v, p, c, 0x1p20);
    sm_fill_all(&v, c, R_LOGICS);
    for (int b = 0; b < nb; b++)
        for (int64_t h = 0; h < H; h++)
            sm_fill_row(&v, c, R_LOGICS, (uint64_t)(h * slh + starts[b] * slbs), slbs, ts_w(lens[b], BS));
    const int64_t pv[NP] = {slh, slbs, sph, spbs, BS};
    for (int k = 0; k < NP; k++) c->p[k].i = pv[k];
    c->grid[0] = (uint32_t)nb;
    c->grid[1] = (uint32_t)H;
    c->grid[2] = 1;
}

/* Offsets beyond 2^31 (gen_far.h): Logics' head axis (H <= 4 heads, program axis 1:
 * cur_head * stride_logic_h, an int32 product in the kernel) moved to a stride near
 * 2^31 over a sparse mapping, every token of the buffer (the slack after the last
 * sequence too) packed.  Prob_Out, the metadata and the launch are kept. */
static inline void ts_far(td_producer *p, td_case *c) {
    int64_t H = c->grid[1], slh = c->p[P_SLH].i, slbs = c->p[P_SLBS].i, live = 0;
    for (uint32_t b = 0; b < c->grid[0]; b++) live |= td_geti(c, R_SEQLEN, b) > 0 && c->p[P_BS].i > 0;
    if (H < 2 || slbs <= 0 || !live) return; /* an empty batch reads nothing: no offset reaches the last head */
    int64_t n[2] = {H, ((int64_t)c->r[R_LOGICS].len - 1 - (H - 1) * slh) / slbs + 1}, s[2] = {slh, slbs};
    if (n[1] < 1 || !td_far_move_axis(p, c, R_LOGICS, 2, n, s, 0)) return;
    c->p[P_SLH].i = s[0], c->p[P_SLBS].i = s[1];
}

/* hB, Nat strides and metadata, every active read and write in its region, and the
 * write set injective across programs: hOutInj is per program (j -> offset); distinct
 * programs write distinct cells when the sequences' active windows are disjoint and the
 * (head, token) layout is injective, which is what is checked here. */
static inline const char *ts_check(const td_case *c) {
    int64_t slh = c->p[P_SLH].i, slbs = c->p[P_SLBS].i, sph = c->p[P_SPH].i, spbs = c->p[P_SPBS].i;
    int64_t BS = c->p[P_BS].i, nb = c->grid[0], H = c->grid[1];
    if (BS <= 0) return "hB: 0 < BLOCK_SIZE";
    if (slh < 0 || slbs < 0 || sph < 0 || spbs < 0) return "the strides are Nat";
    if ((uint64_t)nb > c->r[R_START].len || (uint64_t)nb > c->r[R_SEQLEN].len) return "a start and a length per batch";
    int64_t ntok = 0;
    for (int64_t b = 0; b < nb; b++) {
        int64_t st = td_geti(c, R_START, (size_t)b), len = td_geti(c, R_SEQLEN, (size_t)b), w = ts_w(len, BS);
        if (st < 0 || len < 0) return "B_Start_Loc and B_Seqlen are Nat";
        if (w == 0) continue;
        if ((H - 1) * slh + (st + w - 1) * slbs >= (int64_t)c->r[R_LOGICS].len) return "Logics holds every active read";
        if ((H - 1) * sph + (st + w - 1) * spbs >= (int64_t)c->r[R_PROB].len) return "Prob_Out holds every active write";
        for (int64_t a = 0; a < b; a++) { /* active windows of distinct sequences are disjoint */
            int64_t sa = td_geti(c, R_START, (size_t)a), wa = ts_w(td_geti(c, R_SEQLEN, (size_t)a), BS);
            if (wa > 0 && sa < st + w && st < sa + wa) return "hOutInj across programs: disjoint sequences";
        }
        ntok = st + w > ntok ? st + w : ntok;
    }
    int headmajor = spbs == 1 && (H == 1 || sph >= ntok), tokmajor = sph == 1 && (ntok <= 1 || spbs >= H);
    if (ntok > 0 && !headmajor && !tokmajor) return "hOutInj: (head, token) -> offset injective";
    return NULL;
}

static inline void ts_writes(const td_case *c, td_wset *ws) {
    int64_t sph = c->p[P_SPH].i, spbs = c->p[P_SPBS].i, BS = c->p[P_BS].i;
    for (uint32_t b = 0; b < c->grid[0]; b++) {
        int64_t st = td_geti(c, R_START, b), w = ts_w(td_geti(c, R_SEQLEN, b), BS);
        for (uint32_t h = 0; h < c->grid[1]; h++)
            for (int64_t j = 0; j < w; j++) {
                td_olane l = {.region = R_PROB, .off = (uint64_t)(h * sph + (st + j) * spbs), .pid = {b, h, 0},
                              .j = (uint64_t)j, .idx = {b, h, j}};
                td_wset_add(ws, &l);
            }
    }
}

#define TS_CLASSES                                                                                                     \
    (TD_BC(TD_BC_SEQ_EMPTY) | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_SEQ_ENDS_AT_END) | \
     TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_ONE_PROGRAM) |       \
     TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31))

/* ---- intent (docs/intent.md; the value: ts_intent in token_softmax_common.spec.h) ----
 * torch.softmax of each (sequence, head) row of scores over the sequence's B_Seqlen
 * tokens.  A sequence longer than BLOCK_SIZE is read only in part (the host sizes the
 * tile to the longest sequence). */
static inline const char *ts_gap(const td_case *c) {
    for (uint32_t b = 0; b < c->grid[0]; b++)
        if (td_geti(c, R_SEQLEN, b) > c->p[P_BS].i)
            return "B_Seqlen[b] > BLOCK_SIZE: the tile reads BLOCK_SIZE of the sequence's tokens";
    return NULL;
}
#define TS_INTENT_OP "softmax of each head's scores over the B_Seqlen[b] tokens of each sequence b"
#define TS_INTENT_DEF "torch.softmax(x, dim=-1) (PyTorch documentation) of each (sequence, head) row of scores"

#endif
