/* The generator, preconditions and write set of the rotary row-slice contracts
 * (rotary_row_common.h says what the slice is and why the generator draws what it does). */
#include "rotary_row_common.h"

#include <stdlib.h>

#include "gen_far.h"

#define RR_MAX_NB 4
#define RR_MAX_LEN 33

/* Strides of a [b, s, h, d] tensor laid out token-major (lay 0) or head-major (lay 1),
 * with padding after each head and each row; d_stride 1 or 2 (a strided view).  Returns
 * the number of elements spanned (0 when S == 0). */
static int64_t rr_layout(td_producer *p, int64_t S, int64_t nh, int64_t D, int64_t nb, int varlen, int64_t st[4],
                         uint64_t *classes) {
    int lay = (int)td_prod_u32(p, 0, 1);
    int64_t ds = td_prod_u32(p, 0, 3) == 0 ? 2 : 1;
    int64_t pad_h = td_prod_u32(p, 0, 2) == 0 ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    int64_t pad_s = td_prod_u32(p, 0, 2) == 0 ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    if (pad_h || pad_s || ds > 1) *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    st[3] = ds;
    if (lay == 0) {
        st[2] = D * ds + pad_h;  /* head */
        st[1] = nh * st[2] + pad_s; /* seq */
        st[0] = S * st[1];      /* batch */
    } else {
        st[1] = D * ds + pad_s;
        st[2] = S * st[1] + pad_h;
        st[0] = nh * st[2];
    }
    if (varlen) st[0] = 0; /* the wrapper passes 0: the kernel ignores it when IS_VARLEN */
    if (S == 0) return 0;
    return (varlen ? 0 : (nb - 1) * st[0]) + (S - 1) * st[1] + (nh - 1) * st[2] + (D - 1) * st[3] + 1;
}

/* cos / sin tables: row t holds the angles of position t (td_gen_rotary_table: real RoPE
 * frequencies, three bases), or general values (the statements hold for any table). */
static void rr_tables(td_vgen *g, td_producer *p, td_case *c, const rr_idx *ix, int64_t rows, int64_t rdh) {
    if (td_prod_u32(p, 0, 3) == 0 || rows <= 0) {
        td_vgen_fill(g, c, ix->r_cos);
        td_vgen_fill(g, c, ix->r_sin);
        return;
    }
    int64_t *pos = malloc((size_t)rows * sizeof *pos);
    double *cs = malloc((size_t)(rows * rdh) * sizeof *cs), *sn = malloc((size_t)(rows * rdh) * sizeof *sn);
    if (!pos || !cs || !sn) abort();
    for (int64_t t = 0; t < rows; t++) pos[t] = t;
    td_gen_rotary_table(p, pos, rows, rdh, cs, sn);
    for (int64_t k = 0; k < rows * rdh; k++) td_set(c, ix->r_cos, (size_t)k, cs[k]), td_set(c, ix->r_sin, (size_t)k, sn[k]);
    free(pos);
    free(cs);
    free(sn);
}

/* Classes of the sequence lengths against BLOCK_M (the row slice writes row pid0*BM). */
static void rr_mark_lens(const int64_t *lens, int nb, int64_t BM, uint32_t g0, uint64_t *classes) {
    int64_t active = 0;
    for (int b = 0; b < nb; b++) {
        int64_t L = lens[b], blocks = (L + BM - 1) / BM;
        active += blocks;
        if (L > 0 && L % BM == BM - 1 && BM > 1) *classes |= TD_BC(TD_BC_TAIL_BELOW);
        if (L > 0 && L % BM == 0) *classes |= TD_BC(TD_BC_EXACT_MULTIPLE);
        if (L > BM && L % BM == 1) *classes |= TD_BC(TD_BC_TAIL_ABOVE);
        if (blocks >= 2) *classes |= TD_BC(TD_BC_MULTI_TILE);
        if (blocks < (int64_t)g0) *classes |= TD_BC(TD_BC_FULLY_MASKED);
    }
    if (active == 1) *classes |= TD_BC(TD_BC_SINGLE_LANE);
}

/* seqlen_ro and SEQLEN_OFFSETS: the table's last row used exactly (with offset 0 both the
 * first and the last position are used), rows past the table (cos = 1, sin = 0), or a
 * longer table. */
static void rr_positions(td_producer *p, td_case *c, const rr_idx *ix, int64_t maxrow) {
    int64_t so = 0, sro;
    switch (td_prod_u32(p, 0, 2)) {
    case 0: so = 0; break;
    case 1: so = td_prod_u32(p, 1, 16); break;
    default: so = td_prod_u32(p, 17, 200); break;
    }
    int64_t fit = maxrow >= 0 ? maxrow + so + 1 : so;
    switch (td_prod_u32(p, 0, 3)) {
    case 0:
    case 1: sro = fit; break;
    case 2: sro = fit > 0 ? (int64_t)td_prod_u32(p, 0, (uint32_t)(fit - 1)) : 0; break;
    default: sro = fit + td_prod_u32(p, 1, 8); break;
    }
    if (maxrow >= 0 && sro == fit && so == 0) c->classes |= TD_BC(TD_BC_POS_EXTREME);
    if (maxrow >= 0 && sro < fit) c->classes |= TD_BC(TD_BC_META_EXTREME);
    c->p[ix->p0 + RR_SO].i = so;
    c->p[ix->p0 + RR_SRO].i = sro;
}

void td_rr_gen(td_producer *p, td_case *c, const rr_idx *ix) {
    int varlen = ix->p_varlen >= 0 ? td_prod_bool(p) : 0;
    int64_t BH = td_gen_pow2(p, 0, 5), BM = td_gen_pow2(p, 0, 3);
    int64_t rdh = BH + (td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 8) : 0);
    int64_t D = 2 * rdh + (td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 6) : 0);
    int nb = (int)td_prod_u32(p, 1, RR_MAX_NB);
    int64_t nh = td_prod_u32(p, 1, 3);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, RR_BOUND);
    int64_t lens[RR_MAX_NB], starts[RR_MAX_NB + 1], seqlen, S;
    if (varlen) {
        S = td_gen_ragged(p, &g.rng, lens, starts, nb, 0, RR_MAX_LEN, BM, &c->classes);
        seqlen = 0;
        for (int b = 0; b < nb; b++) seqlen = lens[b] > seqlen ? lens[b] : seqlen; /* max_seqlen */
    } else {
        uint64_t ignored = 0;
        seqlen = (int64_t)td_gen_count0(p, (uint64_t)BM, RR_MAX_LEN, &ignored, 1);
        S = seqlen;
        for (int b = 0; b < nb; b++) lens[b] = seqlen, starts[b] = b * seqlen;
        starts[nb] = nb * seqlen;
    }
    uint32_t g0 = (uint32_t)((seqlen + BM - 1) / BM) + (td_prod_u32(p, 0, 3) == 0 ? 1u : 0u);
    if (g0 == 0) g0 = 1;
    rr_mark_lens(lens, nb, BM, g0, &c->classes);
    int64_t sx[4], so[4];
    int64_t nx = rr_layout(p, S, nh, D, nb, varlen, sx, &c->classes);
    int64_t no = rr_layout(p, S, nh, D, nb, varlen, so, &c->classes);
    int64_t maxrow = seqlen > 0 ? ((seqlen - 1) / BM) * BM : -1;
    rr_positions(p, c, ix, maxrow);
    c->p[ix->p0 + RR_SEQLEN].i = seqlen, c->p[ix->p0 + RR_RDH].i = rdh;
    for (int k = 0; k < 4; k++) c->p[ix->p0 + RR_SOB + k].i = so[k], c->p[ix->p0 + RR_SXB + k].i = sx[k];
    c->p[ix->p0 + RR_BM].i = BM, c->p[ix->p0 + RR_BH].i = BH;
    if (ix->p_varlen >= 0) c->p[ix->p_varlen].i = varlen;
    c->grid[0] = g0, c->grid[1] = (uint32_t)nb, c->grid[2] = (uint32_t)nh;
    if (ix->p_head >= 0) c->p[ix->p_head].i = td_prod_u32(p, 0, (uint32_t)(nh - 1)), c->grid[2] = 1;
    if (c->grid[0] * c->grid[1] * c->grid[2] == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    size_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, 8) : 0;
    int64_t sro = c->p[ix->p0 + RR_SRO].i;
    td_case_alloc(c, ix->r_x, (size_t)(nx > 0 ? nx : 1) + slack);
    td_case_alloc(c, ix->r_out, (size_t)(no > 0 ? no : 1) + slack);
    td_case_alloc(c, ix->r_cos, (size_t)(sro > 0 ? sro * rdh : 1));
    td_case_alloc(c, ix->r_sin, (size_t)(sro > 0 ? sro * rdh : 1));
    if (ix->r_cu >= 0) {
        td_case_alloc(c, ix->r_cu, (size_t)nb + 1);
        for (int b = 0; b <= nb; b++) td_seti(c, ix->r_cu, (size_t)b, starts[b]);
    }
    td_vgen_fill(&g, c, ix->r_x);
    rr_tables(&g, p, c, ix, sro, rdh);
}

/* Largest offset a program reads or writes in a [.., d] region, for lanes j < BH of both
 * halves: base + rm*s_seq + (BH - 1 + rdh)*s_d. */
static int64_t rr_last(int64_t base, int64_t rm, int64_t ss, int64_t sd, int64_t BH, int64_t rdh) {
    return base + rm * ss + (BH - 1 + rdh) * sd;
}

static const char *rr_check_meta(const td_case *c, const rr_idx *ix) {
    if (c->grid[0] < 1 || c->grid[1] < 1 || c->grid[2] < 1) return "grid dimensions >= 1";
    if (ix->p_head >= 0 && (c->grid[2] != 1 || c->p[ix->p_head].i < 0)) return "grid = (row blocks, batch), HEAD_IDX : Nat";
    if (!rr_varlen(c, ix)) return NULL;
    if (c->r[ix->r_cu].len < (size_t)c->grid[1] + 1) return "CU_SEQLENS holds batch + 1 entries";
    for (uint32_t b = 0; b <= c->grid[1]; b++)
        if (td_geti(c, ix->r_cu, b) < 0 || (b && td_geti(c, ix->r_cu, b) < td_geti(c, ix->r_cu, b - 1)))
            return "CU_SEQLENS : Nat, nondecreasing (cu_seqlens of a ragged batch)";
    return NULL;
}

/* (of a sparse region, a far case's X, only the written pages: td_region_abs_le) */
static const char *rr_check_values(const td_case *c, int reg) {
    return td_region_abs_le(c, reg, RR_BOUND) ? NULL : "finite values, |x|, |cos|, |sin| <= 2^60 (products stay finite)";
}

const char *td_rr_check(const td_case *c, const rr_idx *ix) {
    int64_t BM = rr_p(c, ix, RR_BM), BH = rr_p(c, ix, RR_BH), rdh = rr_p(c, ix, RR_RDH);
    int64_t so = rr_p(c, ix, RR_SO), sro = rr_p(c, ix, RR_SRO);
    if (BM < 1 || BH < 1) return "BLOCK_M, BLOCK_HALF > 0 (tl.arange)";
    if (BH > rdh) return "hHalfBound: BLOCK_HALF <= rotary_dim_half";
    if (rr_p(c, ix, RR_SOD) == 0) return "hStrideHd: stride_out_headdim != 0";
    for (int k = RR_SO; k <= RR_BH; k++)
        if (rr_p(c, ix, k) < 0) return "parameters : Nat";
    const char *e = rr_check_meta(c, ix);
    if (e) return e;
    for (uint32_t b = 0; b < c->grid[1]; b++)
        for (uint32_t h = 0; h < c->grid[2]; h++) {
            rr_seq s = rr_seq_of(c, ix, b, h);
            for (uint32_t m = 0; m < c->grid[0]; m++) {
                int64_t rm = (int64_t)m * BM;
                if (rm >= s.len) continue;
                if (rr_last(s.xb, rm, rr_p(c, ix, RR_SXS), rr_p(c, ix, RR_SXD), BH, rdh) >= (int64_t)c->r[ix->r_x].len ||
                    rr_last(s.ob, rm, rr_p(c, ix, RR_SOS), rr_p(c, ix, RR_SOD), BH, rdh) >= (int64_t)c->r[ix->r_out].len)
                    return "X and OUT hold every active lane";
                if (rm + so < sro && ((rm + so) * rdh + BH > (int64_t)c->r[ix->r_cos].len ||
                                      (rm + so) * rdh + BH > (int64_t)c->r[ix->r_sin].len))
                    return "COS and SIN hold seqlen_ro rows of rotary_dim_half";
            }
        }
    if ((e = rr_check_values(c, ix->r_x)) || (e = rr_check_values(c, ix->r_cos)) || (e = rr_check_values(c, ix->r_sin)))
        return e;
    return NULL;
}

void td_rr_writes(const td_case *c, td_wset *ws, const rr_idx *ix) {
    int64_t BM = rr_p(c, ix, RR_BM), BH = rr_p(c, ix, RR_BH), rdh = rr_p(c, ix, RR_RDH);
    int64_t sos = rr_p(c, ix, RR_SOS), sod = rr_p(c, ix, RR_SOD);
    for (uint32_t b = 0; b < c->grid[1]; b++)
        for (uint32_t h = 0; h < c->grid[2]; h++) {
            rr_seq s = rr_seq_of(c, ix, b, h);
            for (uint32_t m = 0; m < c->grid[0]; m++) {
                int64_t rm = (int64_t)m * BM;
                if (rm >= s.len) continue; /* writeMask: rm < seqlen (j < rdh holds: BH <= rdh) */
                for (uint32_t o = 0; o < 2; o++)
                    for (int64_t j = 0; j < BH; j++) {
                        td_olane l = {.o = o,
                                      .region = (uint32_t)ix->r_out,
                                      .off = (uint64_t)(s.ob + rm * sos + (j + (o ? rdh : 0)) * sod),
                                      .pid = {m, b, h},
                                      .j = (uint64_t)j,
                                      .idx = {m, b, h, j}};
                        td_wset_add(ws, &l);
                    }
            }
        }
}

void td_rr_intent_writes(const td_case *c, td_wset *ws, const rr_idx *ix) {
    int64_t BM = rr_p(c, ix, RR_BM), rdh = rr_p(c, ix, RR_RDH);
    int64_t sos = rr_p(c, ix, RR_SOS), sod = rr_p(c, ix, RR_SOD);
    for (uint32_t b = 0; b < c->grid[1]; b++)
        for (uint32_t h = 0; h < c->grid[2]; h++) {
            rr_seq s = rr_seq_of(c, ix, b, h);
            for (int64_t r = 0; r < s.len; r++)
                for (uint32_t o = 0; o < 2; o++)
                    for (int64_t j = 0; j < rdh; j++) {
                        td_olane l = {.o = o,
                                      .region = (uint32_t)ix->r_out,
                                      .off = (uint64_t)(s.ob + r * sos + (j + (o ? rdh : 0)) * sod),
                                      .pid = {(uint32_t)(r / BM), b, h},
                                      .j = (uint64_t)((r % BM) * rdh + j),
                                      .idx = {r / BM, b, h, j}};
                        td_wset_add(ws, &l);
                    }
        }
}

const char *td_rr_intent_gap(const td_case *c, const rr_idx *ix) {
    int64_t so = rr_p(c, ix, RR_SO), sro = rr_p(c, ix, RR_SRO);
    for (uint32_t b = 0; b < c->grid[1]; b++) {
        rr_seq s = rr_seq_of(c, ix, b, 0);
        if (s.len > 0 && s.len - 1 + so >= sro)
            return "a row's position (row + SEQLEN_OFFSETS) is past the seqlen_ro rows of the cos/sin tables (flash-attn "
                   "asserts seqlen_offsets + seqlen <= seqlen_ro; the kernel's masked table loads rotate by angle 0)";
    }
    return NULL;
}

void td_rr_far(td_producer *p, td_case *c, const rr_idx *ix) {
    int64_t nb = c->grid[1], S = rr_p(c, ix, RR_SEQLEN), rdh = rr_p(c, ix, RR_RDH);
    int64_t nh = ix->p_head >= 0 ? c->p[ix->p_head].i + 1 : (int64_t)c->grid[2];
    if (rr_varlen(c, ix) || nb < 2 || nb > TD_FAR_MAX_ROWS || S < 1 || rdh < 1) return;
    /* one batch's span of X: every row, head and rotated column a program of it reads */
    int64_t w = (S - 1) * rr_p(c, ix, RR_SXS) + (nh - 1) * rr_p(c, ix, RR_SXH) + (2 * rdh - 1) * rr_p(c, ix, RR_SXD) + 1;
    int reg = ix->r_x, stride = ix->p0 + RR_SXB;
    if (rr_p(c, ix, RR_SXB) < w) return; /* batches interleave with the rest (not from td_rr_gen) */
    if (td_far_rows_n(p, c, 1, &reg, &stride, nb, &w)) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}
