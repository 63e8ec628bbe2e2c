/* Shared pieces of the subcommands: options, kernel libraries, backends. */
#ifndef TD_CLI_COMMON_H
#define TD_CLI_COMMON_H

#include <stdint.h>
#include <stdio.h>

#include "backend.h"
#include "commands.h"
#include "harness.h"
#include "loader.h"

typedef struct td_cli {
    const char *cmd;        /* subcommand name, for messages */
    int backend;            /* TD_ABI_HOST / TD_ABI_CUDA */
    const char *kernels;    /* --kernels LIB.so (NULL: the built-in library) */
    const char *variant;    /* --kernel VARIANT */
    td_kernel_set set;
    int have_set;
    td_backend_ops dev;
    int have_dev;
    int against_intent;     /* --against intent: judge kernels by their contract's intent spec */
} td_cli;

/* Parses "--against intent|contract"; 0, or prints an error and returns -1. */
int td_cli_against(td_cli *c, const char *v);
/* The kernel as this CLI judges it: itself, or (--against intent) the same kernel bound
 * to its contract's intent (engine/audit.h); NULL with a message (unless quiet) when
 * the contract has no intent spec. */
const td_kernel *td_cli_as(td_cli *c, const td_kernel *kern, int quiet);

/* Parses "--backend host|cuda"; returns 0 or prints an error and returns -1. */
int td_cli_backend(td_cli *c, const char *v);
/* Loads the kernel library (built-in for the backend, or --kernels) and, for the CUDA
 * backend, opens the device.  Prints a message and returns the exit status on
 * failure (2), 0 on success. */
int td_cli_open(td_cli *c);
void td_cli_close(td_cli *c);
td_ctx *td_cli_ctx(td_cli *c, const td_ctx_opts *o);
/* The kernel of contract `id` to use (--kernel or the non-mutant one); NULL with a
 * message when the library does not implement it. */
const td_kernel *td_cli_kernel(td_cli *c, const td_contract *k, int quiet);

/* The exact command that replays artifact `path` with this CLI's library and backend. */
void td_cli_repro_cmd(const td_cli *c, const char *path, char *out, size_t n);
/* --large (contracts/gen_large.h): states on stdout what a large case of the contracts
 * `pattern` matches needs, and checks this machine can give it.  0, or TD_EXIT_USAGE
 * with the reason on stderr (no matched contract has a large tier, too little memory
 * or address space). */
int td_cli_large_statement(const td_cli *c, const char *pattern);

/* In an option loop over argv with index i: the option argv[i] needs a value. */
#define NEED_ARG()                                                                                           \
    do {                                                                                                     \
        if (i + 1 >= argc) {                                                                                 \
            fprintf(stderr, "tilediff %s: %s needs a value\n", argv[0], argv[i]);                            \
            return TD_EXIT_USAGE;                                                                            \
        }                                                                                                    \
    } while (0)
/* Monotonic seconds, for budgets and reports. */
double td_cli_now(void);
int td_parse_u64(const char *s, uint64_t *out);
int td_parse_double(const char *s, double *out);
/* glob match of contract ids ("softmax_*", "all" matches everything) */
int td_match(const char *pattern, const char *id);

/* the per-case watchdog of the CLI: a case that makes no progress for `seconds` is a
 * hang.  Progress is a launch that returned, or what the kernel library reports inside
 * a launch (td_watchdog_progress): a correct but slow kernel is not a hang.  On a hang
 * the case is written to `artifact_dir` and the process exits 1 (findings already made
 * were written as they were found). */
void td_watchdog_arm(unsigned seconds, const char *artifact_dir, const td_kernel *kern, const uint8_t *data,
                     size_t size);
void td_watchdog_disarm(void);
/* The progress counter the watchdog reads (NULL: none, the case's whole time counts). */
void td_watchdog_progress(volatile uint64_t *beats);
/* In a `run` worker: a hang ends the worker with TD_WATCHDOG_EXIT, without a word or an
 * artifact; the parent, which knows the case, reports it. */
void td_watchdog_quiet(int on);
#define TD_WATCHDOG_EXIT 124


#endif
