/* Compiles a contract's spec once per number type.  The contract file names its spec
 * file and includes this header after the enums the spec uses:
 *
 *   #define TD_SPEC_FILE "add_example.spec.h"
 *   #include "spec_instantiate.h"
 *
 * The spec file is included twice: with NUM = td_sh (the shadow: a binary64 value and
 * error bounds, the tolerance) and with NUM = td_mp (MPFR, the reference), so
 * SPEC(add) defines add_sh and add_mp, two ordinary static functions; the contract
 * table names both with TD_SPECS(add).  Nothing is dispatched at run time: each
 * N(op) is a direct call to td_sh_op or td_mp_op (mostly static inline).
 * The spec file has no include guard (it is meant to be read twice) and includes the
 * spec half of its family's helpers (e.g. softmax_common.spec.h) itself.
 * Nothing here depends on which file is being compiled, so a contract compiles the
 * same way when a unity build includes it from a generated source. */
#ifndef TD_SPEC_FILE
#error "define TD_SPEC_FILE as the contract's spec file before including spec_instantiate.h"
#endif
#include "spec.h"

/* The spec's functions carry no fuzzing coverage instrumentation (oracle/nocov.h:
 * the oracle's loops are the same for every input of a shape).  They are called
 * through the contract table, never inlined into instrumented code. */
TD_NOCOV_BEGIN

#define NUM td_sh
#define NCX td_shcx
#define NB td_shb
#define NACC td_sh_acc
#define N(op) td_sh_##op
#define SPEC(name) name##_sh
#include TD_SPEC_FILE
#undef NUM
#undef NCX
#undef NB
#undef NACC
#undef N
#undef SPEC

#define NUM td_mp
#define NCX td_mpcx
#define NB td_mpb
#define NACC td_mp_acc
#define N(op) td_mp_##op
#define SPEC(name) name##_mp
#include TD_SPEC_FILE
#undef NUM
#undef NCX
#undef NB
#undef NACC
#undef N
#undef SPEC

TD_NOCOV_END

#undef TD_SPEC_FILE
/* In the contract table: .spec_sh = name_sh, .spec_mp = name_mp */
#define TD_SPECS(name) .spec_sh = name##_sh, .spec_mp = name##_mp

/* The run entry of a spec (td_contract.spec_sh_run) for a contract that opts into the
 * batched verdict path: after including this header, TD_SPEC_RUN_DEFINE(add) defines
 * add_sh_run, the per-lane add_sh called directly lane after lane (the compiler may
 * inline it: no call through the table per lane), and TD_SPECS_RUN(add) in the table
 * names all three.  The values are add_sh's by construction (the same function); the
 * lane flags are cleared before each lane as the per-lane path does.  flatten inlines
 * the spec and the shadow's operations into the loop (a call of the spec per lane, its
 * operands passed as whole td_sh values, was most of an add's cost); the compiler then
 * folds what the exact inputs make constant (their es, ek, flags). */
#define TD_SPEC_RUN_DEFINE(name)                                                                                 \
    TD_NOCOV_BEGIN                                                                                              \
    __attribute__((flatten)) static void name##_sh_run(td_shcx *cx, const td_case *c, const td_olane *l,       \
                                                       size_t n, td_sh *out, uint32_t *lf) {                    \
        for (size_t i = 0; i < n; i++) {                                                                        \
            cx->lane_flags = 0;                                                                                 \
            out[i] = name##_sh(cx, c, &l[i]);                                                                   \
            lf[i] = cx->lane_flags;                                                                             \
        }                                                                                                       \
    }                                                                                                           \
    TD_NOCOV_END
#define TD_SPECS_RUN(name) TD_SPECS(name), .spec_sh_run = name##_sh_run
