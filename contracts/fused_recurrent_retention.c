/* fused_recurrent_retention: the retention recurrence, forward and backward, fused over
 * time (catalogue part 2, src lines 4970-5119).
 *
 *   fused_recurrent_retention_output_summary_general (hBV : BV <= DV) (0 < BK, BV) (m < T)
 *     (hPrev : HPrev = stateClosed(m)) (hDPrev : DHPrev = b * dStateClosed(m+1)):
 *     both surfaces lower; HSeed = stateClosed(0) (h0, or 0); o[m] = outClosed(m) =
 *     sum_jk h_{m+1}[jk, jv] * (q_m[jk] * scale); HOut = stateClosed(m+1);
 *     dq[m] = dqClosed(m) = (sum_jv h_{m+1}[jk, jv] * do_m[jv]) * scale;
 *     DHOut = b * dStateClosed(m); dk[m] = sum_jv dh_m[jk, jv] v_m[jv];
 *     dv[m] = sum_jk dh_m[jk, jv] k_m[jk]; with h_{t+1} = b h_t + k_t v_t^T and
 *     dh_t = scale q_t do_t^T + b dh_{t+1} (dh_T = 0), b = bbVal = 1 - 2^(-5 - i_bh % H).
 *   fused_recurrent_retention_seed_io_correctness (hOutInj), Masked3DTileKernelIO_1:
 *     HSeed[idx] = initial_state[idx] at p2*DK*DV + (p1*BK + c)*DV + p0*BV + r,
 *     mask p1*BK + c < DK && p0*BV + r < DV (tile [BV, BK]: idx = (r, c)).
 *   fused_recurrent_retention_seed_io_correctnessR: the same |=[R, .real].
 *
 * Checked against bench/tritonbench_g/fused_recurrent_retention/ (the .py and
 * FusedRecurrentRetention.lean): the grid is (NV, NK, B*H) for both kernels; q, k, do
 * rows advance by DK / DV per step (s_qk_t = DK, s_vo_t = DV: a [B*H, T, D] layout
 * whose head stride s_qk_h / s_vo_h may exceed T*D); o and dv are [NK, B*H] blocks of
 * head stride s_vo_h, dq and dk [NV, B*H] blocks of head stride s_qk_h (the Lean
 * outStepOffset / dqStepOffset); b_b = 1 - exp2(-5 - i_h) in binary32 (the Lean bbVal is
 * the real value; the kernel's rounding of it is charged); the forward stores o after
 * the update (post-update state, as outClosed says); the backward's first loop rebuilds
 * h (seeded with initial_state) and stores dq, its reverse loop adds scale q do^T, stores
 * dk and dv, then decays d_h (so dk, dv use dStateClosed(t), DHOut = b dStateClosed(m)).
 * All the conjuncts are checked on ONE launch: the forward then the backward program on
 * every (i_v, i_k, i_bh), which also writes the fiction carry regions at step m (HSeed:
 * the seeded register; HOut: h after step m; DHOut: d_h after step m's decay).  HPrev
 * and DHPrev are the hypotheses' carried states, the kernel's own registers in a full
 * launch: scratch regions here (only their guard zones are checked).  Reading: the
 * state-step and dstate-step slices store every [BV, BK] lane unmasked; on a tile with
 * inactive lanes (DK % BK or DV % BV) those cells alias active cells of the next row, so
 * only the active lanes (mask_kv) are claimed and stored.  The seed slice's
 * `h = zeros + load(other=0)` maps -0 to +0; the spec is over the reals (0 = -0).
 *
 * Error model (summary): the states are the linear recurrences of oracle/lrec.h
 * (td_sh_lrec_step: every step charged 3u relative to the magnitude state M_t = b M +
 * |k v|, plus the propagated errors of b's rounding and of the rounded products k v and
 * (q scale) do), which covers the sequential scan with or without FMA and the chunked
 * scan with the state carried between chunks (lrec.h derives the counts); b_b is 1 -
 * exp2(-5 - i_h): exp2's budget from the math model, one rounding of the subtraction
 * (at i_h >= 20 it rounds to 1: the decay error then grows the bound linearly in T);
 * q * scale one rounding; each output a sum over the tile in any order (gamma_{n-1});
 * binary32 stores are exact.  Seeds: a copy, tolerance 0.
 * Special values: finite inputs |x| <= 8; |h| <= 64 T stays far below binary32's range.
 */
#include "gen.h"
#include "gen_far.h"
#include "gen_large.h"

enum { P_USE_INIT, P_STORE_FINAL, P_SQK, P_SVO, P_B, P_H, P_T, P_DK, P_DV, P_BK, P_BV, P_M, P_SCALE, NP };
enum { R_Q, R_K, R_V, R_O, R_DO, R_DQ, R_DK, R_DV, R_H0, R_HT, R_HSEED, R_HPREV, R_HOUT, R_DHPREV, R_DHOUT, NR };
/* the output channels of the summary's lanes (td_olane.o) */
enum { O_O, O_HT, O_DQ, O_DK, O_DV, O_HSEED, O_HOUT, O_DHOUT };
enum { PS_DK, PS_DV, PS_BK, PS_BV, NPS }; /* the seed theorems */
enum { RS_H0, RS_HSEED, NRS };

#define TD_SPEC_FILE "fused_recurrent_retention.spec.h"
#include "spec_instantiate.h"
/* the batched verdict path: the spec lane after lane in one loop, its shadow operations
 * inlined (spec_instantiate.h) */
TD_SPEC_RUN_DEFINE(frr_summary)

static const td_param_decl params[NP] = {
    {"USE_INITIAL_STATE", TD_P_BOOL}, {"STORE_FINAL_STATE", TD_P_BOOL}, {"s_qk_h", TD_P_INT}, {"s_vo_h", TD_P_INT},
    {"B", TD_P_INT}, {"H", TD_P_INT}, {"T", TD_P_INT}, {"DK", TD_P_INT}, {"DV", TD_P_INT}, {"BK", TD_P_INT},
    {"BV", TD_P_INT}, {"m", TD_P_INT}, {"scale", TD_P_REAL}};
static const td_region_decl regions[NR] = {
    {"q", TD_F32, TD_R_IN},           {"k", TD_F32, TD_R_IN},          {"v", TD_F32, TD_R_IN},
    {"o", TD_F32, TD_R_OUT},          {"do_", TD_F32, TD_R_IN},        {"dq", TD_F32, TD_R_OUT},
    {"dk", TD_F32, TD_R_OUT},         {"dv", TD_F32, TD_R_OUT},        {"initial_state", TD_F32, TD_R_IN},
    {"final_state", TD_F32, TD_R_OUT}, {"HSeed", TD_F32, TD_R_OUT},    {"HPrev", TD_F32, TD_R_SCRATCH},
    {"HOut", TD_F32, TD_R_OUT},       {"DHPrev", TD_F32, TD_R_SCRATCH}, {"DHOut", TD_F32, TD_R_OUT}};
static const td_param_decl params_seed[NPS] = {
    {"DK", TD_P_INT}, {"DV", TD_P_INT}, {"BK", TD_P_INT}, {"BV", TD_P_INT}};
static const td_region_decl regions_seed[NRS] = {{"initial_state", TD_F32, TD_R_IN}, {"HSeed", TD_F32, TD_R_OUT}};

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Shape: DK, DV in 1..6 with BK any power of two up to 8 and BV a power of two <= DV
 * (hBV); T from the boundary list (1, one step past a power of two, ...) and, in one
 * case in 16, a long sequence (2048..4095 steps) on one or two heads of width <= 2, or
 * 1024..1100 steps on 21 heads of width 1 (head 20's decay 1 - 2^-25 rounds to 1 in
 * binary32), so a case stays below ~10^5 lanes.  H = 21 or 24 on short sequences puts
 * heads whose decay rounds to 1 (h >= 20) into the launch. */
static void gen_shape(td_producer *p, td_case *c, int64_t *T, int64_t *BH) {
    int long_seq = td_prod_u32(p, 0, 15) == 0;
    int64_t DK = td_prod_u32(p, 1, long_seq ? 2 : 6), DV = td_prod_u32(p, 1, long_seq ? 2 : 6);
    int64_t BK = td_gen_pow2(p, 0, 3), BV = 1;
    int64_t bvmax = td_prod_u32(p, 0, 2);
    while (BV * 2 <= DV && bvmax-- > 0) BV *= 2;
    static const uint32_t Hs[] = {1, 2, 3, 21, 24};
    int64_t H = Hs[td_prod_u32(p, 0, 4)], B = td_prod_u32(p, 1, 2);
    if (H > 3) B = 1;
    static const uint32_t Ts[] = {1, 2, 3, 15, 16, 17, 33};
    if (long_seq && H > 3) H = 21; /* heads 0..20: head 20's decay rounds to 1 */
    if (long_seq && H == 3) H = 2;
    if (long_seq && H == 21) DK = 1, DV = 1, BV = 1;
    uint32_t ti = td_prod_u32(p, 0, 6);
    uint32_t tl = td_prod_u32(p, H == 21 ? 1024 : 2048, H == 21 ? 1100 : 4095);
    *T = long_seq ? tl : Ts[ti];
    *BH = B * H;
    c->p[P_B].i = B, c->p[P_H].i = H, c->p[P_T].i = *T, c->p[P_DK].i = DK, c->p[P_DV].i = DV;
    c->p[P_BK].i = BK, c->p[P_BV].i = BV;
    int pad = td_prod_u32(p, 0, 3) == 0;
    c->p[P_SQK].i = *T * DK + (pad ? td_prod_u32(p, 1, 5) : 0);
    c->p[P_SVO].i = *T * DV + (pad ? td_prod_u32(p, 1, 5) : 0);
    c->grid[0] = (uint32_t)cdiv(DV, BV), c->grid[1] = (uint32_t)cdiv(DK, BK), c->grid[2] = (uint32_t)*BH;
    c->classes |= (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (*T > 1 ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (*T == 1 ? TD_BC(TD_BC_SEQ_SINGLE) : 0) | (*T >= 15 && *T <= 17 ? TD_BC(TD_BC_SEQ_BLOCK_EDGE) : 0) |
                  (DK % BK || DV % BV ? TD_BC(TD_BC_TAIL) : TD_BC(TD_BC_EXACT_MULTIPLE)) |
                  (BK >= 4 * DK ? TD_BC(TD_BC_BLOCK_GT_N) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0);
}

static void gen(td_producer *p, td_case *c) {
    int64_t T, BH;
    gen_shape(p, c, &T, &BH);
    int64_t DK = c->p[P_DK].i, DV = c->p[P_DV].i, NK = c->grid[1], NV = c->grid[0];
    c->p[P_USE_INIT].i = td_prod_bool(p);
    c->p[P_STORE_FINAL].i = td_prod_bool(p);
    c->p[P_M].i = td_prod_u32(p, 0, (uint32_t)(T - 1));
    if (td_prod_bool(p)) c->p[P_M].i = T - 1; /* the last step: DHOut = b * dh_{T-1} */
    c->p[P_SCALE].r = td_prod_bool(p) ? (double)(float)(1 / sqrt((double)DK)) : td_gen_real(p, 0.0625, 2);
    size_t sqk = (size_t)(BH * c->p[P_SQK].i), svo = (size_t)(BH * c->p[P_SVO].i), st = (size_t)(BH * DK * DV);
    td_case_alloc(c, R_Q, sqk), td_case_alloc(c, R_K, sqk), td_case_alloc(c, R_V, svo), td_case_alloc(c, R_DO, svo);
    td_case_alloc(c, R_O, (size_t)NK * svo + 3), td_case_alloc(c, R_DV, (size_t)NK * svo + 3);
    td_case_alloc(c, R_DQ, (size_t)NV * sqk + 3), td_case_alloc(c, R_DK, (size_t)NV * sqk + 3);
    for (int r = R_H0; r <= R_DHOUT; r++) td_case_alloc(c, r, st + (r == R_H0 ? 0 : 3));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    static const int ins[] = {R_Q, R_K, R_V, R_DO, R_H0};
    for (int i = 0; i < 5; i++) td_vgen_fill(&g, c, ins[i]);
    c->classes |= c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0;
}

/* Offsets beyond 2^31 (gen_far.h, td_far_slabs): q and k are read at i_bh * s_qk_h, v
 * and do at i_bh * s_vo_h, dq and dk written at (i_bh + i_v*B*H) * s_qk_h, o and dv at
 * (i_bh + i_k*B*H) * s_vo_h (products the original forms in int32 from its program ids
 * and int32 strides).  Keeps R heads (H dividing them) with NV*R and NK*R <=
 * TD_FAR_MAX_ROWS slabs of the outputs, then moves q, k (R heads) with dq, dk (NV*R >= 2
 * slabs, sparse outputs) to one far s_qk_h, and where o, dv hold two slabs or more
 * (NK*R), v, do with them to one far s_vo_h: the last block's rows start past 2^31.
 * (A case of one dq slab keeps its strides: nothing to address past the first.)  The
 * state regions keep their head offsets i_bh * DK * DV (sizes only: the large tier's
 * form, not this one's; heads below R as they were). */
static void far(td_producer *p, td_case *c) {
    int64_t H = c->p[P_H].i, NV = c->grid[0], NK = c->grid[1], NX = NV > NK ? NV : NK;
    if (NX > TD_FAR_MAX_ROWS) return;
    int64_t cap = TD_FAR_MAX_ROWS / NX, R = td_far_bh_rows(c->grid[2] < cap ? c->grid[2] : cap, &H);
    static const int qk[4] = {R_Q, R_K, R_DQ, R_DK}, vo[4] = {R_V, R_DO, R_O, R_DV};
    const int64_t rq[4] = {R, R, NV * R, NV * R}, rv[4] = {R, R, NK * R, NK * R};
    int64_t T = c->p[P_T].i;
    if (NV * R < 2 || !td_far_slabs(p, c, 4, qk, rq, P_SQK, T * c->p[P_DK].i, NV * R)) return;
    if (NK * R >= 2) td_far_slabs(p, c, 4, vo, rv, P_SVO, T * c->p[P_DV].i, NK * R); /* (or s_vo_h stays) */
    c->p[P_H].i = H, c->p[P_B].i = R / H, c->grid[2] = (uint32_t)R;
}

static const char *check_state_tiles(const td_case *c, int64_t DK, int64_t DV, int64_t BK, int64_t BV) {
    if (BK <= 0) return "hBKpos: 0 < BK";
    if (BV <= 0) return "hBVpos: 0 < BV";
    if ((BK & (BK - 1)) || (BV & (BV - 1))) return "BK, BV are powers of two (tl.arange)";
    if (DK <= 0 || DV <= 0) return "DK, DV > 0";
    if (c->grid[0] != (uint32_t)cdiv(DV, BV) || c->grid[1] != (uint32_t)cdiv(DK, BK))
        return "grid = (cdiv(DV, BV), cdiv(DK, BK), B*H)";
    return NULL;
}

static const char *check(const td_case *c) {
    for (int i = P_SQK; i <= P_M; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t T = c->p[P_T].i, DK = c->p[P_DK].i, DV = c->p[P_DV].i, BH = c->p[P_B].i * c->p[P_H].i;
    const char *e = check_state_tiles(c, DK, DV, c->p[P_BK].i, c->p[P_BV].i);
    if (e) return e;
    if (c->p[P_BV].i > DV) return "hBV: BV <= DV";
    if (c->p[P_M].i >= T) return "hmT: m < T";
    if (c->p[P_H].i <= 0 || c->grid[2] != (uint32_t)BH) return "grid axis 2 = B*H, H > 0";
    if (c->p[P_SQK].i < T * DK || c->p[P_SVO].i < T * DV) return "s_qk_h >= T*DK, s_vo_h >= T*DV (rows of a head)";
    if ((double)(float)c->p[P_SCALE].r != c->p[P_SCALE].r || !isfinite(c->p[P_SCALE].r)) return "scale is binary32";
    /* each region up to its last head's (block's) rows t < T: their exact span (a far
     * stride leaves no room after them) */
    int64_t sqk_h = c->p[P_SQK].i, svo_h = c->p[P_SVO].i, NV = c->grid[0], NK = c->grid[1];
    size_t sqk = (size_t)((BH - 1) * sqk_h + T * DK), svo = (size_t)((BH - 1) * svo_h + T * DV), st = (size_t)(BH * DK * DV);
    if (c->r[R_Q].len < sqk || c->r[R_K].len < sqk || c->r[R_V].len < svo || c->r[R_DO].len < svo)
        return "q, k, v, do hold every head's rows";
    size_t o = (size_t)((NK * BH - 1) * svo_h + T * DV), dq = (size_t)((NV * BH - 1) * sqk_h + T * DK);
    if (c->r[R_O].len < o || c->r[R_DV].len < o || c->r[R_DQ].len < dq || c->r[R_DK].len < dq)
        return "o, dv hold NK blocks, dq, dk NV blocks";
    for (int r = R_H0; r <= R_DHOUT; r++)
        if (c->r[r].len < st) return "the state regions hold B*H*DK*DV";
    return NULL;
}

static void add(td_wset *ws, uint32_t o, int reg, int64_t off, const uint32_t pid[3], int64_t t, int64_t a,
                int64_t b, int64_t j) {
    td_olane l = {.o = o, .region = (uint32_t)reg, .off = (uint64_t)off, .pid = {pid[0], pid[1], pid[2]},
                  .t = (uint32_t)t, .j = (uint64_t)j, .idx = {pid[2], a, b, t}};
    td_wset_add(ws, &l);
}

/* the state lanes of one program: (k, v) active; idx = {bh, k, v, step} */
static void state_lanes(const td_case *c, td_wset *ws, const uint32_t pid[3], uint32_t o, int reg, int64_t step) {
    int64_t DK = c->p[P_DK].i, DV = c->p[P_DV].i, BK = c->p[P_BK].i, BV = c->p[P_BV].i;
    for (int64_t r = 0; r < BV; r++)
        for (int64_t cc = 0; cc < BK; cc++) {
            int64_t k = pid[1] * BK + cc, v = pid[0] * BV + r;
            if (k < DK && v < DV) add(ws, o, reg, (int64_t)pid[2] * DK * DV + k * DV + v, pid, step, k, v, r * BK + cc);
        }
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t T = c->p[P_T].i, DK = c->p[P_DK].i, DV = c->p[P_DV].i, BK = c->p[P_BK].i, BV = c->p[P_BV].i;
    int64_t BH = c->grid[2], sqk = c->p[P_SQK].i, svo = c->p[P_SVO].i, m = c->p[P_M].i;
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++) {
                const uint32_t pid[3] = {p0, p1, p2};
                for (int64_t t = 0; t < T; t++) { /* increasing t: the spec's memo is filled in order */
                    for (int64_t r = 0; r < BV; r++) {
                        int64_t v = p0 * BV + r, off = (p2 + p1 * BH) * svo + v + t * DV;
                        if (v < DV) add(ws, O_O, R_O, off, pid, t, p1, v, r);
                        if (v < DV) add(ws, O_DV, R_DV, off, pid, t, p1, v, r);
                    }
                    for (int64_t cc = 0; cc < BK; cc++) {
                        int64_t k = p1 * BK + cc, off = (p2 + p0 * BH) * sqk + k + t * DK;
                        if (k < DK) add(ws, O_DQ, R_DQ, off, pid, t, p0, k, cc);
                        if (k < DK) add(ws, O_DK, R_DK, off, pid, t, p0, k, cc);
                    }
                }
                state_lanes(c, ws, pid, O_HSEED, R_HSEED, 0);
                state_lanes(c, ws, pid, O_HOUT, R_HOUT, m + 1);
                state_lanes(c, ws, pid, O_DHOUT, R_DHOUT, m);
                if (c->p[P_STORE_FINAL].i) state_lanes(c, ws, pid, O_HT, R_HT, T);
            }
}

/* ---- the seed theorems ---- */
static void gen_seed(td_producer *p, td_case *c) {
    int64_t DK = td_prod_u32(p, 1, 40), DV = td_prod_u32(p, 1, 40);
    int64_t BK = td_gen_pow2(p, 0, 5), BV = td_gen_pow2(p, 0, 5), BH = td_prod_u32(p, 1, 4);
    c->p[PS_DK].i = DK, c->p[PS_DV].i = DV, c->p[PS_BK].i = BK, c->p[PS_BV].i = BV;
    c->grid[0] = (uint32_t)cdiv(DV, BV), c->grid[1] = (uint32_t)cdiv(DK, BK), c->grid[2] = (uint32_t)BH;
    td_case_alloc(c, RS_H0, (size_t)(BH * DK * DV));
    td_case_alloc(c, RS_HSEED, (size_t)(BH * DK * DV) + 3);
    c->classes |= (DK % BK || DV % BV ? TD_BC(TD_BC_TAIL) : TD_BC(TD_BC_EXACT_MULTIPLE)) |
                  (BK >= 4 * DK || BV >= 4 * DV ? TD_BC(TD_BC_BLOCK_GT_N) : 0) |
                  (c->grid[0] * c->grid[1] > 1 ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, RS_H0);
    c->classes |= c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0;
}
static const char *check_seed(const td_case *c) {
    for (int i = 0; i < NPS; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t DK = c->p[PS_DK].i, DV = c->p[PS_DV].i;
    const char *e = check_state_tiles(c, DK, DV, c->p[PS_BK].i, c->p[PS_BV].i);
    if (e) return e;
    size_t st = (size_t)c->grid[2] * (size_t)(DK * DV);
    if (c->r[RS_H0].len < st || c->r[RS_HSEED].len < st) return "initial_state, HSeed hold B*H*DK*DV";
    return NULL; /* hOutInj: (c, r) -> (p1*BK + c)*DV + p0*BV + r is injective on active lanes (p0*BV + r < DV) */
}
/* every active lane of every program; a large case: the heads (p2) of its windows, the
 * other heads' lanes only counted */
static void writes_seed(const td_case *c, td_wset *ws) {
    int64_t DK = c->p[PS_DK].i, DV = c->p[PS_DV].i, BK = c->p[PS_BK].i, BV = c->p[PS_BV].i;
    uint64_t seen = 0;
    for (uint32_t p2 = (uint32_t)td_large_row_next(c, 0); p2 < c->grid[2];
         p2 = (uint32_t)td_large_row_next(c, (uint64_t)p2 + 1), seen++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
                for (int64_t r = 0; r < BV; r++)
                    for (int64_t cc = 0; cc < BK; cc++) {
                        int64_t k = p1 * BK + cc, v = p0 * BV + r;
                        if (k >= DK || v >= DV) continue;
                        td_olane l = {.region = RS_HSEED, .off = (uint64_t)(p2 * DK * DV + k * DV + v),
                                      .pid = {p0, p1, p2}, .j = (uint64_t)(r * BK + cc)};
                        td_wset_add(ws, &l);
                    }
    if (c->nwin) ws->dropped += (c->grid[2] - seen) * (uint64_t)(DK * DV);
}

/* The large tier of the seeds (gen_large.h, td_rows_large): more than 2^31 / (DK*DV)
 * heads, so initial_state + i_bh * DK * DV passes 2^31 (i_bh an int32 program id, DK and
 * DV constexprs: the original forms the product in int32; nothing in the signature
 * bounds B*H*DK*DV, Lean's are Nat).  The row-blocks are the heads' DK*DV states in both
 * regions.  B*H is grid axis 2, which a device caps at 65535, so a head is widened to
 * DK, DV in 192..256 (more than 2^31 / 65535 elements: at most 58285 heads), the drawn
 * head's values in its first elements, the rest zero (a copy: any finite value is in
 * the domain); the tiles the launcher picks for such heads (BK = BV = min(D, 32)) or
 * 16 keep the grid near 2^23 programs. */
static void large_seed(td_producer *p, td_case *c) {
    int64_t DK0 = c->p[PS_DK].i, DV0 = c->p[PS_DV].i;
    int64_t DK = td_prod_u32(p, 192, 256), DV = td_prod_u32(p, 192, 256);
    int64_t BK = td_prod_bool(p) ? 32 : 16, BV = td_prod_bool(p) ? 32 : 16;
    td_rows_region rr[2] = {{RS_H0, (uint64_t)(DK * DV), (uint64_t)(DK0 * DV0)}, {RS_HSEED, (uint64_t)(DK * DV), 0}};
    uint64_t R;
    if (td_rows_large(p, c, c->grid[2], rr, 2, &R) != 0) return;
    c->p[PS_DK].i = DK, c->p[PS_DV].i = DV, c->p[PS_BK].i = BK, c->p[PS_BV].i = BV;
    c->grid[0] = (uint32_t)cdiv(DV, BV), c->grid[1] = (uint32_t)cdiv(DK, BK), c->grid[2] = (uint32_t)R;
    c->classes &= ~(TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_BLOCK_GT_N));
    c->classes |= DK % BK || DV % BV ? TD_BC(TD_BC_TAIL) : TD_BC(TD_BC_EXACT_MULTIPLE);
}

#define FRR_SEED_COMMON                                                                                          \
    .file = "fused_recurrent_retention", .family = "recurrence", .io_class = "Masked3DTileKernelIO_1 (seedIO)",   \
    .nparams = NPS, .params = params_seed, .nregions = NRS, .regions = regions_seed, .sv = TD_SV_REAL,            \
    .sv_note = "finite inputs; a copy", .error_model = "a copy (0 + x is exact; -0 becomes +0, equal as reals): tolerance 0", \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) |                     \
               TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_VALUES_SPECIAL),                 \
    /* no .far: initial_state and HSeed are both addressed by i_bh * DK * DV (sizes only): an  \
     * offset >= 2^31 needs a dense output of 2^31 elements: the large tier's (`large`, heads) */ \
    .gen = gen_seed, .large = large_seed, .check = check_seed, .writes = writes_seed, TD_SPECS(frr_seed)

const td_contract td_c_fused_recurrent_retention_seed = {
    .id = "fused_recurrent_retention.fused_recurrent_retention_seed_io_correctness",
    .kind = "exact",
    .formula = "HSeed[p2*DK*DV + (p1*BK+c)*DV + p0*BV+r] = initial_state[same]  (mask: k < DK && v < DV)",
    FRR_SEED_COMMON,
};
const td_contract td_c_fused_recurrent_retention_seed_r = {
    .id = "fused_recurrent_retention.fused_recurrent_retention_seed_io_correctnessR",
    .kind = "rounding",
    .formula = "HSeed[idx] = R.round(.real)(initial_state[idx])  (.real: the binary32 store is exact)",
    FRR_SEED_COMMON,
};

/* The intent (contracts/fused_recurrent_retention.spec.h): RetNet's recurrent form.
 * o and dv are per-K-block partials (the host sums the NK blocks, o.sum(0)), dq and dk
 * per-V-block partials: a case with more than one block on either axis is set apart. */
static const char *frr_partial(const td_case *c) {
    if (c->grid[1] > 1) return "cdiv(DK, BK) > 1: o and dv are per-K-block partials the host sums (o.sum(0))";
    if (c->grid[0] > 1) return "cdiv(DV, BV) > 1: dq and dk are per-V-block partials the host sums (dq.sum(0))";
    return NULL;
}
static const td_intent intent = {
    .operation = "RetNet's recurrent retention per head h: S_n = gamma_h S_{n-1} + k_n^T v_n, o_n = (scale q_n) S_n, "
                 "gamma_h = 1 - 2^(-5-h), S_{-1} = initial_state or 0, the final state and the carried states; "
                 "dq, dk, dv the gradient of sum_n <do_n, o_n>",
    .definition = "Sun et al. 2023, Retentive Network, the recurrent representation (S_n = gamma S_{n-1} + K_n^T V_n, "
                  "Retention(X_n) = Q_n S_n) with the paper's gamma = 1 - 2^(-5-arange(0, h)); reverse-mode gradient",
    TD_SPECS(frr_intent),
    .partial = frr_partial,
};

const td_contract td_c_fused_recurrent_retention_summary = {
    .id = "fused_recurrent_retention.fused_recurrent_retention_output_summary_general",
    .file = "fused_recurrent_retention",
    .family = "recurrence",
    .io_class = "Realizes_without_Rounding bundle (seed, output, state, dq, dstate, dk, dv step slices) + lowering",
    .kind = "exact",
    .formula = "h_{t+1} = b h_t + k_t v_t^T, o_m = h_{m+1}^T (scale q_m), dq_m = (h_{m+1} do_m) scale, "
               "dh_t = scale q_t do_t^T + b dh_{t+1}, dk_m = dh_m v_m, dv_m = dh_m^T k_m, b = 1 - 2^(-5 - i_bh % H)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8: every state and sum stays finite",
    .error_model = "linear recurrences by oracle/lrec.h (3u per step of the magnitude state, any FMA, chunked with "
                   "the state carried), b_b = 1 - exp2(..) by the math model, tile sums in any order",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) |
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SEQ_SINGLE) |
               TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS_RUN(frr_summary),
    .intent = &intent,
};
