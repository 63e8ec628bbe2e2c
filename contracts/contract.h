/* Contracts: what a catalogue contract becomes in tilediff.
 *
 * A contract is data plus a few functions (one file per catalogue kernel file,
 * contracts/<kernel_file>.c, registered automatically by CMake):
 *   - its declared parameters and regions, in the catalogue's order (the kernel ABI
 *     passes them in this order);
 *   - gen:    bytes -> a case that meets the preconditions by construction;
 *   - check:  the preconditions as an explicit checker (names the failing hypothesis);
 *   - writes: the write set (region, element offset, logical output index of every
 *             active lane, from the contract's write/writeMask formulas);
 *   - spec:   the lane formula, written once against the number vocabulary (spec.h)
 *             and compiled for the shadow and the MPFR number types;
 *   - cast slots with default profiles, the special-value policy, and the boundary
 *     classes its generator aims at.
 * docs/contracts.md explains how to write one.
 */
#ifndef TD_CONTRACT_H
#define TD_CONTRACT_H

#include <stddef.h>
#include <stdint.h>

#include "mp.h"
#include "nocov.h" /* TD_NO_COVERAGE */
#include "producer.h"
#include "rounding.h"
#include "shadow.h"

#define TD_MAX_PARAMS 64
#define TD_MAX_REGIONS 24
#define TD_MAX_CASTS 8

typedef enum td_pkind { TD_P_INT = 0, TD_P_REAL, TD_P_BOOL } td_pkind;

typedef struct td_param_decl {
    const char *name;
    td_pkind kind;
} td_param_decl;

typedef enum td_role {
    TD_R_IN = 1,     /* read only */
    TD_R_OUT = 2,    /* written (cells outside the write set must keep the sentinel) */
    TD_R_INOUT = 3,  /* read and written in place (cells outside the write set keep their value) */
    TD_R_META = 5,   /* read-only integer / bool metadata (labels, masks, indices) */
    /* written by the kernel, but not an output the contract speaks about (e.g. the index
     * output of a theorem that states only the value output of a value+index kernel):
     * its cells are not checked, only its guard zones */
    TD_R_SCRATCH = 8
} td_role;

typedef struct td_region_decl {
    const char *name;
    td_fmt fmt;
    td_role role;
} td_region_decl;

typedef struct td_cast_decl {
    const char *slot;       /* "store", "p", ... */
    const char *dflt;       /* default profile, e.g. "fp16:rne:inf" */
    const char *where;      /* one line: where in the computation the cast happens */
} td_cast_decl;

/* Special-value policy: what the oracle expects where binary32 cannot follow the
 * real-valued spec.  Each contract declares one; reports name it. */
typedef enum td_sv_policy {
    /* The spec is over the reals: a non-finite output where the exact value is finite
     * is a disagreement, however close to the overflow threshold it is. */
    TD_SV_REAL = 0,
    /* IEEE binary32 semantics at the edges: where the error model says the kernel's
     * evaluation may overflow (or a cast may reach inf/NaN), may leave a function's
     * domain (log 0: TD_LF_DOMAIN) or may divide by 0 (TD_LF_UNBOUNDED), an infinity of
     * the reference's sign is accepted; a NaN only where the model also shows an
     * invalid operation reaching the output (engine/harness.c, rule_nan_admissible);
     * everything else is checked as under REAL. */
    TD_SV_IEEE
} td_sv_policy;

typedef union td_pval {
    int64_t i;
    double r;
} td_pval;

typedef struct td_region {
    td_fmt fmt;
    size_t len;   /* elements */
    void *data;   /* initial contents (what the kernel reads), owned by the case */
    size_t mapped; /* bytes of a sparse mapping (td_case_alloc_sparse), else 0 (heap) */
} td_region;

/* Boundary classes a case can hit (bit numbers); names in td_bclass_name(). */
enum td_bclass {
    TD_BC_SINGLE_LANE = 0, /* one active lane in total */
    TD_BC_ONE_PROGRAM,     /* the grid has one program */
    TD_BC_TAIL_BELOW,      /* n = k*BLOCK - 1 */
    TD_BC_EXACT_MULTIPLE,  /* n = k*BLOCK */
    TD_BC_TAIL_ABOVE,      /* n = k*BLOCK + 1 */
    TD_BC_TAIL,            /* n not a multiple of BLOCK (any other tail) */
    TD_BC_BLOCK_GT_N,      /* BLOCK much larger than n (>= 4x) */
    TD_BC_INPLACE,         /* an output aliases an input */
    TD_BC_STRIDE_GT_ROW,   /* a row stride larger than the row */
    TD_BC_META_EXTREME,    /* metadata at its extremes (ignore index, empty segments, max ids) */
    TD_BC_FULLY_MASKED,    /* a whole row / tile / block masked off */
    TD_BC_VALUES_SPECIAL,  /* values at format thresholds, ties, subnormals, +-0 */
    TD_BC_VALUES_LARGE,    /* values large enough to overflow a naive exp */
    TD_BC_MULTI_TILE,      /* a loop over several tiles / steps */
    TD_BC_OFFSET_2_31,     /* an element offset beyond 2^31 (large strides over sparse memory) */
    /* metadata classes (contracts/gen_meta.h): index tensors, ragged batches, positions */
    TD_BC_IDX_PERMUTATION, /* destination slots are a permutation of the whole cache */
    TD_BC_IDX_FIRST_LAST,  /* the first and the last legal slot / index are both used */
    TD_BC_IDX_REPEATS,     /* an index repeated (gather / embedding lookups of one token) */
    TD_BC_SEQ_EMPTY,       /* a sequence of length 0 in a ragged batch */
    TD_BC_SEQ_SINGLE,      /* a sequence of length 1 */
    TD_BC_SEQ_BLOCK_EDGE,  /* a sequence length of B - 1, B or B + 1 for the kernel's block B */
    TD_BC_SEQ_ENDS_AT_END, /* the last sequence ends exactly at the end of its buffer */
    TD_BC_POS_EXTREME,     /* position id 0 and the largest legal position */
    TD_BC_POS_NONMONOTONE, /* position ids not increasing along the sequence */
    TD_BC_ADAPTER_NONE,    /* LoRA: a token with "no adapter" */
    TD_BC_SLICE_EDGE,      /* LoRA: a rank or slice at the edge of the output slice */
    TD_BC_MASK_PATTERN,    /* a boolean mask all false, all true, alternating or one true at the end */
    TD_BC_ACC_NEAR_LIMIT,  /* an integer accumulator's exact sum near its format's limit (int32 matmuls) */
    TD_BC_COUNT
};
const char *td_bclass_name(int bit);
#define TD_BC(x) (1ull << (x))
/* what td_gen_count + td_vgen_init can reach for a 1-D tiled launch */
#define TD_BCLASSES_TILED                                                                                       \
    (TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_EXACT_MULTIPLE) | \
     TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) |            \
     TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE))

typedef struct td_contract td_contract;

/* The large tier (contracts/gen_large.h): element ranges [lo, hi) of the large regions
 * that are real memory and that the oracle judges; the rest of such a region is
 * reserved address space the kernel runs over unchecked. */
typedef struct td_window {
    uint64_t lo, hi;
} td_window;
#define TD_MAX_WINDOWS 8

typedef struct td_case {
    const td_contract *k;
    td_pval p[TD_MAX_PARAMS];
    uint32_t grid[3];
    td_region r[TD_MAX_REGIONS];
    uint64_t classes; /* boundary classes hit (bits of enum td_bclass) */
    uint64_t seed;    /* seed of the value generator */
    int menu;         /* value distribution chosen */
    /* large tier only (0 otherwise): the regions of more than 2^31 elements (bits), and
     * the sorted, disjoint windows of them the oracle judges */
    uint32_t large_regs;
    int nwin;
    td_window win[TD_MAX_WINDOWS];
    /* the unit of the windows in region i: win[w] covers its elements [lo * u, hi * u)
     * with u = win_unit[i], 0 meaning 1 (a flat launch: the windows are elements of every
     * region alike; a launch of row-blocks, td_rows_large: they are row-blocks, each
     * region with its own row length) */
    uint64_t win_unit[TD_MAX_REGIONS];
} td_case;

/* The elements [lo, hi) of region i that window w of case c covers. */
static inline td_window td_case_window(const td_case *c, int i, int w) {
    uint64_t u = c->win_unit[i] ? c->win_unit[i] : 1;
    return (td_window){c->win[w].lo * u, c->win[w].hi * u};
}

/* One active output lane of the write set. */
typedef struct td_olane {
    uint32_t o;       /* output channel (out1, out2, ...: 0-based) */
    uint32_t region;  /* region written */
    uint64_t off;     /* element offset in that region */
    uint32_t pid[3];  /* program ids */
    uint32_t t;       /* stream step (Emit classes), else 0 */
    uint64_t j;       /* lane index inside the program's tile (flattened) */
    int64_t idx[4];   /* contract-defined logical indices (row, column, ...) */
} td_olane;

typedef struct td_wset {
    td_olane *v;
    size_t n, cap;
    int oom;
    /* large tier: lanes of the regions in win_regs outside the windows are not kept,
     * only counted in `dropped` (set by the harness; 0 / NULL: every lane is kept) */
    uint32_t win_regs;
    int nwin;
    const td_window *win;
    uint64_t dropped;
    const uint64_t *win_unit; /* td_case.win_unit of the windows' case; NULL: units are elements */
} td_wset;
void td_wset_add(td_wset *ws, const td_olane *l);
/* Sorts the lanes by (region, off): a radix sort of compact keys (region * span + off),
 * qsort where the keys would not fit 64 bits or memory runs out.  Lanes of equal
 * (region, off) keep their order (the harness reports such a pair as its own bug). */
void td_wset_sort(td_wset *ws);

/* A production shape (certify --shape production, docs/production-shapes.md): the
 * sizes of a real model's launch; the meaning of d[] is the family's. */
typedef struct td_shape {
    int64_t d[6];
} td_shape;

typedef td_sh (*td_spec_sh_fn)(td_shcx *cx, const td_case *c, const td_olane *l);
typedef td_mp (*td_spec_mp_fn)(td_mpcx *cx, const td_case *c, const td_olane *l);
/* A contract's shadow spec over a run of lanes (td_contract.spec_sh_run): for each
 * i < n in order, out[i] is what spec_sh(cx, c, &l[i]) returns and lf[i] the lane flags
 * it leaves in cx->lane_flags (cleared before each lane): the per-lane spec, called n
 * times in one loop (spec_instantiate.h, TD_SPEC_RUN_DEFINE). */
typedef void (*td_spec_sh_run_fn)(td_shcx *cx, const td_case *c, const td_olane *l, size_t n, td_sh *out,
                                  uint32_t *lf);

/* The intent of a contract: the operation a reader takes the kernel to compute (layer
 * norm, softmax, ...), written once from its public definition in the same spec
 * vocabulary, over the contract's own parameters and regions (`tilediff audit`
 * compares it with the contract's spec; `certify --against intent` checks kernels
 * against it).  Its value is the operation's exact value; the only cast it may apply is
 * the contract's output cast (a textbook implementation rounds once, to the output). */
typedef struct td_intent {
    const char *operation;  /* "layer norm of each row over its n_cols columns" */
    const char *definition; /* the public definition used (the PyTorch operator or the paper) */
    td_spec_sh_fn spec_sh;  /* the intent's value and its admissible error (certify --against intent) */
    td_spec_mp_fn spec_mp;  /* its exact value */
    /* NULL when the case holds everything the operation needs; else why not (e.g. a row
     * of n_cols columns of which the contract's launch reads only BLOCK_SIZE): the
     * contract then computes something the operation does not define on such a case.
     * NULL function: always defined. */
    const char *(*gap)(const td_case *c);
    /* the lanes the operation writes, when they are not the contract's; NULL: the same */
    void (*writes)(const td_case *c, td_wset *ws);
    /* NULL when the contract's lanes on the case are the operation's own values; else why
     * not: they are partials of a split reduction that the kernel's host combines (a
     * per-block log-sum-exp, a shard of the classes), which the operation does not define
     * lane by lane.  Such a case is neither agreement nor difference: audit does not
     * compare it, certify --against intent does not cover it.  NULL function: never. */
    const char *(*partial)(const td_case *c);
} td_intent;

struct td_contract {
    const char *id;        /* <kernel_file>.<theorem>, exactly as in the catalogue */
    const char *file;      /* kernel file */
    const char *family;    /* "elementwise", "reduction", "softmax", ... */
    const char *io_class;  /* the catalogue's IO class */
    const char *kind;      /* "exact" or "rounding" */
    const char *formula;   /* the lane formula as the report prints it */
    int nparams;
    const td_param_decl *params;
    int nregions;
    const td_region_decl *regions;
    int ncasts;
    const td_cast_decl *casts;
    td_sv_policy sv;
    const char *sv_note;   /* the policy in one line for reports (division by zero, empty rows...) */
    const char *error_model; /* the error model in one line for reports */
    uint64_t classes;      /* boundary classes the generator can hit */
    /* bytes -> case; never fails (any byte string gives a valid case). */
    void (*gen)(td_producer *p, td_case *c);
    /* NULL when every precondition holds; otherwise the failing hypothesis' name. */
    const char *(*check)(const td_case *c);
    void (*writes)(const td_case *c, td_wset *ws);
    /* Optional (contracts/gen_far.h): moves a decoded case to element offsets beyond
     * 2^31 (class TD_BC_OFFSET_2_31) with large strides over sparse regions; called
     * after gen, only for inputs of the far tier (td_far_tier), so every other input
     * decodes as before.  Leaves the case unchanged where its shape cannot reach such
     * offsets (one row, nothing read). */
    void (*far)(td_producer *p, td_case *c);
    /* Optional (contracts/gen_large.h): moves a decoded flat case to more than 2^31
     * elements (the large tier, `--large`); called after gen, only for inputs of the
     * large tier (td_large_tier).  Sets large_regs and the windows; leaves the case
     * unchanged when the address space cannot be reserved. */
    void (*large)(td_producer *p, td_case *c);
    td_spec_sh_fn spec_sh;
    td_spec_mp_fn spec_mp;
    /* Optional: spec_sh over a run of lanes (TD_SPECS_RUN), for the harness's batched
     * verdict path (engine/harness.c, judge_run): worth it where the per-lane spec is
     * small (one or two rounded operations on loaded operands, no per-row memo), so
     * that the call and the per-lane rules were most of a lane's cost.  NULL: every
     * lane goes through spec_sh. */
    td_spec_sh_run_fn spec_sh_run;
    /* Optional, with spec_sh_run: 1 with the lane's exact value in *ref where that value
     * is NaN or +-inf and known without MPFR (a sum with a NaN or infinite operand is
     * IEEE's binary64 sum of the operands, as MPFR's is), 0 elsewhere.  The batched path
     * judges such a lane on it instead of on MPFR's reference (the special-value rules
     * read only what the reference is: NaN, or an infinity and its sign); the per-lane
     * path and --mpfr-all keep MPFR's.  Only for a spec whose output is not cast (a
     * report prints no value before a cast for it). */
    int (*ref_nonfinite)(const td_case *c, const td_olane *l, double *ref);
    /* Optional: a per-case pre-pass for specs that need per-row data computed once
     * (NULL for elementwise contracts). */
    /* Special-value policy, continued (both default to false):
     * signed_zero: the spec distinguishes -0 from +0, so a zero of the wrong sign against
     *   an exact zero reference is a disagreement (specs over the reals do not);
     * nonfinite_inputs: the preconditions allow NaN and +-inf inputs (the spec is IEEE
     *   arithmetic on them), so the generators also draw them (the TD_V_IEEE menu). */
    bool signed_zero;
    bool nonfinite_inputs;
    /* The operation the contract is read as (NULL: its family has no standard meaning). */
    const td_intent *intent;
    /* true in the copy `certify --against intent` judges by (engine/audit.c): its spec is
     * the intent's, and a case the intent's gap names is not covered. */
    bool by_intent;
    /* Optional: bytes + a production shape -> a case at that shape (the values still
     * drawn from the bytes); NULL when the contract has none. */
    void (*gen_shape)(td_producer *p, td_case *c, const td_shape *s);
};

/* ---- the registry (generated by CMake from the files in contracts/) ---- */
int td_contract_count(void);
const td_contract *td_contract_at(int i);
const td_contract *td_contract_find(const char *id);

/* ---- cases ---- */
void td_case_init(td_case *c, const td_contract *k);
void td_case_free(td_case *c);
/* Allocates region `reg` with `len` elements (zeroed). Aborts on out-of-memory. */
void *td_case_alloc(td_case *c, int reg, size_t len);
/* The same as a sparse mapping (MAP_NORESERVE: reserved, not committed; every page
 * reads as zero until written), so a region of 2^31 elements of which a few rows are
 * written costs those rows' pages.  NULL (the region left empty) when the address
 * space cannot be reserved. */
void *td_case_alloc_sparse(td_case *c, int reg, size_t len);
/* For a page-aligned mapping [base, base + bytes) (a sparse region, or an image of
 * one): calls fn(user, lo, hi) for the byte ranges of the pages that were touched and
 * hold a nonzero byte; every other page reads as zero. */
void td_touched_pages(const void *base, size_t bytes, void (*fn)(void *, size_t, size_t), void *user);
/* 1 when every element of region `reg` has |value| <= bound (NaN fails); of a sparse
 * region only the written pages are read (the others hold zeros), so a precondition
 * scan of a far case costs what its rows do, not 2^31 elements. */
int td_region_abs_le(const td_case *c, int reg, double bound);
/* Frees a region's contents (heap or mapping). */
void td_region_release(td_region *R);
/* Element access (exact decoded value / raw integer). */
double td_get(const td_case *c, int reg, size_t off);
int64_t td_geti(const td_case *c, int reg, size_t off);
void td_set(td_case *c, int reg, size_t off, double v); /* v must be representable (cast RNE otherwise) */
void td_seti(td_case *c, int reg, size_t off, int64_t v);
/* Elements [off, off + n) of region reg set to v[0..n): the same as n calls of td_set,
 * with the format dispatched once (bulk value generation stores through it). */
void td_set_array(td_case *c, int reg, size_t off, const double *v, size_t n);
/* The whole case, decoded, for reports: "n_elements=37 BLOCK_SIZE=16 grid=[3,1,1] ..." */
void td_case_describe(const td_case *c, char *buf, size_t n);
/* Integer parameter by name, or def. */
int64_t td_param_i(const td_case *c, const char *name, int64_t def);

#endif
