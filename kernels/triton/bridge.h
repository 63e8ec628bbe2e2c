/* The Triton bridge: a kernel library whose kernels are registered in a Python file.
 *
 * libtilediff_triton.so embeds CPython and serves a `kernels.py` (registered with
 * tilediff_triton's @kernel decorator) through the ordinary kernel ABI.  The loader
 * opens it when --kernels names a .py file and calls td_triton_open() instead of
 * td_kernel_table(): the Python side needs the contract's parameter and region names
 * (launches receive them by name), which only tilediff's registry knows, so the loader
 * hands the bridge a function that describes a contract. */
#ifndef TD_TRITON_BRIDGE_H
#define TD_TRITON_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_abi.h"

#define TD_TB_MAX_ARGS 32

/* One contract's launch signature, in the declared order. */
typedef struct td_tb_signature {
    uint32_t nparams, nregions;
    const char *pnames[TD_TB_MAX_ARGS];
    int pkinds[TD_TB_MAX_ARGS]; /* 0 integer, 1 real, 2 boolean (td_pkind) */
    const char *rnames[TD_TB_MAX_ARGS];
    /* the contract's cast slots and their default profiles ("fp16:rne:inf"): the host
     * backend declares the interpreter's measured casts for them */
    uint32_t ncasts;
    const char *cslots[TD_TB_MAX_ARGS];
    const char *cdefaults[TD_TB_MAX_ARGS];
} td_tb_signature;

/* Fills *out for a contract id; 0, or -1 when tilediff does not know the id. */
typedef int (*td_tb_describe_fn)(const char *contract_id, td_tb_signature *out);

/* Loads `script` (a Python file) for `backend` (enum td_abi_backend: the host backend
 * runs Triton's interpreter, the cuda backend compiled Triton) and returns its table,
 * or NULL with a message.  One script per process: Python is initialised once. */
typedef const td_abi_table *(*td_tb_open_fn)(const char *script, int backend, td_tb_describe_fn describe, char *err,
                                             size_t errlen);
#define TD_TB_OPEN_SYMBOL "td_triton_open"
#define TD_TB_LIBRARY "libtilediff_triton.so"

/* Points the bridge's progress counter at `beat` (NULL: none): it is incremented once
 * per program instance the interpreter starts.  The CLI calls it in each child whose
 * deadline its parent enforces (engine/loader.h td_kernels_set_progress). */
typedef void (*td_tb_progress_fn)(volatile uint64_t *beat);
#define TD_TB_PROGRESS_SYMBOL "td_triton_progress"

/* Return value of a launch the backend cannot run (an interpreter limit, no GPU); the
 * message starts with "not covered on this backend: ". */
#define TD_TB_UNSUPPORTED TD_ABI_NOT_COVERED

#endif
