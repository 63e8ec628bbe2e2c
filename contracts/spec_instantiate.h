/* Compiles the spec part of the including contract file once per number type.
 * See spec.h.  The including file must be compiled under its absolute path
 * (CMake does this), since the file includes itself through __BASE_FILE__ (GCC and Clang: the main source file being compiled; a unity build would break this). */
#include "spec.h"

#define TD_SPEC_PASS 1

#define NUM td_sh
#define NCX td_shcx
#define NB td_shb
#define NACC td_sh_acc
#define N(op) td_sh_##op
#define SPEC(name) name##_sh
#include __BASE_FILE__
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
#include __BASE_FILE__
#undef NUM
#undef NCX
#undef NB
#undef NACC
#undef N
#undef SPEC

#undef TD_SPEC_PASS
/* In the contract table: .spec_sh = name_sh, .spec_mp = name_mp */
#define TD_SPECS(name) .spec_sh = name##_sh, .spec_mp = name##_mp
