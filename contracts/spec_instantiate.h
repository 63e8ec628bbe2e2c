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
