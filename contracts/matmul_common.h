/* Shared pieces of the matmul family's contracts (matmul_kernel, matmul_triton1/2,
 * matmul_triton_autotune, matmul_leakyrelu(_fp8), matmul_tma, triton_matmul,
 * iv_dependent_matmul, batched_vecmat_mult, matrix_vector_multip, bmm_chunk_fwd/bwd,
 * bmm_optimized, triton_linear_activation).
 *
 * A contract file includes this header (the generator helpers); its spec file
 * includes matmul_common.spec.h (the K-loop accumulator, once per number type).
 *
 * The error model every GEMM contract of the family shares (see mm_kloop): the host
 * kernels (kernels/host/matmul_tl.h) and the CUDA ports (kernels/cuda/matmul_tlc.cuh)
 * evaluate one output lane as
 *     acc = seed (0 or a bias);  for t < T: acc = acc + tree_sum_{e < BK} a[t*BK+e] * b[t*BK+e]
 * in binary32: every product one rounding (exact for fp16 / fp8 operands, whose
 * products fit in 24 bits), the BK-lane tile summed by a pairwise tree (Triton's
 * tl.sum; masked lanes hold 0, which adds exactly), the T tile sums added to the
 * accumulator one after the other.  The shadow therefore charges each tile
 * gamma_{log2 BK} * sum|a_k b_k| (TD_ORDER_TREE over the BK lanes) and the loop
 * gamma_{T-1 (+1 with a seed)} * sum over the tiles (TD_ORDER_SEQ): Higham, ASNA
 * 2nd ed., section 4.2 (pairwise and recursive summation), applied level by level.
 * A kernel that sums a tile in another order (a sequential MMA chain, a tensor core
 * with truncating alignment) is outside this model and must declare its own.
 */
#ifndef TD_MATMUL_COMMON_H
#define TD_MATMUL_COMMON_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_far.h"

static inline int64_t mm_cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static inline int64_t mm_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t mm_max(int64_t a, int64_t b) { return a > b ? a : b; }

/* The grouped ("GROUP_SIZE_M") program order of the Triton matmul tutorial.
 *   MM_SWZ_TUTORIAL: pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
 *   MM_SWZ_SIMPLE:   pid_m = first_pid_m + pid % group_size_m   (triton_matmul,
 *                    matmul_triton2, kernel_fma: also a bijection on the grid)
 *   pid_n = (pid % num_pid_in_group) // group_size_m in both.
 * For pids inside the launch grid (pid < cdiv(M,BM) * cdiv(N,BN)) group_size_m >= 1. */
enum { MM_SWZ_TUTORIAL = 0, MM_SWZ_SIMPLE = 1 };
static inline void mm_swizzle(int64_t pid, int64_t M, int64_t N, int64_t BM, int64_t BN, int64_t GM, int variant,
                              int64_t *pm, int64_t *pn) {
    int64_t nm = mm_cdiv(M, BM), nn = mm_cdiv(N, BN), nig = GM * nn;
    int64_t gid = pid / nig, fpm = gid * GM;
    int64_t gsm = nm - fpm < GM ? nm - fpm : GM;
    if (gsm < 1) gsm = 1; /* outside the grid only */
    *pm = fpm + (variant == MM_SWZ_TUTORIAL ? (pid % nig) % gsm : pid % gsm);
    *pn = (pid % nig) / gsm;
}

/* How a kernel turns a global row (column) into the row of A (column of B) it loads. */
enum { MM_IDX_RAW = 0, MM_IDX_WRAP, MM_IDX_CLAMP };
static inline int64_t mm_index(int64_t g, int64_t bound, int mode) {
    switch (mode) {
    case MM_IDX_WRAP: return g % bound;            /* offs % M (the tutorial's wrap) */
    case MM_IDX_CLAMP: return g < bound ? g : 0;   /* tl.where(offs < M, offs, 0) (clampIdx) */
    default: return g;
    }
}

/* A 2-D GEMM launch: C[M,N] = A[M,K] B[K,N] with element strides. */
typedef struct mm_shape {
    int64_t M, N, K;
    int64_t BM, BN, BK, T, GM;
    int64_t sam, sak, sbk, sbn, scm, scn;
} mm_shape;

/* Where each field of mm_shape sits in a contract's parameter list (-1: not a
 * parameter: K = BK*T, GM = 1, strides fixed by the contract). */
enum { MMF_M, MMF_N, MMF_K, MMF_BM, MMF_BN, MMF_BK, MMF_T, MMF_GM, MMF_SAM, MMF_SAK, MMF_SBK, MMF_SBN, MMF_SCM,
       MMF_SCN, MMF_COUNT };
static inline int64_t *mm_field(mm_shape *s, int f) {
    int64_t *v[MMF_COUNT] = {&s->M,  &s->N,   &s->K,   &s->BM,  &s->BN,  &s->BK,  &s->T,
                             &s->GM, &s->sam, &s->sak, &s->sbk, &s->sbn, &s->scm, &s->scn};
    return v[f];
}
static inline void mm_shape_get(const td_case *c, const int *pmap, mm_shape *s) {
    memset(s, 0, sizeof *s);
    s->GM = 1;
    for (int f = 0; f < MMF_COUNT; f++)
        if (pmap[f] >= 0) *mm_field(s, f) = c->p[pmap[f]].i;
    if (pmap[MMF_K] < 0) s->K = s->BK * s->T;
    if (pmap[MMF_T] < 0 && s->BK > 0) s->T = mm_cdiv(s->K, s->BK);
}
static inline void mm_shape_put(td_case *c, const int *pmap, mm_shape *s) {
    for (int f = 0; f < MMF_COUNT; f++)
        if (pmap[f] >= 0) c->p[pmap[f]].i = *mm_field(s, f);
}

/* Generator options for mm_gen_shape. */
typedef struct mm_shape_opts {
    int bm_lo, bm_hi, bn_lo, bn_hi, bk_lo, bk_hi; /* log2 ranges of the block sizes */
    int64_t max_mn;   /* M, N <= max_mn */
    int interior;     /* every tile inside the matrix: M % BM == 0 and N % BN == 0 */
    int k_tail;       /* K may be any value in ((T-1)*BK, T*BK] (else K = BK*T) */
    int max_T;        /* number of K blocks */
    int c_any;        /* C may be column-major (scm = 1); else scn = 1 and scm >= max(N, BN) */
    int group;        /* draw GROUP_SIZE_M (else 1) */
    int64_t work;     /* cap on M*N*K (keeps a case's oracle work small) */
} mm_shape_opts;

/* Draws block sizes, the matrix extents (favouring tails, one program, blocks much
 * larger than the matrix), K, GROUP_M and strides: A and B row- or column-major,
 * sometimes with padding (strides larger than the row), C row-major with a row
 * stride >= max(N, BN) (or column-major where allowed).  arows / bcols: the rows of A
 * and columns of B the kernel reads (M, or up to the last tile for unwrapped loads).
 * Marks the boundary classes. */
static inline void mm_gen_shape(td_producer *p, td_case *c, const mm_shape_opts *o, int raw_rows, mm_shape *s) {
    s->BM = td_gen_pow2(p, o->bm_lo, o->bm_hi);
    s->BN = td_gen_pow2(p, o->bn_lo, o->bn_hi);
    s->BK = td_gen_pow2(p, o->bk_lo, o->bk_hi);
    uint64_t cls = 0;
    if (o->interior) {
        s->M = s->BM * td_prod_u32(p, 1, (uint32_t)mm_max(1, o->max_mn / s->BM));
        s->N = s->BN * td_prod_u32(p, 1, (uint32_t)mm_max(1, o->max_mn / s->BN));
        cls |= TD_BC(TD_BC_EXACT_MULTIPLE);
    } else {
        s->M = (int64_t)td_gen_count(p, (uint64_t)s->BM, (uint64_t)o->max_mn, &cls);
        s->N = (int64_t)td_gen_count(p, (uint64_t)s->BN, (uint64_t)o->max_mn, &cls);
    }
    s->T = td_prod_u32(p, 1, (uint32_t)o->max_T);
    /* bound the per-case work M*N*K by shortening the K loop */
    while (s->T > 1 && s->M * s->N * s->BK * s->T > o->work) s->T--;
    s->K = s->BK * s->T;
    if (o->k_tail && td_prod_bool(p)) {
        s->K = (s->T - 1) * s->BK + td_prod_u32(p, 1, (uint32_t)s->BK);
        if (s->K % s->BK) cls |= TD_BC(TD_BC_TAIL);
    }
    if (s->T > 1) cls |= TD_BC(TD_BC_MULTI_TILE);
    s->GM = o->group ? td_prod_u32(p, 1, 4) : 1;
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 5) : 0;
    if (pad) cls |= TD_BC(TD_BC_STRIDE_GT_ROW);
    int64_t arows = raw_rows ? mm_cdiv(s->M, s->BM) * s->BM : s->M;
    int64_t bcols = raw_rows ? mm_cdiv(s->N, s->BN) * s->BN : s->N;
    int64_t kext = s->T * s->BK;
    if (td_prod_u32(p, 0, 3) == 0) s->sam = 1, s->sak = arows + pad; /* column-major A */
    else s->sam = kext + pad, s->sak = 1;
    if (td_prod_u32(p, 0, 3) == 0) s->sbk = 1, s->sbn = kext + pad; /* column-major B (B^T stored) */
    else s->sbk = bcols + pad, s->sbn = 1;
    if (o->c_any && td_prod_u32(p, 0, 3) == 0) s->scm = 1, s->scn = mm_max(s->M, s->BM) + pad;
    else s->scm = mm_max(s->N, s->BN) + pad, s->scn = 1;
    int64_t nprog = mm_cdiv(s->M, s->BM) * mm_cdiv(s->N, s->BN);
    td_gen_mark_shape((uint64_t)(s->M * s->N), (uint64_t)(s->BM * s->BN), (uint64_t)nprog, &cls);
    c->classes |= cls;
}

/* Number of elements a strided 2-D view [rows, cols] spans (0 if empty). */
static inline size_t mm_span(int64_t rows, int64_t cols, int64_t srow, int64_t scol) {
    if (rows <= 0 || cols <= 0) return 0;
    return (size_t)((rows - 1) * srow + (cols - 1) * scol + 1);
}

/* Value menus for the family: the bound keeps products and K-sums finite in binary32
 * and lets fp16 outputs reach their overflow threshold now and then. */
static inline double mm_pick_bound(td_producer *p, td_fmt f) {
    static const unsigned w[4] = {4, 3, 2, 1};
    int k = td_prod_pick(p, w, 4);
    switch (f) {
    case TD_F16: { static const double b[4] = {1, 16, 256, 65504}; return b[k]; }
    case TD_BF16: { static const double b[4] = {1, 16, 0x1p20, 0x1p40}; return b[k]; }
    case TD_E4M3FN: { static const double b[4] = {1, 16, 64, 448}; return b[k]; }
    case TD_E5M2: { static const double b[4] = {1, 16, 256, 57344}; return b[k]; }
    default: { static const double b[4] = {1, 64, 0x1p20, 0x1p40}; return b[k]; }
    }
}

/* Fills the cells of a strided 2-D view [rows, cols] of region reg (other cells stay 0). */
static inline void mm_fill_view(td_vgen *g, td_case *c, int reg, int64_t rows, int64_t cols, int64_t srow,
                                int64_t scol) {
    double v[256]; /* a row's values drawn in bulk, in the order one by one would draw them */
    for (int64_t r = 0; r < rows; r++)
        for (int64_t k0 = 0; k0 < cols; k0 += 256) {
            size_t m = (size_t)(cols - k0 < 256 ? cols - k0 : 256);
            td_vgen_values(g, c->r[reg].fmt, v, m);
            if (scol == 1) {
                td_set_array(c, reg, (size_t)(r * srow + k0), v, m);
                continue;
            }
            for (size_t i = 0; i < m; i++) td_set(c, reg, (size_t)(r * srow + (k0 + (int64_t)i) * scol), v[i]);
        }
}

/* i*sm + j*sn injective on [0,BM) x [0,BN) (the hInj / hOutInj hypotheses): a direct
 * check over the tile. */
static inline int mm_tile_injective(int64_t BM, int64_t BN, int64_t sm, int64_t sn) {
    if (BM <= 0 || BN <= 0) return 1;
    int64_t span = (BM - 1) * sm + (BN - 1) * sn + 1;
    uint8_t *seen;
    if (span > (1 << 26) || !(seen = calloc((size_t)span, 1))) return 0;
    int ok = 1;
    for (int64_t i = 0; i < BM && ok; i++)
        for (int64_t j = 0; j < BN && ok; j++) {
            int64_t o = i * sm + j * sn;
            if (seen[o]) ok = 0;
            seen[o] = 1;
        }
    free(seen);
    return ok;
}


/* The absorption input: the hard case of a narrow output format.  Lanes k = 0, 1, 2 of
 * every row / column hold a big product, a small one and the big one negated (every
 * other A entry is 0), so the exact result is the small product while the binary32
 * accumulator, whose first addition big + small loses the small term's low bits, may
 * land on the other side of a rounding boundary of the output format.  The values
 * per operand format keep the small product below half an ulp of the big one. */
static inline double mm_snap(td_fmt f, double x) {
    td_profile pr = {f, TD_RNE, TD_OVF_SAT, false};
    return td_decode(f, td_encode_f64(pr, x));
}
static inline void mm_absorb_at(td_vgen *g, td_case *c, int ra, int rb, int64_t a0, int64_t b0, int64_t arows,
                                int64_t bcols, int64_t K, int64_t sam, int64_t sak, int64_t sbk, int64_t sbn) {
    td_fmt fa = c->r[ra].fmt, fb = c->r[rb].fmt;
    double abig, bbig, asmall, bsmall;
    switch (fa) {
    case TD_E4M3FN: abig = 0x1p8, bbig = 0x1p8, asmall = 0x1p-4, bsmall = 0x1p-6; break;
    case TD_F16: abig = 0x1p8, bbig = 0x1p14, asmall = 0x1p-4, bsmall = 0x1p-4; break;
    default: abig = 0x1p20, bbig = 0x1p20, asmall = 1, bsmall = 1; break;
    }
    for (int64_t r = 0; r < arows; r++)
        for (int64_t k = 0; k < K; k++)
            td_set(c, ra, (size_t)(a0 + r * sam + k * sak), k == 0 || k == 2 ? abig : k == 1 ? asmall : 0.0);
    for (int64_t j = 0; j < bcols; j++) {
        double big = mm_snap(fb, bbig * (1 + 0.75 * td_rng_unit(&g->rng)));
        double small = mm_snap(fb, bsmall * (1 + 7 * td_rng_unit(&g->rng)));
        if (td_rng_next(&g->rng) & 1) small = -small;
        if (K > 0) td_set(c, rb, (size_t)(b0 + 0 * sbk + j * sbn), big);
        if (K > 1) td_set(c, rb, (size_t)(b0 + 1 * sbk + j * sbn), small);
        if (K > 2) td_set(c, rb, (size_t)(b0 + 2 * sbk + j * sbn), -big);
    }
    c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
}
static inline void mm_absorb(td_vgen *g, td_case *c, int ra, int rb, int64_t arows, int64_t bcols, int64_t K,
                             int64_t sam, int64_t sak, int64_t sbk, int64_t sbn) {
    mm_absorb_at(g, c, ra, rb, 0, 0, arows, bcols, K, sam, sak, sbk, sbn);
}

/* ---- the 2-D grouped GEMM launch (one program per [BM, BN] output tile) ---- */
enum { MM_SWZ_ROWMAJOR = 2 }; /* pid_m = pid // cdiv(N, BN), pid_n = pid % cdiv(N, BN) */
typedef struct mm_2d {
    int swz;              /* MM_SWZ_TUTORIAL, MM_SWZ_SIMPLE or MM_SWZ_ROWMAJOR */
    int rowmode, colmode; /* MM_IDX_*: the row of A / column of B a tile lane loads */
    int ra, rb, rc;       /* regions */
} mm_2d;

static inline void mm_pids(const mm_shape *s, int swz, int64_t pid, int64_t *pm, int64_t *pn) {
    if (swz == MM_SWZ_ROWMAJOR) {
        int64_t nn = mm_cdiv(s->N, s->BN);
        *pm = pid / nn, *pn = pid % nn;
    } else
        mm_swizzle(pid, s->M, s->N, s->BM, s->BN, s->GM, swz, pm, pn);
}
static inline int64_t mm_arows(const mm_shape *s, const mm_2d *d) {
    return d->rowmode == MM_IDX_RAW ? mm_cdiv(s->M, s->BM) * s->BM : s->M;
}
static inline int64_t mm_bcols(const mm_shape *s, const mm_2d *d) {
    return d->colmode == MM_IDX_RAW ? mm_cdiv(s->N, s->BN) * s->BN : s->N;
}

static inline void mm_fill_2d(td_producer *p, td_case *c, const int *pmap, const mm_2d *d, mm_shape *s);

/* Shape, parameters, grid, regions and values of a 2-D launch.  fa: the operands'
 * format (value menu bound). */
static inline void mm_gen_2d(td_producer *p, td_case *c, const int *pmap, const mm_shape_opts *o, const mm_2d *d,
                             mm_shape *s) {
    mm_gen_shape(p, c, o, d->rowmode == MM_IDX_RAW, s);
    mm_fill_2d(p, c, pmap, d, s);
}

/* A production shape (certify --shape production; engine/sample.c's table): M, N, K =
 * d[0..2], BM = BN = d[3], BK = d[4], GROUP_M = d[5]; row-major A, B and C.  K is
 * rounded up to a multiple of BK where the contract needs K = BK * numKBlocks. */
static inline void mm_gen_2d_shape(td_producer *p, td_case *c, const int *pmap, const mm_2d *d,
                                   const td_shape *ps, int k_multiple, mm_shape *s) {
    memset(s, 0, sizeof *s);
    s->M = ps->d[0], s->N = ps->d[1], s->BM = s->BN = ps->d[3], s->BK = ps->d[4], s->GM = ps->d[5];
    s->T = mm_cdiv(ps->d[2], s->BK);
    s->K = k_multiple ? s->T * s->BK : ps->d[2];
    s->sam = s->T * s->BK, s->sak = 1, s->sbk = mm_bcols(s, d), s->sbn = 1, s->scm = mm_max(s->N, s->BN), s->scn = 1;
    uint64_t cls = 0;
    td_gen_mark_shape((uint64_t)(s->M * s->N), (uint64_t)(s->BM * s->BN),
                      (uint64_t)(mm_cdiv(s->M, s->BM) * mm_cdiv(s->N, s->BN)), &cls);
    c->classes |= cls | (s->T > 1 ? TD_BC(TD_BC_MULTI_TILE) : 0);
    mm_fill_2d(p, c, pmap, d, s);
}

/* Parameters, grid, regions and values of a 2-D launch of shape s. */
static inline void mm_fill_2d(td_producer *p, td_case *c, const int *pmap, const mm_2d *d, mm_shape *s) {
    mm_shape_put(c, pmap, s);
    c->grid[0] = (uint32_t)(mm_cdiv(s->M, s->BM) * mm_cdiv(s->N, s->BN));
    int64_t arows = mm_arows(s, d), bcols = mm_bcols(s, d);
    td_case_alloc(c, d->ra, mm_span(arows, s->K, s->sam, s->sak));
    td_case_alloc(c, d->rb, mm_span(s->K, bcols, s->sbk, s->sbn));
    td_case_alloc(c, d->rc, mm_span(s->M, s->N, s->scm, s->scn) + (td_prod_bool(p) ? (size_t)s->BN : 0));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, c->r[d->ra].fmt));
    mm_fill_view(&g, c, d->ra, arows, s->K, s->sam, s->sak);
    mm_fill_view(&g, c, d->rb, s->K, bcols, s->sbk, s->sbn);
    if (s->K >= 3 && td_prod_u32(p, 0, 5) == 0)
        mm_absorb(&g, c, d->ra, d->rb, arows, bcols, s->K, s->sam, s->sak, s->sbk, s->sbn);
}

/* Offsets beyond 2^31 (gen_far.h): A's first rows (M cut to TD_FAR_MAX_ROWS, the grid
 * recounted) at a stride_am near 2^31 over a sparse region, as a kernel forming
 * offs_am[:, None] * stride_am in int32 gets wrong.  Only where A is read row by row
 * (rows clamped or wrapped to M, not raw tile rows: those would reserve a tile's rows of
 * 2^31 elements) and row-major (stride_am at least one row's extent). */
static inline void mm_far_2d(td_producer *p, td_case *c, const int *pmap, const mm_2d *d) {
    mm_shape s;
    mm_shape_get(c, pmap, &s);
    int64_t w = (s.K - 1) * s.sak + 1; /* one row of A */
    if (d->rowmode == MM_IDX_RAW || s.M < 2 || s.K <= 0 || s.sam < w) return;
    int64_t R = s.M < TD_FAR_MAX_ROWS ? s.M : TD_FAR_MAX_ROWS, to = td_far_stride(p, R, w);
    if (td_far_restride(c, d->ra, R, w, s.sam, to)) return;
    s.M = R, s.sam = to;
    mm_shape_put(c, pmap, &s);
    c->grid[0] = (uint32_t)(mm_cdiv(s.M, s.BM) * mm_cdiv(s.N, s.BN));
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* Offsets beyond 2^31 for launches whose tiles read all BLOCK_M rows (raw tile rows, or
 * interior tiles: M % BM == 0): one row of tiles (M cut to min(M, BM), the grid
 * recounted), its A rows (BM raw rows, else M) at td_far_tile_stride over a sparse
 * region: 16 to 64 rows, the last one 2^31 elements in, the address space about 2^31
 * elements whatever the count (mm_far_2d's TD_FAR_MAX_ROWS rows cannot form a tile of
 * BM >= 16 rows).  Only a row-major A (stride_am at least one row's extent). */
static inline void mm_far_tile(td_producer *p, td_case *c, const int *pmap, const mm_2d *d) {
    mm_shape s;
    mm_shape_get(c, pmap, &s);
    int64_t w = (s.K - 1) * s.sak + 1; /* one row of A */
    if (s.K <= 0 || s.sam < w || s.M < 1 || s.BM < 2) return;
    int64_t old_rows = mm_arows(&s, d);
    s.M = mm_min(s.M, s.BM);
    int64_t R = mm_arows(&s, d);
    if (R < 2 || R > old_rows) return;
    int64_t to = td_far_tile_stride(p, R, w);
    if (td_far_restride(c, d->ra, R, w, s.sam, to)) return;
    s.sam = to;
    mm_shape_put(c, pmap, &s);
    c->grid[0] = (uint32_t)mm_cdiv(s.N, s.BN);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* The preconditions every 2-D launch shares (Nat parameters, a launchable grid,
 * regions that hold the read and write windows, a C layout whose active cells are
 * distinct across programs). */
static inline const char *mm_check_2d(const td_case *c, const int *pmap, const mm_2d *d, mm_shape *s) {
    mm_shape_get(c, pmap, s);
    for (int f = 0; f < MMF_COUNT; f++)
        if (pmap[f] >= 0 && c->p[pmap[f]].i < 0) return "parameters are Nat";
    if (s->BM <= 0 || s->BN <= 0 || s->GM <= 0 || s->M <= 0 || s->N <= 0) return "BM, BN, GROUP_M, M, N > 0 (a launchable grid)";
    if ((int64_t)c->grid[0] != mm_cdiv(s->M, s->BM) * mm_cdiv(s->N, s->BN) || c->grid[1] != 1 || c->grid[2] != 1)
        return "grid = cdiv(M, BM) * cdiv(N, BN) programs";
    if (c->r[d->ra].len < mm_span(mm_arows(s, d), s->K, s->sam, s->sak)) return "A holds read1's window";
    if (c->r[d->rb].len < mm_span(s->K, mm_bcols(s, d), s->sbk, s->sbn)) return "B holds read2's window";
    if (c->r[d->rc].len < mm_span(s->M, s->N, s->scm, s->scn)) return "C holds the write window";
    if (!((s->scn == 1 && s->scm >= s->N) || (s->scm == 1 && s->scn >= s->M)))
        return "C's layout keeps the programs' writes apart (row stride >= N)";
    return NULL;
}

/* One lane per active (row < M, col < N) cell of every program's tile; idx = (A offset
 * of the lane's row at k = 0, B offset of its column, row, col). */
static inline void mm_writes_2d(const td_case *c, td_wset *ws, const mm_shape *s, const mm_2d *d) {
    for (uint32_t pid = 0; pid < c->grid[0]; pid++) {
        int64_t pm, pn;
        mm_pids(s, d->swz, pid, &pm, &pn);
        for (int64_t i = 0; i < s->BM; i++)
            for (int64_t j = 0; j < s->BN; j++) {
                int64_t row = pm * s->BM + i, col = pn * s->BN + j;
                if (!(row < s->M && col < s->N)) continue; /* writeMask */
                int64_t ar = mm_index(row, s->M, d->rowmode), bc = mm_index(col, s->N, d->colmode);
                td_olane l = {.region = (uint32_t)d->rc, .off = (uint64_t)(row * s->scm + col * s->scn),
                              .pid = {pid, 0, 0}, .j = (uint64_t)(i * s->BN + j),
                              .idx = {ar * s->sam, bc * s->sbn, row, col}};
                td_wset_add(ws, &l);
            }
    }
}

#endif /* TD_MATMUL_COMMON_H */
