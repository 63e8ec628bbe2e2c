/* Offsets beyond 2^31 (boundary class TD_BC_OFFSET_2_31): the far tier.
 *
 * The commonest offset bug of Triton kernels is an element offset formed in int32
 * (pid * stride, pid * BLOCK + j) that wraps once a tensor passes 2^31 elements.  A
 * generator reaches it cheaply with a row stride near 2^31 over a sparse region: the
 * address space of 2^31 elements is reserved (MAP_NORESERVE), only the rows the case
 * writes cost memory (a few pages per row), so a case costs about what a dense one does.
 *
 * Such a case is decoded only from an input of the far tier: TD_FAR_MAGIC followed by
 * ordinary bytes.  The bytes after the magic decode as they always do (contract gen),
 * then the contract's `far` hook moves the case to large strides, drawing its choices
 * from what the generator left.  Every other input decodes exactly as before (the
 * committed decode digests stand), a reproducer of a far case is an ordinary file of
 * bytes, and a coverage-guided fuzzer reaches the tier by the magic's comparison.
 *
 * The kernel ABI passes integer parameters as int64 and region lengths as uint64, so
 * these strides reach a kernel unchanged; the catalogue types strides and sizes as Nat.
 */
#ifndef TD_GEN_FAR_H
#define TD_GEN_FAR_H

#include "contract.h"

#define TD_FAR_MAGIC "TDfar31:"
#define TD_FAR_MAGIC_LEN 8
/* 1 when `data` is an input of the far tier */
int td_far_tier(const uint8_t *data, size_t size);

/* A row stride that puts the last of `rows` rows (rows >= 2) of `w` elements beyond
 * 2^31: either a stride of 2^31 + d itself (a stride an int32 parameter cannot hold)
 * or the least stride below 2^31 whose (rows - 1) * stride passes 2^31 + d (the stride
 * fits in int32, pid * stride does not). */
int64_t td_far_stride(td_producer *p, int64_t rows, int64_t w);
/* Moves region `reg` of `rows` rows of `w` elements at row stride `from` to row stride
 * `to` over a sparse mapping (the elements between the rows read as zero), keeping the
 * slack the region had after its last row.  0, or -1 (the case unchanged) when the
 * address space cannot be reserved. */
int td_far_restride(td_case *c, int reg, int64_t rows, int64_t w, int64_t from, int64_t to);
/* A (grid[0], grid[1]) launch whose program (p0, p1) reads `row` elements of region
 * `reg` from p0 * param[in0] + p1 * param[in1] and writes from p0 * param[out0] +
 * p1 * param[out1]: moves up to TD_FAR_MAX_ROWS values of p0 to an input stride near
 * 2^31 over a sparse region, as a kernel forming p0 * stride in int32 gets wrong.  A
 * launch of one p0 and several p1 first becomes several p0 of one p1 (param[in0] =
 * param[in1], param[out0] = param[out1]: the same rows and cells, per-p1 data of other
 * regions then read at p1 = 0).  1 when moved (classes offset-2^31 and stride-gt-row
 * added); 0 when the p0 slabs interleave with the rest (param[in0] below one slab's
 * extent), there is a single program, or no address space. */
int td_far_grid2(td_producer *p, td_case *c, int reg, int in0, int in1, int out0, int out1, int64_t row);
/* Moves one shared outer axis (a batch or head axis of Q, K and V at once) of the
 * READ-ONLY regions reg[k] (k < n) to one far stride: region reg[k] holds `rows` slabs
 * (2 <= rows <= TD_FAR_MAX_ROWS) at element stride param[st[k]], its last slab running
 * to the region's end (slab width w[k] = len - (rows - 1) * param[st[k]]; regions may
 * share a stride parameter).  Every slab must fit under its stride (0 < w[k] <=
 * param[st[k]]: the axis is outside the region's others), else nothing moves (a kernel
 * then never sees some regions far and others not).  One stride td_far_stride(p, rows,
 * max w) is drawn; each region moves with td_far_restride and gets param[st[k]] = that
 * stride.  Marks offset-2^31 and stride-gt-row when a region moved; returns how many
 * moved (n, or fewer only where the address space ran out: those moved stay consistent). */
int td_far_axis(td_producer *p, td_case *c, int n, const int reg[], const int st[], int64_t rows);
/* Rows a far case keeps: at most 4 (each row beyond the first may sit 2^31 elements
 * further: 4 rows of binary32 reserve up to 24 GiB of address space, commit a few
 * pages). */
#define TD_FAR_MAX_ROWS 4

#endif
