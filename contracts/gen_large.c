/* The large tier: flat launches of more than 2^31 elements (gen_large.h). */
#include "gen_large.h"

#include <stdlib.h>
#include <string.h>

#define TWO31 ((uint64_t)1 << 31)

int td_large_tier(const uint8_t *data, size_t size) {
    return size >= TD_LARGE_MAGIC_LEN && !memcmp(data, TD_LARGE_MAGIC, TD_LARGE_MAGIC_LEN);
}

static int win_cmp(const void *a, const void *b) {
    const td_window *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* w[0..nw) sorted and its overlapping or touching windows merged; returns their count */
static int win_merge(td_window *w, int nw) {
    qsort(w, (size_t)nw, sizeof *w, win_cmp);
    int m = 0;
    for (int i = 0; i < nw; i++) {
        if (m && w[i].lo <= w[m - 1].hi) {
            if (w[i].hi > w[m - 1].hi) w[m - 1].hi = w[i].hi;
        } else {
            w[m++] = w[i];
        }
    }
    return m;
}

/* The windows of a launch of G programs of B lanes over len elements: sorted, clipped
 * to [0, len), overlapping or touching ones merged.  Returns how many. */
static int large_windows(td_producer *p, uint64_t B, uint64_t G, uint64_t n, uint64_t len, td_window *w) {
    int nw = 0;
    w[nw++] = (td_window){0, B};                       /* the first program */
    w[nw++] = (td_window){TWO31 - B, TWO31 + B};       /* the programs on either side of 2^31 */
    w[nw++] = (td_window){(G - 1) * B, len};           /* the last program and the slack */
    for (int k = 0; k < 3; k++) {                      /* a sample of the interior */
        uint64_t pid = 1 + td_prod_u32(p, 0, (uint32_t)(G - 3));
        w[nw++] = (td_window){pid * B, pid * B + B};
    }
    (void)n;
    for (int i = 0; i < nw; i++)
        if (w[i].hi > len) w[i].hi = len;
    return win_merge(w, nw);
}

/* Region reg moved to a sparse mapping of len elements whose windows repeat the old
 * contents (element e <- e mod n0; the slack past n reads zero).  0, or -1 with the
 * region unchanged; the old contents stay allocated (the caller releases them). */
static int large_region(td_case *c, int reg, uint64_t n0, uint64_t n, uint64_t len, const td_window *w, int nw) {
    td_region old = c->r[reg];
    unsigned eb = td_fmt_get(old.fmt)->bytes;
    c->r[reg].data = NULL, c->r[reg].mapped = 0, c->r[reg].len = 0;
    uint8_t *d = td_case_alloc_sparse(c, reg, (size_t)len);
    if (!d) {
        c->r[reg] = old;
        return -1;
    }
    for (int i = 0; i < nw; i++)
        for (uint64_t e = w[i].lo; e < w[i].hi && e < n; e++)
            memcpy(d + e * eb, (const uint8_t *)old.data + (e % n0) * eb, eb);
    return 0;
}

/* The shape classes of n = 2^31 + d elements in blocks of B. */
static uint64_t large_classes(uint64_t classes, uint64_t d, uint64_t B) {
    const uint64_t shape = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) |
                           TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) |
                           TD_BC(TD_BC_BLOCK_GT_N);
    uint64_t r = d % B; /* B divides 2^31 */
    classes = (classes & ~shape) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_OFFSET_2_31);
    if (r == 0) return classes | TD_BC(TD_BC_EXACT_MULTIPLE);
    if (r == B - 1) return classes | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL);
    if (r == 1) return classes | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL);
    return classes | TD_BC(TD_BC_TAIL);
}

int td_flat_large(td_producer *p, td_case *c, int p_n, int p_block, const int *regs, int nregs) {
    /* p_n < 0: no count parameter, the grid's grid[0] * BLOCK elements unmasked (the
     * values repeat what every region holds: fewer for rows narrower than BLOCK) */
    uint64_t n0 = p_n >= 0 ? (uint64_t)c->p[p_n].i : (uint64_t)c->grid[0] * (uint64_t)c->p[p_block].i;
    for (int r = 0; r < nregs && p_n < 0; r++)
        if (c->r[regs[r]].len < n0) n0 = c->r[regs[r]].len;
    if (n0 == 0 || nregs > 32) return -1;
    for (int r = 0; r < nregs; r++)
        if (c->r[regs[r]].len < n0) return -1;
    /* BLOCK 64 .. 1024 as real launches use: the grid stays below 2^26 programs */
    uint64_t B = (uint64_t)1 << td_prod_u32(p, 6, 10), d;
    switch (td_prod_u32(p, 0, 4)) {
    case 0: d = 1; break;
    case 1: d = B - 1; break;
    case 2: d = B; break;
    case 3: d = B + 1; break;
    default: d = td_prod_u32(p, 1, 1u << 20); break;
    }
    if (p_n < 0) d = (d + B - 1) / B * B; /* unmasked: the grid covers exactly n */
    uint64_t n = TWO31 + d, G = (n + B - 1) / B;
    uint64_t len = n + (td_prod_bool(p) ? td_prod_u32(p, 1, (uint32_t)B) : 0);
    td_window w[TD_MAX_WINDOWS];
    int nw = large_windows(p, B, G, n, len, w);
    td_region old[32]; /* the regions as gen left them, restored on failure */
    for (int r = 0; r < nregs; r++) {
        old[r] = c->r[regs[r]];
        if (large_region(c, regs[r], n0, n, len, w, nw) != 0) {
            for (int q = 0; q < r; q++) td_region_release(&c->r[regs[q]]), c->r[regs[q]] = old[q];
            return -1;
        }
    }
    for (int r = 0; r < nregs; r++) td_region_release(&old[r]);
    if (p_n >= 0) c->p[p_n].i = (int64_t)n;
    c->p[p_block].i = (int64_t)B;
    c->grid[0] = (uint32_t)G;
    c->grid[1] = c->grid[2] = 1;
    for (int r = 0; r < nregs; r++) c->large_regs |= 1u << regs[r];
    c->nwin = nw;
    memcpy(c->win, w, (size_t)nw * sizeof *w);
    c->classes = large_classes(c->classes, d, B);
    return 0;
}

int td_large_per_program(td_case *c, int reg, int p_block, uint64_t g0) {
    td_region old = c->r[reg];
    uint64_t G = c->grid[0], B = (uint64_t)c->p[p_block].i;
    if (g0 == 0 || old.len < g0 || B == 0) return -1;
    unsigned eb = td_fmt_get(old.fmt)->bytes;
    c->r[reg].data = NULL, c->r[reg].mapped = 0, c->r[reg].len = 0;
    uint8_t *d = td_case_alloc_sparse(c, reg, (size_t)(G + (old.len - g0)));
    if (!d) {
        c->r[reg] = old;
        return -1;
    }
    for (int w = 0; w < c->nwin; w++) /* the programs whose lanes the window holds */
        for (uint64_t pid = c->win[w].lo / B; pid < G && pid * B < c->win[w].hi; pid++)
            memcpy(d + pid * eb, (const uint8_t *)old.data + (pid % g0) * eb, eb);
    td_region_release(&old);
    return 0;
}

/* ---- launches of row-blocks (gen_large.h: td_rows_large) ---- */

/* The windows of R row-blocks, the widest L elements long, in rows: sorted, merged. */
static int rows_windows(td_producer *p, uint64_t R, uint64_t L, td_window *w) { /* (TD_MAX_WINDOWS >= 7) */
    int nw = 0;
    w[nw++] = (td_window){0, 1};                                      /* the first row-block */
    w[nw++] = (td_window){(TWO31 - 1) / L, (TWO31 - 1) / L + 1};      /* element 2^31 - 1 ... */
    w[nw++] = (td_window){TWO31 / L, TWO31 / L + 1};                  /* ... and 2^31 of the widest */
    w[nw++] = (td_window){(TWO31 + L - 1) / L, (TWO31 + L - 1) / L + 1}; /* the first starting past it */
    w[nw++] = (td_window){R - 1, R};                                  /* the last */
    for (int k = 0; k < 2 && R > 2; k++) {                            /* a sample of the interior */
        uint64_t r = 1 + td_prod_u32(p, 0, (uint32_t)(R - 3));
        w[nw++] = (td_window){r, r + 1};
    }
    return win_merge(w, nw);
}

/* Region q.reg moved to a sparse mapping of R row-blocks of q.len elements whose
 * windows repeat the old contents (element e < len0 of row r <- element (r mod R0) *
 * len0 + e; the elements past len0 read zero).  0, or -1 with the region unchanged;
 * the old contents stay allocated. */
static int rows_region(td_case *c, const td_rows_region *q, uint64_t R0, uint64_t R, const td_window *w, int nw) {
    td_region old = c->r[q->reg];
    unsigned eb = td_fmt_get(old.fmt)->bytes;
    c->r[q->reg].data = NULL, c->r[q->reg].mapped = 0, c->r[q->reg].len = 0;
    uint8_t *d = td_case_alloc_sparse(c, q->reg, (size_t)(R * q->len));
    if (!d) {
        c->r[q->reg] = old;
        return -1;
    }
    const uint8_t *s = old.data;
    uint64_t n = q->len < q->len0 ? q->len : q->len0;
    for (int i = 0; i < nw && n; i++)
        for (uint64_t r = w[i].lo; r < w[i].hi; r++)
            memcpy(d + r * q->len * eb, s + (r % R0) * q->len0 * eb, (size_t)(n * eb));
    return 0;
}

int td_rows_large(td_producer *p, td_case *c, uint64_t R0, const td_rows_region *rr, int nr, uint64_t *R) {
    uint64_t L = 0;
    if (R0 == 0 || nr <= 0 || nr > 32) return -1;
    for (int k = 0; k < nr; k++) {
        if (rr[k].len == 0 || c->r[rr[k].reg].len < R0 * rr[k].len0) return -1;
        if (rr[k].len > L) L = rr[k].len;
    }
    if (L < TD_ROWS_LARGE_MIN_LEN || L > TWO31) return -1;
    /* the least count with a row-block starting at or past element 2^31 (a kernel that
     * forms only the row-block's base r * len in int32 wraps there), then a few more */
    uint64_t n = (TWO31 + L - 1) / L + 1, more;
    switch (td_prod_u32(p, 0, 3)) {
    case 0: more = 0; break;
    case 1: more = 1; break;
    case 2: more = 2; break;
    default: more = td_prod_u32(p, 0, (uint32_t)((1u << 20) / L + 1)); break;
    }
    n += more;
    td_window w[TD_MAX_WINDOWS];
    int nw = rows_windows(p, n, L, w);
    td_region old[32];
    for (int k = 0; k < nr; k++) {
        old[k] = c->r[rr[k].reg];
        if (rows_region(c, &rr[k], R0, n, w, nw) != 0) {
            for (int q = 0; q < k; q++) td_region_release(&c->r[rr[q].reg]), c->r[rr[q].reg] = old[q];
            return -1;
        }
    }
    for (int k = 0; k < nr; k++) {
        td_region_release(&old[k]);
        c->large_regs |= 1u << rr[k].reg;
        c->win_unit[rr[k].reg] = rr[k].len;
    }
    c->nwin = nw;
    memcpy(c->win, w, (size_t)nw * sizeof *w);
    c->classes = (c->classes & ~TD_BC(TD_BC_ONE_PROGRAM)) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_OFFSET_2_31);
    *R = n;
    return 0;
}
