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
/* The stride of a tile axis of `rows` lanes a program always reads (rows may exceed
 * TD_FAR_MAX_ROWS: the BLOCK_M rows of one matmul tile, 16 or more): the least stride
 * whose (rows - 1) * stride passes 2^31 + d (d drawn), at least w.  It fits in int32, so
 * a kernel forming row * stride in int32 wraps on the last row, and the rows span about
 * 2^31 * rows / (rows - 1) elements whatever their count (td_far_stride's other choice,
 * a stride of 2^31 + d, would reserve rows * 2^31).  Needs rows >= 2. */
int64_t td_far_tile_stride(td_producer *p, int64_t rows, int64_t w);
/* Moves region `reg` of `rows` rows of `w` elements at row stride `from` to row stride
 * `to` over a sparse mapping (the elements between the rows read as zero), keeping the
 * slack the region had after its last row.  0, or -1 (the case unchanged) when the
 * address space cannot be reserved. */
int td_far_restride(td_case *c, int reg, int64_t rows, int64_t w, int64_t from, int64_t to);
/* td_far_restride of every region of regs[0..n) (the same rows, row width and strides:
 * regions addressed with one shared row stride, an input and the output written at
 * the same offsets, say): all of them moved, 0; or -1 when one cannot be, every region
 * then back at row stride `from` (its contents unchanged, perhaps now a sparse map). */
int td_far_restride_all(td_case *c, const int *regs, int n, int64_t rows, int64_t w, int64_t from, int64_t to);
/* A launch of grid[0] programs, program r reading or writing `w` elements of each
 * region of regs[0..n) from r * param[p_stride] (one row stride shared by them, an input
 * and the output written at the input's offsets, say): keeps up to TD_FAR_MAX_ROWS
 * programs, moves every such region to a td_far_stride (a sparse map; an output too,
 * engine/harness.c then judges it over the pages of its write set) and updates the
 * stride and grid[0].  1 when moved (classes offset-2^31 and stride-gt-row added); 0
 * when there is one program, nothing to address, or no address space. */
int td_far_rows(td_producer *p, td_case *c, const int *regs, int n, int p_stride, int64_t w);
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
/* A launch whose programs along grid axis `axis` (0..2) read up to `w` elements of
 * region `reg` from pid[axis] * param[prow] (their row, whatever the layout inside it):
 * keeps the first min(grid[axis], TD_FAR_MAX_ROWS) values of pid[axis] and moves their
 * rows to a row stride near 2^31 (td_far_stride) over a sparse region, each row's w
 * elements copied as they were (rows that interleaved, param[prow] < w, come apart).
 * Updates grid[axis] and param[prow] and adds the classes offset-2^31 and
 * stride-gt-row.  1 when moved; 0 (the case unchanged) for fewer than 2 rows, w <= 0,
 * or no address space.  Several regions indexed by pid[axis] are moved by calling it
 * once each (grid[axis] is then already capped). */
int td_far_move_rows(td_producer *p, td_case *c, int reg, int axis, int prow, int64_t w);
/* Moves axis `axis` of region `reg`, an nd-dimensional (nd <= 4) read-only tensor of
 * dims n[] at element strides st[], to a stride near 2^31 (td_far_stride over
 * n[axis] rows) over a sparse mapping: the other axes packed in their order (the last
 * contiguous), every element copied, so a kernel reading element i at sum i_k * st[k]
 * reads the same value at the new strides (written back into st[]).  For an axis a
 * program id indexes (heads, batches) where the kernel forms pid * stride in int32.
 * Needs 2 <= n[axis] <= TD_FAR_MAX_ROWS and every n[k] >= 1.  1 when moved (classes
 * offset-2^31 and stride-gt-row added); 0 (the case unchanged) otherwise. */
int td_far_move_axis(td_producer *p, td_case *c, int reg, int nd, const int64_t *n, int64_t *st, int axis);
/* td_far_move_axis with the strides in parameters: stride k is c->p[ps[k]].i, or 1 where
 * ps[k] < 0 (an axis the kernel steps by 1 without a stride parameter: only the last
 * one, never the moved one); the new strides are written back to the parameters. */
int td_far_move_param_axis(td_producer *p, td_case *c, int reg, int nd, const int64_t *n, const int *ps, int axis);
/* td_far_move_param_axis of the nregs regions regs[] laid out alike (one set of stride
 * parameters: Q, K, V and the Out written at their offsets, whose layout
 * (token, head, dim) may interleave the moved axis): ONE far stride drawn, every region
 * moved to the same strides (an output as a sparse output: engine/harness.c judges it
 * over its write pages), the parameters written back.  1 when every region moved
 * (offset-2^31 and stride-gt-row added); 0 otherwise, the parameters unchanged (regions
 * already moved go back to them, perhaps as a smaller sparse map). */
int td_far_move_param_axis_all(td_producer *p, td_case *c, const int *regs, int nregs, int nd, const int64_t *n,
                               const int *ps, int axis);
/* One read-only region of a head (batch) axis: program i reads `w` elements of region
 * `reg` from i * param[stride] on (several regions may share one stride parameter). */
typedef struct td_far_reg {
    int reg, stride;
    int64_t w;
} td_far_reg;
/* Moves the head axis grid[axis] of the n regions r[] at once (Q, K and V of one head
 * read at i_bh * s_qk_h, i_bh * s_vo_h): keeps `rows` (2..TD_FAR_MAX_ROWS, at most
 * grid[axis]) heads, draws ONE stride (td_far_stride over the widest w) for every stride
 * parameter named, moves each region to it sparsely, sets grid[axis] = rows and adds
 * offset-2^31 and stride-gt-row.  1 when moved; 0 (the case unchanged) when a region's
 * heads interleave (its stride below its w), rows is out of range, or no address space.
 * The caller keeps what depends on the head count (H dividing B*H ...). */
int td_far_heads(td_producer *p, td_case *c, int axis, int64_t rows, const td_far_reg *r, int n);
/* The heads a far case keeps of a flattened B*H axis (i_b = i_bh / H, i_h = i_bh % H):
 * up to TD_FAR_MAX_ROWS, a multiple of *H; an H above that becomes the count itself
 * (*H set to it: fewer heads, each still of the contract's form). */
int64_t td_far_bh_rows(int64_t BH, int64_t *H);
/* Moves n (<= TD_FAR_MAX_REGS) read-only regions regs[k], each of `rows` rows
 * (2 <= rows <= TD_FAR_MAX_ROWS: the caller cuts the moved axis first) of w[k]
 * elements at the row stride held in parameter pstr[k], to a stride drawn by
 * td_far_stride over a sparse mapping (td_far_restride), and sets the parameter: for
 * regions indexed by one row index, as a rotary kernel's cos and sin tables are
 * (row * cos_row_stride, row * sin_row_stride).  Regions naming the same parameter
 * (cos and sin read at one cos_token_stride) share one stride and move together or not
 * at all.  Returns how many regions moved (a region whose address space cannot be
 * reserved keeps its stride and the case stays valid); the class offset-2^31 is added
 * when one did.  The caller checks rows fit: (rows - 1) * old stride + w[k] <= len. */
#define TD_FAR_MAX_REGS 8
int td_far_rows_n(td_producer *p, td_case *c, int n, const int *regs, const int *pstr, int64_t rows, const int64_t *w);
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
/* Moves regions regs[k] (k < n <= TD_MAX_REGIONS), region k holding rows[k] >= 1 slabs of
 * w elements at the one stride param[p_stride], to a stride td_far_stride(p, far_rows, w)
 * over sparse maps (td_far_restride; an output becomes a sparse output), all or none,
 * and sets param[p_stride]: for a head stride that read-only inputs use per head (i_bh
 * * s) and outputs per head and block ((i_bh + B*H*i_v) * s: more slabs at the same
 * stride), as the backward kernels of the chunked attentions write dk at k's s_qk_h.
 * far_rows (2..TD_FAR_MAX_ROWS, at most the largest rows[k]) counts the slabs up to the
 * first one that must start past 2^31; the caller keeps every rows[k] <=
 * TD_FAR_MAX_ROWS.  1 when moved (offset-2^31 and stride-gt-row added); 0 (the case as
 * it was) otherwise. */
int td_far_slabs(td_producer *p, td_case *c, int n, const int *regs, const int64_t *rows, int p_stride, int64_t w,
                 int64_t far_rows);
/* Moves the outer axis of the read-only or output regions regs[0..n) (n <= TD_MAX_REGIONS),
 * tensors laid out whole without a stride parameter (slab m at m * from, the region
 * holding all rows_old slabs, len >= rows_old * from, the rest slack): an [M, N, K]
 * tensor whose kernel forms m * N * K, where a far case enlarges N (its tile reads a
 * fixed prefix of each slab) so that slab 1..rows-1 sits 2^31 elements or more in.
 * Keeps the first `rows` slabs (2 <= rows <= rows_old), copies the first w elements of
 * each (w <= from: the prefix the kernel reads) to slab stride `to` (>= w) over a sparse
 * mapping of rows * to + slack elements (every slab whole again, so the region still
 * holds the whole tensor; the slack after the tensor kept, the rest reads as zero).
 * All or nothing: 0 when every region moved, -1 (the case unchanged) when the
 * arguments do not fit or the address space cannot be reserved.  The caller sets the
 * slab length (to) in its size parameters and cuts its grid to the rows kept. */
int td_far_reslab(td_case *c, const int *regs, int n, int64_t rows_old, int64_t rows, int64_t w, int64_t from,
                  int64_t to);
/* Rows a far case keeps: at most 4 (each row beyond the first may sit 2^31 elements
 * further: 4 rows of binary32 reserve up to 24 GiB of address space, commit a few
 * pages). */
#define TD_FAR_MAX_ROWS 4

#endif
