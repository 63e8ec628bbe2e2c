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
#include "gen.h"
#include "gen_meta.h"

enum { E_H, E_SQZ, E_SQH, E_SOM, E_SOK, E_BM, E_BD, E_NP };
enum { E_ACC, E_L, E_SEQ, E_OUT, E_NR };

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
    for (size_t i = 0; i < c->r[E_ACC].len; i++)
        if (!(fabs(td_get(c, E_ACC, i)) <= 0x1p60)) return "|AccPre| <= 2^60 (finite quotients)";
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
               TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_SEQ_ENDS_AT_END),
    .gen = e_gen,
    .check = e_check,
    .writes = e_writes,
    .sv = TD_SV_REAL,
    .sv_note = "LPre nonzero on every stored row (Lean's x/0 = 0 avoided; unstored rows may hold 0); bounded "
               "magnitudes keep every quotient finite",
    .error_model = "one binary32 division (the backend's division model, or a * (1/b))",
    TD_SPECS(msa_epilogue),
};
