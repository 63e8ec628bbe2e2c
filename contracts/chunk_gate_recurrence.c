/* chunk_gate_recurrence: the gated chunk recurrence of linear attention, forward and
 * backward (catalogue part 1, src lines 2079-2253).
 *
 *   chunk_gate_recurrence_output_summary_general (hOutInj0, hOutInjStep, hDIInj, hDLInj:
 *     the tile stores injective; hBwdIdx: t_rel + 1 < NUM_BLOCK; hAcc: AccPrev =
 *     fwdClosed(t_rel); hDacc: DaccPrev = bwdClosed(t_rel + 2); hDaccTail: DaccTail =
 *     bwdClosed(1)): both surfaces lower; O chunk 0 = fwdClosed(0) (LastKv or 0);
 *     O chunk t_rel+1 = fwdClosed(t_rel+1); DI chunk t_rel = bwdClosed(t_rel+1);
 *     DG[bh, t_rel, p1, p2] = sum over the tile of bwdClosed(t_rel+1) * S_{t_rel};
 *     DL = bwdClosed(0), with
 *       fwdClosed(m) = seed prod_{j<m} d_j + sum_{t<m} S_t prod_{t<j<m} d_j
 *                    (fwdClosed(m+1) = fwdClosed(m) d_m + S_m),
 *       bwdClosed(a) = sum_{a<=u<NB} DS_u prod_{a<=w<u} d_w
 *                    (bwdClosed(a) = bwdClosed(a+1) d_a + DS_a, bwdClosed(NB) = 0),
 *     d_j = D[p0*NUM_BLOCK + j] (one scalar gate per head and chunk), the tiles at
 *     timeTileOffset(t) = p0*NB*DK*DV + t*DK*DV + p1*DV*BMK + k*DV + p2*BMV + v.
 *   chunk_gate_recurrence_forward_store_io_correctness (hOutInj: for all p0 p1 p2,
 *     idx -> p0*NUM_BLOCK*DK*DV + p1*DV*BMK + r*DV + p2*BMV + c injective),
 *     Masked3DTileKernelIO_1 (fwdStoreIO), shape [BMK, BMV], mask True:
 *     O[write(idx)] = Acc[read(idx)], read = p0*DK*DV + p1*DV*BMK + r*DV + p2*BMV + c,
 *     write = p0*NUM_BLOCK*DK*DV + p1*DV*BMK + r*DV + p2*BMV + c.
 *   chunk_gate_recurrence_forward_store_io_correctnessR: the same |=[R, .real].
 *
 * Summary, checked against the .py and ChunkGateRecurrence.lean: the catalogue's
 * reading "acc_{t+1} = acc_t * exp(D_{t+1}) + S_{t+1}" is NOT what the kernel or the Lean
 * does: the gate d_i is applied as loaded (`acc = acc * d_i + S_i`, fwdGate = D[..],
 * no exp: cross_decay is already in linear space); the contract follows the kernel and
 * the Lean.  The backward reads DS and d one chunk AHEAD of the S it multiplies and the
 * DI / DG it writes (the Lean's two-index addressing: S, DI, DG start at chunk NB - 2,
 * DS and d at NB - 1); DI chunk NB - 1 and DG chunk NB - 1 are never written (the host
 * zeroes them afterwards: outside the write set, so they must keep the sentinel).  The
 * bundle names ONE region S for the forward's kv and the backward's S (the Python host
 * passes the forward's output as the backward's S; the theorem's S is the input
 * region): the contract follows the theorem.  All the conjuncts are checked on one
 * launch, the forward then the backward program on every (offset_bh, offset_d,
 * offset_s): the full launch writes every chunk, so the lanes are O chunks 0..NB-1
 * (fwdClosed(m), t_rel's among them), DI and DG chunks 0..NB-2 and DL.  AccPrev,
 * DaccPrev and DaccTail are the hypotheses' carried states (the kernels' registers in
 * a full launch): scratch regions (only their guard zones are checked); t_rel only
 * picks which step the slices speak of.  NUM_K = DK / BMK and NUM_V = DV / BMV (the
 * kernel's own floor divisions; the host asserts divisibility); NUM_HEAD is unused by
 * the programs.
 * Error model (summary): both scans are oracle/lrec.h's td_sh_lrec_step (3u per step
 * relative to the magnitude state M_t = |d| M_{t-1} + |S_t|: the sequential scan with or
 * without FMA and any chunked scan with the state carried, lrec.h derives the counts);
 * d, S, DS, LastKv are exact binary32 inputs; DG a sum of BMK*BMV products of a carried
 * value and an exact input in any order (gamma_{n-1}, products rounded once each).
 * Gates: per case uniform in (0, 1), exactly 1, near 0 (<= 2^-20), near 1 (1 - 2^-k),
 * signed [-1, 1] (the .py's test draws randn gates), or mixed; on short sequences
 * (<= 33 chunks) also up to 1.25 in magnitude.  Special values: finite inputs
 * |x| <= 8; |state| <= 8 * 33 * 1.25^33 or 8 * 4096 (|d| <= 1), far inside binary32.
 *
 * Stores, checked against bench/tritonbench_g/chunk_gate_recurrence (the .py's _fwd_recurrence
 * and ChunkGateRecurrence.lean's chunk_gate_recurrence_forward_store_slice / fwdStoreIO):
 * the slice is the kernel's first store, `tl.store(O, acc)` of the carried register
 * tile `acc` (the fiction region Acc, laid out as last_kv: [B*H, DK, DV]) into output
 * chunk 0 of O ([B*H, NUM_BLOCK, DK, DV]); the grid is (B*H, DK // BMK, DV // BMV),
 * the host asserts DK % BMK == 0 and DV % BMV == 0 and the tile is stored unmasked.
 * The generator draws DK = NUM_K * BMK, DV = NUM_V * BMV and the full grid, so every
 * program's tile lies inside its head's rows and columns: hOutInj holds (r*DV + c is
 * injective since BMV <= DV) and the launch's writes are pairwise distinct (the
 * checker verifies both conditions).  R.round .real is the identity on the binary32
 * value (a float32 store of a float32 register): both theorems are a copy, tolerance 0.
 * Special values: any finite binary32 input, copied bit for bit up to the sign of 0
 * (equal as reals).
 */
#include "gen.h"
#include "gen_far.h"
#include "gen_large.h"

enum { P_HAS_LAST_KV, P_TREL, P_NUM_HEAD, P_NB, P_NUM_K, P_NUM_V, P_DK, P_DV, P_BMK, P_BMV, NP };
enum { R_ACCPREV, R_S, R_D, R_O, R_LASTKV, R_DACCPREV, R_DACCTAIL, R_DS, R_DI, R_DG, R_DL, NR };
enum { O_O, O_DI, O_DG, O_DL }; /* the summary's output channels */
enum { PF_NUM_BLOCK, PF_DK, PF_DV, PF_BMK, PF_BMV, NPF }; /* the store theorems */
enum { RF_ACC, RF_O, NRF };

#define TD_SPEC_FILE "chunk_gate_recurrence.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"HAS_LAST_KV", TD_P_BOOL}, {"t_rel", TD_P_INT},     {"NUM_HEAD", TD_P_INT},      {"NUM_BLOCK", TD_P_INT},
    {"NUM_K", TD_P_INT},        {"NUM_V", TD_P_INT},     {"D_MODEL_K", TD_P_INT},     {"D_MODEL_V", TD_P_INT},
    {"BLOCK_MODEL_K", TD_P_INT}, {"BLOCK_MODEL_V", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"AccPrev", TD_F32, TD_R_SCRATCH}, {"S", TD_F32, TD_R_IN},   {"D", TD_F32, TD_R_IN},
    {"O", TD_F32, TD_R_OUT},           {"LastKv", TD_F32, TD_R_IN}, {"DaccPrev", TD_F32, TD_R_SCRATCH},
    {"DaccTail", TD_F32, TD_R_SCRATCH}, {"DS", TD_F32, TD_R_IN},  {"DI", TD_F32, TD_R_OUT},
    {"DG", TD_F32, TD_R_OUT},          {"DL", TD_F32, TD_R_OUT}};
static const td_param_decl params_store[NPF] = {{"NUM_BLOCK", TD_P_INT},
                                                {"D_MODEL_K", TD_P_INT},
                                                {"D_MODEL_V", TD_P_INT},
                                                {"BLOCK_MODEL_K", TD_P_INT},
                                                {"BLOCK_MODEL_V", TD_P_INT}};
static const td_region_decl regions_store[NRF] = {{"Acc", TD_F32, TD_R_IN}, {"O", TD_F32, TD_R_OUT}};

/* one gate of class k (6: each element its own class); wide: |d| up to 1.25 */
static double gate(td_rng *r, int k, int wide) {
    if (k == 6) k = (int)td_rng_below(r, 6);
    double z = td_rng_unit(r);
    switch (k) {
    case 0: return (float)z;                                       /* uniform in [0, 1) */
    case 1: return 1;                                              /* a gate at 1 */
    case 2: return (float)(0x1p-20 * z);                           /* near 0 */
    case 3: return (float)(1 - ldexp(1, -(int)(1 + 23 * z)));      /* near 1: 1 - 2^-k */
    case 4: return (float)(2 * z - 1);                             /* signed (the .py tests randn gates) */
    default: return (float)((wide ? 2.5 : 2) * z - (wide ? 1.25 : 1)); /* signed, past 1 on short sequences */
    }
}

/* Shape: BMK, BMV powers of two up to 8, NUM_K, NUM_V 1..2 (DK = NUM_K BMK, DV = NUM_V
 * BMV; 1 for tiles of 32 cells or more), B*H 1..3 heads, NUM_BLOCK from the boundary list (2 = one loop step, 15..17,
 * 33) and, one case in 16, a long sequence of 2048..4095 chunks on one head with a
 * 1 x 1 or 2 x 1 state (below ~2 10^4 lanes). */
static void gen_shape(td_producer *p, td_case *c) {
    int long_seq = td_prod_u32(p, 0, 15) == 0;
    int64_t BMK = td_gen_pow2(p, 0, long_seq ? 1 : 3), BMV = td_gen_pow2(p, 0, long_seq ? 0 : 3);
    int64_t NK = td_prod_u32(p, 1, 2), NV = td_prod_u32(p, 1, 2), H = td_prod_u32(p, 1, 3), B = td_prod_u32(p, 1, 2);
    static const uint32_t NBs[] = {2, 3, 4, 15, 16, 17, 33};
    uint32_t ni = td_prod_u32(p, 0, 6), nl = td_prod_u32(p, 2048, 4095);
    if (long_seq) NK = NV = H = B = 1;
    if (BMK * BMV >= 32) NK = NV = 1; /* per-case cost: at most ~1.4 10^4 lanes */
    if (H * B > 3) B = 1;
    int64_t NB = long_seq ? nl : NBs[ni];
    int64_t v[NP] = {td_prod_bool(p), td_prod_u32(p, 0, (uint32_t)(NB - 2)), H, NB, NK, NV, NK * BMK, NV * BMV, BMK, BMV};
    for (int i = 0; i < NP; i++) c->p[i].i = v[i];
    c->grid[0] = (uint32_t)(B * H), c->grid[1] = (uint32_t)NK, c->grid[2] = (uint32_t)NV;
    c->classes |= TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_EXACT_MULTIPLE) | (NB == 2 ? TD_BC(TD_BC_SEQ_SINGLE) : 0) |
                  (NB >= 15 && NB <= 17 ? TD_BC(TD_BC_SEQ_BLOCK_EDGE) : 0) |
                  (B * H * NK * NV == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0);
}

static void gen(td_producer *p, td_case *c) {
    gen_shape(p, c);
    int64_t NB = c->p[P_NB].i, BH = c->grid[0], st = BH * c->p[P_DK].i * c->p[P_DV].i;
    int gk = (int)td_prod_u32(p, 0, 6);
    for (int r = 0; r < NR; r++) {
        size_t n = r == R_D ? (size_t)(BH * NB) : r == R_DG ? (size_t)(BH * NB * c->grid[1] * c->grid[2])
                   : (r == R_S || r == R_O || r == R_DS || r == R_DI) ? (size_t)(st * NB) : (size_t)st;
        td_case_alloc(c, r, n + (regions[r].role == TD_R_OUT || regions[r].role == TD_R_SCRATCH ? 3 : 0));
    }
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    td_vgen_fill(&g, c, R_S);
    td_vgen_fill(&g, c, R_DS);
    td_vgen_fill(&g, c, R_LASTKV);
    for (int64_t i = 0; i < BH * NB; i++) td_set(c, R_D, (size_t)i, gate(&g.rng, gk, NB <= 33));
    c->classes |= (gk == 1 || gk == 2 || c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0);
}

static const char *check(const td_case *c) {
    for (int i = P_NUM_HEAD; i < NP; i++)
        if (c->p[i].i <= 0) return "NUM_HEAD, NUM_BLOCK, NUM_K, NUM_V, D_MODEL_*, BLOCK_MODEL_* > 0";
    int64_t NB = c->p[P_NB].i, DK = c->p[P_DK].i, DV = c->p[P_DV].i, BMK = c->p[P_BMK].i, BMV = c->p[P_BMV].i;
    int64_t NK = c->p[P_NUM_K].i, NV = c->p[P_NUM_V].i, BH = c->grid[0];
    if (c->p[P_TREL].i < 0 || c->p[P_TREL].i + 1 >= NB) return "hBwdIdx: t_rel + 1 < NUM_BLOCK";
    if ((BMK & (BMK - 1)) || (BMV & (BMV - 1))) return "BLOCK_MODEL_K, BLOCK_MODEL_V are powers of two (tl.arange)";
    if (NK * BMK != DK || NV * BMV != DV) return "NUM_K = D_MODEL_K / BLOCK_MODEL_K, NUM_V = D_MODEL_V / BLOCK_MODEL_V, exact (host asserts)";
    if (c->grid[1] != (uint32_t)NK || c->grid[2] != (uint32_t)NV || BH % c->p[P_NUM_HEAD].i)
        return "grid = (B*NUM_HEAD, NUM_K, NUM_V)";
    size_t st = (size_t)(BH * DK * DV);
    if (c->r[R_D].len < (size_t)(BH * NB) || c->r[R_DG].len < (size_t)(BH * NB * NK * NV)) return "D, DG hold every head's chunks";
    static const int per_chunk[] = {R_S, R_O, R_DS, R_DI};
    for (int i = 0; i < 4; i++)
        if (c->r[per_chunk[i]].len < st * (size_t)NB) return "S, O, DS, DI hold B*H*NUM_BLOCK*DK*DV";
    if (c->r[R_LASTKV].len < st || c->r[R_DL].len < st) return "LastKv, DL hold B*H*DK*DV";
    /* (a large case: its window heads' gates; every other gate reads 0) */
    for (uint64_t i = td_large_next(c, R_D, 0); i < (uint64_t)(BH * NB); i = td_large_next(c, R_D, i + 1)) {
        double d = td_get(c, R_D, (size_t)i);
        if (!(fabs(d) <= (NB <= 33 ? 1.25 : 1))) return "gates |d| <= 1 (<= 1.25 on <= 33 chunks): states finite";
    }
    return NULL;
}

static void add(td_wset *ws, uint32_t o, int reg, int64_t off, uint32_t p0, uint32_t p1, uint32_t p2, int64_t t,
                int64_t k, int64_t v, int64_t j) {
    td_olane l = {.o = o, .region = (uint32_t)reg, .off = (uint64_t)off, .pid = {p0, p1, p2}, .t = (uint32_t)t,
                  .j = (uint64_t)j, .idx = {p0, k, v, t}};
    td_wset_add(ws, &l);
}

/* every chunk of O; DI, DG chunks 0..NB-2; DL; increasing t (the forward memo fills in order).
 * A large case: the heads of its windows; the other heads' lanes only counted. */
static void writes(const td_case *c, td_wset *ws) {
    int64_t NB = c->p[P_NB].i, DK = c->p[P_DK].i, DV = c->p[P_DV].i, BMK = c->p[P_BMK].i, BMV = c->p[P_BMV].i;
    int64_t NK = c->grid[1], NV = c->grid[2];
    uint64_t seen = 0;
    for (uint32_t p0 = (uint32_t)td_large_row_next(c, 0); p0 < c->grid[0];
         p0 = (uint32_t)td_large_row_next(c, (uint64_t)p0 + 1), seen++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p2 = 0; p2 < c->grid[2]; p2++) {
                for (int64_t t = 0; t < NB; t++) {
                    for (int64_t r = 0; r < BMK; r++)
                        for (int64_t cc = 0; cc < BMV; cc++) {
                            int64_t k = p1 * BMK + r, v = p2 * BMV + cc, off = (p0 * NB + t) * DK * DV + k * DV + v;
                            add(ws, O_O, R_O, off, p0, p1, p2, t, k, v, r * BMV + cc);
                            if (t < NB - 1) add(ws, O_DI, R_DI, off, p0, p1, p2, t, k, v, r * BMV + cc);
                        }
                    if (t < NB - 1) add(ws, O_DG, R_DG, ((p0 * NB + t) * NK + p1) * NV + p2, p0, p1, p2, t, 0, 0, 0);
                }
                for (int64_t r = 0; r < BMK; r++)
                    for (int64_t cc = 0; cc < BMV; cc++) {
                        int64_t k = p1 * BMK + r, v = p2 * BMV + cc;
                        add(ws, O_DL, R_DL, p0 * DK * DV + k * DV + v, p0, p1, p2, 0, k, v, r * BMV + cc);
                    }
            }
    if (c->nwin) /* a head's lanes: O NB tiles, DI NB - 1, DG NB - 1 per program, DL one */
        ws->dropped += (c->grid[0] - seen) * (uint64_t)((2 * NB) * DK * DV + (NB - 1) * NK * NV);
}

/* The large tier (gen_large.h, td_rows_large) of the summary: more than 2^31 / (NB*DK*DV)
 * heads (grid[0] = B*H), so offset_bh * NUM_BLOCK * D_MODEL_K * D_MODEL_V passes 2^31
 * (offset_bh an int32 program id, NUM_BLOCK an int32 argument, D_MODEL_* constexprs: an
 * int32 product; nothing in the signature bounds B*H*NUM_BLOCK*DK*DV, Lean's are Nat).
 * Row-block offset_bh is [NB, DK, DV] of S, O, DS, DI, [NB] of d, [NB, NUM_K, NUM_V] of
 * DG and [DK, DV] of LastKv and DL; the hypotheses' scratch states (AccPrev, DaccPrev,
 * DaccTail) are not addressed by the launch and stay as drawn.  A head of fewer than
 * TD_ROWS_LARGE_MIN_LEN elements is lengthened in chunks (t_rel kept), the new chunks
 * zero (S = DS = 0, gate 0: in the domain); lengthened past 33 chunks the gate bound is
 * 1, so the window heads' gates beyond it (the wide class, <= 1.25) are clamped to +-1.
 * NUM_HEAD (unused by the programs) becomes 1 where it does not divide the R heads.
 * The kernel runs over every head: about 2^31 cells forward and backward (45 s of CPU). */
static void large(td_producer *p, td_case *c) {
    int64_t NB0 = c->p[P_NB].i, st = c->p[P_DK].i * c->p[P_DV].i, NKV = c->p[P_NUM_K].i * c->p[P_NUM_V].i, NB = NB0;
    if (NB * st < TD_ROWS_LARGE_MIN_LEN) NB = (TD_ROWS_LARGE_MIN_LEN + st - 1) / st;
    const td_rows_region rr[] = {
        {R_S, (uint64_t)(NB * st), (uint64_t)(NB0 * st)}, {R_DS, (uint64_t)(NB * st), (uint64_t)(NB0 * st)},
        {R_O, (uint64_t)(NB * st), 0},                    {R_DI, (uint64_t)(NB * st), 0},
        {R_D, (uint64_t)NB, (uint64_t)NB0},               {R_DG, (uint64_t)(NB * NKV), 0},
        {R_LASTKV, (uint64_t)st, (uint64_t)st},           {R_DL, (uint64_t)st, 0}};
    uint64_t R;
    if (td_rows_large(p, c, c->grid[0], rr, (int)(sizeof rr / sizeof rr[0]), &R) != 0) return;
    c->p[P_NB].i = NB;
    c->grid[0] = (uint32_t)R;
    if (R % (uint64_t)c->p[P_NUM_HEAD].i) c->p[P_NUM_HEAD].i = 1; /* (unused by the programs: R = B*H) */
    if (NB0 <= 33 && NB > 33)
        for (uint64_t i = td_large_next(c, R_D, 0); i < R * (uint64_t)NB; i = td_large_next(c, R_D, i + 1))
            td_set(c, R_D, (size_t)i, fmax(-1.0, fmin(1.0, td_get(c, R_D, (size_t)i))));
    if (NB != NB0) c->classes &= ~(TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE));
}

/* The intent (contracts/chunk_gate_recurrence.spec.h): the autograd function's forward and
 * backward.  DG differs wherever the forward output O_t is not the input S_t (the
 * bundle's one region S): audit shows it. */
static const char *cgr_partial(const td_case *c) {
    return c->grid[1] * c->grid[2] > 1 ? "NUM_K * NUM_V > 1: DG holds per-tile partials the host sums (DG.view(B, H, N, -1).sum(-1))"
                                       : NULL;
}
static const td_intent intent = {
    .partial = cgr_partial,
    .operation = "ChunkGateRecurrent (gated chunk recurrence): O_m = state entering chunk m, acc_{m+1} = acc_m d_m + "
                 "kv_m; backward given DO: DI, DL the gradients of kv and last_kv, DG[t] = sum_tile G_{t+1} O_t over "
                 "the saved output O",
    .definition = "reverse-mode gradient of the linear recurrence acc_{m+1} = d_m acc_m + kv_m (the .py's "
                  "ChunkGateRecurrent.backward contract: DI = dL/dkv, DG = dL/dd per tile, DL = dL/dlast_kv)",
    TD_SPECS(cgr_intent),
};

const td_contract td_c_chunk_gate_recurrence_summary = {
    .id = "chunk_gate_recurrence.chunk_gate_recurrence_output_summary_general",
    .file = "chunk_gate_recurrence",
    .family = "recurrence",
    .io_class = "Realizes_without_Rounding bundle (initial, forward step, DI, DG, DL store slices) + lowering",
    .kind = "exact",
    .formula = "O[m] = fwdClosed(m) (acc_{m+1} = acc_m d_m + S_m, acc_0 = LastKv or 0); DI[t] = bwdClosed(t+1), "
               "DG[t] = sum_tile bwdClosed(t+1) S_t, DL = bwdClosed(0) (Dacc_a = Dacc_{a+1} d_a + DS_a, Dacc_NB = 0)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8, gates |d| <= 1 (1.25 on <= 33 chunks): every state and sum stays finite",
    .error_model = "both scans by oracle/lrec.h (3u per step of the magnitude state: sequential, FMA, chunked with "
                   "the state carried); DG a tile sum of products in any order (gamma_{n-1})",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_VALUES_SPECIAL),
    /* no .far: every region is addressed by offset_bh * NUM_BLOCK * D_MODEL_K * D_MODEL_V (sizes only,
     * shared with the outputs): an offset >= 2^31 needs dense outputs of 2^31 elements: the large
     * tier's (`large`) */
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(cgr_summary),
    .intent = &intent,
};

/* ---- the forward store theorems ---- */
static void gen_store(td_producer *p, td_case *c) {
    int64_t BMK = td_gen_pow2(p, 0, 4), BMV = td_gen_pow2(p, 0, 4);
    int64_t NK = td_prod_u32(p, 1, 3), NV = td_prod_u32(p, 1, 3), BH = td_prod_u32(p, 1, 3);
    int64_t NB = td_prod_u32(p, 1, 3), DK = NK * BMK, DV = NV * BMV;
    int64_t v[NPF] = {NB, DK, DV, BMK, BMV};
    for (int i = 0; i < NPF; i++) c->p[i].i = v[i];
    c->grid[0] = (uint32_t)BH, c->grid[1] = (uint32_t)NK, c->grid[2] = (uint32_t)NV;
    td_case_alloc(c, RF_ACC, (size_t)(BH * DK * DV));
    td_case_alloc(c, RF_O, (size_t)(BH * NB * DK * DV) + 3);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, RF_ACC);
    c->classes |= TD_BC(TD_BC_EXACT_MULTIPLE) | (NK * NV > 1 ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (BH * NK * NV == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0) |
                  (c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0) |
                  (c->menu == TD_V_LARGE ? TD_BC(TD_BC_VALUES_LARGE) : 0);
}

static const char *check_store(const td_case *c) {
    for (int i = 0; i < NPF; i++)
        if (c->p[i].i <= 0) return "NUM_BLOCK, D_MODEL_K, D_MODEL_V, BLOCK_MODEL_K, BLOCK_MODEL_V > 0";
    int64_t NB = c->p[PF_NUM_BLOCK].i, DK = c->p[PF_DK].i, DV = c->p[PF_DV].i;
    int64_t BMK = c->p[PF_BMK].i, BMV = c->p[PF_BMV].i, BH = c->grid[0];
    if ((BMK & (BMK - 1)) || (BMV & (BMV - 1))) return "BLOCK_MODEL_K, BLOCK_MODEL_V are powers of two (tl.arange)";
    if (BMV > DV && BMK > 1) return "hOutInj: r*D_MODEL_V + c injective needs BLOCK_MODEL_V <= D_MODEL_V";
    if ((int64_t)c->grid[1] * BMK > DK || (int64_t)c->grid[2] * BMV > DV)
        return "the grid's tiles lie inside D_MODEL_K x D_MODEL_V (the launch's writes distinct)";
    if (c->r[RF_ACC].len < (size_t)(BH * DK * DV) || c->r[RF_O].len < (size_t)(BH * NB * DK * DV))
        return "Acc holds B*H*DK*DV, O holds B*H*NUM_BLOCK*DK*DV";
    return NULL;
}

static void writes_store(const td_case *c, td_wset *ws) {
    int64_t NB = c->p[PF_NUM_BLOCK].i, DK = c->p[PF_DK].i, DV = c->p[PF_DV].i;
    int64_t BMK = c->p[PF_BMK].i, BMV = c->p[PF_BMV].i;
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
                for (int64_t r = 0; r < BMK; r++)
                    for (int64_t cc = 0; cc < BMV; cc++) {
                        int64_t in = p1 * DV * BMK + r * DV + p2 * BMV + cc;
                        td_olane l = {.region = RF_O, .off = (uint64_t)(p0 * NB * DK * DV + in),
                                      .pid = {p0, p1, p2}, .j = (uint64_t)(r * BMV + cc),
                                      .idx = {(int64_t)(p0 * DK * DV + in)}};
                        td_wset_add(ws, &l);
                    }
}

/* The far tier (gen_far.h) of the store theorems: O is a whole [B*H, NUM_BLOCK, DK, DV]
 * tensor without a stride parameter, and program (offset_bh, ...) stores its tile of
 * chunk 0 at offset_bh * NUM_BLOCK * D_MODEL_K * D_MODEL_V + ... (NUM_BLOCK a runtime
 * int32 argument, D_MODEL_* constexprs: Triton forms the product in int32), a prefix of
 * DK * DV elements of its head's slab.  So NUM_BLOCK is enlarged (td_far_reslab, O a
 * sparse output) until the last head kept, R - 1 (R = min(B*H, 3): at most 24 GiB
 * reserved), starts 2^31 + d (d < 64) elements in; NUM_BLOCK stays an int32 (beyond it
 * Triton would pass an int64 and form the offset in int64: no case of the bug), so
 * R = 2 heads of a 1 x 1 state have no far case.  Acc ([B*H, DK, DV]) stays dense. */
static void far_store(td_producer *p, td_case *c) {
    static const int reg[1] = {RF_O};
    int64_t BH = c->grid[0], NB = c->p[PF_NUM_BLOCK].i, st = c->p[PF_DK].i * c->p[PF_DV].i;
    if (BH < 2 || NB <= 0 || st <= 0) return;
    int64_t R = BH < TD_FAR_MAX_ROWS - 1 ? BH : TD_FAR_MAX_ROWS - 1, d = td_prod_u32(p, 0, 63);
    int64_t NB2 = (((int64_t)1 << 31) + d + (R - 1) * st - 1) / ((R - 1) * st); /* (R-1) * NB2 * st >= 2^31 + d */
    if (NB2 > INT32_MAX || td_far_reslab(c, reg, 1, BH, R, st, NB * st, NB2 * st)) return;
    c->p[PF_NUM_BLOCK].i = NB2;
    c->grid[0] = (uint32_t)R;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31);
}

#define CGR_STORE_COMMON                                                                                        \
    .file = "chunk_gate_recurrence", .family = "recurrence", .io_class = "Masked3DTileKernelIO_1 (fwdStoreIO)",  \
    .nparams = NPF, .params = params_store, .nregions = NRF, .regions = regions_store, .sv = TD_SV_REAL,          \
    .sv_note = "finite inputs; a copy", .error_model = "a copy (a float32 store of a float32 tile): tolerance 0",   \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) |                  \
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31),                \
    .gen = gen_store, .far = far_store, .check = check_store, .writes = writes_store, TD_SPECS(cgr_store)

const td_contract td_c_chunk_gate_recurrence_fwd_store = {
    .id = "chunk_gate_recurrence.chunk_gate_recurrence_forward_store_io_correctness",
    .kind = "exact",
    .formula = "O[p0*NUM_BLOCK*DK*DV + p1*DV*BMK + r*DV + p2*BMV + c] = Acc[p0*DK*DV + p1*DV*BMK + r*DV + p2*BMV + c]",
    CGR_STORE_COMMON,
};
const td_contract td_c_chunk_gate_recurrence_fwd_store_r = {
    .id = "chunk_gate_recurrence.chunk_gate_recurrence_forward_store_io_correctnessR",
    .kind = "rounding",
    .formula = "O[write(idx)] = R.round(.real)(Acc[read(idx)])  (.real: the binary32 store is exact)",
    CGR_STORE_COMMON,
};
