/* Generator helpers shared by the contracts: shapes that favour the boundaries,
 * and the value menu of DESIGN.md. */
#ifndef TD_GEN_H
#define TD_GEN_H

#include "contract.h"

/* A power of two in [2^lo_log2, 2^hi_log2] (Triton block sizes are constexpr powers of 2). */
uint32_t td_gen_pow2(td_producer *p, int lo_log2, int hi_log2);

/* An element count n for a tiled launch with block B, favouring the boundary
 * classes: a single element, n = k*B - 1, k*B, k*B + 1, B >= 4n (one program,
 * mostly masked), one program exactly full, and free sizes up to max_n.  Sets the
 * matching bits in *classes (td_bclass). n >= 1 and n <= max_n always. */
uint64_t td_gen_count(td_producer *p, uint64_t B, uint64_t max_n, uint64_t *classes);
/* Same, for a count that may be 0 (empty rows / tensors) when allow_zero. */
uint64_t td_gen_count0(td_producer *p, uint64_t B, uint64_t max_n, uint64_t *classes, int allow_zero);
/* Marks the shape classes implied by n, B (tail, exact multiple, one program...). */
void td_gen_mark_shape(uint64_t n, uint64_t B, uint64_t programs, uint64_t *classes);

/* ---- values ----
 * The value menu: each entry is a distribution of binary32-representable values.
 * A contract passes the set of menu entries that make sense for it and a magnitude
 * bound (its domain: e.g. |x| <= 80 where exp(x) must stay finite, or where a
 * product must not overflow).  Values are always exactly representable in the
 * region's format, and finite except under TD_V_IEEE, which only contracts whose
 * preconditions allow NaN and +-inf inputs draw (td_contract.nonfinite_inputs). */
enum td_menu {
    TD_V_SMALL = 0,   /* uniform in [-1, 1] */
    TD_V_WIDE,        /* random sign, exponent uniform over a wide range, random mantissa */
    TD_V_TIES,        /* ties and boundaries of the narrow formats (fp16/bf16/fp8 midpoints, max, min normal) */
    TD_V_SPECIAL,     /* +-0, subnormals, min normal, powers of two, integers */
    TD_V_LARGE,       /* large magnitudes near the bound (e.g. scores that overflow a naive exp) */
    TD_V_INTS,        /* small integers (exact arithmetic) */
    TD_V_CONST,       /* every element the same value */
    TD_V_IEEE,        /* NaN, +-inf, -0, subnormals of the format, among small values (opt-in: see above) */
    TD_V_COUNT
};
#define TD_VM(x) (1u << (x))
#define TD_VM_ALL ((1u << TD_V_IEEE) - 1) /* every menu of finite values */
const char *td_menu_name(int m);

typedef struct td_vgen {
    td_rng rng;
    int menu;      /* the distribution this case uses */
    double bound;  /* |values| <= bound */
    double cval;   /* TD_V_CONST value */
} td_vgen;

/* Chooses the distribution (from `allowed`, a TD_VM mask) and the seed from the
 * bytes; records them in the case. Marks TD_BC_VALUES_* classes. */
void td_vgen_init(td_vgen *g, td_producer *p, td_case *c, unsigned allowed, double bound);
/* One value for a region of format f (exactly representable in f). */
double td_vgen_value(td_vgen *g, td_fmt f);
/* n values for a region of format f: exactly the values of n calls of td_vgen_value,
 * leaving the generator where those calls would, but generated in bulk (the menu and
 * the format are dispatched once per chunk, not once per value). */
void td_vgen_values(td_vgen *g, td_fmt f, double *out, size_t n);
/* Fills elements [0, len) of region reg (td_vgen_values, then td_set_array). */
void td_vgen_fill(td_vgen *g, td_case *c, int reg);
/* Fills elements [off, off + n) of region reg with values drawn for format f: what
 * td_set(c, reg, off + i, td_vgen_value(g, f)) for i = 0 .. n-1 does, in bulk. */
void td_vgen_fill_as(td_vgen *g, td_case *c, int reg, size_t off, size_t n, td_fmt f);
/* A binary32 value in [lo, hi] (for real parameters such as p, lr, eps). */
double td_gen_real(td_producer *p, double lo, double hi);

#endif

/* ---- the flat 1-D masked launch (MaskedKernelIO with read = write = pid*BLOCK) ----
 * Shared by the elementwise contracts whose lane address is pid * BLOCK + j and whose
 * mask is pid * BLOCK + j < n: picks BLOCK (a power of two up to 2^max_log2_block) and
 * n with td_gen_count, sets the grid to cdiv(n, BLOCK), and allocates every region in
 * regs with n elements, sometimes plus slack (so masked-off lanes have cells to
 * wrongly write inside the allocation). */
void td_flat_shape(td_producer *p, td_case *c, int p_n, int p_block, int max_log2_block, uint64_t max_n,
                   const int *regs, int nregs);
/* The preconditions every flat launch shares (BLOCK > 0, regions hold n, grid covers n);
 * NULL or the failing hypothesis. */
const char *td_flat_check(const td_case *c, int p_n, int p_block, const int *regs, int nregs);
/* One output lane per active (pid, j) for each output region outs[o] (o = output channel). */
void td_flat_writes(const td_case *c, td_wset *ws, int p_n, int p_block, const int *outs, int nouts);
