/* triton_linear_activation: xformers' kernel_fma, C = activation(A x W^T + bias), with
 * the optional save of the pre-activation (catalogue part 2, src lines 11187-11281).
 *
 *   triton_linear_activation_output_summary_general (hFitM, hFitN : the program's tile
 *     inside M x N) (hsno : output_n_stride = 1) (hble : BLOCK_N <= output_m_stride):
 *     the surface lowers; C[row*smo + col*sno] = applyActivation ACTIVATION (linearSpec);
 *     and when SHOULD_SAVE_ACT_INPUTS, ACT_INPUTS != C, act_inputs_n_stride = 1 and
 *     BLOCK_N <= act_inputs_m_stride: ACT_INPUTS[row*saim + col*sain] = linearSpec, where
 *     linearSpec = (HAS_BIAS ? bias[col] : 0) + sum_{k < BLOCK_K*numKBlocks}
 *     A[row*sam + k*sak] * B[col*sbn + k*sbk]  (row, col wrapped % M, % N: the identity
 *     on interior tiles)
 *   triton_linear_activation_io_correctness (hT : 0 < numKBlocks) (hsno) (hble)
 *     (hsain : act_inputs_n_stride = 1) (hale : BLOCK_N <= act_inputs_m_stride)
 *     (hne : ACT_INPUTS != C): tlaIO |=[R] (out1 = applyActivation (tlaLinIO ..),
 *     out2 = tlaLinIO ..), StreamMasked3DKernelIO_3x2, out1DType = out2DType = .real,
 *     pre: interior tile, read1/read2/read3 (bias, mask HAS_BIAS & col < N),
 *     write1 = row*smo + col*sno, write2 = row*saim + col*sain (writeMask2:
 *     SHOULD_SAVE_ACT_INPUTS).
 *   applyActivation: "tanh" -> tanh, "gelu" -> x*0.5*(1 + erf(x/sqrt 2)), "fast_gelu" ->
 *   0.5*x*(1 + tanh(sqrt(2/pi)*(x + 0.044715*x*x*x))), "relu" -> max 0 x, any other
 *   string -> identity (TritonLinearActivation.lean; checked against the Python).
 *
 * ACTIVATION is a String in the contract; tilediff's parameters are numbers, so it is
 * an integer code: 0 = "" (every other string: identity), 1 = "tanh", 2 = "gelu",
 * 3 = "fast_gelu", 4 = "relu".  The generator draws all five branches, with and
 * without bias and activation save.
 * Kernel (bench/tritonbench_g/triton_linear_activation/triton_linear_activation.py,
 * kernel_fma) in the arm the Lean surface transcribes: K_LOAD_MASK_NEEDED = True
 * (K = BLOCK_K * numKBlocks: unmasked loads), SPLIT_K = 1; grouped order with
 * block_m_idx = group_idx*GROUP_M + program_idx % group_size (MM_SWZ_SIMPLE); m_offs /
 * n_offs wrapped % M / % N; acc = 0; acc += bias[None, :] (exact: 0 + b); the K loop
 * `acc += tl.dot(a, b)`; tl.store(ACT_INPUTS, acc) when saving; then the activation
 * and the store to C masked by m_offs < M & n_offs < N.  The unmasked ACT_INPUTS store
 * and the wrapped offsets write a partial tile's wrapped lanes twice, which is why the
 * contracts require interior tiles: M and N are drawn as multiples of BM and BN.
 *
 * Dtypes: A, B, bias fp16 (LinearLayer casts its inputs to fp16: exact products and
 * an exact bias load); C and ACT_INPUTS binary32.  The wrapper allocates the output
 * like x (fp16), whose store would round; the contract's out1DType/out2DType .real
 * describe an exact store, which binary32 outputs give, so they are binary32 here.
 * Error model: the bias seeds the accumulator exactly, then contracts/matmul_common.h
 * (exact products, pairwise tree per BLOCK_K tile, numKBlocks sequential adds: gamma
 * over numKBlocks adds with the bias as the first term); the activations as the
 * kernel evaluates them in binary32 (Python's left-to-right products; the literals
 * sqrt(2), sqrt(2/pi) and 0.044715 held in binary32; x*0.5 and 0.5*x exact); tanh and
 * erf charged the math model's budget (libm on the host, CUDA's on the GPU); the
 * division x / sqrt2 correctly rounded (the CUDA port uses __fdiv_rn).
 * Special values: fp16 operands, K <= 128: |x| < 6e11, so x^3 in fast_gelu stays finite.
 */
#include "matmul_common.h"

enum { P_M, P_N, P_SMO, P_SNO, P_SAIM, P_SAIN, P_SAM, P_SAK, P_SBN, P_SBK, P_BM, P_GM, P_BN, P_BK, P_NKB, P_HB,
       P_SAVE, P_ACT, NP };
enum { R_C, R_ACT, R_A, R_B, R_BIAS, NR };
enum { ACT_NONE = 0, ACT_TANH, ACT_GELU, ACT_FAST_GELU, ACT_RELU, ACT_COUNT };

/* the 2-D GEMM view: B[k, n] at k*b_k_stride + n*b_n_stride; C's strides */
static const int map[MMF_COUNT] = {
    [MMF_M] = P_M,     [MMF_N] = P_N,     [MMF_K] = -1,      [MMF_BM] = P_BM,   [MMF_BN] = P_BN,
    [MMF_BK] = P_BK,   [MMF_T] = P_NKB,   [MMF_GM] = P_GM,   [MMF_SAM] = P_SAM, [MMF_SAK] = P_SAK,
    [MMF_SBK] = P_SBK, [MMF_SBN] = P_SBN, [MMF_SCM] = P_SMO, [MMF_SCN] = P_SNO};
static const mm_2d d2 = {MM_SWZ_SIMPLE, MM_IDX_WRAP, MM_IDX_WRAP, R_A, R_B, R_C};

#define TD_SPEC_FILE "triton_linear_activation.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"M", TD_P_INT},          {"N", TD_P_INT},          {"output_m_stride", TD_P_INT},
    {"output_n_stride", TD_P_INT}, {"act_inputs_m_stride", TD_P_INT}, {"act_inputs_n_stride", TD_P_INT},
    {"a_m_stride", TD_P_INT}, {"a_k_stride", TD_P_INT}, {"b_n_stride", TD_P_INT},
    {"b_k_stride", TD_P_INT}, {"BLOCK_M", TD_P_INT},    {"GROUP_M", TD_P_INT},
    {"BLOCK_N", TD_P_INT},    {"BLOCK_K", TD_P_INT},    {"numKBlocks", TD_P_INT},
    {"HAS_BIAS", TD_P_BOOL},  {"SHOULD_SAVE_ACT_INPUTS", TD_P_BOOL}, {"ACTIVATION", TD_P_INT}};
static const td_region_decl regions[NR] = {{"C", TD_F32, TD_R_OUT},
                                           {"ACT_INPUTS", TD_F32, TD_R_OUT},
                                           {"A", TD_F16, TD_R_IN},
                                           {"B", TD_F16, TD_R_IN},
                                           {"bias", TD_F16, TD_R_IN}};

static void gen(td_producer *p, td_case *c) {
    mm_shape_opts o = {.bm_lo = 4, .bm_hi = 5, .bn_lo = 4, .bn_hi = 5, .bk_lo = 4, .bk_hi = 5, .max_mn = 48,
                       .interior = 1, .max_T = 4, .group = 1, .work = 1 << 16};
    mm_shape s;
    mm_gen_shape(p, c, &o, 0, &s);
    /* B is the [N, K] weight: row-major over N (the wrapper's contiguous weight) or transposed */
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 3) : 0;
    if (td_prod_u32(p, 0, 3) == 0) s.sbn = 1, s.sbk = s.N + pad;
    else s.sbk = 1, s.sbn = s.K + pad;
    mm_shape_put(c, map, &s);
    int64_t saim = mm_max(s.N, s.BN) + (td_prod_bool(p) ? td_prod_u32(p, 1, 3) : 0);
    c->p[P_SAIM].i = saim, c->p[P_SAIN].i = 1;
    c->p[P_HB].i = td_prod_bool(p);
    c->p[P_SAVE].i = td_prod_bool(p);
    c->p[P_ACT].i = td_prod_u32(p, 0, ACT_COUNT - 1);
    c->grid[0] = (uint32_t)(mm_cdiv(s.M, s.BM) * mm_cdiv(s.N, s.BN));
    td_case_alloc(c, R_A, mm_span(s.M, s.K, s.sam, s.sak));
    td_case_alloc(c, R_B, mm_span(s.K, s.N, s.sbk, s.sbn));
    td_case_alloc(c, R_BIAS, (size_t)s.N);
    td_case_alloc(c, R_C, mm_span(s.M, s.N, s.scm, s.scn));
    td_case_alloc(c, R_ACT, mm_span(s.M, s.N, saim, 1));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F16));
    mm_fill_view(&g, c, R_A, s.M, s.K, s.sam, s.sak);
    mm_fill_view(&g, c, R_B, s.K, s.N, s.sbk, s.sbn);
    td_vgen_fill(&g, c, R_BIAS);
    if (s.K >= 3 && td_prod_u32(p, 0, 5) == 0) mm_absorb(&g, c, R_A, R_B, s.M, s.N, s.K, s.sam, s.sak, s.sbk, s.sbn);
}

/* Offsets beyond 2^31 (gen_far.h): interior tiles (M % BLOCK_M == 0, BLOCK_M >= 16), so
 * one row of tiles keeps its BLOCK_M rows of A, at an a_m_stride whose last row lands
 * 2^31 elements in (mm_far_tile), as m_offs[:, None] * a_m_stride, int32 in Triton, gets
 * wrong.  C and ACT_INPUTS keep their strides (their rows are the tile's rows). */
static void far(td_producer *p, td_case *c) { mm_far_tile(p, c, map, &d2); }

static const char *check_common(const td_case *c, mm_shape *s) {
    const char *e = mm_check_2d(c, map, &d2, s);
    if (e) return e;
    if (s->BK <= 0) return "BLOCK_K > 0 (tl.arange(0, BLOCK_K))";
    if (s->T <= 0) return "hT: 0 < numKBlocks";
    /* pre / hFitM / hFitN for every program of the launch: whole tiles */
    if (s->M % s->BM || s->N % s->BN) return "hFitM / hFitN: every program's tile inside M x N";
    if (s->scn != 1) return "hsno: output_n_stride = 1";
    if (s->BN > s->scm) return "hble: BLOCK_N <= output_m_stride";
    for (int b = P_HB; b <= P_SAVE; b++)
        if (c->p[b].i != 0 && c->p[b].i != 1) return "HAS_BIAS, SHOULD_SAVE_ACT_INPUTS : Bool";
    if (c->p[P_ACT].i < 0 || c->p[P_ACT].i >= ACT_COUNT) return "ACTIVATION: one of the codes 0..4";
    if ((int64_t)c->r[R_BIAS].len < s->N) return "bias holds N elements";
    int64_t saim = c->p[P_SAIM].i, sain = c->p[P_SAIN].i;
    if (c->p[P_SAVE].i) {
        if (sain != 1) return "hsain: act_inputs_n_stride = 1";
        if (s->BN > saim || saim < s->N) return "hale: BLOCK_N <= act_inputs_m_stride (and rows apart)";
        if (c->r[R_ACT].len < mm_span(s->M, s->N, saim, sain)) return "ACT_INPUTS holds the write window";
    }
    /* hne: ACT_INPUTS != C holds by construction (two declared regions) */
    return NULL;
}
static const char *check(const td_case *c) {
    mm_shape s;
    return check_common(c, &s);
}

static void writes(const td_case *c, td_wset *ws) {
    mm_shape s;
    mm_shape_get(c, map, &s);
    mm_writes_2d(c, ws, &s, &d2); /* out1: C */
    if (!c->p[P_SAVE].i) return;
    size_t n = ws->n;
    for (size_t i = 0; i < n; i++) { /* out2: ACT_INPUTS at the same rows and columns */
        td_olane l = ws->v[i];
        l.o = 1;
        l.region = R_ACT;
        l.off = (uint64_t)(l.idx[2] * c->p[P_SAIM].i + l.idx[3] * c->p[P_SAIN].i);
        td_wset_add(ws, &l);
    }
}

#define TLA_COMMON                                                                                                 \
    .file = "triton_linear_activation", .family = "matmul", .nparams = NP, .params = params, .nregions = NR,      \
    .regions = regions, .sv = TD_SV_IEEE,                                                                           \
    .sv_note = "fp16 operands, K <= 128: |x| < 6e11, every intermediate (x^3 included) finite",                   \
    .error_model = "exact bias seed, exact fp16 products, pairwise tree per BLOCK_K tile, numKBlocks sequential "  \
                   "adds; activation in binary32 with binary32 literals, tanh/erf per the math model",             \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) |                 \
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |             \
               TD_BC(TD_BC_OFFSET_2_31),                                                                           \
    .gen = gen, .far = far, .check = check, .writes = writes

static const td_intent intent = {
    .operation = "activation(A W^T + bias) of each cell of C[M, N] (and the saved A W^T + bias), over the K = BLOCK_K * "
                 "numKBlocks columns",
    .definition = "torch.nn.functional.linear then torch.tanh / F.gelu / F.gelu(approximate=\"tanh\") / F.relu / none "
                  "(PyTorch documentation), as xformers' fused linear layer names them",
    TD_SPECS(tla_intent),
};

const td_contract td_c_tla_summary = {
    .id = "triton_linear_activation.triton_linear_activation_output_summary_general",
    .io_class = "Realizes_without_Rounding over TileIndex [BLOCK_M,BLOCK_N] (C and ACT_INPUTS) + lowering",
    .kind = "exact",
    .formula = "C[row*smo + col] = act(lin); ACT_INPUTS[row*saim + col] = lin; lin = bias[col] + sum_k A[row,k] B[col,k]",
    TLA_COMMON,
    TD_SPECS(tla),
    .intent = &intent,
};

const td_contract td_c_tla_io = {
    .id = "triton_linear_activation.triton_linear_activation_io_correctness",
    .io_class = "StreamMasked3DKernelIO_3x2 (tlaIO), out1DType = out2DType = .real",
    .kind = "rounding",
    .formula = "out1[l] = applyActivation(tlaLinIO l); out2[l] = tlaLinIO l  (exact .real stores)",
    TLA_COMMON,
    TD_SPECS(tla),
    .intent = &intent,
};
