/* flash_decode2_phi: stage 2 of flash decoding with a masked head dimension (Phi:
 * head_dim <= BLOCK_DMODEL = next_power_of_2(head_dim)), catalogue part 1, src lines
 * 4456-4594.  Five contracts about VeriTile's slices of _fwd_kernel_flash_decode_stage2
 * (bench/tritonbench_g/flash_decode2_phi/FlashDecode2Phi.lean):
 *
 *   flash_decode2_phi_masked_accumulator_output_summary_general (a bundle of two)
 *     AccOut[b*sab + h*sah + i*sad] = AccIn[..]*exp(MaxLogic - NewMaxLogic)
 *                                   + exp(LES[b*eb + h*eh + block_seq_n] - NewMaxLogic)*Mid_O[..i..]
 *       for i < head_dim (accumulatorStepValue), and
 *     SumExpOut[b*ssb + h*ssh] = SumExpIn*exp(MaxLogic - NewMaxLogic) + exp(LES_n - NewMaxLogic)
 *       (sumExpStepValue); MaxLogic/NewMaxLogic at b*slb + h*slh; hAccOutInj.
 *   flash_decode2_phi_running_max_output_summary_general (a fold identity)
 *     runningMaxAfter 0 = ⊥ ∧ ∀ k < block_n_size, runningMaxAfter (k+1) =
 *       max(LES[b*eb + h*eh + k], runningMaxAfter k)
 *   flash_decode2_phi_normalization_output_summary_general
 *     Out[b*sob + h*soh + i*sod] = Acc[..i..] / SumExp[..], i < head_dim; hOutInj.
 *   flash_decode2_phi_final_store_io_correctness[R]  phiFinalStoreIO ⊨ / ⊨[R, .real] xs i
 *     shape [BLOCK_DMODEL], read p0*sfb + p1*sfh + i*sfd, write p0*sob + p1*soh + i*sod,
 *     mask i < head_dim.
 *
 * What each launch is: the slice kernel of the Lean file over the grid (batch, head).
 * The accumulator bundle runs the accumulator step and the sum-exp step in one launch
 * (two output channels: AccOut lanes o = 0, SumExpOut o = 1).  The running-max fold
 * names no region: the values it speaks about are the loop's max_logic after each
 * step, so the launch is the loop's running max with max_logic recorded after every
 * step into a trace region MaxTrace appended to the signature (harness-added, row
 * (b*H + h)*(block_n_size + 1), entry 0 the -inf seed = ⊥).  The "surface lowers"
 * conjuncts have no run-time content.
 *
 * Inputs from one model (the generator runs the stage-2 loop in binary32): the state
 * before step block_seq_n, NewMaxLogic = max(MaxLogic, tlogic) as the loop sets it, so
 * every exp argument is <= 0; at block_seq_n = 0 the loop's state (-inf, 0, 0) is not
 * real, so MaxLogic is then a finite value below tlogic and AccIn / SumExpIn are drawn.
 * Acc / SumExp of the normalization are a finished loop's (SumExp >= 1).
 *
 * Formats: binary32 everywhere (the Python test) except the ⊨[R, .real] final store,
 * whose Out is bf16: R.round .real is that store (slot "store", bf16:rne:inf, what
 * Triton's fp32 -> bf16 conversion does); reference RN_bf16(Final[i]), tolerance 0.
 *
 * Error models, in the kernels' order: accumulator: old_scale = exp(ml - nml) (a
 * rounded subtraction, then exp's budget), acc*old_scale, exp_logic = exp(tl - nml),
 * acc + exp_logic*tv; sum_exp*old_scale + exp_logic.  Normalization: one division of
 * exact operands.  Running max and final stores: exact (tolerance 0: err/tol is 0/0,
 * reported 0, and cannot be tighter).
 */
#include "attn2_common.h"
#include "gen_far.h"

/* the surface's ten strides, first in every signature here */
enum { S_MID_OB, S_MID_OH, S_MID_OS, S_MID_OD, S_E_B, S_E_H, S_E_S, S_OBS, S_OH, S_OD, S_N };
/* accumulator bundle */
enum { A_HD = S_N, A_BSEQ, A_BD, A_K, A_ACC_B, A_ACC_H, A_ACC_D, A_SUM_B, A_SUM_H, A_LOGIC_B, A_LOGIC_H, A_NP };
enum { AR_SEQLEN, AR_MID, AR_E, AR_ACCIN, AR_SUMIN, AR_MAX, AR_NEWMAX, AR_ACCOUT, AR_SUMOUT, AR_OUT, AR_N };
/* running-max fold */
enum { X_HD = S_N, X_BSEQ, X_BD, X_BNS, X_NP };
enum { XR_SEQLEN, XR_MID, XR_E, XR_OUT, XR_TRACE, XR_N };
/* normalization */
enum { N_HD = S_N, N_BSEQ, N_BD, N_ACC_B, N_ACC_H, N_ACC_D, N_SUM_B, N_SUM_H, N_NP };
enum { NR_SEQLEN, NR_MID, NR_E, NR_ACC, NR_SUM, NR_OUT, NR_N };
/* final store */
enum { F_HD, F_FB, F_FH, F_FD, F_OBS, F_OH, F_OD, F_BD, F_NP };
enum { FR_FINAL, FR_OUT, FR_N };
enum { C_STORE };

#define TD_SPEC_FILE "flash_decode2_phi.spec.h"
#include "spec_instantiate.h"

#define SURFACE_PARAMS                                                                                          \
    {"stride_mid_ob", TD_P_INT}, {"stride_mid_oh", TD_P_INT}, {"stride_mid_os", TD_P_INT},                      \
        {"stride_mid_od", TD_P_INT}, {"stride_mid_o_eb", TD_P_INT}, {"stride_mid_o_eh", TD_P_INT},              \
        {"stride_mid_o_es", TD_P_INT}, {"stride_obs", TD_P_INT}, {"stride_oh", TD_P_INT}, {"stride_od", TD_P_INT}

static const td_param_decl acc_params[A_NP] = {
    SURFACE_PARAMS,          {"head_dim", TD_P_INT},     {"BLOCK_SEQ", TD_P_INT},    {"BLOCK_DMODEL", TD_P_INT},
    {"block_seq_n", TD_P_INT}, {"stride_acc_b", TD_P_INT}, {"stride_acc_h", TD_P_INT}, {"stride_acc_d", TD_P_INT},
    {"stride_sum_b", TD_P_INT}, {"stride_sum_h", TD_P_INT}, {"stride_logic_b", TD_P_INT}, {"stride_logic_h", TD_P_INT}};
static const td_region_decl acc_regions[AR_N] = {
    {"B_Seqlen", TD_I32, TD_R_META}, {"Mid_O", TD_F32, TD_R_IN},       {"Mid_O_LogExpSum", TD_F32, TD_R_IN},
    {"AccIn", TD_F32, TD_R_IN},      {"SumExpIn", TD_F32, TD_R_IN},    {"MaxLogic", TD_F32, TD_R_IN},
    {"NewMaxLogic", TD_F32, TD_R_IN}, {"AccOut", TD_F32, TD_R_OUT},    {"SumExpOut", TD_F32, TD_R_OUT},
    {"Out", TD_F32, TD_R_OUT}};

static const td_param_decl fold_params[X_NP] = {SURFACE_PARAMS,
                                                {"head_dim", TD_P_INT},
                                                {"BLOCK_SEQ", TD_P_INT},
                                                {"BLOCK_DMODEL", TD_P_INT},
                                                {"block_n_size", TD_P_INT}};
static const td_region_decl fold_regions[XR_N] = {{"B_Seqlen", TD_I32, TD_R_META},
                                                  {"Mid_O", TD_F32, TD_R_IN},
                                                  {"Mid_O_LogExpSum", TD_F32, TD_R_IN},
                                                  {"Out", TD_F32, TD_R_OUT},
                                                  {"MaxTrace", TD_F32, TD_R_OUT}};

static const td_param_decl norm_params[N_NP] = {
    SURFACE_PARAMS,           {"head_dim", TD_P_INT},     {"BLOCK_SEQ", TD_P_INT},    {"BLOCK_DMODEL", TD_P_INT},
    {"stride_acc_b", TD_P_INT}, {"stride_acc_h", TD_P_INT}, {"stride_acc_d", TD_P_INT}, {"stride_sum_b", TD_P_INT},
    {"stride_sum_h", TD_P_INT}};
static const td_region_decl norm_regions[NR_N] = {
    {"B_Seqlen", TD_I32, TD_R_META}, {"Mid_O", TD_F32, TD_R_IN},  {"Mid_O_LogExpSum", TD_F32, TD_R_IN},
    {"Acc", TD_F32, TD_R_IN},        {"SumExp", TD_F32, TD_R_IN}, {"Out", TD_F32, TD_R_OUT}};

static const td_param_decl fin_params[F_NP] = {{"head_dim", TD_P_INT},       {"stride_final_b", TD_P_INT},
                                               {"stride_final_h", TD_P_INT}, {"stride_final_d", TD_P_INT},
                                               {"stride_obs", TD_P_INT},     {"stride_oh", TD_P_INT},
                                               {"stride_od", TD_P_INT},      {"BLOCK_DMODEL", TD_P_INT}};
static const td_region_decl fin_regions[FR_N] = {{"Final", TD_F32, TD_R_IN}, {"Out", TD_F32, TD_R_OUT}};
static const td_region_decl finr_regions[FR_N] = {{"Final", TD_F32, TD_R_IN}, {"Out", TD_BF16, TD_R_OUT}};
static const td_cast_decl finr_casts[1] = {
    {"store", "bf16:rne:inf", "R.round .real of the copied value: the store into the bf16 Out"}};

/* ---- shared pieces ---- */
static void set_surface(td_case *c, const attn2_stage2 *s) {
    const int64_t v[S_N] = {s->mid[0], s->mid[1], s->mid[2], s->mid[3], s->e[0], s->e[1], 1, s->o[0], s->o[1], s->o[2]};
    for (int k = 0; k < S_N; k++) c->p[k].i = v[k];
    c->grid[0] = (uint32_t)s->B;
    c->grid[1] = (uint32_t)s->H;
    c->grid[2] = 1;
}

static void alloc_stage1(td_producer *p, td_case *c, const attn2_stage2 *s, int r_seqlen, int r_mid, int r_e) {
    td_case_alloc(c, r_seqlen, (size_t)s->B);
    for (int b = 0; b < s->B; b++) td_seti(c, r_seqlen, (size_t)b, s->seqlen[b]);
    td_case_alloc(c, r_mid, s->mid_len);
    td_case_alloc(c, r_e, s->e_len);
    attn2_stage2_fill(p, c, s, r_mid, r_e, 0x1p20);
}

static int64_t span3(int64_t B, int64_t H, int64_t n, int64_t sb, int64_t sh, int64_t si) {
    return (B - 1) * sb + (H - 1) * sh + (n > 0 ? n - 1 : 0) * si;
}

static const char *check_nonneg(const td_case *c, int n) {
    for (int k = 0; k < n; k++)
        if (c->p[k].i < 0) return "strides and sizes are Nat";
    return NULL;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* lanes i < min(head_dim, BLOCK_DMODEL) of every (b, h), channel o */
static void writes_masked(const td_case *c, td_wset *ws, int reg, uint32_t o, int64_t n, int64_t sb, int64_t sh,
                          int64_t sd) {
    for (uint32_t b = 0; b < c->grid[0]; b++)
        for (uint32_t h = 0; h < c->grid[1]; h++)
            for (int64_t i = 0; i < n; i++) {
                td_olane l = {.o = o, .region = (uint32_t)reg, .off = (uint64_t)(b * sb + h * sh + i * sd),
                              .pid = {b, h, 0}, .j = (uint64_t)i, .idx = {b, h, i}};
                td_wset_add(ws, &l);
            }
}

/* ---- accumulator bundle ---- */
static void gen_acc(td_producer *p, td_case *c) {
    attn2_stage2 s;
    attn2_stage2_shape(p, c, &s, 1);
    alloc_stage1(p, c, &s, AR_SEQLEN, AR_MID, AR_E);
    int k = (int)td_prod_u32(p, 0, (uint32_t)(s.nblk - 1));
    td_case_alloc(c, AR_ACCIN, s.acc_len);
    td_case_alloc(c, AR_ACCOUT, s.acc_len);
    td_case_alloc(c, AR_SUMIN, s.sum_len);
    td_case_alloc(c, AR_SUMOUT, s.sum_len);
    td_case_alloc(c, AR_MAX, s.logic_len);
    td_case_alloc(c, AR_NEWMAX, s.logic_len);
    td_case_alloc(c, AR_OUT, s.o_len);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM(TD_V_SMALL) | TD_VM(TD_V_WIDE) | TD_VM(TD_V_INTS), 0x1p20);
    float acc[64], mx, sum;
    for (int b = 0; b < s.B; b++)
        for (int h = 0; h < s.H; h++) {
            float t = (float)td_get(c, AR_E, (size_t)(b * s.e[0] + h * s.e[1] + k));
            if (k > 0) {
                attn2_stage2_state(c, &s, AR_MID, AR_E, b, h, k, &mx, &sum, acc);
            } else { /* a real state below tlogic */
                mx = t - (float)td_rng_below(&g.rng, 30);
                sum = 1 + (float)td_rng_below(&g.rng, 8);
                for (int d = 0; d < s.bd; d++) acc[d] = (float)td_vgen_value(&g, TD_F32);
            }
            float nm = t > mx ? t : mx;
            size_t lo = (size_t)(b * s.logic[0] + h * s.logic[1]);
            td_set(c, AR_MAX, lo, mx);
            td_set(c, AR_NEWMAX, lo, nm);
            td_set(c, AR_SUMIN, (size_t)(b * s.sum[0] + h * s.sum[1]), sum);
            for (int d = 0; d < s.bd; d++)
                td_set(c, AR_ACCIN, (size_t)(b * s.acc[0] + h * s.acc[1] + d * s.acc[2]), acc[d]);
        }
    set_surface(c, &s);
    const int64_t v[A_NP - S_N] = {s.hd,     s.bseq,   s.bd,     k,          s.acc[0],  s.acc[1],
                                   s.acc[2], s.sum[0], s.sum[1], s.logic[0], s.logic[1]};
    for (int i = S_N; i < A_NP; i++) c->p[i].i = v[i - S_N];
}

static const char *check_acc(const td_case *c) {
    const char *e = check_nonneg(c, A_NP);
    if (e) return e;
    int64_t B = c->grid[0], H = c->grid[1], n = min64(c->p[A_HD].i, c->p[A_BD].i);
    if (c->p[A_BD].i <= 0) return "BLOCK_DMODEL > 0 (tl.arange)";
    if (n > 1 && c->p[A_ACC_D].i == 0) return "hAccOutInj: i -> accOffset injective";
    if (span3(B, H, n, c->p[A_ACC_B].i, c->p[A_ACC_H].i, c->p[A_ACC_D].i) >= (int64_t)c->r[AR_ACCOUT].len ||
        c->r[AR_ACCIN].len != c->r[AR_ACCOUT].len)
        return "AccIn and AccOut hold every active lane";
    if (span3(B, H, 1, c->p[A_SUM_B].i, c->p[A_SUM_H].i, 0) >= (int64_t)c->r[AR_SUMOUT].len ||
        c->r[AR_SUMIN].len != c->r[AR_SUMOUT].len)
        return "SumExpIn and SumExpOut hold every (batch, head)";
    if (span3(B, H, 1, c->p[A_LOGIC_B].i, c->p[A_LOGIC_H].i, 0) >= (int64_t)c->r[AR_MAX].len ||
        c->r[AR_NEWMAX].len != c->r[AR_MAX].len)
        return "MaxLogic and NewMaxLogic hold every (batch, head)";
    if (span3(B, H, 1, c->p[S_E_B].i, c->p[S_E_H].i, 0) + c->p[A_K].i >= (int64_t)c->r[AR_E].len)
        return "Mid_O_LogExpSum holds block block_seq_n";
    if (span3(B, H, n, c->p[S_MID_OB].i, c->p[S_MID_OH].i, c->p[S_MID_OD].i) + c->p[A_K].i * c->p[S_MID_OS].i >=
        (int64_t)c->r[AR_MID].len)
        return "Mid_O holds block block_seq_n";
    return NULL;
}

static void writes_acc(const td_case *c, td_wset *ws) {
    writes_masked(c, ws, AR_ACCOUT, 0, min64(c->p[A_HD].i, c->p[A_BD].i), c->p[A_ACC_B].i, c->p[A_ACC_H].i,
                  c->p[A_ACC_D].i);
    writes_masked(c, ws, AR_SUMOUT, 1, 1, c->p[A_SUM_B].i, c->p[A_SUM_H].i, 0);
}

/* ---- running-max fold ---- */
static void gen_fold(td_producer *p, td_case *c) {
    attn2_stage2 s;
    attn2_stage2_shape(p, c, &s, 1);
    alloc_stage1(p, c, &s, XR_SEQLEN, XR_MID, XR_E);
    td_case_alloc(c, XR_OUT, s.o_len);
    int bns;
    switch (td_prod_u32(p, 0, 3)) {
    case 0: bns = s.nblk; break;
    case 1: bns = (s.seqlen[0] + s.bseq - 1) / s.bseq; break; /* the loop's own count for batch 0 */
    case 2: bns = (int)td_prod_u32(p, 0, 1); break;
    default: bns = (int)td_prod_u32(p, 0, (uint32_t)s.nblk); break;
    }
    if (bns == 0) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    td_case_alloc(c, XR_TRACE, (size_t)(s.B * s.H * (bns + 1)));
    set_surface(c, &s);
    c->p[X_HD].i = s.hd;
    c->p[X_BSEQ].i = s.bseq;
    c->p[X_BD].i = s.bd;
    c->p[X_BNS].i = bns;
}

static const char *check_fold(const td_case *c) {
    const char *e = check_nonneg(c, X_NP);
    if (e) return e;
    int64_t B = c->grid[0], H = c->grid[1], n = c->p[X_BNS].i;
    if (n > 0 && span3(B, H, 1, c->p[S_E_B].i, c->p[S_E_H].i, 0) + n - 1 >= (int64_t)c->r[XR_E].len)
        return "Mid_O_LogExpSum holds block_n_size blocks of every (batch, head)";
    if ((int64_t)c->r[XR_TRACE].len != B * H * (n + 1)) return "MaxTrace holds block_n_size + 1 values per program";
    return NULL;
}

static void writes_fold(const td_case *c, td_wset *ws) {
    int64_t n = c->p[X_BNS].i;
    for (uint32_t b = 0; b < c->grid[0]; b++)
        for (uint32_t h = 0; h < c->grid[1]; h++)
            for (int64_t k = 0; k <= n; k++) {
                td_olane l = {.region = XR_TRACE, .off = (uint64_t)(((int64_t)b * c->grid[1] + h) * (n + 1) + k),
                              .pid = {b, h, 0}, .t = (uint32_t)k, .j = 0, .idx = {b, h, k}};
                td_wset_add(ws, &l);
            }
}

/* ---- normalization ---- */
static void gen_norm(td_producer *p, td_case *c) {
    attn2_stage2 s;
    attn2_stage2_shape(p, c, &s, 1);
    alloc_stage1(p, c, &s, NR_SEQLEN, NR_MID, NR_E);
    td_case_alloc(c, NR_ACC, s.acc_len);
    td_case_alloc(c, NR_SUM, s.sum_len);
    td_case_alloc(c, NR_OUT, s.o_len);
    float acc[64], mx, sum;
    for (int b = 0; b < s.B; b++)
        for (int h = 0; h < s.H; h++) {
            attn2_stage2_state(c, &s, NR_MID, NR_E, b, h, (s.seqlen[b] + s.bseq - 1) / s.bseq, &mx, &sum, acc);
            td_set(c, NR_SUM, (size_t)(b * s.sum[0] + h * s.sum[1]), sum);
            for (int d = 0; d < s.bd; d++) td_set(c, NR_ACC, (size_t)(b * s.acc[0] + h * s.acc[1] + d * s.acc[2]), acc[d]);
        }
    set_surface(c, &s);
    const int64_t v[N_NP - S_N] = {s.hd, s.bseq, s.bd, s.acc[0], s.acc[1], s.acc[2], s.sum[0], s.sum[1]};
    for (int i = S_N; i < N_NP; i++) c->p[i].i = v[i - S_N];
}

static const char *check_norm(const td_case *c) {
    const char *e = check_nonneg(c, N_NP);
    if (e) return e;
    int64_t B = c->grid[0], H = c->grid[1], n = min64(c->p[N_HD].i, c->p[N_BD].i);
    if (c->p[N_BD].i <= 0) return "BLOCK_DMODEL > 0 (tl.arange)";
    if (n > 1 && c->p[S_OD].i == 0) return "hOutInj: i -> outOffset injective";
    if (span3(B, H, n, c->p[N_ACC_B].i, c->p[N_ACC_H].i, c->p[N_ACC_D].i) >= (int64_t)c->r[NR_ACC].len)
        return "Acc holds every active lane";
    if (span3(B, H, 1, c->p[N_SUM_B].i, c->p[N_SUM_H].i, 0) >= (int64_t)c->r[NR_SUM].len)
        return "SumExp holds every (batch, head)";
    if (span3(B, H, n, c->p[S_OBS].i, c->p[S_OH].i, c->p[S_OD].i) >= (int64_t)c->r[NR_OUT].len)
        return "Out holds every active lane";
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++)
            if (!(td_get(c, NR_SUM, (size_t)(b * c->p[N_SUM_B].i + h * c->p[N_SUM_H].i)) > 0))
                return "SumExp > 0 (the loop's sum: the generator's domain; Lean's x/0 = 0 is not binary32's)";
    return NULL;
}

static void writes_norm(const td_case *c, td_wset *ws) {
    writes_masked(c, ws, NR_OUT, 0, min64(c->p[N_HD].i, c->p[N_BD].i), c->p[S_OBS].i, c->p[S_OH].i, c->p[S_OD].i);
}

/* ---- final store ---- */
static void gen_fin_common(td_producer *p, td_case *c, double bound) {
    int B = (int)td_prod_u32(p, 1, 3), H = (int)td_prod_u32(p, 1, 4);
    int BD = (int)td_gen_pow2(p, 0, 7);
    int hd = td_prod_u32(p, 0, 2) ? (int)td_prod_u32(p, 1, (uint32_t)BD) : BD;
    if (hd < BD) c->classes |= TD_BC(TD_BC_TAIL);
    if (hd == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    int64_t n[3] = {B, H, BD}, sf[3], so[3];
    td_case_alloc(c, FR_FINAL, attn2_layout(p, 3, n, sf, 0, &c->classes));
    td_case_alloc(c, FR_OUT, attn2_layout(p, 3, n, so, 0, &c->classes));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, bound);
    td_vgen_fill(&g, c, FR_FINAL);
    const int64_t v[F_NP] = {hd, sf[0], sf[1], sf[2], so[0], so[1], so[2], BD};
    for (int i = 0; i < F_NP; i++) c->p[i].i = v[i];
    c->grid[0] = (uint32_t)B;
    c->grid[1] = (uint32_t)H;
    c->grid[2] = 1;
    if (B * H == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}
static void gen_fin(td_producer *p, td_case *c) { gen_fin_common(p, c, 0x1p127); }
/* bf16 keeps binary32's exponent range: values up to the binary32 maximum, whose
 * RNE to bf16 overflows to inf beyond 0x1.ff8p127 */
static void gen_finr(td_producer *p, td_case *c) { gen_fin_common(p, c, 0x1.fffffep127); }

static const char *check_fin(const td_case *c) {
    const char *e = check_nonneg(c, F_NP);
    if (e) return e;
    int64_t B = c->grid[0], H = c->grid[1], n = min64(c->p[F_HD].i, c->p[F_BD].i);
    if (c->p[F_BD].i <= 0) return "BLOCK_DMODEL > 0 (tl.arange)";
    if (n > 1 && c->p[F_OD].i == 0) return "hOutInj: i -> p0*sob + p1*soh + i*sod injective";
    if (span3(B, H, n, c->p[F_FB].i, c->p[F_FH].i, c->p[F_FD].i) >= (int64_t)c->r[FR_FINAL].len)
        return "Final holds every active lane";
    if (span3(B, H, n, c->p[F_OBS].i, c->p[F_OH].i, c->p[F_OD].i) >= (int64_t)c->r[FR_OUT].len)
        return "Out holds every active lane";
    return NULL;
}

static void writes_fin(const td_case *c, td_wset *ws) {
    writes_masked(c, ws, FR_OUT, 0, min64(c->p[F_HD].i, c->p[F_BD].i), c->p[F_OBS].i, c->p[F_OH].i, c->p[F_OD].i);
}

/* ---- offsets beyond 2^31 (gen_far.h): each slice's read-only [batch, head, ...] input
 * has its batch axis (B <= 3, program axis 0: cur_batch * stride, an int32 product in
 * the kernel) moved to a stride near 2^31 over a sparse mapping, the rest packed; every
 * program reads its row, so the last batch's offset is reached.  Outputs (the
 * accumulator's AccOut / SumExpOut / NewMaxLogic share their inputs' strides and stay
 * dense, so their inputs stay too), the other inputs and the launch are kept. */
/* Mid_O_LogExpSum through the surface's strides (accumulator, fold): every block the
 * region holds kept (stride_mid_o_es = 1, contiguous) */
static void far_e(td_producer *p, td_case *c, int reg) {
    int64_t B = c->grid[0], H = c->grid[1];
    const int64_t n[3] = {B, H, (int64_t)c->r[reg].len - (B - 1) * c->p[S_E_B].i - (H - 1) * c->p[S_E_H].i};
    const int ps[3] = {S_E_B, S_E_H, S_E_S};
    if (n[2] >= 1 && c->p[S_E_S].i == 1) td_far_move_param_axis(p, c, reg, 3, n, ps, 0);
}
static void far_acc(td_producer *p, td_case *c) { far_e(p, c, AR_E); }
static void far_fold(td_producer *p, td_case *c) {
    if (c->p[X_BNS].i > 0) far_e(p, c, XR_E); /* block_n_size = 0 reads nothing */
}
/* normalization: Acc (SumExp stays: the check reads it at every (batch, head)) */
static void far_norm(td_producer *p, td_case *c) {
    const int64_t n[3] = {c->grid[0], c->grid[1], c->p[N_BD].i};
    const int ps[3] = {N_ACC_B, N_ACC_H, N_ACC_D};
    if (c->p[N_HD].i > 0) td_far_move_param_axis(p, c, NR_ACC, 3, n, ps, 0);
}
/* final store: Final */
static void far_fin(td_producer *p, td_case *c) {
    const int64_t n[3] = {c->grid[0], c->grid[1], c->p[F_BD].i};
    const int ps[3] = {F_FB, F_FH, F_FD};
    if (c->p[F_HD].i > 0) td_far_move_param_axis(p, c, FR_FINAL, 3, n, ps, 0);
}

#define STAGE2_CLASSES                                                                                           \
    (TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SINGLE_LANE) | \
     TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_VALUES_SPECIAL) |    \
     TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31))
#define PHI_COMMON .file = "flash_decode2_phi", .family = "attention"

const td_contract td_c_fd2_phi_acc = {
    .id = "flash_decode2_phi.flash_decode2_phi_masked_accumulator_output_summary_general",
    PHI_COMMON,
    .io_class = "Realizes_without_Rounding bundle (accumulator_step_kernel, sum_exp_step_kernel)",
    .kind = "exact",
    .formula = "AccOut[i] = AccIn[i]*exp(ml - nml) + exp(LES_n - nml)*Mid_O[n, i] (i < head_dim); "
               "SumExpOut = SumExpIn*exp(ml - nml) + exp(LES_n - nml)",
    .nparams = A_NP,
    .params = acc_params,
    .nregions = AR_N,
    .regions = acc_regions,
    .sv = TD_SV_REAL,
    .sv_note = "the loop's state: NewMaxLogic = max(MaxLogic, LES_n), so both exp arguments are <= 0",
    .error_model = "binary32 in the kernel's order: exp(ml - nml), acc*old_scale + exp(tl - nml)*tv; "
                   "sum*old_scale + exp_logic (exp: the math model's budget)",
    .classes = STAGE2_CLASSES,
    .gen = gen_acc,
    .far = far_acc,
    .check = check_acc,
    .writes = writes_acc,
    TD_SPECS(accstep),
};

const td_contract td_c_fd2_phi_fold = {
    .id = "flash_decode2_phi.flash_decode2_phi_running_max_output_summary_general",
    PHI_COMMON,
    .io_class = "fold identity (running max of the stage-2 loop, traced into MaxTrace)",
    .kind = "exact",
    .formula = "MaxTrace[b,h,0] = -inf (bot); MaxTrace[b,h,k+1] = max(LES[b,h,k], MaxTrace[b,h,k]), k < block_n_size",
    .nparams = X_NP,
    .params = fold_params,
    .nregions = XR_N,
    .regions = fold_regions,
    .sv = TD_SV_REAL,
    .sv_note = "the seed is bot = -inf (tl's -float('inf')); every later value is a finite log-sum-exp",
    .error_model = "max is exact: bit-exact (tolerance 0)",
    .classes = STAGE2_CLASSES | TD_BC(TD_BC_FULLY_MASKED),
    .gen = gen_fold,
    .far = far_fold,
    .check = check_fold,
    .writes = writes_fold,
    TD_SPECS(fold),
};

const td_contract td_c_fd2_phi_norm = {
    .id = "flash_decode2_phi.flash_decode2_phi_normalization_output_summary_general",
    PHI_COMMON,
    .io_class = "Realizes_without_Rounding (normalization_store_kernel)",
    .kind = "exact",
    .formula = "Out[b,h,i] = Acc[b,h,i] / SumExp[b,h]   (i < head_dim)",
    .nparams = N_NP,
    .params = norm_params,
    .nregions = NR_N,
    .regions = norm_regions,
    .sv = TD_SV_REAL,
    .sv_note = "Acc, SumExp are the binary32 stage-2 loop state: SumExp >= 1",
    .error_model = "one binary32 division of exact operands",
    .classes = STAGE2_CLASSES,
    .gen = gen_norm,
    .far = far_norm,
    .check = check_norm,
    .writes = writes_norm,
    TD_SPECS(norm),
};

#define FIN_CLASSES                                                                                           \
    (TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_TAIL) |    \
     TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31))

const td_contract td_c_fd2_phi_fin = {
    .id = "flash_decode2_phi.flash_decode2_phi_final_store_io_correctness",
    PHI_COMMON,
    .io_class = "Masked3DTileKernelIO_1 (phiFinalStoreIO)",
    .kind = "exact",
    .formula = "Out[p0*sob + p1*soh + i*sod] = Final[p0*sfb + p1*sfh + i*sfd]   (i < head_dim)",
    .nparams = F_NP,
    .params = fin_params,
    .nregions = FR_N,
    .regions = fin_regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite binary32 values, copied",
    .error_model = "a copy: bit-exact (tolerance 0)",
    .classes = FIN_CLASSES,
    .gen = gen_fin,
    .far = far_fin,
    .check = check_fin,
    .writes = writes_fin,
    TD_SPECS(copy),
};

const td_contract td_c_fd2_phi_finr = {
    .id = "flash_decode2_phi.flash_decode2_phi_final_store_io_correctnessR",
    PHI_COMMON,
    .io_class = "Masked3DTileKernelIO_1 (phiFinalStoreIO)",
    .kind = "rounding",
    .formula = "Out[...] = R.round(.real)(Final[...]) (i < head_dim), R = the store into the bf16 Out",
    .nparams = F_NP,
    .params = fin_params,
    .nregions = FR_N,
    .regions = finr_regions,
    .ncasts = 1,
    .casts = finr_casts,
    .sv = TD_SV_IEEE,
    .sv_note = "finite binary32 inputs; past 0x1.ff8p127 the bf16 store overflows as the profile says",
    .error_model = "one declared cast of an exact input: bit-exact against the profile (tolerance 0)",
    .classes = FIN_CLASSES,
    .gen = gen_finr,
    .far = far_fin,
    .check = check_fin,
    .writes = writes_fin,
    TD_SPECS(copy_r),
};
