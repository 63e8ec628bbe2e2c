/* reversed_cumsum_scalar: fla's chunk_global_reversed_cumsum_scalar (catalogue part 2).
 *
 *   reversed_cumsum_scalar_output_summary_general (S Carry O) (T BT) (hT : T <= BT)
 *     (hOutInj : i -> singleBlockVecOffset s T i injective):
 *     (1) the reverse-traversal surface lowers; (2) single chunk: O[i_bh*T + i] =
 *     singleBlockRevClosed = sum_{i <= k < T} S[i_bh*T + k] for i < T; (3) chunk face: for
 *     every state whose Carry[pid0] holds sum_{pid1*BT <= k < T} S[pid0*T + k] (b_z after
 *     `b_z += b_zz`), one chunk iteration stores globalRevCumsumClosed, the same suffix sum,
 *     at vecOffset = pid0*T + pid1*BT + i, i active iff pid1*BT + i < T.
 *   reversed_cumsum_scalar_vec_store_io_correctness (BO O) (T BT) (hOutInj : forall p0 p1,
 *     i -> p0*T + (p1*BT + i) injective): vecStoreIO ⊨ xs i, Masked3DTileKernelIO_1,
 *     read = write = p0*T + p1*BT + i, mask p1*BT + i < T: a copy of the precomputed tile BO.
 *   reversed_cumsum_scalar_vec_store_io_correctnessR (R): the same ⊨[R, .real].
 *
 * Checked against the kernel (bench/tritonbench_g/reversed_cumsum_scalar/.py and the
 * Lean's ReversedCumsumScalar.lean): one program per row i_bh (grid (B*H,)), rows of T
 * contiguous elements at i_bh*T; the chunks visited from the last to the first, b_z the
 * running suffix total (b_z += tl.sum(b_s) BEFORE the chunk's output), then
 * b_o = b_s - tl.cumsum(b_s) + b_z: inclusive, O[t] = sum_{k >= t} S[k] (the element t
 * itself included: the .py's b_s - cumsum_incl + b_z = b_z - cumsum_excl).  The Lean's
 * singleBlockRevClosed and globalRevCumsumClosed are exactly that suffix sum (their
 * Finset filters: flat >= i, flat < T).  Checked.
 *
 * What the summary contract tests: the whole launch of the .py for every T, not only
 * T <= BT.  hT restricts face (2); for T > BT the statement's faces (1) and (3) with the
 * carry threaded from chunk c to c-1 by the loop (the file's "trusted runtime boundary")
 * give the same closed form, and that composition is what a caller relies on and where the
 * family's bugs live (a carry not threaded, a carry from the wrong chunk).  Carry is the
 * Lean's materialisation of the b_z register, not a buffer of the kernel: the contract has
 * the kernel's two regions s and o.  The slices copy BO to O; R.round .real of the
 * binary32 O is the binary32 store, exact on binary32 data (the Lean: cast-free).
 *
 * Error model (contracts/revcumsum_common.spec.h): the exact suffix sum; an admissible
 * kernel may sum the suffix in any order and chunking (gamma_{T-t-1} sum_{k>=t} |S_k|) or
 * subtract a prefix from a total, as this kernel does (gamma_{T+t+1} (sum_k |S_k| +
 * sum_{k<=t} |S_k| + |S_t|), every chunk size included); the tolerance is the larger.
 * Special values: finite binary32 inputs with |S| <= 2^100 and T <= 4096: every partial
 * sum stays below 2^113, far from overflow (TD_SV_REAL).
 */
#include "gen.h"
#include "gen_large.h"

enum { P_T, P_BT, NP };
enum { R_S, R_O, NR };
enum { C_STORE };

#define TD_SPEC_FILE "reversed_cumsum_scalar.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"T", TD_P_INT}, {"BT", TD_P_INT}};
static const td_region_decl regions[NR] = {{"s", TD_F32, TD_R_IN}, {"o", TD_F32, TD_R_OUT}};
static const td_region_decl regions_slice[NR] = {{"BO", TD_F32, TD_R_IN}, {"O", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round .real of the binary32 store into O"}};

#define RCSS_MAX_T 4096
#define RCSS_ROWS_T 256 /* above this length one row only (a lane costs O(T) in the spec) */

/* T from the boundary classes of a chunked scan: length 1, one chunk exactly, one chunk
 * +- 1, many chunks (BT down to 1); up to RCSS_MAX_T in 1 case of 32, else up to 4 chunks
 * of BT + 1 (a lane costs O(T) in the spec: the per-case cost stays small on average). */
static void rcss_shape(td_producer *p, td_case *c, int slice) {
    int64_t BT = td_gen_pow2(p, 0, 6);
    int longrow = td_prod_u32(p, 0, 31) == 0; /* 1 case in 32: up to 4096 steps */
    uint64_t cls = 0;
    int64_t T = (int64_t)td_gen_count(p, (uint64_t)BT, longrow ? RCSS_MAX_T : (uint64_t)(4 * BT + 1), &cls);
    int64_t rows = T > RCSS_ROWS_T ? 1 : td_prod_u32(p, 1, 3);
    int64_t chunks = (T + BT - 1) / BT;
    c->classes |= cls & ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM));
    if (T == 1) c->classes |= TD_BC(TD_BC_SEQ_SINGLE);
    if (T == BT - 1 || T == BT || T == BT + 1) c->classes |= TD_BC(TD_BC_SEQ_BLOCK_EDGE);
    if (T == 1 && rows == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    c->p[P_T].i = T;
    c->p[P_BT].i = BT;
    c->grid[0] = (uint32_t)rows;
    c->grid[1] = slice ? (uint32_t)chunks : 1;
    c->grid[2] = 1;
    if (rows == 1 && (slice ? chunks : 1) == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    td_case_alloc(c, R_S, (size_t)(rows * T));
    td_case_alloc(c, R_O, (size_t)(rows * T));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, R_S);
}

static void gen(td_producer *p, td_case *c) { rcss_shape(p, c, 0); }
static void gen_slice(td_producer *p, td_case *c) { rcss_shape(p, c, 1); }

static const char *rcss_check(const td_case *c, int slice) {
    int64_t T = c->p[P_T].i, BT = c->p[P_BT].i;
    if (BT < 1 || (BT & (BT - 1))) return "BT : constexpr block (tl.arange: a power of two >= 1)";
    if (T < 1 || T > RCSS_MAX_T) return "T in [1, 4096] (the generator's domain: partial sums stay finite)";
    if (c->grid[0] < 1 || c->grid[2] != 1) return "grid (B*H, ...)";
    if (slice ? c->grid[1] != (uint32_t)((T + BT - 1) / BT) : c->grid[1] != 1)
        return slice ? "grid (B*H, cdiv(T, BT)): every chunk stored" : "grid (B*H,)";
    /* hOutInj: p0*T + p1*BT + i is injective in i for every p0, p1 (always), and the rows of
     * T elements fit the regions */
    size_t need = (size_t)c->grid[0] * (size_t)T;
    if (c->r[R_S].len < need || c->r[R_O].len < need) return "every row of T elements inside s and o";
    /* (a large case: its window rows; every other element reads 0) */
    for (uint64_t k = td_large_next(c, R_S, 0); k < need; k = td_large_next(c, R_S, k + 1))
        if (!(fabs(td_get(c, R_S, (size_t)k)) <= 0x1p100)) return "|s| <= 2^100 (finite partial sums)";
    return NULL;
}
static const char *check(const td_case *c) { return rcss_check(c, 0); }
static const char *check_slice(const td_case *c) { return rcss_check(c, 1); }

/* every lane (row, t), t < T; in the slices the lane of program (row, t / BT).  A large
 * case: the rows of its windows; the other rows' lanes only counted. */
static void rcss_writes(const td_case *c, td_wset *ws, int slice) {
    int64_t T = c->p[P_T].i, BT = c->p[P_BT].i;
    uint64_t seen = 0;
    for (uint64_t row = td_large_row_next(c, 0); row < c->grid[0]; row = td_large_row_next(c, row + 1), seen++)
        for (int64_t t = 0; t < T; t++) {
            td_olane l = {.region = R_O, .off = row * (uint64_t)T + (uint64_t)t,
                          .pid = {(uint32_t)row, slice ? (uint32_t)(t / BT) : 0, 0},
                          .j = (uint64_t)(slice ? t % BT : t), .idx = {(int64_t)row, t}};
            td_wset_add(ws, &l);
        }
    if (c->nwin) ws->dropped += (c->grid[0] - seen) * (uint64_t)T;
}

/* The large tier (gen_large.h, td_rows_large): more than 2^31 / T rows (B*H), so
 * s + i_bh * T passes 2^31 (i_bh an int32 program id, T a constexpr: nothing in the
 * signature bounds B*H*T; Lean's are Nat).  The row-blocks are rows of T in both
 * regions.  A row shorter than TD_ROWS_LARGE_MIN_LEN is lengthened to that many steps,
 * the new ones zero (T stays within the generator's 4096). */
static void rcss_large(td_producer *p, td_case *c, int slice) {
    int64_t T0 = c->p[P_T].i, T = T0 < TD_ROWS_LARGE_MIN_LEN ? TD_ROWS_LARGE_MIN_LEN : T0, BT = c->p[P_BT].i;
    td_rows_region rr[2] = {{R_S, (uint64_t)T, (uint64_t)T0}, {R_O, (uint64_t)T, 0}};
    uint64_t R;
    if (td_rows_large(p, c, c->grid[0], rr, 2, &R) != 0) return;
    c->p[P_T].i = T;
    c->grid[0] = (uint32_t)R;
    if (slice) c->grid[1] = (uint32_t)((T + BT - 1) / BT);
    if (T != T0) c->classes &= ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE));
}
static void large(td_producer *p, td_case *c) { rcss_large(p, c, 0); }
static void large_slice(td_producer *p, td_case *c) { rcss_large(p, c, 1); }
static void writes(const td_case *c, td_wset *ws) { rcss_writes(c, ws, 0); }
static void writes_slice(const td_case *c, td_wset *ws) { rcss_writes(c, ws, 1); }

#define RCSS_CLASSES                                                                                          \
    (TD_BCLASSES_TILED | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE))
#define RCSS_COMMON                                                                                           \
    .file = "reversed_cumsum_scalar", .family = "scan", .nparams = NP, .params = params, .nregions = NR,       \
    .sv = TD_SV_REAL, .classes = RCSS_CLASSES,                                                                 \
    .sv_note = "finite inputs, |s| <= 2^100, T <= 4096: every partial sum is finite; no division, no log"

static const td_intent intent = {
    .operation = "reversed inclusive cumulative sum of each row along T",
    .definition = "torch.flip(torch.cumsum(torch.flip(s, [-1]), -1), [-1]) (PyTorch documentation)",
    TD_SPECS(rcss_intent),
};

const td_contract td_c_reversed_cumsum_scalar = {
    .id = "reversed_cumsum_scalar.reversed_cumsum_scalar_output_summary_general",
    .io_class = "ComputeCorrect over Fin BT + lowering; the whole launch, grid (B*H,)",
    .kind = "exact",
    .formula = "o[row*T + t] = sum_{t <= k < T} s[row*T + k]",
    .error_model = "suffix sum in any order or chunking, or a total minus a prefix (the kernel's form, any chunk)",
    RCSS_COMMON,
    .regions = regions,
    /* no .far: s and o are both addressed by i_bh * T + t (sizes only, no stride parameter): an
     * offset >= 2^31 needs a dense output of 2^31 elements: the large tier's (`large`, rows of T) */
    .gen = gen, .large = large, .check = check, .writes = writes,
    TD_SPECS(rcss),
    .intent = &intent,
};

const td_contract td_c_reversed_cumsum_scalar_store = {
    .id = "reversed_cumsum_scalar.reversed_cumsum_scalar_vec_store_io_correctness",
    .io_class = "Masked3DTileKernelIO_1 (vecStoreIO), grid (B*H, cdiv(T, BT))",
    .kind = "exact",
    .formula = "O[p0*T + p1*BT + i] = BO[p0*T + p1*BT + i], p1*BT + i < T",
    .error_model = "a copy of binary32 data: exact (tolerance 0)",
    RCSS_COMMON,
    .regions = regions_slice,
    /* no .far: s and o are both addressed by i_bh * T + t (sizes only, no stride parameter): an
     * offset >= 2^31 needs a dense output of 2^31 elements: the large tier's (`large`, rows of T) */
    .gen = gen_slice, .large = large_slice, .check = check_slice,
    .writes = writes_slice,
    TD_SPECS(rcss_copy),
};

const td_contract td_c_reversed_cumsum_scalar_store_r = {
    .id = "reversed_cumsum_scalar.reversed_cumsum_scalar_vec_store_io_correctnessR",
    .io_class = "Masked3DTileKernelIO_1 (vecStoreIO) ⊨[R, .real], grid (B*H, cdiv(T, BT))",
    .kind = "rounding",
    .formula = "O[p0*T + p1*BT + i] = R.round(.real)(BO[p0*T + p1*BT + i]); R = the binary32 store",
    .error_model = "a copy then the binary32 store cast of a binary32 value: exact (tolerance 0)",
    .ncasts = 1,
    .casts = casts,
    RCSS_COMMON,
    .regions = regions_slice,
    /* no .far: s and o are both addressed by i_bh * T + t (sizes only, no stride parameter): an
     * offset >= 2^31 needs a dense output of 2^31 elements: the large tier's (`large`, rows of T) */
    .gen = gen_slice, .large = large_slice, .check = check_slice,
    .writes = writes_slice,
    TD_SPECS(rcss_copy_r),
};
