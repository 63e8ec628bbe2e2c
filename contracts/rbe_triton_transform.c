/* rbe_triton_transform.rbe_triton_transform_output_summary_general  (catalogue part 2):
 * rotary embedding of interleaved complex pairs with on-the-fly frequencies
 * (bench/tritonbench_g/rbe_triton_transform/rbe_triton_transform.py, RbeTritonTransform.lean).
 *
 *   rbeTritonIO x_ptr out_ptr M K strides start_token_position THETA DIM BSM BSK ⊨
 *     o = 0: xr*cos(f) - (if 1 + col < K then xi else 0)*sin(f),  o = 1: xr*sin(f) + xi*cos(f),
 *   GroupedMasked2DKernelIO, grid (batch, cdiv(M, BSM) * cdiv(K, BSK)), B = BSM * (BSK/2):
 *   pid_m = pid1 / cdiv(K, BSK), pid_n = pid1 % cdiv(K, BSK), lane (i, jj): row = pid_m*BSM + i,
 *   col = pid_n*BSK + 2*jj; read0 = write0 = b*s_b + row*s_m + col*s_n (the real part), read1 =
 *   write1 = that + 1 (the imaginary part); masks row < M ∧ col < K (0), row < M ∧ 1 + col < K (1);
 *   f = (start_token_position + row) / THETA^((col % DIM) / DIM) (rbeFreqP);
 *   hOutInj / hRI: the real cells are distinct and never one past another lane's real cell.
 *
 * Named spec checked against RbeTritonTransform.lean (rbe_triton_surface, rbeOutRealSpec,
 * rbeOutImagSpec, freqSpec = rbeFreqP, rbeTritonIO) and the Python: the lane rotates the
 * pair (x[off], x[off + 1]) by f; the real output's imaginary operand is the masked load
 * (other = 0.0) where 1 + col >= K, while the imaginary output is written only where 1 +
 * col < K (both loads live).  The Python hard-codes DIM = 128 inside
 * get_freq_multi_tokens; the Lean surface makes DIM a parameter, and so does the
 * contract (128 is drawn most often).  THETA is a binary32 constexpr (10000.0 in the
 * wrapper).  cos and sin are of the exact angle: the statement is over the reals with
 * Real.cos / Real.sin / Real.rpow ("host frequency construction and concrete
 * transcendental behaviour are external"), so the kernel's binary32 evaluation of the
 * angle is part of the error model, not of the spec.
 *
 * Error model (every correct kernel): e = (col % DIM) / DIM one rounding (exact for a
 * power-of-two DIM); THETA^e: the oracle has no pow, so it is charged as exp2(e * log2
 * THETA) in binary32 (log2's budget propagated through the product and exp2, plus exp2's
 * budget): for THETA >= 2 and e in [0, 1) this exceeds the documented error of
 * libdevice's __nv_powf used by tl.extra.cuda.libdevice.pow and of the host libm's powf
 * (a few ulp: the CUDA Programming Guide's table), and it covers a kernel that computes
 * the frequency as exp2 / log2 itself or pos * (1 / THETA^e); pos / THETA^e one division
 * (the div budget: a*(1/b) included); cos / sin the backend's budgets of the argument's
 * interval (the approximate sin.approx / cos.approx of compiled Triton are documented up
 * to |x| <= 100 pi); then the two products of each output and one add, as in rotary
 * (rotary_row_common.h): an FMA contraction only removes a rounding.
 *
 * Domain: positions start + row <= 300 < 100 pi, so every angle (at most the position,
 * for col % DIM = 0) stays where the approximate trigonometric instructions have a
 * documented bound (beyond it the union "any" is unbounded and the lane would not be
 * checked: long-context positions need a kernel that declares its math library);
 * |x| <= 2^60 (products finite); THETA in {10000, 500000, 10} or a binary32 in [2, 2^20].
 */
#include <math.h>

#include "gen_far.h"

#include "gen.h"

enum { P_M, P_K, P_SXB, P_SXM, P_SXN, P_SOB, P_SOM, P_SON, P_START, P_THETA, P_DIM, P_BSM, P_BSK, NP };
enum { R_X, R_OUT, NR };
#define RBE_POS_MAX 300 /* < 100 pi: the documented range of sin.approx / cos.approx */
#define RBE_BOUND 0x1p60

#define TD_SPEC_FILE "rbe_triton_transform.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"M", TD_P_INT},          {"K", TD_P_INT},          {"stride_x_batch", TD_P_INT}, {"stride_x_m", TD_P_INT},
    {"stride_x_n", TD_P_INT}, {"stride_out_batch", TD_P_INT}, {"stride_out_m", TD_P_INT}, {"stride_out_n", TD_P_INT},
    {"start_token_position", TD_P_INT}, {"THETA", TD_P_REAL}, {"DIM", TD_P_INT}, {"BLOCK_SIZE_M", TD_P_INT},
    {"BLOCK_SIZE_K", TD_P_INT}};
static const td_region_decl regions[NR] = {{"x_ptr", TD_F32, TD_R_IN}, {"out_ptr", TD_F32, TD_R_OUT}};

static int64_t rbe_cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* [batch, M, K] with unit column stride, rows and batches padded */
static int64_t rbe_layout(td_producer *p, td_case *c, int64_t nb, int64_t M, int64_t K, int pb, int pm, int pn) {
    int64_t pad_m = td_prod_u32(p, 0, 2) == 0 ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    int64_t pad_b = td_prod_u32(p, 0, 2) == 0 ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    if (pad_m || pad_b) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    c->p[pn].i = 1, c->p[pm].i = K + pad_m, c->p[pb].i = M * (K + pad_m) + pad_b;
    return (nb - 1) * c->p[pb].i + (M - 1) * c->p[pm].i + K;
}

static double rbe_theta(td_producer *p) {
    switch (td_prod_u32(p, 0, 4)) {
    case 0:
    case 1: return 10000.0;
    case 2: return 500000.0;
    case 3: return 10.0;
    default: return td_gen_real(p, 2.0, 0x1p20);
    }
}

static void gen(td_producer *p, td_case *c) {
    int64_t BSM = td_gen_pow2(p, 0, 3), BSK = td_gen_pow2(p, 1, 6), nb = td_prod_u32(p, 1, 2);
    uint64_t cls = 0; /* the tail classes of M against BSM and K against BSK; the grid's own below */
    int64_t M = (int64_t)td_gen_count(p, (uint64_t)BSM, 12, &cls);
    int64_t K = (int64_t)td_gen_count(p, (uint64_t)BSK, 80, &cls);
    c->classes |= cls & (TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) |
                         TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_TAIL));
    if (K % 2) c->classes |= TD_BC(TD_BC_META_EXTREME); /* the last real lane has no imaginary part */
    if (rbe_cdiv(K, BSK) > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    static const int64_t dims[] = {128, 128, 8, 16, 64, 6, 10, 100};
    int64_t dim = dims[td_prod_u32(p, 0, 7)];
    int64_t start = 0;
    switch (td_prod_u32(p, 0, 2)) {
    case 0: start = 0; break;
    case 1: start = RBE_POS_MAX - (M - 1); break; /* the last row at the largest position */
    default: start = td_prod_u32(p, 0, (uint32_t)(RBE_POS_MAX - (M - 1))); break;
    }
    if (start == 0 || start + M - 1 == RBE_POS_MAX) c->classes |= TD_BC(TD_BC_POS_EXTREME);
    c->p[P_M].i = M, c->p[P_K].i = K, c->p[P_START].i = start, c->p[P_THETA].r = rbe_theta(p);
    c->p[P_DIM].i = dim, c->p[P_BSM].i = BSM, c->p[P_BSK].i = BSK;
    int64_t nx = rbe_layout(p, c, nb, M, K, P_SXB, P_SXM, P_SXN);
    int64_t no = rbe_layout(p, c, nb, M, K, P_SOB, P_SOM, P_SON);
    size_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, 8) : 0;
    td_case_alloc(c, R_X, (size_t)nx);
    td_case_alloc(c, R_OUT, (size_t)no + slack);
    c->grid[0] = (uint32_t)nb, c->grid[1] = (uint32_t)(rbe_cdiv(M, BSM) * rbe_cdiv(K, BSK)), c->grid[2] = 1;
    if (c->grid[0] * c->grid[1] == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (M == 1 && K <= 2 && nb == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, RBE_BOUND);
    td_vgen_fill(&g, c, R_X);
}

/* Offsets beyond 2^31 (gen_far.h): x is the read-only region, read from
 * pid_batch * stride_x_batch + stride_x_m * offs_m, in the original an int32 sum of
 * products (program_id, the unannotated strides).  Both batches of x (the generator draws
 * one or two) move to a batch stride near 2^31 over a sparse region; out keeps its
 * layout. */
static void far(td_producer *p, td_case *c) {
    static const int reg = R_X, stride = P_SXB;
    int64_t nb = c->grid[0], w = (c->p[P_M].i - 1) * c->p[P_SXM].i + c->p[P_K].i;
    if (nb < 2 || nb > TD_FAR_MAX_ROWS) return; /* one batch: no batch offset */
    if (td_far_rows_n(p, c, 1, &reg, &stride, nb, &w)) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check(const td_case *c) {
    int64_t M = c->p[P_M].i, K = c->p[P_K].i, BSM = c->p[P_BSM].i, BSK = c->p[P_BSK].i, nb = c->grid[0];
    double th = c->p[P_THETA].r;
    if (BSM < 1 || BSK < 2 || BSK % 2) return "BLOCK_SIZE_M >= 1, BLOCK_SIZE_K even >= 2 (arange(0, BSK // 2) * 2)";
    if (M < 1 || K < 1 || c->p[P_DIM].i < 1) return "M, K, DIM > 0 (cdiv(K, BSK), col % DIM)";
    if (!(th >= 2) || (double)(float)th != th) return "THETA a binary32 value >= 2";
    if (c->p[P_START].i < 0 || c->p[P_START].i + M - 1 > RBE_POS_MAX)
        return "positions start_token_position + row <= 300 (angles inside sin/cos.approx's documented range)";
    if (c->p[P_SON].i != 1 || c->p[P_SXN].i != 1) return "unit column strides (hRI: x+1 / out+1 is the pair's other half)";
    if (nb < 1 || c->grid[1] != (uint32_t)(((M + BSM - 1) / BSM) * ((K + BSK - 1) / BSK)) || c->grid[2] != 1)
        return "grid = (batch, cdiv(M, BSM) * cdiv(K, BSK))";
    for (int k = P_SXB; k <= P_SON; k++)
        if (c->p[k].i < 0) return "strides : Nat";
    if (c->r[R_X].len < (size_t)((nb - 1) * c->p[P_SXB].i + (M - 1) * c->p[P_SXM].i + K) ||
        c->r[R_OUT].len < (size_t)((nb - 1) * c->p[P_SOB].i + (M - 1) * c->p[P_SOM].i + K))
        return "x_ptr and out_ptr hold every active lane";
    if (c->p[P_SXM].i < K || c->p[P_SOM].i < K || c->p[P_SOB].i < M * c->p[P_SOM].i)
        return "hOutInj, hRIAll: rows of K cells apart, batches of M rows apart";
    if (!td_region_abs_le(c, R_X, RBE_BOUND)) return "finite x, |x| <= 2^60"; /* (sparse x: its written pages) */
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t M = c->p[P_M].i, K = c->p[P_K].i, BSM = c->p[P_BSM].i, BSK = c->p[P_BSK].i, gk = rbe_cdiv(K, BSK);
    for (uint32_t b = 0; b < c->grid[0]; b++)
        for (uint32_t pid = 0; pid < c->grid[1]; pid++)
            for (int64_t i = 0; i < BSM; i++)
                for (int64_t jj = 0; jj < BSK / 2; jj++) {
                    int64_t row = (pid / gk) * BSM + i, col = (pid % gk) * BSK + 2 * jj;
                    int64_t off = b * c->p[P_SOB].i + row * c->p[P_SOM].i + col * c->p[P_SON].i;
                    for (uint32_t o = 0; o < 2; o++) {
                        if (!(row < M && col + o < K)) continue; /* writeMask o: row < M ∧ o + col < K */
                        td_olane l = {.o = o,
                                      .region = R_OUT,
                                      .off = (uint64_t)(off + o),
                                      .pid = {b, pid, 0},
                                      .j = (uint64_t)(i * (BSK / 2) + jj),
                                      .idx = {b, row, col}};
                        td_wset_add(ws, &l);
                    }
                }
}

/* ---- intent (docs/intent.md) ----
 * The rotary embedding of RoFormer is defined on heads of an even dimension: a row of K
 * columns is K / DIM whole heads (DIM is even in every case: the wrapper's 128).  Where
 * K is not a multiple of DIM the last head is cut (and an odd K leaves its last column
 * without a pair: the kernel rotates it against 0). */
static const char *rbe_intent_gap(const td_case *c) {
    if (c->p[P_K].i % c->p[P_DIM].i)
        return "K is not a multiple of DIM: the row's last head is cut (an odd K's last column has no pair; the "
               "kernel rotates it against 0)";
    return NULL;
}
static const td_intent i_rbe = {
    .operation = "RoFormer rotary embedding of each head of DIM columns of x, interleaved pairs (2i, 2i + 1) "
                 "rotated by (start_token_position + row) * THETA^(-2i/DIM)",
    .definition = "RoFormer (Su et al. 2021, eq. 34: theta_i = THETA^(-2(i-1)/d), pairs (x_{2i-1}, x_{2i})), as "
                  "Meta's llama apply_rotary_emb (view_as_complex of interleaved pairs), exact cos/sin of the "
                  "exact angle",
    TD_SPECS(rbe_intent),
    .gap = rbe_intent_gap,
};

const td_contract td_c_rbe_triton_transform = {
    .id = "rbe_triton_transform.rbe_triton_transform_output_summary_general",
    .file = "rbe_triton_transform",
    .family = "rotary",
    .io_class = "GroupedMasked2DKernelIO (rbeTritonIO), B = BLOCK_SIZE_M * (BLOCK_SIZE_K / 2)",
    .kind = "exact",
    .formula = "out[c] = xr*cos(f) - (1+col < K ? xi : 0)*sin(f), out[c+1] = xr*sin(f) + xi*cos(f), "
               "f = (start + row) / THETA^((col % DIM) / DIM)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite x, |x| <= 2^60, positions <= 300: every intermediate finite, every angle in the trig budgets' range",
    .error_model = "(col % DIM) / DIM, THETA^e charged as exp2(e * log2 THETA), pos / THETA^e, cos / sin budgets of the "
                   "angle's interval, two products and one add per output",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_POS_EXTREME) | TD_BC(TD_BC_META_EXTREME) |
               TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(rbe),
    .intent = &i_rbe,
};
