/* Offsets beyond 2^31: the far tier (gen_far.h). */
#include "gen_far.h"

#include <stdio.h>
#include <string.h>

int td_far_tier(const uint8_t *data, size_t size) {
    return size >= TD_FAR_MAGIC_LEN && !memcmp(data, TD_FAR_MAGIC, TD_FAR_MAGIC_LEN);
}

int64_t td_far_stride(td_producer *p, int64_t rows, int64_t w) {
    const int64_t two31 = (int64_t)1 << 31;
    int64_t d = (int64_t)td_prod_u32(p, 0, 64);
    int64_t s;
    if (rows <= 2 || td_prod_bool(p)) s = two31 + d;
    else s = (two31 + d + rows - 2) / (rows - 1); /* ceil: (rows - 1) * s >= 2^31 + d */
    return s < w ? w : s;
}

int64_t td_far_tile_stride(td_producer *p, int64_t rows, int64_t w) {
    const int64_t two31 = (int64_t)1 << 31;
    int64_t d = (int64_t)td_prod_u32(p, 0, 64);
    int64_t s = rows < 2 ? two31 + d : (two31 + d + rows - 2) / (rows - 1); /* ceil */
    return s < w ? w : s;
}

int td_far_grid2(td_producer *p, td_case *c, int reg, int in0, int in1, int out0, int out1, int64_t row) {
    int swap = c->grid[0] == 1 && c->grid[1] >= 2;
    int64_t R = swap ? c->grid[1] : c->grid[0], from = c->p[swap ? in1 : in0].i;
    int64_t w = (swap ? 0 : ((int64_t)c->grid[1] - 1) * c->p[in1].i) + row; /* one p0's slab */
    if (row <= 0 || R < 2 || from < w) return 0;
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, w);
    if (td_far_restride(c, reg, R, w, from, s)) return 0;
    if (swap) c->grid[1] = 1, c->p[out0].i = c->p[out1].i;
    c->grid[0] = (uint32_t)R;
    c->p[in0].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
    return 1;
}

int td_far_move_rows(td_producer *p, td_case *c, int reg, int axis, int prow, int64_t w) {
    int64_t R = c->grid[axis];
    if (R < 2 || w <= 0) return 0;
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, w);
    if (td_far_restride(c, reg, R, w, c->p[prow].i, s)) return 0;
    c->grid[axis] = (uint32_t)R;
    c->p[prow].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
    return 1;
}

int td_far_restride(td_case *c, int reg, int64_t rows, int64_t w, int64_t from, int64_t to) {
    td_region old = c->r[reg];
    unsigned eb = td_fmt_get(old.fmt)->bytes;
    int64_t used = (rows - 1) * from + w, slack = (int64_t)old.len > used ? (int64_t)old.len - used : 0;
    if (used > (int64_t)old.len) return -1; /* rows the region does not hold: a hook's wrong width, nothing to copy */
    c->r[reg].data = NULL, c->r[reg].mapped = 0, c->r[reg].len = 0;
    uint8_t *d = td_case_alloc_sparse(c, reg, (size_t)((rows - 1) * to + w + slack));
    if (!d) {
        c->r[reg] = old;
        return -1;
    }
    for (int64_t r = 0; r < rows; r++)
        memcpy(d + (size_t)(r * to) * eb, (const uint8_t *)old.data + (size_t)(r * from) * eb, (size_t)w * eb);
    if (slack)
        memcpy(d + (size_t)((rows - 1) * to + w) * eb, (const uint8_t *)old.data + (size_t)used * eb, (size_t)slack * eb);
    td_region_release(&old);
    return 0;
}

int td_far_restride_all(td_case *c, const int *regs, int n, int64_t rows, int64_t w, int64_t from, int64_t to) {
    for (int k = 0; k < n; k++)
        if (td_far_restride(c, regs[k], rows, w, from, to)) {
            while (k-- > 0) (void)td_far_restride(c, regs[k], rows, w, to, from); /* a smaller map: fits */
            return -1;
        }
    return 0;
}

int td_far_rows(td_producer *p, td_case *c, const int *regs, int n, int p_stride, int64_t w) {
    int64_t R = c->grid[0];
    if (R < 2 || w <= 0) return 0;
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, w);
    if (td_far_restride_all(c, regs, n, R, w, c->p[p_stride].i, s)) return 0;
    c->grid[0] = (uint32_t)R;
    c->p[p_stride].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
    return 1;
}
/* element (i[0..nd)) at strides st: the sum of i[k] * st[k] */
static int64_t far_off(int nd, const int64_t *i, const int64_t *st) {
    int64_t o = 0;
    for (int k = 0; k < nd; k++) o += i[k] * st[k];
    return o;
}

/* Copies region `reg`, an nd-dimensional tensor of dims n[] at strides st[], into a
 * sparse mapping of `len` elements at strides ns[] (every element); 0, or -1 (the
 * region unchanged) when the address space cannot be reserved. */
static int far_copy_axes(td_case *c, int reg, int nd, const int64_t *n, const int64_t *st, const int64_t *ns,
                         int64_t len) {
    int64_t total = 1;
    for (int k = 0; k < nd; k++) total *= n[k];
    td_region old = c->r[reg];
    unsigned eb = td_fmt_get(old.fmt)->bytes;
    c->r[reg].data = NULL, c->r[reg].mapped = 0, c->r[reg].len = 0;
    uint8_t *d = td_case_alloc_sparse(c, reg, (size_t)len);
    if (!d) {
        c->r[reg] = old;
        return -1;
    }
    int64_t i[4] = {0, 0, 0, 0};
    for (int64_t e = 0; e < total; e++) {
        memcpy(d + (size_t)far_off(nd, i, ns) * eb, (const uint8_t *)old.data + (size_t)far_off(nd, i, st) * eb, eb);
        for (int k = nd - 1; k >= 0 && ++i[k] == n[k]; k--) i[k] = 0; /* the next index, row-major */
    }
    td_region_release(&old);
    return 0;
}

/* The strides td_far_move_axis moves to: the other axes packed in their order (the last
 * contiguous), axis `axis` at a td_far_stride; the elements they span, or 0 when the
 * shape is not one it moves. */
static int64_t far_axis_strides(td_producer *p, int nd, const int64_t *n, int axis, int64_t *ns) {
    if (nd < 1 || nd > 4 || axis < 0 || axis >= nd || n[axis] < 2 || n[axis] > TD_FAR_MAX_ROWS) return 0;
    int64_t w = 1;
    for (int k = nd - 1; k >= 0; k--) {
        if (n[k] < 1) return 0;
        if (k != axis) ns[k] = w, w *= n[k];
    }
    ns[axis] = td_far_stride(p, n[axis], w);
    return (n[axis] - 1) * ns[axis] + w;
}

int td_far_move_axis(td_producer *p, td_case *c, int reg, int nd, const int64_t *n, int64_t *st, int axis) {
    int64_t ns[4];
    int64_t len = far_axis_strides(p, nd, n, axis, ns);
    if (!len || far_copy_axes(c, reg, nd, n, st, ns, len)) return 0;
    memcpy(st, ns, (size_t)nd * sizeof *st);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
    return 1;
}

int td_far_move_param_axis(td_producer *p, td_case *c, int reg, int nd, const int64_t *n, const int *ps, int axis) {
    int64_t s[4];
    if (nd < 1 || nd > 4 || axis < 0 || axis >= nd) return 0;
    for (int k = 0; k < nd; k++) {
        if (ps[k] < 0 && (k != nd - 1 || k == axis)) return 0;
        s[k] = ps[k] >= 0 ? c->p[ps[k]].i : 1;
    }
    if (!td_far_move_axis(p, c, reg, nd, n, s, axis)) return 0;
    for (int k = 0; k < nd; k++)
        if (ps[k] >= 0) c->p[ps[k]].i = s[k];
    return 1;
}

int td_far_move_param_axis_all(td_producer *p, td_case *c, const int *regs, int nregs, int nd, const int64_t *n,
                               const int *ps, int axis) {
    int64_t s[4], ns[4], span = 1;
    if (nregs < 1 || nregs > TD_MAX_REGIONS || nd < 1 || nd > 4 || axis < 0 || axis >= nd) return 0;
    for (int k = 0; k < nd; k++) {
        if (ps[k] < 0 && (k != nd - 1 || k == axis)) return 0;
        s[k] = ps[k] >= 0 ? c->p[ps[k]].i : 1;
        if (n[k] >= 1) span += (n[k] - 1) * s[k];
    }
    int64_t len = far_axis_strides(p, nd, n, axis, ns);
    if (!len) return 0;
    for (int r = 0; r < nregs; r++)
        if (far_copy_axes(c, regs[r], nd, n, s, ns, len)) {
            while (r-- > 0) (void)far_copy_axes(c, regs[r], nd, n, ns, s, span); /* back: a smaller map */
            return 0;
        }
    for (int k = 0; k < nd; k++)
        if (ps[k] >= 0) c->p[ps[k]].i = ns[k];
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
    return 1;
}

/* The one far stride of n regions' `rows` slabs, slab k w[k] wide at the stride held in
 * parameter pst[k] (from[k], read before any region moves: regions may share one):
 * td_far_stride over the widest slab, or 0 (nothing drawn) when a slab is empty or
 * wider than its stride (the slabs would interleave). */
static int64_t far_shared_stride(td_producer *p, const td_case *c, int n, const int *pst, const int64_t *w,
                                 int64_t rows, int64_t *from) {
    int64_t wmax = 0;
    for (int k = 0; k < n; k++) {
        from[k] = c->p[pst[k]].i;
        if (w[k] <= 0 || from[k] < w[k]) return 0;
        if (w[k] > wmax) wmax = w[k];
    }
    return td_far_stride(p, rows, wmax);
}

int td_far_heads(td_producer *p, td_case *c, int axis, int64_t rows, const td_far_reg *r, int n) {
    int64_t from[TD_MAX_REGIONS], w[TD_MAX_REGIONS];
    int pst[TD_MAX_REGIONS];
    if (n <= 0 || n > TD_MAX_REGIONS || rows < 2 || rows > TD_FAR_MAX_ROWS || rows > (int64_t)c->grid[axis]) return 0;
    for (int i = 0; i < n; i++) pst[i] = r[i].stride, w[i] = r[i].w;
    int64_t s = far_shared_stride(p, c, n, pst, w, rows, from);
    if (!s) return 0;
    for (int i = 0; i < n; i++)
        if (td_far_restride(c, r[i].reg, rows, r[i].w, from[i], s)) {
            while (i-- > 0) (void)td_far_restride(c, r[i].reg, rows, r[i].w, s, from[i]); /* back, dense again */
            return 0;
        }
    for (int i = 0; i < n; i++) c->p[r[i].stride].i = s;
    c->grid[axis] = (uint32_t)rows;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
    return 1;
}

int64_t td_far_bh_rows(int64_t BH, int64_t *H) {
    int64_t R = BH < TD_FAR_MAX_ROWS ? BH : TD_FAR_MAX_ROWS;
    if (*H <= 0 || R <= 0) return R;
    if (*H > R) *H = R;
    return R - R % *H;
}

int td_far_rows_n(td_producer *p, td_case *c, int n, const int *regs, const int *pstr, int64_t rows, const int64_t *w) {
    int64_t from[TD_FAR_MAX_REGS], to[TD_FAR_MAX_REGS];
    int ok[TD_FAR_MAX_REGS], moved = 0;
    if (rows < 2 || rows > TD_FAR_MAX_ROWS || n < 1 || n > TD_FAR_MAX_REGS) return 0;
    for (int k = 0; k < n; k++) {
        int j = 0;
        while (j < k && pstr[j] != pstr[k]) j++; /* a stride parameter shared with region j */
        from[k] = c->p[pstr[k]].i;
        if (j < k) {
            to[k] = to[j] < w[k] ? w[k] : to[j];
            for (int q = 0; q < k; q++)
                if (pstr[q] == pstr[k]) to[q] = to[k];
        } else {
            to[k] = td_far_stride(p, rows, w[k]);
        }
    }
    for (int k = 0; k < n; k++) ok[k] = !td_far_restride(c, regs[k], rows, w[k], from[k], to[k]);
    for (int k = 0; k < n; k++) /* a region not moved holds its sharers back (back where they were) */
        for (int j = 0; j < n; j++)
            if (!ok[k] && ok[j] && pstr[j] == pstr[k]) ok[j] = 0, td_far_restride(c, regs[j], rows, w[j], to[j], from[j]);
    for (int k = 0; k < n; k++)
        if (ok[k]) c->p[pstr[k]].i = to[k], moved++;
    if (moved) c->classes |= TD_BC(TD_BC_OFFSET_2_31);
    return moved;
}

int td_far_axis(td_producer *p, td_case *c, int n, const int reg[], const int st[], int64_t rows) {
    int64_t w[TD_MAX_REGIONS], from[TD_MAX_REGIONS];
    if (rows < 2 || rows > TD_FAR_MAX_ROWS || n <= 0 || n > TD_MAX_REGIONS) return 0;
    for (int k = 0; k < n; k++) w[k] = (int64_t)c->r[reg[k]].len - (rows - 1) * c->p[st[k]].i; /* the last runs to the end */
    int64_t s = far_shared_stride(p, c, n, st, w, rows, from);
    if (!s) return 0;
    int moved = 0;
    for (int k = 0; k < n; k++) {
        if (td_far_restride(c, reg[k], rows, w[k], from[k], s)) break;
        c->p[st[k]].i = s;
        moved++;
    }
    if (moved) c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
    return moved;
}

int td_far_slabs(td_producer *p, td_case *c, int n, const int *regs, const int64_t *rows, int p_stride, int64_t w,
                 int64_t far_rows) {
    int64_t from = c->p[p_stride].i, most = 0;
    if (n <= 0 || n > TD_MAX_REGIONS || w <= 0 || far_rows < 2 || far_rows > TD_FAR_MAX_ROWS) return 0;
    for (int k = 0; k < n; k++) {
        if (rows[k] < 1 || rows[k] > TD_FAR_MAX_ROWS) return 0;
        if (rows[k] > most) most = rows[k];
    }
    if (far_rows > most) return 0;
    int64_t s = td_far_stride(p, far_rows, w);
    for (int k = 0; k < n; k++)
        if (td_far_restride(c, regs[k], rows[k], w, from, s)) {
            while (k-- > 0) (void)td_far_restride(c, regs[k], rows[k], w, s, from); /* back (a smaller map: fits) */
            return 0;
        }
    c->p[p_stride].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
    return 1;
}

int td_far_reslab(td_case *c, const int *regs, int n, int64_t rows_old, int64_t rows, int64_t w, int64_t from,
                  int64_t to) {
    td_region old[TD_MAX_REGIONS];
    if (n < 1 || n > TD_MAX_REGIONS || rows < 2 || rows > rows_old || w <= 0 || w > from || to < w) return -1;
    for (int k = 0; k < n; k++)
        if ((int64_t)c->r[regs[k]].len < rows_old * from) return -1;
    for (int k = 0; k < n; k++) { /* every new map first: a failure leaves every region as it was */
        old[k] = c->r[regs[k]];
        c->r[regs[k]].data = NULL, c->r[regs[k]].mapped = 0, c->r[regs[k]].len = 0;
        if (!td_case_alloc_sparse(c, regs[k], (size_t)(rows * to + ((int64_t)old[k].len - rows_old * from)))) {
            c->r[regs[k]] = old[k];
            while (k-- > 0) td_region_release(&c->r[regs[k]]), c->r[regs[k]] = old[k];
            return -1;
        }
    }
    for (int k = 0; k < n; k++) {
        unsigned eb = td_fmt_get(old[k].fmt)->bytes;
        uint8_t *d = c->r[regs[k]].data;
        const uint8_t *s = old[k].data;
        size_t slack = old[k].len - (size_t)(rows_old * from);
        for (int64_t r = 0; r < rows; r++) memcpy(d + (size_t)(r * to) * eb, s + (size_t)(r * from) * eb, (size_t)w * eb);
        if (slack) memcpy(d + (size_t)(rows * to) * eb, s + (size_t)(rows_old * from) * eb, slack * eb);
        td_region_release(&old[k]);
    }
    return 0;
}
