/* mixed_sparse_attention: the epilogue of _triton_mixed_sparse_attn_fwd_kernel (catalogue
 * part 2).
 *
 *   mixed_sparse_attention_epilogue_io_correctness (hOutInj), Meta1MaskedTileShapedKernelIO_2
 *     (epilogueIO) |= fun _ _ _ xs ys idx => xs idx / ys idx.1:
 *       mbuf = Seqlens, mwin = p1 / H (m = the batch's sequence length)
 *       read1 = write = p1/H*stride_qz + p1%H*stride_qh + (p0*BM + r)*stride_om + c*stride_ok
 *       read2 = p0*BM + r;  mask1 = mask2 = True;  writeMask = p0*BM + r < m
 *     shapes [BLOCK_M, BLOCK_DMODEL] (AccPre, Out) and [BLOCK_M] (LPre).
 *
 * Checked against bench/tritonbench_g/mixed_sparse_attention/ (mixed_sparse_attention.py
 * and MixedSparseAttention.lean, mixed_sparse_attention_epilogue_slice): the kernel's last
 * two lines `acc /= l_i[:, None]; tl.store(o_ptrs, acc.to(dtype), mask=m_mask)` with acc
 * and l_i materialised into the fiction regions AccPre / LPre (the Lean note says so: they
 * stand for the kernel's registers).  seqlen = Seqlens[off_hz // H] picks the row mask;
 * AccPre is read with Out's own offsets (o_ptrs) for every BLOCK_M row, unmasked; LPre at
 * the tile row p0*BM + r, the same for every head (a register has no head offset).  The
 * [named] reading "out[r,c] = AccPre[r,c] / LPre[r]" matches.  The slice has no early
 * return (the full kernel returns when start_m*BLOCK_M >= seqlen; here such a program
 * writes nothing because every row fails the mask: the same cells).
 *
 * Rounding.  The theorem is stated |= over the reals: `.to(Out.dtype.element_ty)` is the
 * identity there, so Out is binary32 here (the cast is then exact); the full kernel's fp16
 * store belongs to the closed-form contract.
 *
 * Error model: one binary32 division per lane, as the backend's division model rounds it
 * (compiled Triton's div.full.f32, or acc * (1/l): oracle/shadow.c div_local charges the
 * larger); inputs are exact binary32 values, so that is the whole bound.
 *
 * Special values (.sv_note): Lean's x/0 = 0 is avoided: the generator keeps LPre nonzero
 * on every row a launch stores (the catalogue: "generator must keep LPre nonzero"); rows
 * past the sequence length, read but never stored, may hold l = 0 (the full kernel's
 * masked rows do: acc/0 there is never stored).  |AccPre| <= 2^60 and 2^-60 <= |LPre| <=
 * 2^60 keep every quotient a finite normal binary32 value.
 */
#include "attn_online_common.h"
#include "gen.h"
#include "gen_far.h"
#include "gen_meta.h"

enum { E_H, E_SQZ, E_SQH, E_SOM, E_SOK, E_BM, E_BD, E_NP };
enum { E_ACC, E_L, E_SEQ, E_OUT, E_NR };
/* the closed form (catalogue order) */
enum { M_BM, M_BN, M_BD, M_NCTX, M_Z, M_H, M_NR, M_NS, M_NV, M_SQZ, M_SQH, M_SQM, M_SQK, M_SKZ, M_SKH, M_SKN, M_SKK,
       M_SVZ, M_SVH, M_SVN, M_SVK, M_SOZ, M_SOH, M_SOM, M_SOK, M_SCALE, M_NP };
enum { M_Q, M_K, M_V, M_SEQ, M_BCNT, M_BOFF, M_CCNT, M_COLS, M_OUT, M_NRG };
enum { MC_Q, MC_P, MC_STORE, MC_N };
static void msa_row(const td_case *c, const td_olane *l, at_row *R);

#define TD_SPEC_FILE "mixed_sparse_attention.spec.h"
#include "spec_instantiate.h"

static const td_param_decl e_params[E_NP] = {{"H", TD_P_INT},        {"stride_qz", TD_P_INT}, {"stride_qh", TD_P_INT},
                                             {"stride_om", TD_P_INT}, {"stride_ok", TD_P_INT}, {"BLOCK_M", TD_P_INT},
                                             {"BLOCK_DMODEL", TD_P_INT}};
static const td_region_decl e_regions[E_NR] = {{"AccPre", TD_F32, TD_R_IN},
                                               {"LPre", TD_F32, TD_R_IN},
                                               {"Seqlens", TD_I32, TD_R_META},
                                               {"Out", TD_F32, TD_R_OUT}};

#define EI(c, k) ((c)->p[(k)].i)
#define MSA_MAXZ 3

static int64_t e_off(const td_case *c, int64_t p0, int64_t p1, int64_t r, int64_t col) {
    int64_t h = EI(c, E_H);
    return p1 / h * EI(c, E_SQZ) + p1 % h * EI(c, E_SQH) + (p0 * EI(c, E_BM) + r) * EI(c, E_SOM) + col * EI(c, E_SOK);
}

/* a nonzero l: the full kernel's sums (1 .. a few hundred, l >= 1: the max key weighs 1),
 * or any binary32 magnitude in [2^-60, 2^60] of either sign */
static double e_lval(td_rng *r, int mode) {
    double s = (td_rng_next(r) & 1) ? -1.0 : 1.0;
    switch (mode) {
    case 0: return (double)(float)(1.0 + 255.0 * td_rng_unit(r));
    case 1: return ldexp(1.0, (int)td_rng_below(r, 9));
    default: {
        double m = 1.0 + td_rng_unit(r);
        return s * (double)(float)ldexp(m, (int)td_rng_below(r, 120) - 60);
    }
    }
}

static void e_gen(td_producer *p, td_case *c) {
    int64_t h = 1 + td_prod_u32(p, 0, 2), z = 1 + td_prod_u32(p, 0, MSA_MAXZ - 1);
    int64_t bm = td_gen_pow2(p, 0, 5), bd = td_gen_pow2(p, 0, 5);
    int64_t lens[MSA_MAXZ], starts[MSA_MAXZ + 1];
    td_rng r;
    td_rng_seed(&r, td_prod_u64(p));
    int64_t nctx = td_prod_u32(p, 1, 64);
    td_gen_ragged(p, &r, lens, starts, (int)z, 0, nctx, bm, &c->classes);
    /* N_CTX: the tensors' rows; the launcher's grid covers cdiv(N_CTX, BLOCK_M) tiles */
    int64_t grid0 = (nctx + bm - 1) / bm, rows = grid0 * bm;
    int64_t n[4] = {z, h, rows, bd}, st[4];
    int64_t span = td_gen_layout(p, 4, n, st, 0, &c->classes);
    int64_t v[E_NP] = {h, st[0], st[1], st[2], st[3], bm, bd};
    for (int i = 0; i < E_NP; i++) c->p[i].i = v[i];
    c->grid[0] = (uint32_t)grid0;
    c->grid[1] = (uint32_t)(z * h);
    td_case_alloc(c, E_ACC, (size_t)span);
    td_case_alloc(c, E_OUT, (size_t)span);
    td_case_alloc(c, E_L, (size_t)rows);
    td_case_alloc(c, E_SEQ, (size_t)z);
    int64_t maxlen = 0;
    for (int64_t b = 0; b < z; b++) {
        td_set(c, E_SEQ, (size_t)b, (double)lens[b]);
        maxlen = lens[b] > maxlen ? lens[b] : maxlen;
        if (lens[b] == nctx) c->classes |= TD_BC(TD_BC_SEQ_ENDS_AT_END);
    }
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p60);
    td_vgen_fill(&g, c, E_ACC);
    int lmode = (int)td_prod_u32(p, 0, 2), zero_tail = td_prod_bool(p);
    for (int64_t i = 0; i < rows; i++)
        td_set(c, E_L, (size_t)i, zero_tail && i >= maxlen ? 0.0 : e_lval(&g.rng, lmode));
    td_gen_mark_shape((uint64_t)(maxlen ? maxlen : 1), (uint64_t)bm, (uint64_t)grid0, &c->classes);
    if (maxlen < rows) c->classes |= TD_BC(TD_BC_FULLY_MASKED) * (maxlen + bm <= rows);
    if (z * h > 1 || grid0 > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
}

static const char *e_check(const td_case *c) {
    for (int i = 0; i < E_NP; i++)
        if (EI(c, i) < 0) return "parameters are Nat";
    int64_t h = EI(c, E_H), bm = EI(c, E_BM), bd = EI(c, E_BD);
    if (h <= 0 || bm <= 0 || bd <= 0) return "H, BLOCK_M, BLOCK_DMODEL > 0 (the launch's shapes)";
    if (c->grid[1] % (uint32_t)h || c->r[E_SEQ].len * (size_t)h < c->grid[1])
        return "grid axis 1 = Z * H and Seqlens holds a length per batch (mwin = p1 / H)";
    int64_t rows = (int64_t)c->grid[0] * bm;
    if ((int64_t)c->r[E_L].len < rows) return "LPre holds every tile row (read2 = p0*BLOCK_M + r, mask2 = True)";
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++) {
        double m = td_get(c, E_SEQ, p1 / (uint32_t)h);
        if (!(m >= 0) || m > (double)rows) return "Seqlens[b] in [0, N_CTX]";
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            if (e_off(c, p0, p1, bm - 1, bd - 1) >= (int64_t)c->r[E_ACC].len ||
                e_off(c, p0, p1, bm - 1, bd - 1) >= (int64_t)c->r[E_OUT].len)
                return "AccPre and Out hold every lane of every tile (mask1 = True)";
        for (int64_t i = 0; i < (int64_t)m; i++) {
            double l = td_get(c, E_L, (size_t)i);
            if (!(fabs(l) >= 0x1p-60 && fabs(l) <= 0x1p60)) return "LPre nonzero (2^-60 <= |l| <= 2^60) on stored rows";
        }
    }
    if (!td_region_abs_le(c, E_ACC, 0x1p60)) return "|AccPre| <= 2^60 (finite quotients)"; /* sparse: its pages */
    /* hOutInj: td_gen_layout's mixed radix is injective; the harness checks the write set */
    return NULL;
}

static void e_writes(const td_case *c, td_wset *ws) {
    int64_t h = EI(c, E_H), bm = EI(c, E_BM), bd = EI(c, E_BD);
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++) {
        int64_t m = (int64_t)td_get(c, E_SEQ, p1 / (uint32_t)h);
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            for (int64_t r = 0; r < bm && (int64_t)p0 * bm + r < m; r++)
                for (int64_t col = 0; col < bd; col++) {
                    int64_t o = e_off(c, p0, p1, r, col);
                    td_olane l = {.region = E_OUT, .off = (uint64_t)o, .pid = {p0, p1, 0},
                                  .j = (uint64_t)(r * bd + col), .idx = {o, (int64_t)p0 * bm + r, r, col}};
                    td_wset_add(ws, &l);
                }
    }
}

/* Offsets beyond 2^31 (gen_far.h): AccPre and Out (one layout: Out written at AccPre's
 * qo_offset = off_hz // H * stride_qz + off_hz % H * stride_qh, int32 in the kernel) move
 * their batch axis, or with one batch their head axis, to one stride near 2^31 over sparse
 * maps (td_far_move_param_axis_all: the other axes packed, Out a sparse output).  Z <= 3
 * and H <= 3 stay below TD_FAR_MAX_ROWS, so the launch, LPre and Seqlens are unchanged. */
static void e_far(td_producer *p, td_case *c) {
    int64_t h = EI(c, E_H), z = (int64_t)c->grid[1] / h;
    const int64_t n[4] = {z, h, (int64_t)c->grid[0] * EI(c, E_BM), EI(c, E_BD)};
    const int ps[4] = {E_SQZ, E_SQH, E_SOM, E_SOK}, regs[2] = {E_ACC, E_OUT};
    td_far_move_param_axis_all(p, c, regs, 2, 4, n, ps, z >= 2 ? 0 : 1);
}

const td_contract td_c_mixed_sparse_attention_epilogue_io = {
    .id = "mixed_sparse_attention.mixed_sparse_attention_epilogue_io_correctness",
    .file = "mixed_sparse_attention",
    .family = "attention",
    .io_class = "Meta1MaskedTileShapedKernelIO_2 (epilogueIO)",
    .kind = "exact",
    .formula = "Out[write(p,r,c)] = AccPre[read1(p,r,c)] / LPre[p0*BLOCK_M + r], rows p0*BLOCK_M + r < "
               "Seqlens[p1 / H]",
    .nparams = E_NP,
    .params = e_params,
    .nregions = E_NR,
    .regions = e_regions,
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) |
               TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_VALUES_SPECIAL) |
               TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_SEQ_EMPTY) | TD_BC(TD_BC_SEQ_SINGLE) |
               TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_SEQ_ENDS_AT_END) | TD_BC(TD_BC_OFFSET_2_31),
    .far = e_far,
    .gen = e_gen,
    .check = e_check,
    .writes = e_writes,
    .sv = TD_SV_REAL,
    .sv_note = "LPre nonzero on every stored row (Lean's x/0 = 0 avoided; unstored rows may hold 0); bounded "
               "magnitudes keep every quotient finite",
    .error_model = "one binary32 division (the backend's division model, or a * (1/b))",
    TD_SPECS(msa_epilogue),
};

/* ==== mixed_sparse_attention_output_closed_form_summary_general ====
 *
 * The whole kernel _triton_mixed_sparse_attn_fwd_kernel (hBN16: 16 <= BLOCK_N; hsqk, hskk,
 * hsvk, hsok: unit last strides; hvz, hvh: V shares K's batch and head strides; hBDsom;
 * hNCBN: ColCounts <= BLOCK_N; hactive: every program active; hpos), exec-existential:
 *   Out[p1/H*sqz + p1%H*sqh + row*som + d*sok] = mixedSparseAttnClosedForm(row, d)
 *     = (sum_{b<8, j<BN} wB(b,j) vB(b,j,d) + sum_{c<num_cols} wC(c) V[col_c, d])
 *       / (sum_{b<8, j<BN} wB(b,j) + sum_{c<num_cols} wC(c)),
 *   for rows p0*BM + i < seqlen = Seqlens[p1 / H].
 *
 * Checked against mixed_sparse_attention.py and MixedSparseAttention.lean
 * (mixedSparseAttnClosedForm, blockStartN, colKeyGlobal).  The catalogue's [named] reading
 * "softmax over S(row), the keys of the row's blocks and columns, causal-limited" omits
 * two things the kernel (and the Lean closed form) do, and this contract follows both:
 *   - the block loop always runs max_num_blks = 8 iterations.  An iteration b >= num_blks
 *     loads its start masked (blockStartN: the default 0), and its K / V loads are masked
 *     (n_mask includes cond), so its lanes j are keys with K = 0 and V = 0: score exactly
 *     q . 0 = 0, kept by the causal mask when j <= row.  Each such lane adds exp2(0 - m)
 *     to the denominator and nothing to the numerator (at_row.zero: the model's masked
 *     zero keys).  A loop over num_blks only (mutant mut_blocks_num_blks) differs.
 *   - the column phase has no causal mask and no cols < seqlen mask: column c < num_cols
 *     is kept for every active row whatever its key (mutant mut_cols_causal masks it).
 * Loops are capped at 8 blocks (num_blks > 8: the first 8 offsets) and 16 columns
 * (range(0, 16, BLOCK_N) with BLOCK_N >= 16: one column block of BLOCK_N lanes, lanes c >=
 * num_cols masked to -inf; hNCBN keeps num_cols <= BLOCK_N).  Keys of a used block are
 * start_n + j, kept iff start_n + j <= row (then < seqlen, so the cols < seqlen part of the
 * load mask never drops a kept key).  Duplicate keys (two blocks or columns naming the
 * same key) count once per occurrence, as in both.
 *
 * One difference of Lean's reals from the IEEE kernel is a precondition here: Lean's
 * WithBot arithmetic makes a first block iteration with no kept key a no-op (alpha =
 * unbotD 0), while the kernel computes exp2(-inf - -inf) = NaN for that row, forever.
 * The first iteration holds a kept key for every active row when num_blks = 0 (lane 0
 * of the zero block: 0 <= row) or when BlockOffsets' first start <= the tile's first row
 * p0*BM; the checker requires the latter (the MInference-style layouts: the first
 * vertical-slash block starts at key 0).  Later iterations without a kept key are exact
 * no-ops in both (m finite: alpha = exp2(0) = 1, p = exp2(-inf) = 0).  With it hpos holds.
 *
 * The oracle's row model (attn_online_common.h) holds 9 * BLOCK_N key slots: BLOCK_N = 16
 * (144 slots, AT_MAXK); the launcher's 64 is beyond it.  BLOCK_DMODEL <= 64 (Lean's bound).
 *
 * Error model (attn_online_common.h, AT_SC_FLASH / AT_NORM_END / base 2, as flash_attn):
 * qk_scale = RN(sm_scale * 1.44269504) (binary32), q16 = fp16(q * qk_scale) (cast q);
 * scores a binary32 dot over BLOCK_DMODEL lanes in any order (gamma_{BD-1} sum |q16 k|),
 * zero keys exactly 0; m exact; exp2 with the backend's budget; tl.sum a tree over the
 * 16 lanes; P cast to fp16 (cast p, kernel-side at any scale: u16 (|p| + eta16) per
 * weight); P.V a binary32 dot in any order; acc * alpha + pv; l * alpha + rowsum; any
 * blocking / order of the kept keys (td_sh_reblock: up to n-1 rescales); one division;
 * the fp16 store (cast store, judged against the admissible interval).  Sources:
 * oracle/shadow.c (gamma, exp2 budget, reblock, kround), attn_online_common.spec.h.
 */

static const td_param_decl m_params[M_NP] = {
    {"BLOCK_M", TD_P_INT},   {"BLOCK_N", TD_P_INT},   {"BLOCK_DMODEL", TD_P_INT}, {"N_CTX", TD_P_INT},
    {"Z", TD_P_INT},         {"H", TD_P_INT},         {"NUM_ROWS", TD_P_INT},     {"NNZ_S", TD_P_INT},
    {"NNZ_V", TD_P_INT},     {"stride_qz", TD_P_INT}, {"stride_qh", TD_P_INT},    {"stride_qm", TD_P_INT},
    {"stride_qk", TD_P_INT}, {"stride_kz", TD_P_INT}, {"stride_kh", TD_P_INT},    {"stride_kn", TD_P_INT},
    {"stride_kk", TD_P_INT}, {"stride_vz", TD_P_INT}, {"stride_vh", TD_P_INT},    {"stride_vn", TD_P_INT},
    {"stride_vk", TD_P_INT}, {"stride_oz", TD_P_INT}, {"stride_oh", TD_P_INT},    {"stride_om", TD_P_INT},
    {"stride_ok", TD_P_INT}, {"sm_scale", TD_P_REAL}};
static const td_region_decl m_regions[M_NRG] = {
    {"Q", TD_F16, TD_R_IN},          {"K", TD_F16, TD_R_IN},           {"V", TD_F16, TD_R_IN},
    {"seqlens", TD_I32, TD_R_META},  {"block_count", TD_I32, TD_R_META}, {"block_offset", TD_I32, TD_R_META},
    {"column_count", TD_I32, TD_R_META}, {"column_index", TD_I32, TD_R_META}, {"Out", TD_F16, TD_R_OUT}};
static const td_cast_decl m_casts[MC_N] = {
    {"q", "fp16:rne:inf", "q = (q * qk_scale).to(dtype): the scaled query tile"},
    {"p", "fp16:rne:inf", "p.to(dtype): the P operand of the P.V dot (not the row sum)"},
    {"store", "fp16:rne:inf", "tl.store(o_ptrs, acc.to(dtype)): the fp16 output"}};

#define MI(c, k) ((c)->p[(k)].i)
#define MSA_BN 16
#define MSA_NBLK 8 /* max_num_blks */
#define MSA_SLOTS ((MSA_NBLK + 1) * MSA_BN)

/* [Z, H, rows, D] (mode 0) or [Z, rows, H, D] (mode 1), unit last stride, padded rows and heads */
static int64_t msa_layout(td_producer *p, int64_t z, int64_t h, int64_t rows, int64_t bd, int64_t st[3]) {
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 5) : 0, padh = td_prod_bool(p) ? td_prod_u32(p, 1, 7) : 0;
    if (td_prod_bool(p)) st[2] = bd + pad, st[1] = rows * st[2] + padh, st[0] = h * st[1];
    else st[1] = bd + pad, st[2] = h * st[1] + padh, st[0] = rows * st[2];
    return (z - 1) * st[0] + (h - 1) * st[1] + (rows - 1) * st[2] + bd;
}

static double msa_sm_scale(td_producer *p, int64_t bd) {
    static const unsigned w[] = {6, 2, 4, 1, 1};
    switch (td_prod_pick(p, w, 5)) {
    case 0: return (double)(float)(1.0 / sqrt((double)bd));
    case 1: return (double)0.1f; /* the test's */
    case 2: return (double)(float)td_gen_real(p, -2, 2);
    case 3: return 0.0;
    default: return 0x1p-10;
    }
}

/* The vertical-slash metadata of every program: block counts (none, some, NNZ_S: past the
 * cap of 8 when NNZ_S > 8), starts (the first <= the tile's first row; unused cells hold an
 * out-of-range start no kernel may read), column counts (0 .. BLOCK_N) and keys (any key
 * below N_CTX, causal or not, repeats allowed). */
static void msa_gen_meta(td_producer *p, td_case *c, td_rng *r) {
    int64_t bm = MI(c, M_BM), nctx = MI(c, M_NCTX), nr = MI(c, M_NR), ns = MI(c, M_NS), nv = MI(c, M_NV);
    int bmode = (int)td_prod_u32(p, 0, 3), cmode = (int)td_prod_u32(p, 0, 3);
    for (size_t i = 0; i < c->r[M_BOFF].len; i++) td_set(c, M_BOFF, i, (double)(nctx + 7));
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++) {
            int64_t t = (int64_t)p1 * nr + p0, first = (int64_t)p0 * bm;
            int64_t nb = bmode == 0 ? 0 : bmode == 1 ? ns : (int64_t)td_rng_below(r, (uint64_t)ns + 1);
            int64_t ncol = cmode == 0 ? 0 : cmode == 1 ? MSA_BN : (int64_t)td_rng_below(r, MSA_BN + 1);
            td_set(c, M_BCNT, (size_t)t, (double)nb);
            td_set(c, M_CCNT, (size_t)t, (double)ncol);
            int64_t hi = first + bm - 1 < nctx - 1 ? first + bm - 1 : nctx - 1;
            for (int64_t b = 0; b < nb; b++)
                td_set(c, M_BOFF, (size_t)(t * ns + b), (double)td_rng_below(r, (uint64_t)(b == 0 ? first : hi) + 1));
            for (int64_t k = 0; k < nv; k++) td_set(c, M_COLS, (size_t)(t * nv + k), (double)td_rng_below(r, (uint64_t)nctx));
            if (nb == 0 || nb > MSA_NBLK || ncol == 0 || ncol == MSA_BN) c->classes |= TD_BC(TD_BC_META_EXTREME);
            for (int64_t a = 0; a < ncol; a++)
                for (int64_t b = 0; b < a; b++)
                    if (td_get(c, M_COLS, (size_t)(t * nv + a)) == td_get(c, M_COLS, (size_t)(t * nv + b)))
                        c->classes |= TD_BC(TD_BC_IDX_REPEATS);
        }
}

/* Offsets beyond 2^31 (gen_far.h): K and V (kv_offset = off_hz // H * stride_kz +
 * off_hz % H * stride_kh, V at K's strides: hvz / hvh) move their batch axis, or with
 * one batch their head axis where it sits outside the rows, to one stride near 2^31
 * over sparse regions (td_far_axis).  Q stays: Out is written at Q's qo_offset, and
 * outputs stay dense.  The kernel forms kv_offset in Triton's int32. */
static void m_far(td_producer *p, td_case *c) {
    int batch = MI(c, M_Z) >= 2;
    const int reg[2] = {M_K, M_V}, st[2] = {batch ? M_SKZ : M_SKH, batch ? M_SVZ : M_SVH};
    td_far_axis(p, c, 2, reg, st, batch ? MI(c, M_Z) : MI(c, M_H));
}

static void m_gen(td_producer *p, td_case *c) {
    int64_t bm = at_pow2(p, 0, 4), bd = at_pow2(p, 0, 4);
    int64_t z = 1 + td_prod_u32(p, 0, 1), h = 1 + td_prod_u32(p, 0, 1);
    int64_t nctx = (int64_t)td_gen_count(p, (uint64_t)bm, 64, &c->classes);
    /* the MPFR reference re-runs a lane's row (up to 144 keys): keep lanes x slots <= 2^16 */
    while (z * h * nctx * bd * MSA_SLOTS > (1 << 16) && bd > 1) bd /= 2;
    while (z * h * nctx * bd * MSA_SLOTS > (1 << 16) && h > 1) h--;
    while (z * h * nctx * bd * MSA_SLOTS > (1 << 16) && z > 1) z--;
    int64_t grid0 = (nctx + bm - 1) / bm, rows = grid0 * bm;
    int64_t ns = 1 + td_prod_u32(p, 0, 9), nv = MSA_BN + td_prod_u32(p, 0, 3);
    int64_t sq[3], sk[3];
    int64_t qlen = msa_layout(p, z, h, rows, bd, sq), klen = msa_layout(p, z, h, nctx, bd, sk);
    int64_t v[M_NP] = {bm, MSA_BN, bd, nctx, z, h, grid0, ns, nv, sq[0], sq[1], sq[2], 1, sk[0], sk[1], sk[2], 1,
                       sk[0], sk[1], sk[2], 1, sq[0], sq[1], sq[2], 1, 0};
    for (int i = 0; i < M_SCALE; i++) c->p[i].i = v[i];
    c->p[M_SCALE].r = msa_sm_scale(p, bd);
    c->grid[0] = (uint32_t)grid0;
    c->grid[1] = (uint32_t)(z * h);
    td_case_alloc(c, M_Q, (size_t)qlen);
    td_case_alloc(c, M_OUT, (size_t)qlen);
    td_case_alloc(c, M_K, (size_t)klen);
    td_case_alloc(c, M_V, (size_t)klen);
    td_case_alloc(c, M_SEQ, (size_t)z);
    td_case_alloc(c, M_BCNT, (size_t)(z * h * grid0));
    td_case_alloc(c, M_CCNT, (size_t)(z * h * grid0));
    td_case_alloc(c, M_BOFF, (size_t)(z * h * grid0 * ns));
    td_case_alloc(c, M_COLS, (size_t)(z * h * grid0 * nv));
    for (int reg = M_Q; reg <= M_V; reg++) at_poison(c, reg);
    td_rng r;
    td_rng_seed(&r, td_prod_u64(p));
    /* hactive: every program active, seqlen in ((grid0-1)*BM, N_CTX] */
    for (int64_t b = 0; b < z; b++) {
        int64_t lo = (grid0 - 1) * bm + 1, len = td_prod_bool(p) ? nctx : lo + (int64_t)td_rng_below(&r, (uint64_t)(nctx - lo + 1));
        td_set(c, M_SEQ, (size_t)b, (double)len);
        if (len == nctx) c->classes |= TD_BC(TD_BC_SEQ_ENDS_AT_END);
        if (len % bm) c->classes |= TD_BC(TD_BC_SEQ_BLOCK_EDGE);
    }
    msa_gen_meta(p, c, &r);
    double qk_scale = fabs(c->p[M_SCALE].r) * 1.44269504;
    /* as flash_attn: |q * qk_scale| inside binary16, a flipped q16 rounding moves a score by <= 1/8 */
    double qcap = qk_scale > 0 ? fmin(8192, 16384 / qk_scale) : 8192;
    at_vals g;
    at_vals_init(&g, p, c, qk_scale, (int)bd, (int)nctx, qcap, 256, 256);
    for (int64_t p1 = 0; p1 < z * h; p1++) {
        int64_t qb = p1 / h * sq[0] + p1 % h * sq[1], kb = p1 / h * sk[0] + p1 % h * sk[1];
        for (int64_t m = 0; m < rows; m++)
            for (int64_t e = 0; e < bd; e++) td_set(c, M_Q, (size_t)(qb + m * sq[2] + e), at_q(&g, TD_F16, (int)p1, (int)m, (int)e));
        for (int64_t j = 0; j < nctx; j++)
            for (int64_t e = 0; e < bd; e++) {
                td_set(c, M_K, (size_t)(kb + j * sk[2] + e), at_k(&g, TD_F16, (int)p1, (int)j, (int)e));
                td_set(c, M_V, (size_t)(kb + j * sk[2] + e), at_v(&g, TD_F16));
            }
    }
    td_gen_mark_shape((uint64_t)nctx, (uint64_t)bm, (uint64_t)grid0, &c->classes);
    if (grid0 > 1 || z * h > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (sq[2] > bd || sk[2] > bd) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    c->classes |= TD_BC(TD_BC_MASK_PATTERN); /* causal blocks, unmasked columns, zero keys */
}

static int64_t msa_qbase(const td_case *c, int64_t p1) {
    return p1 / MI(c, M_H) * MI(c, M_SQZ) + p1 % MI(c, M_H) * MI(c, M_SQH);
}
static int64_t msa_kbase(const td_case *c, int64_t p1) {
    return p1 / MI(c, M_H) * MI(c, M_SKZ) + p1 % MI(c, M_H) * MI(c, M_SKH);
}

static const char *m_check_shapes(const td_case *c) {
    for (int i = 0; i < M_SCALE; i++)
        if (MI(c, i) < 0) return "parameters are Nat";
    if ((double)(float)c->p[M_SCALE].r != c->p[M_SCALE].r) return "sm_scale is the launch's binary32 scalar";
    if (MI(c, M_BN) < 16) return "hBN16: 16 <= BLOCK_N";
    if (MI(c, M_BN) != MSA_BN) return "the case fits the oracle's row model (BLOCK_N = 16: 8 blocks + 1 column block, 144 keys)";
    if (MI(c, M_SQK) != 1 || MI(c, M_SKK) != 1 || MI(c, M_SVK) != 1 || MI(c, M_SOK) != 1)
        return "hsqk / hskk / hsvk / hsok: unit last strides";
    if (MI(c, M_SVZ) != MI(c, M_SKZ) || MI(c, M_SVH) != MI(c, M_SKH)) return "hvz / hvh: V shares K's batch and head strides";
    int64_t bm = MI(c, M_BM), bd = MI(c, M_BD), nctx = MI(c, M_NCTX), h = MI(c, M_H), nr = MI(c, M_NR);
    if (bm <= 0 || bd <= 0 || h <= 0 || MI(c, M_Z) <= 0 || nctx <= 0) return "block sizes, Z, H, N_CTX > 0";
    if (bd > MI(c, M_SOM)) return "hBDsom: BLOCK_DMODEL <= stride_om";
    if (bd > AT_MAXD) return "BLOCK_DMODEL <= 64 (Lean's bound; the oracle's dot length)";
    if ((int64_t)c->grid[1] != MI(c, M_Z) * h || c->grid[1] > AT_MAXH) return "grid axis 1 = Z * H (off_hz)";
    if ((int64_t)c->grid[0] != (nctx + bm - 1) / bm || nr < (int64_t)c->grid[0]) return "grid axis 0 = cdiv(N_CTX, BLOCK_M) <= NUM_ROWS";
    int64_t rows = (int64_t)c->grid[0] * bm, tiles = (int64_t)c->grid[1] * nr;
    if ((int64_t)c->r[M_SEQ].len < MI(c, M_Z)) return "seqlens holds one length per batch";
    if ((int64_t)c->r[M_BCNT].len < tiles || (int64_t)c->r[M_CCNT].len < tiles)
        return "block_count and column_count hold Z * H * NUM_ROWS entries";
    for (int64_t p1 = 0; p1 < (int64_t)c->grid[1]; p1++) {
        int64_t qe = msa_qbase(c, p1) + (rows - 1) * MI(c, M_SQM) + bd, ke = msa_kbase(c, p1) + (nctx - 1) * MI(c, M_SKN) + bd;
        int64_t oe = msa_qbase(c, p1) + (rows - 1) * MI(c, M_SOM) + bd, ve = msa_kbase(c, p1) + (nctx - 1) * MI(c, M_SVN) + bd;
        if (qe > (int64_t)c->r[M_Q].len) return "Q holds every row of every tile (q loaded unmasked)";
        if (ke > (int64_t)c->r[M_K].len || ve > (int64_t)c->r[M_V].len) return "K and V hold N_CTX keys per head";
        if (oe > (int64_t)c->r[M_OUT].len) return "Out holds every row of every tile";
    }
    return NULL;
}

/* One program's metadata (hundef: the metadata indexes valid keys; hNCBN; the first block). */
static const char *m_check_tile(const td_case *c, int64_t p0, int64_t p1) {
    int64_t bm = MI(c, M_BM), nctx = MI(c, M_NCTX), t = p1 * MI(c, M_NR) + p0, ns = MI(c, M_NS), nv = MI(c, M_NV);
    double sl = td_get(c, M_SEQ, (size_t)(p1 / MI(c, M_H)));
    if (!(sl > (double)(p0 * bm)) || sl > (double)nctx) return "hactive: pid0 * BLOCK_M < seqlen <= N_CTX for every program";
    double nb = td_get(c, M_BCNT, (size_t)t), nc = td_get(c, M_CCNT, (size_t)t);
    if (!(nb >= 0) || !(nc >= 0)) return "block_count and column_count are Nat";
    if (nc > MSA_BN) return "hNCBN: column_count <= BLOCK_N";
    int64_t nbe = nb < MSA_NBLK ? (int64_t)nb : MSA_NBLK;
    for (int64_t b = 0; b < nbe; b++) {
        if (t * ns + b >= (int64_t)c->r[M_BOFF].len) return "block_offset holds the starts the 8 iterations load";
        double s = td_get(c, M_BOFF, (size_t)(t * ns + b));
        if (!(s >= 0) || s >= (double)nctx) return "block starts are keys below N_CTX";
        if (b == 0 && s > (double)(p0 * bm))
            return "the first block iteration holds a kept key for every active row (start <= pid0 * BLOCK_M): the "
                   "IEEE kernel's exp2(-inf - -inf) is NaN where Lean's WithBot step is a no-op";
    }
    if (nc > 0) {
        if (t * nv + MSA_BN > (int64_t)c->r[M_COLS].len) return "column_index holds the BLOCK_N indices the column phase loads";
        for (int64_t k = 0; k < (int64_t)nc; k++) {
            double col = td_get(c, M_COLS, (size_t)(t * nv + k));
            if (!(col >= 0) || col >= (double)nctx) return "hundef: column indices are keys below N_CTX";
        }
    }
    return NULL;
}

/* the elements in bytes [lo, hi) of region q->reg: finite (NaN: padding no lane reads,
 * poisoned), and q * qk_scale inside binary16 for Q */
typedef struct msa_vcheck {
    const td_case *c;
    int reg, bad;
    double qk;
} msa_vcheck;
static void msa_values_span(void *u, size_t lo, size_t hi) {
    msa_vcheck *q = u;
    unsigned eb = td_fmt_get(q->c->r[q->reg].fmt)->bytes;
    for (size_t i = lo / eb; i < hi / eb && i < q->c->r[q->reg].len && !q->bad; i++) {
        double x = td_get(q->c, q->reg, i);
        if (!isnan(x)) q->bad = !isfinite(x) || (q->reg == M_Q && fabs(x) * q->qk >= 65504);
    }
}

static const char *m_check(const td_case *c) {
    const char *e = m_check_shapes(c);
    if (e) return e;
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            if ((e = m_check_tile(c, p0, p1))) return e;
    /* finite tensors, and q * qk_scale inside binary16 (a masked key's score is then exactly 0);
     * of a sparse K or V (a far case) only the written pages (the others read as zeros) */
    double qk = fabs((double)((float)c->p[M_SCALE].r * 1.44269504f));
    for (int reg = M_Q; reg <= M_V; reg++) {
        msa_vcheck q = {c, reg, 0, qk};
        size_t bytes = c->r[reg].len * td_fmt_get(c->r[reg].fmt)->bytes;
        if (c->r[reg].mapped) td_touched_pages(c->r[reg].data, bytes, msa_values_span, &q);
        else msa_values_span(&q, 0, bytes);
        if (q.bad) return "finite Q, K, V; q * qk_scale inside binary16";
    }
    return NULL;
}

static void m_writes(const td_case *c, td_wset *ws) {
    int64_t bm = MI(c, M_BM), bd = MI(c, M_BD), h = MI(c, M_H);
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++) {
        int64_t sl = (int64_t)td_get(c, M_SEQ, p1 / (uint32_t)h);
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            for (int64_t i = 0; i < bm && (int64_t)p0 * bm + i < sl; i++)
                for (int64_t d = 0; d < bd; d++) {
                    int64_t row = (int64_t)p0 * bm + i, off = msa_qbase(c, p1) + row * MI(c, M_SOM) + d * MI(c, M_SOK);
                    td_olane l = {.region = M_OUT, .off = (uint64_t)off, .pid = {p0, p1, 0}, .j = (uint64_t)(i * bd + d),
                                  .idx = {p1, row, d, 0}};
                    td_wset_add(ws, &l);
                }
    }
}

/* The row of lane l as the kernel streams it: slots b * 16 + j of the 8 block iterations
 * (a used block's key start_n + j, kept iff causal; an unused one's masked zero key j,
 * kept iff j <= row), then slots 128 + c of the column block (key column_index[c], kept
 * iff c < num_cols). */
static void msa_row(const td_case *c, const td_olane *l, at_row *R) {
    int64_t p0 = (int64_t)l->pid[0], p1 = l->idx[0], row = l->idx[1], d = l->idx[2];
    int64_t t = p1 * MI(c, M_NR) + p0, kb = msa_kbase(c, p1), qb = msa_qbase(c, p1);
    int64_t nb = (int64_t)td_get(c, M_BCNT, (size_t)t), nc = (int64_t)td_get(c, M_CCNT, (size_t)t);
    at_row_init(R);
    R->key = ((uint64_t)p1 << 16) | (uint64_t)row;
    R->out = AT_OUT_O;
    R->score = AT_SC_FLASH;
    R->base2 = 1;
    R->norm = AT_NORM_END;
    R->q_reg = M_Q, R->k_reg = M_K, R->v_reg = M_V;
    R->nd = (int)MI(c, M_BD);
    for (int64_t e = 0; e < R->nd; e++) R->q_off[e] = qb + row * MI(c, M_SQM) + e;
    R->k_es = 1;
    R->bn = MSA_BN;
    R->nblk = MSA_NBLK + 1;
    R->nkeys = MSA_SLOTS;
    for (int64_t b = 0; b <= MSA_NBLK; b++) {
        R->blk_lo[b] = (int)(b * MSA_BN);
        int64_t start = b < nb && b < MSA_NBLK ? (int64_t)td_get(c, M_BOFF, (size_t)(t * MI(c, M_NS) + b)) : 0;
        for (int64_t j = 0; j < MSA_BN; j++) {
            int64_t s = b * MSA_BN + j, key;
            if (b == MSA_NBLK) {
                R->keep[s] = (uint8_t)(j < nc);
                key = j < nc ? (int64_t)td_get(c, M_COLS, (size_t)(t * MI(c, M_NV) + j)) : 0;
            } else {
                key = start + j;
                R->keep[s] = (uint8_t)(key <= row);
                R->zero[s] = (uint8_t)(b >= nb);
                if (b >= nb) key = 0;
            }
            R->k_off[s] = kb + key * MI(c, M_SKN);
            R->v_off[s] = kb + key * MI(c, M_SVN) + d;
        }
    }
    R->sm_scale = c->p[M_SCALE].r;
    R->lit = "1.44269504";
    R->c_q = MC_Q, R->c_p = MC_P, R->c_store = MC_STORE;
}

const td_contract td_c_mixed_sparse_attention_cf = {
    .id = "mixed_sparse_attention.mixed_sparse_attention_output_closed_form_summary_general",
    .file = "mixed_sparse_attention",
    .family = "attention",
    .io_class = "exec-existential over TileIndex [BM, BD] (writeIf active at outOffset)",
    .kind = "exact",
    .formula = "Out[row, d] = (sum_{b<8,j<BN} wB vB + sum_{c<num_cols} wC V[col_c, d]) / (sum wB + sum wC), wB = "
               "exp2(qk_scale q.k_{start_b+j}) if start_b+j <= row (b < num_blks) or exp2(0) if j <= row (b >= "
               "num_blks: masked zero key, vB = 0), wC = exp2(qk_scale q.k_{col_c}) (no causal mask)",
    .nparams = M_NP,
    .params = m_params,
    .nregions = M_NRG,
    .regions = m_regions,
    .ncasts = MC_N,
    .casts = m_casts,
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) |
               TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_VALUES_SPECIAL) |
               TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_IDX_REPEATS) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) |
               TD_BC(TD_BC_SEQ_ENDS_AT_END) | TD_BC(TD_BC_MASK_PATTERN) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = m_gen,
    .far = m_far,
    .check = m_check,
    .writes = m_writes,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs, q * qk_scale inside binary16; the first block iteration holds a kept key for every "
               "active row (see the header), so every denominator is >= 1 and nothing is 0/0 or NaN",
    .error_model = "online softmax in kernel order (attn_online_common.h): q16 cast, binary32 dot (gamma_{BD-1}), "
                   "masked zero keys exact, exp2 budget, tree row sums, fp16 P cast (any scale; any blocking), "
                   "acc*alpha + P.V, one division, fp16 store",
    TD_SPECS(msa_cf),
};
