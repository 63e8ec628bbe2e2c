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
    for (int w = 0; w < c->nwin; w++)
        if (i < c->win[w].hi) return i > c->win[w].lo ? i : c->win[w].lo;
    return UINT64_MAX;
}

#endif
