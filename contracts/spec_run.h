/* Run entries (td_contract.spec_sh_run) written for a lane formula rather than generated
 * from the spec (TD_SPEC_RUN_DEFINE, spec_instantiate.h): for the simplest, most
 * frequent specs, where the general shadow rules were most of a lane's cost.  Each must
 * give what the contract's per-lane spec gives, bit for bit (tests/test_judge_run.c
 * checks every run entry against its spec on random cases). */
#ifndef TD_SPEC_RUN_H
#define TD_SPEC_RUN_H

#include "spec.h"
#include "sh_exact_add.h"

TD_NOCOV_BEGIN

/* The run entry of a spec that is N(add)(N(in)(rx, off), N(in)(ry, off)) at each lane's
 * offset (`lane`: that spec): finite operands through the folded exact addition, any
 * other lane (a NaN or infinite input) through the spec itself. */
static inline void td_run_add2(td_shcx *cx, const td_case *c, const td_olane *l, size_t n, td_sh *out,
                               uint32_t *lf, int rx, int ry, td_spec_sh_fn lane) {
    for (size_t i = 0; i < n; i++) {
        double x = td_spec_load(c, rx, l[i].off), y = td_spec_load(c, ry, l[i].off);
        cx->lane_flags = 0;
        out[i] = isfinite(x) && isfinite(y) ? td_sh_add_exact(cx, x, y) : lane(cx, c, &l[i]);
        lf[i] = cx->lane_flags;
    }
}

TD_NOCOV_END
#endif
