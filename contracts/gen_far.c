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

int td_far_restride(td_case *c, int reg, int64_t rows, int64_t w, int64_t from, int64_t to) {
    td_region old = c->r[reg];
    unsigned eb = td_fmt_get(old.fmt)->bytes;
    int64_t used = (rows - 1) * from + w, slack = (int64_t)old.len > used ? (int64_t)old.len - used : 0;
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

int td_far_axis(td_producer *p, td_case *c, int n, const int reg[], const int st[], int64_t rows) {
    int64_t w[TD_MAX_REGIONS], from[TD_MAX_REGIONS], wmax = 0; /* from: before any move (regions may share a stride) */
    if (rows < 2 || rows > TD_FAR_MAX_ROWS || n <= 0 || n > TD_MAX_REGIONS) return 0;
    for (int k = 0; k < n; k++) {
        from[k] = c->p[st[k]].i;
        w[k] = (int64_t)c->r[reg[k]].len - (rows - 1) * from[k];
        if (from[k] <= 0 || w[k] <= 0 || w[k] > from[k]) return 0; /* slabs interleave or coincide */
        if (w[k] > wmax) wmax = w[k];
    }
    int64_t s = td_far_stride(p, rows, wmax);
    int moved = 0;
    for (int k = 0; k < n; k++) {
        if (td_far_restride(c, reg[k], rows, w[k], from[k], s)) break;
        c->p[st[k]].i = s;
        moved++;
    }
    if (moved) c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
    return moved;
}
