/* The shadow's addition of two exact finite operands, folded: what
 * td_sh_add(cx, td_sh_exact(cx, a), td_sh_exact(cx, b)) returns (and leaves in
 * cx->lane_flags), bit for bit, for finite a and b, computed without the general
 * rule's operand bounds (es = ek = ep = 0, both EXACTK, no leaves, nothing undefined).
 * No trace step: for run entries (td_contract.spec_sh_run), which the harness never
 * calls while a lane is traced (explain and reports replay the per-lane spec).
 * An elementwise add's shadow was ~115 instructions a lane through the general rule;
 * tests/test_judge_run.c compares the two on edge and random operands. */
#ifndef TD_SH_EXACT_ADD_H
#define TD_SH_EXACT_ADD_H

#include "shadow.h"

TD_NOCOV_BEGIN

static inline td_sh td_sh_add_exact(td_shcx *cx, double a, double b) {
    td_sh r;
    double v = a + b;
    /* td_sh_addop: es = 0 where TwoSum finds the binary64 sum exact (and finite) */
    double es = td_twosum_exact(a, b, v) ? 0 : td_nonan(td_up(0x1p-53 * fabs(v)));
    double m = fabs(v) + es;
    r.v = v;
    r.es = es;
    r.leaves = 0;
    if (m >= cx->ovf) cx->lane_flags |= TD_LF_MAYOVF;
    if (es == 0) { /* td_sh_rounded: the kernel rounds the exact sum once */
        double k = td_round_eval(cx, v);
        double d = k == v ? 0 : fabs(k - v);
        r.ek = r.ep = isfinite(d) ? d : INFINITY;
        if (!isfinite(d)) cx->lane_flags |= TD_LF_MAYOVF | TD_LF_UNBOUNDED;
        r.fl = d == 0 ? (TD_SH_EXACTK | TD_SH_CR) : TD_SH_CR;
        return r;
    }
    /* td_sh_rounded with P = Pp = 0, no eta (a sum's subnormal result is exact) */
    r.ek = r.ep = td_up(cx->u * m);
    r.fl = TD_SH_CR;
    if (m >= cx->ovf || !(r.ek < INFINITY)) {
        r.ek = r.ep = INFINITY;
        cx->lane_flags |= TD_LF_UNBOUNDED;
    }
    return r;
}

TD_NOCOV_END
#endif
