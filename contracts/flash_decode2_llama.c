/* flash_decode2_llama: stage 2 of flash decoding (LightLLM, LLaMA), catalogue part 1,
 * src lines 4358-4454.  Four contracts, each about one slice kernel that VeriTile
 * defines next to the faithful surface of _fwd_kernel_flash_decode_stage2
 * (bench/tritonbench_g/flash_decode2_llama/FlashDecode2Llama.lean):
 *
 *   flash_decode2_llama_normalization_output_summary_general
 *     (∃ alg, surface lowers) ∧ Realizes_without_Rounding normalization_store_kernel:
 *     O[b*sob + h*soh + i*sod] = Acc[b*sab + h*sah + i*sad] / SumExp[b*ssb + h*ssh],
 *     every i < BLOCK_DMODEL (normalizedStoreValue); hOutInj.
 *   flash_decode2_llama_running_max_output_summary_general
 *     (∃ alg, surface lowers) ∧ Realizes_without_Rounding running_max_step_kernel:
 *     NewMaxLogic[b*slb + h*slh] = if tlogic > MaxLogic[..] then tlogic else MaxLogic[..],
 *     tlogic = Mid_O_LogExpSum[b*eb + h*eh + block_seq_n] (runningMaxStepValue).
 *   flash_decode2_llama_final_store_io_correctness   finalStoreIO ⊨ fun xs i => xs i
 *   flash_decode2_llama_final_store_io_correctnessR  finalStoreIO ⊨[R, .real] fun xs i => xs i
 *     Masked3DTileKernelIO₁, shape [BLOCK_DMODEL], read p0*sfb + p1*sfh + i*sfd,
 *     write p0*sob + p1*soh + i*sod, mask True; hOutInj.
 *
 * Checked against the Lean slices and the Python kernel: the slices are the loop body's
 * pieces (`tl.maximum(tlogic, max_logic)`, `acc / sum_exp` and its store, the store of a
 * finished row), each a Triton program over the grid (batch, head).  The "surface
 * lowers" conjunct is a fact about the Lean frontend and has no run-time content: the
 * launches here are the slice kernels, whose write sets are what the theorems speak
 * about.  The surface's parameters and regions stay in the signature (the ABI passes
 * them; B_Seqlen, Mid_O and Mid_O_LogExpSum hold the stage-1 data the inputs come from,
 * O must stay untouched by the running-max slice).
 *
 * Inputs come from one model: the generator draws stage-1 partial outputs Mid_O and
 * log-sum-exps, runs the stage-2 loop in binary32 and hands Acc / SumExp / MaxLogic the
 * state it reaches (so SumExp >= 1: the block holding the running max contributes
 * exp(0) = 1, and |Acc / SumExp| <= max |Mid_O|).
 *
 * Formats: stage-1 data binary32 (the Python test); O of the normalization slice is
 * fp16, as in LightLLM's decoding (the Triton store casts: RNE, IEEE overflow).  The
 * contract is real-valued, so that store is a kernel-side rounding of the error model
 * (attn2_common.h), not part of the reference.  The final-store pair: the exact
 * contract copies binary32 to binary32 (bit-exact); the ⊨[R, .real] twin stores into an
 * fp16 O, and R.round .real is that store (slot "store", default fp16:rne:inf): the
 * reference is RN16(Final[i]) and the tolerance 0, overflow to inf included.
 *
 * Error models: normalization: one binary32 division of exact operands, then the fp16
 * store (kernel-side rounding): |RN16(RN32(a/b)) - a/b|.  Running max: exact (tolerance
 * 0).  Final stores: exact / one declared cast (tolerance 0).
 */
#include "attn2_common.h"
#include "gen_far.h"

/* normalization */
enum {
    N_MID_OB, N_MID_OH, N_MID_OS, N_MID_OD, N_E_B, N_E_H, N_E_S, N_OBS, N_OH, N_OD, N_BSEQ, N_BD,
    N_ACC_B, N_ACC_H, N_ACC_D, N_SUM_B, N_SUM_H, N_NP
};
enum { NR_SEQLEN, NR_MID, NR_E, NR_ACC, NR_SUM, NR_O, NR_N };
/* running max */
enum {
    M_MID_OB, M_MID_OH, M_MID_OS, M_MID_OD, M_E_B1, M_E_H1, M_E_S, M_OBS, M_OH, M_OD, M_BSEQ, M_BD, M_K,
    M_E_B, M_E_H, M_LOGIC_B, M_LOGIC_H, M_NP
};
enum { MR_SEQLEN, MR_MID, MR_E, MR_MAX, MR_NEWMAX, MR_O, MR_N };
/* final store */
enum { F_FB, F_FH, F_FD, F_OBS, F_OH, F_OD, F_BD, F_NP };
enum { FR_FINAL, FR_O, FR_N };
enum { C_STORE };

#define TD_SPEC_FILE "flash_decode2_llama.spec.h"
#include "spec_instantiate.h"

static const td_param_decl norm_params[N_NP] = {
    {"stride_mid_ob", TD_P_INT},   {"stride_mid_oh", TD_P_INT},   {"stride_mid_os", TD_P_INT},
    {"stride_mid_od", TD_P_INT},   {"stride_mid_o_eb", TD_P_INT}, {"stride_mid_o_eh", TD_P_INT},
    {"stride_mid_o_es", TD_P_INT}, {"stride_obs", TD_P_INT},      {"stride_oh", TD_P_INT},
    {"stride_od", TD_P_INT},       {"BLOCK_SEQ", TD_P_INT},       {"BLOCK_DMODEL", TD_P_INT},
    {"stride_acc_b", TD_P_INT},    {"stride_acc_h", TD_P_INT},    {"stride_acc_d", TD_P_INT},
    {"stride_sum_b", TD_P_INT},    {"stride_sum_h", TD_P_INT}};
static const td_region_decl norm_regions[NR_N] = {
    {"B_Seqlen", TD_I32, TD_R_META}, {"Mid_O", TD_F32, TD_R_IN}, {"Mid_O_LogExpSum", TD_F32, TD_R_IN},
    {"Acc", TD_F32, TD_R_IN},        {"SumExp", TD_F32, TD_R_IN}, {"O", TD_F16, TD_R_OUT}};

static const td_param_decl max_params[M_NP] = {
    {"stride_mid_ob", TD_P_INT},    {"stride_mid_oh", TD_P_INT},    {"stride_mid_os", TD_P_INT},
    {"stride_mid_od", TD_P_INT},    {"stride_mid_o_eb'", TD_P_INT}, {"stride_mid_o_eh'", TD_P_INT},
    {"stride_mid_o_es", TD_P_INT},  {"stride_obs", TD_P_INT},       {"stride_oh", TD_P_INT},
    {"stride_od", TD_P_INT},        {"BLOCK_SEQ", TD_P_INT},        {"BLOCK_DMODEL", TD_P_INT},
    {"block_seq_n", TD_P_INT},      {"stride_mid_o_eb", TD_P_INT},  {"stride_mid_o_eh", TD_P_INT},
    {"stride_logic_b", TD_P_INT},   {"stride_logic_h", TD_P_INT}};
static const td_region_decl max_regions[MR_N] = {
    {"B_Seqlen", TD_I32, TD_R_META}, {"Mid_O", TD_F32, TD_R_IN},     {"Mid_O_LogExpSum", TD_F32, TD_R_IN},
    {"MaxLogic", TD_F32, TD_R_IN},   {"NewMaxLogic", TD_F32, TD_R_OUT}, {"O", TD_F32, TD_R_OUT}};

static const td_param_decl fin_params[F_NP] = {{"stride_final_b", TD_P_INT}, {"stride_final_h", TD_P_INT},
                                               {"stride_final_d", TD_P_INT}, {"stride_obs", TD_P_INT},
                                               {"stride_oh", TD_P_INT},      {"stride_od", TD_P_INT},
                                               {"BLOCK_DMODEL", TD_P_INT}};
static const td_region_decl fin_regions[FR_N] = {{"Final", TD_F32, TD_R_IN}, {"O", TD_F32, TD_R_OUT}};
static const td_region_decl finr_regions[FR_N] = {{"Final", TD_F32, TD_R_IN}, {"O", TD_F16, TD_R_OUT}};
static const td_cast_decl finr_casts[1] = {
    {"store", "fp16:rne:inf", "R.round .real of the copied value: the store into the fp16 O"}};

/* ---- shared pieces ---- */
static void alloc_stage1(td_producer *p, td_case *c, const attn2_stage2 *s, int r_seqlen, int r_mid, int r_e) {
    td_case_alloc(c, r_seqlen, (size_t)s->B);
    for (int b = 0; b < s->B; b++) td_seti(c, r_seqlen, (size_t)b, s->seqlen[b]);
    td_case_alloc(c, r_mid, s->mid_len);
    td_case_alloc(c, r_e, s->e_len);
    attn2_stage2_fill(p, c, s, r_mid, r_e, 32768);
}

/* the largest offset b*sb + h*sh + i*si (+ k) reaches, for the range checks */
static int64_t span3(int64_t B, int64_t H, int64_t n, int64_t sb, int64_t sh, int64_t si) {
    return (B - 1) * sb + (H - 1) * sh + (n - 1) * si;
}

static const char *check_nonneg(const td_case *c, int from, int to) {
    for (int k = from; k < to; k++)
        if (c->p[k].i < 0) return "strides and sizes are Nat";
    return NULL;
}

/* ---- normalization ---- */
static void gen_norm(td_producer *p, td_case *c) {
    attn2_stage2 s;
    attn2_stage2_shape(p, c, &s, 0);
    alloc_stage1(p, c, &s, NR_SEQLEN, NR_MID, NR_E);
    td_case_alloc(c, NR_ACC, s.acc_len);
    td_case_alloc(c, NR_SUM, s.sum_len);
    td_case_alloc(c, NR_O, s.o_len);
    float acc[64], mx, sum;
    for (int b = 0; b < s.B; b++)
        for (int h = 0; h < s.H; h++) {
            int steps = (s.seqlen[b] + s.bseq - 1) / s.bseq;
            attn2_stage2_state(c, &s, NR_MID, NR_E, b, h, steps, &mx, &sum, acc);
            td_set(c, NR_SUM, (size_t)(b * s.sum[0] + h * s.sum[1]), sum);
            for (int d = 0; d < s.bd; d++) td_set(c, NR_ACC, (size_t)(b * s.acc[0] + h * s.acc[1] + d * s.acc[2]), acc[d]);
        }
    const int64_t v[N_NP] = {s.mid[0], s.mid[1], s.mid[2], s.mid[3], s.e[0],   s.e[1],   1,        s.o[0], s.o[1],
                             s.o[2],   s.bseq,   s.bd,     s.acc[0], s.acc[1], s.acc[2], s.sum[0], s.sum[1]};
    for (int k = 0; k < N_NP; k++) c->p[k].i = v[k];
    c->grid[0] = (uint32_t)s.B;
    c->grid[1] = (uint32_t)s.H;
    c->grid[2] = 1;
}

static const char *check_norm(const td_case *c) {
    const char *e = check_nonneg(c, 0, N_NP);
    if (e) return e;
    int64_t B = c->grid[0], H = c->grid[1], BD = c->p[N_BD].i;
    if (BD <= 0) return "BLOCK_DMODEL > 0 (tl.arange)";
    if (BD > 1 && c->p[N_OD].i == 0) return "hOutInj: i -> outOffset injective (stride_od > 0)";
    if (span3(B, H, BD, c->p[N_ACC_B].i, c->p[N_ACC_H].i, c->p[N_ACC_D].i) >= (int64_t)c->r[NR_ACC].len)
        return "Acc holds every row the grid reads";
    if (span3(B, H, 1, c->p[N_SUM_B].i, c->p[N_SUM_H].i, 0) >= (int64_t)c->r[NR_SUM].len)
        return "SumExp holds every (batch, head)";
    if (span3(B, H, BD, c->p[N_OBS].i, c->p[N_OH].i, c->p[N_OD].i) >= (int64_t)c->r[NR_O].len)
        return "O holds every row the grid writes";
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++)
            if (!(td_get(c, NR_SUM, (size_t)(b * c->p[N_SUM_B].i + h * c->p[N_SUM_H].i)) > 0))
                return "SumExp > 0 (the loop's sum: the generator's domain; Lean's x/0 = 0 is not binary32's)";
    return NULL;
}

static void writes_bhd(const td_case *c, td_wset *ws, int reg, int64_t n, int64_t sb, int64_t sh, int64_t sd) {
    for (uint32_t b = 0; b < c->grid[0]; b++)
        for (uint32_t h = 0; h < c->grid[1]; h++)
            for (int64_t i = 0; i < n; i++) {
                td_olane l = {.region = (uint32_t)reg, .off = (uint64_t)(b * sb + h * sh + i * sd), .pid = {b, h, 0},
                              .j = (uint64_t)i, .idx = {b, h, i}};
                td_wset_add(ws, &l);
            }
}

static void writes_norm(const td_case *c, td_wset *ws) {
    writes_bhd(c, ws, NR_O, c->p[N_BD].i, c->p[N_OBS].i, c->p[N_OH].i, c->p[N_OD].i);
}

/* ---- running max ---- */
static void gen_max(td_producer *p, td_case *c) {
    attn2_stage2 s;
    attn2_stage2_shape(p, c, &s, 0);
    alloc_stage1(p, c, &s, MR_SEQLEN, MR_MID, MR_E);
    int k = (int)td_prod_u32(p, 0, (uint32_t)(s.nblk - 1));
    if (k == s.nblk - 1) c->classes |= TD_BC(TD_BC_TAIL_BELOW);
    td_case_alloc(c, MR_MAX, s.logic_len);
    td_case_alloc(c, MR_NEWMAX, s.logic_len);
    td_case_alloc(c, MR_O, s.o_len);
    int consistent = k > 0 && td_prod_u32(p, 0, 2);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    float acc[64], mx, sum;
    for (int b = 0; b < s.B; b++)
        for (int h = 0; h < s.H; h++) {
            double m;
            if (consistent) { /* the loop's running max before step k */
                attn2_stage2_state(c, &s, MR_MID, MR_E, b, h, k, &mx, &sum, acc);
                m = mx;
            } else {
                m = td_vgen_value(&g, TD_F32);
            }
            td_set(c, MR_MAX, (size_t)(b * s.logic[0] + h * s.logic[1]), m);
        }
    /* the surface's log-sum-exp strides (primed) are usually the step kernel's */
    int64_t eb1 = s.e[0], eh1 = s.e[1];
    if (td_prod_u32(p, 0, 3) == 0) eb1 += 1, eh1 += 2;
    const int64_t v[M_NP] = {s.mid[0], s.mid[1], s.mid[2], s.mid[3], eb1,    eh1,    1,          s.o[0],    s.o[1],
                             s.o[2],   s.bseq,   s.bd,     k,        s.e[0], s.e[1], s.logic[0], s.logic[1]};
    for (int i = 0; i < M_NP; i++) c->p[i].i = v[i];
    c->grid[0] = (uint32_t)s.B;
    c->grid[1] = (uint32_t)s.H;
    c->grid[2] = 1;
}

static const char *check_max(const td_case *c) {
    const char *e = check_nonneg(c, 0, M_NP);
    if (e) return e;
    int64_t B = c->grid[0], H = c->grid[1];
    if (span3(B, H, 1, c->p[M_E_B].i, c->p[M_E_H].i, 0) + c->p[M_K].i >= (int64_t)c->r[MR_E].len)
        return "Mid_O_LogExpSum holds block block_seq_n of every (batch, head)";
    if (span3(B, H, 1, c->p[M_LOGIC_B].i, c->p[M_LOGIC_H].i, 0) >= (int64_t)c->r[MR_MAX].len ||
        c->r[MR_NEWMAX].len != c->r[MR_MAX].len)
        return "MaxLogic and NewMaxLogic hold every (batch, head)";
    return NULL;
}

static void writes_max(const td_case *c, td_wset *ws) {
    writes_bhd(c, ws, MR_NEWMAX, 1, c->p[M_LOGIC_B].i, c->p[M_LOGIC_H].i, 0);
}

/* ---- final store ---- */
static void gen_fin_common(td_producer *p, td_case *c, td_fmt ofmt) {
    int B = (int)td_prod_u32(p, 1, 3), H = (int)td_prod_u32(p, 1, 4);
    int BD = (int)td_gen_pow2(p, 0, 7);
    int64_t n[3] = {B, H, BD}, sf[3], so[3];
    td_case_alloc(c, FR_FINAL, attn2_layout(p, 3, n, sf, 0, &c->classes));
    td_case_alloc(c, FR_O, attn2_layout(p, 3, n, so, 0, &c->classes));
    td_vgen g;
    /* for the fp16 store: values past the fp16 range (65520 rounds to inf), ties and
     * subnormals of fp16 (the TIES and SPECIAL menus) */
    td_vgen_init(&g, p, c, TD_VM_ALL, ofmt == TD_F16 ? 0x1p20 : 0x1p127);
    td_vgen_fill(&g, c, FR_FINAL);
    const int64_t v[F_NP] = {sf[0], sf[1], sf[2], so[0], so[1], so[2], BD};
    for (int i = 0; i < F_NP; i++) c->p[i].i = v[i];
    c->grid[0] = (uint32_t)B;
    c->grid[1] = (uint32_t)H;
    c->grid[2] = 1;
    if (B * H == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (BD == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
}
static void gen_fin(td_producer *p, td_case *c) { gen_fin_common(p, c, TD_F32); }
static void gen_finr(td_producer *p, td_case *c) { gen_fin_common(p, c, TD_F16); }

static const char *check_fin(const td_case *c) {
    const char *e = check_nonneg(c, 0, F_NP);
    if (e) return e;
    int64_t B = c->grid[0], H = c->grid[1], BD = c->p[F_BD].i;
    if (BD <= 0) return "BLOCK_DMODEL > 0 (tl.arange)";
    if (BD > 1 && c->p[F_OD].i == 0) return "hOutInj: i -> p0*sob + p1*soh + i*sod injective";
    if (span3(B, H, BD, c->p[F_FB].i, c->p[F_FH].i, c->p[F_FD].i) >= (int64_t)c->r[FR_FINAL].len)
        return "Final holds every row the grid reads";
    if (span3(B, H, BD, c->p[F_OBS].i, c->p[F_OH].i, c->p[F_OD].i) >= (int64_t)c->r[FR_O].len)
        return "O holds every row the grid writes";
    return NULL;
}

static void writes_fin(const td_case *c, td_wset *ws) {
    writes_bhd(c, ws, FR_O, c->p[F_BD].i, c->p[F_OBS].i, c->p[F_OH].i, c->p[F_OD].i);
}

/* ---- offsets beyond 2^31 (gen_far.h): each slice's read-only [batch, head, ...] input
 * has its batch axis (B <= 3, program axis 0: cur_batch * stride, an int32 product in
 * the kernel) moved to a stride near 2^31 over a sparse mapping, the rest packed; every
 * program reads its row, so the last batch's offset is reached.  Outputs, the other
 * inputs and the launch are kept. */
/* normalization: Acc (SumExp stays: the check reads it at every (batch, head)) */
static void far_norm(td_producer *p, td_case *c) {
    const int64_t n[3] = {c->grid[0], c->grid[1], c->p[N_BD].i};
    const int ps[3] = {N_ACC_B, N_ACC_H, N_ACC_D};
    td_far_move_param_axis(p, c, NR_ACC, 3, n, ps, 0);
}
/* running max: Mid_O_LogExpSum, read at b*eb + h*eh + block_seq_n (its block axis
 * contiguous: stride_mid_o_es = 1, every block the region holds kept); the surface's
 * primed strides keep their offset from the step kernel's */
static void far_max(td_producer *p, td_case *c) {
    int64_t eb = c->p[M_E_B].i, eh = c->p[M_E_H].i, B = c->grid[0], H = c->grid[1];
    const int64_t n[3] = {B, H, (int64_t)c->r[MR_E].len - (B - 1) * eb - (H - 1) * eh};
    const int ps[3] = {M_E_B, M_E_H, -1};
    if (n[2] < 1 || !td_far_move_param_axis(p, c, MR_E, 3, n, ps, 0)) return;
    c->p[M_E_B1].i += c->p[M_E_B].i - eb, c->p[M_E_H1].i += c->p[M_E_H].i - eh;
}
/* final store: Final */
static void far_fin(td_producer *p, td_case *c) {
    const int64_t n[3] = {c->grid[0], c->grid[1], c->p[F_BD].i};
    const int ps[3] = {F_FB, F_FH, F_FD};
    td_far_move_param_axis(p, c, FR_FINAL, 3, n, ps, 0);
}

#define STAGE2_CLASSES                                                                                           \
    (TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SINGLE_LANE) | \
     TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31))

const td_contract td_c_fd2_llama_norm = {
    .id = "flash_decode2_llama.flash_decode2_llama_normalization_output_summary_general",
    .file = "flash_decode2_llama",
    .family = "attention",
    .io_class = "Realizes_without_Rounding (normalization_store_kernel)",
    .kind = "exact",
    .formula = "O[b,h,i] = Acc[b,h,i] / SumExp[b,h]   (i < BLOCK_DMODEL; O fp16)",
    .nparams = N_NP,
    .params = norm_params,
    .nregions = NR_N,
    .regions = norm_regions,
    .sv = TD_SV_REAL,
    .sv_note = "Acc, SumExp are the binary32 stage-2 loop state: SumExp >= 1, |Acc/SumExp| <= max|Mid_O| <= 2^15",
    .error_model = "one binary32 division of exact operands, then the fp16 store (kernel-side rounding)",
    .classes = STAGE2_CLASSES,
    .gen = gen_norm,
    .far = far_norm,
    .check = check_norm,
    .writes = writes_norm,
    TD_SPECS(norm),
};

const td_contract td_c_fd2_llama_max = {
    .id = "flash_decode2_llama.flash_decode2_llama_running_max_output_summary_general",
    .file = "flash_decode2_llama",
    .family = "attention",
    .io_class = "Realizes_without_Rounding (running_max_step_kernel)",
    .kind = "exact",
    .formula = "NewMaxLogic[b,h] = max(Mid_O_LogExpSum[b,h,block_seq_n], MaxLogic[b,h])",
    .nparams = M_NP,
    .params = max_params,
    .nregions = MR_N,
    .regions = max_regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite log-sum-exps and running maxima (reals: no -inf seed in the regions)",
    .error_model = "max is exact: bit-exact (tolerance 0)",
    .classes = STAGE2_CLASSES | TD_BC(TD_BC_TAIL_BELOW),
    .gen = gen_max,
    .far = far_max,
    .check = check_max,
    .writes = writes_max,
    TD_SPECS(runmax),
};

const td_contract td_c_fd2_llama_fin = {
    .id = "flash_decode2_llama.flash_decode2_llama_final_store_io_correctness",
    .file = "flash_decode2_llama",
    .family = "attention",
    .io_class = "Masked3DTileKernelIO_1 (finalStoreIO)",
    .kind = "exact",
    .formula = "O[p0*sob + p1*soh + i*sod] = Final[p0*sfb + p1*sfh + i*sfd]   (binary32 -> binary32)",
    .nparams = F_NP,
    .params = fin_params,
    .nregions = FR_N,
    .regions = fin_regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite binary32 values, copied",
    .error_model = "a copy: bit-exact (tolerance 0)",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SINGLE_LANE) |
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_fin,
    .far = far_fin,
    .check = check_fin,
    .writes = writes_fin,
    TD_SPECS(copy),
};

const td_contract td_c_fd2_llama_finr = {
    .id = "flash_decode2_llama.flash_decode2_llama_final_store_io_correctnessR",
    .file = "flash_decode2_llama",
    .family = "attention",
    .io_class = "Masked3DTileKernelIO_1 (finalStoreIO)",
    .kind = "rounding",
    .formula = "O[p0*sob + p1*soh + i*sod] = R.round(.real)(Final[...]), R = the store into the fp16 O",
    .nparams = F_NP,
    .params = fin_params,
    .nregions = FR_N,
    .regions = finr_regions,
    .ncasts = 1,
    .casts = finr_casts,
    .sv = TD_SV_IEEE,
    .sv_note = "finite binary32 inputs up to 2^20: beyond 65520 the fp16 store overflows as the profile says",
    .error_model = "one declared cast of an exact input: bit-exact against the profile (tolerance 0)",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SINGLE_LANE) |
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_finr,
    .far = far_fin,
    .check = check_fin,
    .writes = writes_fin,
    TD_SPECS(copy_r),
};
