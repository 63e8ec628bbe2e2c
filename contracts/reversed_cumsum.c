/* reversed_cumsum: fla's chunk_global_reversed_cumsum_vector (catalogue part 2).
 *
 *   reversed_cumsum_output_summary_general (SReg Z) (s_s_h s_s_t s_s_d T S BT BS)
 *     (hNoCollision : singleBlockTileOffset injective on the active lanes):
 *     (1) the reverse-traversal surface lowers; (2) the single-block surface writes
 *     reversedCumsumClosed = sum_{i <= k < T, k < BT} S[i_bh*s_s_h + k*s_s_t + col*s_s_d]
 *     at singleBlockTileOffset = i_bh*s_s_h + i*s_s_t + col*s_s_d, col = i_s*BS + j,
 *     active iff i < T and col < S.
 *   reversed_cumsum_block_store_io_correctness (BC Z) (hOutInj : per program injective):
 *     Masked3DTileKernelIO_1, Z[..] = BC[..] over the [BT, BS] tile of program
 *     (p0, p1, p2) at p1*s_s_h + (p2*BT + r)*s_s_t + (p0*BS + c)*s_s_d, mask
 *     p2*BT + r < T and p0*BS + c < S: a copy of the precomputed reversed-cumsum tile.
 *   reversed_cumsum_block_store_io_correctnessR (R): the same ⊨[R, .real].
 *
 * Checked against the kernel (bench/tritonbench_g/reversed_cumsum/reversed_cumsum.py, the
 * Lean's ReversedCumsum.lean): grid (cdiv(S, BS), B*H); the chunks from the last to the
 * first; b_c = b_z + tl.dot(m_s, b_s) with m_s[i, k] = [i <= k] (inclusive: the element
 * itself counted), stored, THEN b_z += tl.sum(b_s, 0) (`if i_t >= 0` always holds): b_z
 * holds the sum of the later chunks.  The full result is z[t, col] = sum_{t <= k < T}
 * s[k, col].  reversedCumsumClosed is that sum truncated to k < BT: for T <= BT (the
 * docstring's "single-chunk shape") it is the suffix sum; for T > BT it describes the
 * single-block surface, not the kernel's launch.  The contract tests the full surface (1),
 * i.e. the .py's launch, against the global suffix sum for every T: with one chunk that is
 * (2) itself; with several it is the composition the surface's carried b_z makes, where
 * the family's bugs live.  z = torch.empty_like(s) has s's strides: one set of strides for
 * both regions, as the kernel's signature has.  The slices copy BC to Z; R.round .real of
 * the binary32 Z is the binary32 store, exact on binary32 data.
 *
 * Error model (contracts/revcumsum_common.spec.h): the exact suffix sum; an admissible kernel
 * sums the suffix in any order and chunking (this kernel: the carried b_z of the later
 * chunks plus the triangular tl.dot of exact 0/1 weights, allow_tf32=False) or subtracts a
 * prefix from a total (the scalar sibling's form, any chunk size); the tolerance is the
 * larger.  Special values: finite binary32 inputs, |s| <= 2^100, T <= 4096 (TD_SV_REAL).
 */
#include <stdlib.h>

#include "gen.h"
#include "gen_far.h"
#include "gen_meta.h"

enum { P_SH, P_ST, P_SD, P_T, P_S, P_BT, P_BS, NP };
enum { R_S, R_Z, NR };
enum { C_STORE };

#define TD_SPEC_FILE "reversed_cumsum.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"s_s_h", TD_P_INT}, {"s_s_t", TD_P_INT}, {"s_s_d", TD_P_INT},
                                         {"T", TD_P_INT},     {"S", TD_P_INT},     {"BT", TD_P_INT},
                                         {"BS", TD_P_INT}};
static const td_region_decl regions[NR] = {{"s", TD_F32, TD_R_IN}, {"z", TD_F32, TD_R_OUT}};
static const td_region_decl regions_slice[NR] = {{"BC", TD_F32, TD_R_IN}, {"Z", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round .real of the binary32 store into Z"}};

#define RCV_MAX_T 4096
#define RCV_MAX_LANES 1024 /* BH * S above it only for long rows: a lane costs O(T) in the spec */

static void rcv_shape(td_producer *p, td_case *c, int slice) {
    int64_t BT = td_gen_pow2(p, 0, 6), BS = td_gen_pow2(p, 0, 5);
    int longrow = td_prod_u32(p, 0, 31) == 0; /* 1 case in 32: up to 4096 steps */
    uint64_t cls = 0;
    int64_t T = (int64_t)td_gen_count(p, (uint64_t)BT, longrow ? RCV_MAX_T : (uint64_t)(4 * BT + 1), &cls);
    int64_t S = T > 256 ? td_prod_u32(p, 1, 2) : td_prod_u32(p, 1, (uint32_t)(2 * BS + 1));
    int64_t BH = T > 256 ? 1 : td_prod_u32(p, 1, 2);
    int64_t ns = (S + BS - 1) / BS, chunks = (T + BT - 1) / BT;
    c->classes |= cls & ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM));
    if (T == 1) c->classes |= TD_BC(TD_BC_SEQ_SINGLE);
    if (T == BT - 1 || T == BT || T == BT + 1) c->classes |= TD_BC(TD_BC_SEQ_BLOCK_EDGE);
    if (T == 1 && S == 1 && BH == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    if (ns == 1 && BH == 1 && (!slice || chunks == 1)) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    int64_t n[3] = {BH, T, S}, st[3];
    int64_t span = td_gen_layout(p, 3, n, st, 1, &c->classes);
    c->p[P_SH].i = st[0], c->p[P_ST].i = st[1], c->p[P_SD].i = st[2];
    c->p[P_T].i = T, c->p[P_S].i = S, c->p[P_BT].i = BT, c->p[P_BS].i = BS;
    c->grid[0] = (uint32_t)ns, c->grid[1] = (uint32_t)BH, c->grid[2] = slice ? (uint32_t)chunks : 1;
    td_case_alloc(c, R_S, (size_t)span);
    td_case_alloc(c, R_Z, (size_t)span);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, R_S);
}
static void gen(td_producer *p, td_case *c) { rcv_shape(p, c, 0); }
static void gen_slice(td_producer *p, td_case *c) { rcv_shape(p, c, 1); }

/* Offsets beyond 2^31 (gen_far.h): the B*H heads (grid axis 1, at most 2 here) of s at
 * a head stride s_s_h near 2^31, as the kernel forming s + i_bh * s_s_h in int32
 * (program_id times an int32 stride: Triton's default) gets wrong.  s is moved by
 * td_far_move_param_axis (whatever order td_gen_layout nested the axes in: time and
 * feature then packed under the head), z shares s's strides, so z becomes a sparse
 * output of s's extent at those strides (engine/harness.c judges it over the pages of
 * its write set). */
static void rcv_far(td_producer *p, td_case *c) {
    const int64_t n[3] = {c->grid[1], c->p[P_T].i, c->p[P_S].i};
    const int ps[3] = {P_SH, P_ST, P_SD};
    if (!td_far_move_param_axis(p, c, R_S, 3, n, ps, 0)) return;
    td_region old = c->r[R_Z];
    c->r[R_Z].data = NULL, c->r[R_Z].mapped = 0, c->r[R_Z].len = 0;
    if (td_case_alloc_sparse(c, R_Z, c->r[R_S].len)) {
        td_region_release(&old);
        return;
    }
    /* no address space for z: one head, its lanes (packed now, under T * S) inside the
     * dense z; the case valid, not far */
    c->r[R_Z] = old;
    c->grid[1] = 1;
    c->classes &= ~TD_BC(TD_BC_OFFSET_2_31);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}
static uint64_t rcv_off(const td_case *c, int64_t bh, int64_t t, int64_t col) {
    return (uint64_t)(bh * c->p[P_SH].i + t * c->p[P_ST].i + col * c->p[P_SD].i);
}

static const char *rcv_check(const td_case *c, int slice) {
    int64_t T = c->p[P_T].i, S = c->p[P_S].i, BT = c->p[P_BT].i, BS = c->p[P_BS].i;
    if (BT < 1 || (BT & (BT - 1)) || BS < 1 || (BS & (BS - 1))) return "BT, BS : constexpr blocks (powers of two)";
    if (T < 1 || T > RCV_MAX_T || S < 1) return "1 <= T <= 4096, S >= 1 (the generator's domain)";
    if (c->p[P_SH].i < 0 || c->p[P_ST].i < 0 || c->p[P_SD].i < 0) return "s_s_h, s_s_t, s_s_d : Nat";
    if (c->grid[0] != (uint32_t)((S + BS - 1) / BS) || c->grid[1] < 1 ||
        c->grid[2] != (slice ? (uint32_t)((T + BT - 1) / BT) : 1u))
        return slice ? "grid (cdiv(S, BS), B*H, cdiv(T, BT))" : "grid (cdiv(S, BS), B*H)";
    size_t n = (size_t)c->grid[1] * (size_t)T * (size_t)S, k = 0;
    uint64_t *o = malloc(n * sizeof *o);
    if (!o) return "internal: out of memory checking hNoCollision";
    for (int64_t bh = 0; bh < (int64_t)c->grid[1]; bh++)
        for (int64_t t = 0; t < T; t++)
            for (int64_t col = 0; col < S; col++) o[k++] = rcv_off(c, bh, t, col);
    qsort(o, n, sizeof *o, cmp_u64);
    const char *why = NULL;
    for (k = 1; k < n && !why; k++)
        if (o[k] == o[k - 1]) why = "hNoCollision / hOutInj: the lane offsets are injective (every program)";
    if (!why && (o[n - 1] >= c->r[R_S].len || o[n - 1] >= c->r[R_Z].len)) why = "every lane inside s and z";
    for (k = 0; k < n && !why; k++)
        if (!(fabs(td_get(c, R_S, o[k])) <= 0x1p100)) why = "|s| <= 2^100 (finite partial sums)";
    free(o);
    return why;
}
static const char *check(const td_case *c) { return rcv_check(c, 0); }
static const char *check_slice(const td_case *c) { return rcv_check(c, 1); }

static void rcv_writes(const td_case *c, td_wset *ws, int slice) {
    int64_t T = c->p[P_T].i, S = c->p[P_S].i, BT = c->p[P_BT].i, BS = c->p[P_BS].i;
    for (int64_t bh = 0; bh < (int64_t)c->grid[1]; bh++)
        for (int64_t t = 0; t < T; t++)
            for (int64_t col = 0; col < S; col++) {
                td_olane l = {.region = R_Z, .off = rcv_off(c, bh, t, col),
                              .pid = {(uint32_t)(col / BS), (uint32_t)bh, slice ? (uint32_t)(t / BT) : 0},
                              .j = (uint64_t)((slice ? t % BT : t) * BS + col % BS), .idx = {bh, t, col}};
                td_wset_add(ws, &l);
            }
}
static void writes(const td_case *c, td_wset *ws) { rcv_writes(c, ws, 0); }
static void writes_slice(const td_case *c, td_wset *ws) { rcv_writes(c, ws, 1); }

#define RCV_CLASSES                                                                                           \
    (TD_BCLASSES_TILED | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_STRIDE_GT_ROW) |     \
     TD_BC(TD_BC_OFFSET_2_31))
#define RCV_COMMON                                                                                            \
    .file = "reversed_cumsum", .family = "scan", .nparams = NP, .params = params, .nregions = NR,              \
    .sv = TD_SV_REAL, .classes = RCV_CLASSES,                                                                  \
    .sv_note = "finite inputs, |s| <= 2^100, T <= 4096: every partial sum is finite; no division, no log"

static const td_intent intent = {
    .operation = "reversed inclusive cumulative sum along T of each (b, h, column)",
    .definition = "torch.flip(torch.cumsum(torch.flip(s, [2]), 2), [2]) (PyTorch documentation)",
    TD_SPECS(rcv_intent),
};

const td_contract td_c_reversed_cumsum = {
    .id = "reversed_cumsum.reversed_cumsum_output_summary_general",
    .io_class = "ComputeCorrect over TileIndex [BT, BS] + lowering; the whole launch, grid (cdiv(S, BS), B*H)",
    .kind = "exact",
    .formula = "z[bh, t, col] = sum_{t <= k < T} s[bh, k, col]",
    .error_model = "suffix sum in any order or chunking, or a total minus a prefix (any chunk)",
    RCV_COMMON,
    .regions = regions,
    .far = rcv_far,
    .gen = gen, .check = check, .writes = writes,
    TD_SPECS(rcv),
    .intent = &intent,
};

const td_contract td_c_reversed_cumsum_store = {
    .id = "reversed_cumsum.reversed_cumsum_block_store_io_correctness",
    .io_class = "Masked3DTileKernelIO_1, grid (cdiv(S, BS), B*H, cdiv(T, BT))",
    .kind = "exact",
    .formula = "Z[p1*s_s_h + (p2*BT+r)*s_s_t + (p0*BS+c)*s_s_d] = BC[same], p2*BT+r < T, p0*BS+c < S",
    .error_model = "a copy of binary32 data: exact (tolerance 0)",
    RCV_COMMON,
    .regions = regions_slice,
    .far = rcv_far,
    .gen = gen_slice, .check = check_slice, .writes = writes_slice,
    TD_SPECS(rcv_copy),
};

const td_contract td_c_reversed_cumsum_store_r = {
    .id = "reversed_cumsum.reversed_cumsum_block_store_io_correctnessR",
    .io_class = "Masked3DTileKernelIO_1 ⊨[R, .real], grid (cdiv(S, BS), B*H, cdiv(T, BT))",
    .kind = "rounding",
    .formula = "Z[..] = R.round(.real)(BC[..]); R = the binary32 store",
    .error_model = "a copy then the binary32 store cast of a binary32 value: exact (tolerance 0)",
    .ncasts = 1,
    .casts = casts,
    RCV_COMMON,
    .regions = regions_slice,
    .far = rcv_far,
    .gen = gen_slice, .check = check_slice, .writes = writes_slice,
    TD_SPECS(rcv_copy_r),
};
