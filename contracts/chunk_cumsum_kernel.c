/* chunk_cumsum_kernel (catalogue part 1, src lines 1893-1928)
 *
 *   chunk_cumsum_scalar_output_summary_general (S O T BT; hSO: O != S, hBT: 0 < BT):
 *     Realizes_without_Rounding, write O[pid0*T + i] for i < T,
 *     expected sum_{m < T, m <= i} S[pid0*T + m]  (inclusive prefix sum of row pid0).
 *   chunk_cumsum_scalar_io_correctness (R; S O NT BT; hSO, hBT):
 *     StreamEmitMasked2DKernelIO_1 (chunkCumsumKernelIO) ⊨[R] ccStreamSpec NT BT:
 *     T = ccNumChunks = cdiv(NT, BT) steps of BT lanes, read1 = write = p0*NT + t*BT + j,
 *     mask1 = writeMask = t*BT + j < NT, out(t)[j] = sum over the row's flat indices
 *     m <= t*BT + j, m < NT of xs (the global inclusive prefix sum, emitted per chunk).
 *
 * Checked against bench/tritonbench_g/chunk_cumsum_kernel (.py and ChunkCumsumKernel.lean):
 * chunk_global_cumsum_scalar_kernel, one program per batch*head row, walks the row in
 * chunks of BT, stores tl.cumsum(chunk) + b_z and carries b_z += tl.sum(chunk).
 * ccStreamSpec's double sum over (chunk u, lane e) with u*BT + e <= t*BT + j, < NT is the
 * flat inclusive prefix sum (the Lean file's ccGuardedSum_eq_flat), i.e. the same value as
 * the summary's Finset sum: both readings are the kernel's inclusive global cumsum (not a
 * per-chunk one, not an exclusive one).  The grid (B*H,) is the host's: the statements are
 * per program, the case's grid is rows programs.  hSO holds by construction (S and O are
 * distinct regions).
 *
 * Error model (any admissible implementation).  Every output O[i] of a prefix-sum
 * algorithm that only adds (a sequential scan, a chunked scan of any chunk size with the
 * carry added before or after the in-chunk scan, tl.cumsum's parallel-prefix network,
 * Hillis-Steele, Blelloch, tl.dot with a 0/1 triangle) is one binary tree of additions
 * over exactly its i+1 terms (masked lanes add exact zeros, exact).  A binary tree over
 * n leaves has depth <= n-1, so |O^[i] - O[i]| <= gamma_i sum_{m<=i} |S[m]| (Higham ASNA
 * (4.4), u = 2^-24 binary32): the spec is one N(acc) sum per lane, charged for any order
 * (oracle/shadow.h, td_sh_acc_end).  No kernel's order is assumed.  The io twin rounds the
 * binary32 prefix once to O's format: half an ulp of binary16 (cast slot "store").
 * What this catches: a carry missing, stale (one chunk's total instead of the running
 * one) or off by one term is an error of size |S[m]| or more; the carry kept in binary16
 * between chunks costs 2^-11 |carry|, beyond gamma_i sum|S| while i < 2^13 on rows whose
 * prefix is not cancelled.
 *
 * ⊨[R]: the IO class has no outDType (the lowered store is at the .real grid); the Python
 * host stores in s's dtype (z = empty_like(s, dtype=s.dtype)).  The summary is the binary32
 * launch (R = identity); the io twin is the binary16 launch of chunk_global_cumsum_scalar
 * on a half tensor: loads .to(tl.float32) (exact), binary32 arithmetic, the store rounds to
 * nearest even (fp16:rne:inf).
 *
 * Special values: none: inputs are finite and bounded so that every prefix sum is finite
 * in the output format (|S| <= 2^100 in binary32; sum_m |S[m]| <= 60000 per row in
 * binary16), so TD_SV_REAL.
 */
#include "gen.h"
#include "gen_large.h"

enum { P_T, P_BT, NP };
enum { R_S, R_O, NR };
enum { C_STORE };

#define TD_SPEC_FILE "chunk_cumsum_kernel.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_sum[NP] = {{"T", TD_P_INT}, {"BT", TD_P_INT}};
static const td_param_decl params_io[NP] = {{"NT", TD_P_INT}, {"BT", TD_P_INT}};
static const td_region_decl regions_f32[NR] = {{"S", TD_F32, TD_R_IN}, {"O", TD_F32, TD_R_OUT}};
static const td_region_decl regions_f16[NR] = {{"S", TD_F16, TD_R_IN}, {"O", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp16:rne:inf", "R.round of the stored prefix sum (a binary16 store)"}};

/* The row's sum of |S| that keeps every binary16 prefix finite (and away from 65504). */
#define CCS_F16_ROWMAG 60000.0

/* The shape classes of a row of T steps in chunks of BT: the chunk loop's (length 1, one
 * chunk exactly, one chunk + 1, several chunks: td_gen_mark_shape over the chunk count),
 * the grid's (one program, a single lane in all) and the scan's own (SEQ_*). */
static void ccs_mark(int64_t T, int64_t BT, int64_t rows, uint64_t *classes) {
    uint64_t shape = 0;
    td_gen_mark_shape((uint64_t)T, (uint64_t)BT, (uint64_t)((T + BT - 1) / BT), &shape);
    shape &= ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM));
    *classes |= shape;
    if (rows == 1) *classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (rows * T == 1) *classes |= TD_BC(TD_BC_SINGLE_LANE);
    if (T == 1) *classes |= TD_BC(TD_BC_SEQ_SINGLE);
    if (T + 1 >= BT && T <= BT + 1 && T > 1) *classes |= TD_BC(TD_BC_SEQ_BLOCK_EDGE);
}

static void gen(td_producer *p, td_case *c) {
    int64_t BT = td_gen_pow2(p, 0, 6);
    /* one case in 16 is a long row (up to 4097 steps, 64 chunks of 64) with a single
     * program, where the accumulated error and the carry over many chunks matter */
    int long_row = td_prod_u32(p, 0, 15) == 0;
    uint64_t ignored = 0;
    int64_t T = (int64_t)td_gen_count(p, (uint64_t)BT, long_row ? 4096 : 300, &ignored);
    int64_t rows = long_row ? 1 : (int64_t)td_prod_u32(p, 1, T > 64 ? 3 : 8);
    int64_t slack = td_prod_bool(p) ? BT : 0; /* a stray store past the last row lands in a cell */
    c->p[P_T].i = T;
    c->p[P_BT].i = BT;
    c->grid[0] = (uint32_t)rows;
    c->grid[1] = c->grid[2] = 1;
    td_case_alloc(c, R_S, (size_t)(rows * T));
    td_case_alloc(c, R_O, (size_t)(rows * T + slack));
    ccs_mark(T, BT, rows, &c->classes);
    int f16 = c->r[R_S].fmt == TD_F16;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, f16 ? CCS_F16_ROWMAG / (double)T : 0x1p100);
    td_vgen_fill(&g, c, R_S);
}

static const char *check(const td_case *c) {
    int64_t T = c->p[P_T].i, BT = c->p[P_BT].i, rows = c->grid[0];
    if (BT <= 0) return "hBT: 0 < BT";
    if (BT & (BT - 1)) return "BT a power of two (the block pointer's block shape)";
    if (T < 0) return "T : Nat";
    if (rows < 1 || c->grid[1] != 1 || c->grid[2] != 1) return "grid = (B*H,)";
    if (c->r[R_S].len < (size_t)(rows * T) || c->r[R_O].len < (size_t)(rows * T)) return "S and O hold B*H rows of T";
    /* (a large case: the rows of its windows; every other row reads 0) */
    for (uint64_t r = td_large_row_next(c, 0); r < (uint64_t)rows; r = td_large_row_next(c, r + 1)) {
        double mag = 0;
        for (int64_t m = 0; m < T; m++) {
            double x = td_get(c, R_S, (size_t)(r * (uint64_t)T + (uint64_t)m));
            if (!isfinite(x)) return "S holds real (finite) values";
            mag += fabs(x);
        }
        if (c->r[R_O].fmt == TD_F16 && mag > CCS_F16_ROWMAG) return "every prefix sum is finite in binary16";
    }
    return NULL;
}

/* One lane per in-row step: chunk t, lane j, flat index i = t*BT + j < T.  A large
 * case: the rows of its windows; the other rows' lanes only counted. */
static void writes(const td_case *c, td_wset *ws) {
    int64_t T = c->p[P_T].i, BT = c->p[P_BT].i;
    uint64_t seen = 0;
    for (uint64_t pid = td_large_row_next(c, 0); pid < c->grid[0]; pid = td_large_row_next(c, pid + 1), seen++)
        for (int64_t i = 0; i < T; i++) {
            td_olane l = {.o = 0, .region = R_O, .off = pid * (uint64_t)T + (uint64_t)i, .pid = {(uint32_t)pid, 0, 0},
                          .t = (uint32_t)(i / BT), .j = (uint64_t)(i % BT), .idx = {(int64_t)pid, i}};
            td_wset_add(ws, &l);
        }
    if (c->nwin) ws->dropped += (c->grid[0] - seen) * (uint64_t)T;
}

/* The large tier (gen_large.h, td_rows_large): more than 2^31 / T rows (B*H), so
 * s + i_bh * T passes 2^31 (i_bh is an int32 program id, T a constexpr: nothing in
 * the signature bounds B*H*T, and Lean's are Nat).  The row-blocks are rows of T in
 * S and O.  A row shorter than TD_ROWS_LARGE_MIN_LEN is lengthened to that many
 * steps, the new ones zero (finite, and the binary16 row sum of |S| unchanged). */
static void large(td_producer *p, td_case *c) {
    int64_t T0 = c->p[P_T].i, T = T0 < TD_ROWS_LARGE_MIN_LEN ? TD_ROWS_LARGE_MIN_LEN : T0, BT = c->p[P_BT].i;
    td_rows_region rr[2] = {{R_S, (uint64_t)T, (uint64_t)T0}, {R_O, (uint64_t)T, 0}};
    uint64_t R;
    if (td_rows_large(p, c, c->grid[0], rr, 2, &R) != 0) return;
    c->p[P_T].i = T;
    c->grid[0] = (uint32_t)R;
    if (T != T0) c->classes &= ~(TD_BCLASSES_TILED | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE));
    ccs_mark(T, BT, (int64_t)R, &c->classes);
}

#define CCS_CLASSES                                                                                            \
    (TD_BCLASSES_TILED | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE))
#define CCS_COMMON                                                                                             \
    .file = "chunk_cumsum_kernel", .family = "scan", .nparams = NP, .nregions = NR, .sv = TD_SV_REAL,          \
    .sv_note = "finite inputs bounded so that every prefix sum is finite in the output format",              \
    /* no .far: s and o are both addressed by i_bh * T + t (sizes only, no stride parameter): an \
     * offset >= 2^31 needs a dense output of 2^31 elements: the large tier's (`large`, rows of T) */ \
    .classes = CCS_CLASSES, .gen = gen, .large = large, .check = check, .writes = writes

static const td_intent intent = {
    .operation = "the inclusive cumulative sum of each row of s[B*H, T] along time",
    .definition = "torch.cumsum(s, dim=-1) (PyTorch documentation)",
    TD_SPECS(intent),
};
static const td_intent intent_io = {
    .operation = "the inclusive cumulative sum of each row of s[B*H, T] along time, stored in s's dtype",
    .definition = "torch.cumsum(s, dim=-1) (PyTorch documentation)",
    TD_SPECS(intent_io),
};

const td_contract td_c_ccs_summary = {
    .id = "chunk_cumsum_kernel.chunk_cumsum_scalar_output_summary_general",
    .io_class = "Realizes_without_Rounding (chunk_cumsum_scalar_surface)",
    .kind = "exact",
    .formula = "O[p*T + i] = sum_{m <= i} S[p*T + m], binary32 in and out",
    .params = params_sum,
    .regions = regions_f32,
    .error_model = "each prefix one sum of its i+1 terms in any order (any scan, chunking, carry placement)",
    CCS_COMMON,
    TD_SPECS(prefix),
    .intent = &intent,
};
const td_contract td_c_ccs_io = {
    .id = "chunk_cumsum_kernel.chunk_cumsum_scalar_io_correctness",
    .io_class = "StreamEmitMasked2DKernelIO_1 (chunkCumsumKernelIO)",
    .kind = "rounding",
    .formula = "O[p*NT + t*BT + j] = R.round(sum_{m <= t*BT + j} S[p*NT + m]), binary16 in and out",
    .params = params_io,
    .regions = regions_f16,
    .ncasts = 1,
    .casts = casts,
    .error_model = "the binary32 prefix sum in any order as in the summary, then the binary16 store cast",
    CCS_COMMON,
    TD_SPECS(prefix_io),
    .intent = &intent_io,
};
