/* The large tier (`tilediff run|certify --large`): flat launches of more than 2^31
 * elements.
 *
 * The far tier (gen_far.h) reaches offsets beyond 2^31 through a large row stride; a
 * flat launch has no stride: its offset pid * BLOCK + j passes 2^31 only when the
 * tensor has more than 2^31 elements, and a kernel that forms it in int32 wraps there.
 * So a large case is n = 2^31 + d elements (d from a small menu: 1, BLOCK - 1, BLOCK,
 * BLOCK + 1, or up to 2^20), BLOCK 64 .. 1024, and the kernel runs over every element.
 *
 * Memory: each region of the case is reserved (MAP_NORESERVE) and only its windows are
 * real pages: the first program, the two programs on either side of element 2^31, the
 * last program with the slack after it, and three programs drawn at random.  Inputs
 * read as zero outside the windows (the zero page: nothing committed); the harness
 * gives an output region's unjudged stretches one small shared buffer (engine/
 * harness.c), so the kernel's writes there commit nothing either.  The oracle judges
 * every lane of the windows; the other lanes are counted as sampled out.  A case
 * reserves about 3 x (n x element size) of address space per region and commits a few
 * MiB plus page tables (engine/large.h states the figure before a run).
 *
 * Such a case is decoded only from an input of the large tier: TD_LARGE_MAGIC followed
 * by ordinary bytes, which decode as they always do (contract gen), then the
 * contract's `large` hook moves the case, drawing its choices from what gen left.
 * The values of the windows repeat the ordinary case's values (window element e holds
 * what element e mod n0 held in every region), so every lane keeps the joint
 * preconditions of its inputs.
 */
#ifndef TD_GEN_LARGE_H
#define TD_GEN_LARGE_H

#include "contract.h"

#define TD_LARGE_MAGIC "TDbig31:"
#define TD_LARGE_MAGIC_LEN 8
/* 1 when `data` is an input of the large tier */
int td_large_tier(const uint8_t *data, size_t size);

/* The large hook of a flat launch (gen.h's td_flat_*: lane (pid, j) addresses
 * pid * BLOCK + j in every region, mask < n, grid cdiv(n, BLOCK)): parameters p_n and
 * p_block, regions regs[0..nregs).  0, or -1 with the case unchanged (no address
 * space, or an empty case: nothing to repeat).  p_n < 0: a launch without a count
 * (grid * BLOCK elements, no mask): d is rounded up to a multiple of BLOCK so that the
 * grid covers exactly the n = 2^31 + d elements, and no parameter holds n; the windows
 * repeat the first grid[0] * BLOCK elements, or as many as the shortest region holds
 * (a row launch whose rows were narrower than BLOCK). */
int td_flat_large(td_producer *p, td_case *c, int p_n, int p_block, const int *regs, int nregs);

/* A region of one entry per program that the kernel READS (a row's state, a block's
 * scale: entry pid), after td_flat_large moved the case (grid[0] = G programs of
 * p_block lanes; before, g0 programs): moved to a sparse mapping of G entries plus the
 * old region's entries past g0 (its slack, reading zero), where entry pid of every
 * program a window touches holds what entry pid mod g0 held and every other entry
 * reads zero (so zero must lie in the entry's domain).  An input only: the write set
 * filters lanes by element windows, so an output written once per program would be
 * judged at all of its G lanes.  0, or -1 with the region unchanged (no address
 * space: the case then fails its check, the region being shorter than the grid). */
int td_large_per_program(td_case *c, int reg, int p_block, uint64_t g0);

/* The next element at or after i of region reg that a scan of a case must read: i
 * itself in an ordinary case or a region the tier did not move, else the first element
 * >= i inside a window (UINT64_MAX past the last).  Every element of a large region
 * outside the windows reads zero (an untouched page), so a precondition scan
 *     for (uint64_t i = td_large_next(c, reg, 0); i < n; i = td_large_next(c, reg, i + 1))
 * costs the windows, not 2^31 elements; zero must lie in the domain it checks. */
static inline uint64_t td_large_next(const td_case *c, int reg, uint64_t i) {
    if (!(c->large_regs >> reg & 1)) return i;
    for (int w = 0; w < c->nwin; w++) {
        td_window e = td_case_window(c, reg, w); /* (a launch of row-blocks: its rows' elements) */
        if (i < e.hi) return i > e.lo ? i : e.lo;
    }
    return UINT64_MAX;
}

/* ---- launches of row-blocks (dense rows: sizes only, no stride parameter) ----
 * A kernel whose program r (a row, a head, a (b, h) slab) owns row-block r of each
 * region it indexes by r -- elements [r * len_k, (r + 1) * len_k) of region k, each
 * region with its own len_k -- forms r * len_k; that passes 2^31 only when the region
 * holds more than 2^31 elements, and a kernel that forms it in int32 wraps there.  So a
 * large case keeps the row-block the generator drew (its widths, values and
 * parameters) and repeats it R times: the least count with a row-block of the widest
 * region (len_k = L) starting at or past element 2^31 (R = ceil(2^31 / L) + 1: a
 * kernel that forms only the base r * L in int32 and steps on in 64-bit pointers
 * wraps there first), plus a few more from a small menu (0, 1, 2 or up to 2^20 / L).
 * Regions not indexed by r (weights, biases, a shared table) stay as gen drew them.
 *
 * Windows are whole row-blocks, in rows (td_case.win_unit[k] = len_k maps them to
 * each region's elements): the first, the ones holding elements 2^31 - 1 and 2^31
 * of the widest region, the first starting at or past 2^31, the last, two drawn at
 * random.  Window row r of region k
 * holds row r mod R0 of the case gen drew (a row-block widened past its len0_k reads
 * zero there: see td_rows_region), so every row keeps its joint preconditions (zero
 * must lie in their domain, as for td_large_next).
 * The kernel runs over every row (the grid is R row-blocks); rows outside the windows
 * read zero and their outputs are not judged (the write set counts them as sampled
 * out: td_large_row_next walks the windows' rows). */
typedef struct td_rows_region {
    int reg;       /* a region indexed by the row-block */
    uint64_t len;  /* elements of one row-block of it in the large case (> 0) */
    uint64_t len0; /* elements of one row-block in the case gen drew, copied to the first
                    * min(len, len0) of each window row-block (a contract may widen a row
                    * that is too narrow: the rest reads zero); 0: not copied (an output:
                    * the harness sets its windows) */
} td_rows_region;

/* The widest row-block must hold at least this many elements: the grid stays below
 * 2^25 programs (as a flat launch's with BLOCK >= 64). */
#define TD_ROWS_LARGE_MIN_LEN 64

/* Moves a case of R0 row-blocks (R0 > 0) to R > 2^31 / L of them over sparse regions
 * rr[0..nr) and sets the windows, large_regs, win_unit and the classes (offset-2^31,
 * multi-tile); the caller sets its row count (a parameter, grid[axis]) to *R.  0, or
 * -1 with the case unchanged (no address space, R0 = 0, a region shorter than R0 row-
 * blocks of len0, or L < TD_ROWS_LARGE_MIN_LEN). */
int td_rows_large(td_producer *p, td_case *c, uint64_t R0, const td_rows_region *rr, int nr, uint64_t *R);

/* The next row-block at or after r that a large case's windows hold (r itself in an
 * ordinary case; UINT64_MAX past the last window): a write set walks
 *     for (uint64_t r = td_large_row_next(c, 0); r < R; r = td_large_row_next(c, r + 1))
 * and adds (R - rows walked) * lanes per row to ws->dropped. */
static inline uint64_t td_large_row_next(const td_case *c, uint64_t r) {
    if (!c->nwin) return r;
    for (int w = 0; w < c->nwin; w++)
        if (r < c->win[w].hi) return r > c->win[w].lo ? r : c->win[w].lo;
    return UINT64_MAX;
}

#endif
