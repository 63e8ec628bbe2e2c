/* The kernel-library loader: dlopen a library that speaks the kernel ABI (the
 * built-in ones included), check its version, and bind each kernel to the contract
 * it implements with the cast profiles and math model it declares. */
#ifndef TD_LOADER_H
#define TD_LOADER_H

#include "contract.h"
#include "kernel_abi.h"

/* What a kernel declares about itself (ABI v2 `declares`); every field's zero value
 * is "nothing declared": the contract's admissible bound applies. */
typedef struct td_decl {
    td_order order;  /* TD_ORDER_ANY unless declared */
    long block;      /* for TD_ORDER_BLOCKED */
    int div_ieee;    /* 1: a/b is one correctly rounded division */
    char text[160];  /* the declarations as given, for reports ("" for none) */
} td_decl;

typedef struct td_kernel {
    const td_abi_kernel *abi;
    td_decl decl;
    uint32_t abi_version; /* of the table it came from (the launch record carries it) */
    const td_contract *k;
    td_profile casts[TD_MAX_CASTS];
    const td_math_model *math;
    const char *library; /* the table's library name */
    const char *path;    /* the file it was loaded from */
} td_kernel;

typedef struct td_kernel_set {
    void *handle; /* dlopen handle, NULL for a linked-in table */
    const td_abi_table *table;
    td_kernel *kernels;
    int n;
    char *path;
    /* kernels whose contract id is not in this tilediff's registry (listed, never run) */
    int n_unknown;
} td_kernel_set;

/* Loader errors (all exit 2 in the CLI). */
#define TD_LOAD_OK 0
#define TD_LOAD_OPEN 1      /* dlopen failed */
#define TD_LOAD_SYMBOL 2    /* no td_kernel_table symbol */
#define TD_LOAD_VERSION 3   /* another ABI version */
#define TD_LOAD_INVALID 4   /* malformed table (NULL fields, bad cast profile, unknown math model, bad declaration) */

/* Parses a `declares` string; 0, or -1 with a message naming the declaration. */
int td_decl_parse(const char *s, td_decl *d, char *err, size_t errlen);

int td_kernels_open(const char *path, td_kernel_set *set, char *err, size_t errlen);
/* The same for a backend: a Python kernel file (path ending in .py) is served by the
 * Triton bridge, which runs Triton's interpreter for the host backend and compiled
 * Triton for the cuda backend (kernels/triton/bridge.h). */
int td_kernels_open_for(const char *path, int backend, td_kernel_set *set, char *err, size_t errlen);
/* Progress of the launch in flight, for deadlines that follow a kernel's progress
 * rather than its wall time: a kernel library that can tell (the Triton bridge: one
 * tick per program instance the interpreter starts) increments *beat; the others
 * leave it alone.  Call it in the process that launches, with a counter its watcher
 * can read (shared memory); NULL stops the ticks. */
void td_kernels_set_progress(volatile uint64_t *beat);
/* Where libtilediff_triton.so is (TILEDIFF_TRITON_BRIDGE, next to the binary, installed). */
int td_triton_bridge_path(char *out, size_t n);
/* Binds a table already in the process (the fuzz targets link the built-in kernels). */
int td_kernels_bind(const td_abi_table *table, const char *name, td_kernel_set *set, char *err, size_t errlen);
void td_kernels_close(td_kernel_set *set);
/* Kernel for (contract, variant, backend); variant NULL: the non-mutant kernel. */
const td_kernel *td_kernels_find(const td_kernel_set *set, const char *contract, const char *variant, int backend);
/* 1 for a mutant only the large tier reaches (variant "mut_large_*": a bug of offsets
 * past 2^31 elements in a flat launch, contracts/gen_large.h).  selftest's kill matrix,
 * corpus-regress and the default-tier tests leave it out; `run --large` kills it. */
int td_kernel_large_only(const td_kernel *k);
/* The directory of the running executable's built-in kernel libraries. */
int td_builtin_library_path(int backend, char *out, size_t n);

#endif
