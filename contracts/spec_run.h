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
 * other lane (a NaN or infinite input) through the spec itself.  Binary32 operands are
 * read from the regions' arrays directly (td_spec_load's value wherever it is finite,
 * the only case used: the region's fields read once per run, not twice a lane). */
static inline void td_run_add2(td_shcx *cx, const td_case *c, const td_olane *l, size_t n, td_sh *out,
                               uint32_t *lf, int rx, int ry, td_spec_sh_fn lane) {
    const td_region *X = &c->r[rx], *Y = &c->r[ry];
    const uint8_t *xd = X->data, *yd = Y->data;
    size_t lim = X->fmt == TD_F32 && Y->fmt == TD_F32 ? (X->len < Y->len ? X->len : Y->len) : 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t off = l[i].off;
        double x, y;
        if (off < lim) {
            float fx, fy;
            memcpy(&fx, xd + 4 * off, sizeof fx);
            memcpy(&fy, yd + 4 * off, sizeof fy);
            x = fx, y = fy;
        } else {
            x = td_spec_load(c, rx, off), y = td_spec_load(c, ry, off);
        }
        cx->lane_flags = 0;
        out[i] = isfinite(x) && isfinite(y) ? td_sh_add_exact(cx, x, y) : lane(cx, c, &l[i]);
        lf[i] = cx->lane_flags;
    }
}

/* td_contract.ref_nonfinite of the same spec: where an operand is NaN or infinite, the
 * exact sum is NaN (a NaN operand, inf + -inf) or the infinity, and IEEE's binary64 sum
 * of the two loads is that value (MPFR's addition follows the same rules, and its
 * N(in) holds td_spec_load's value exactly).  Two finite operands: MPFR's (0). */
static inline int td_ref_add2_nonfinite(const td_case *c, const td_olane *l, int rx, int ry, double *ref) {
    const td_region *X = &c->r[rx], *Y = &c->r[ry];
    double x, y;
    if (X->fmt == TD_F32 && Y->fmt == TD_F32 && l->off < X->len && l->off < Y->len) {
        /* the binary32 values themselves (td_spec_load's but for a NaN's payload, which
         * the sum's class does not depend on), not a td_get call per NaN */
        float fx, fy;
        memcpy(&fx, (const uint8_t *)X->data + 4 * l->off, sizeof fx);
        memcpy(&fy, (const uint8_t *)Y->data + 4 * l->off, sizeof fy);
        x = fx, y = fy;
    } else {
        x = td_spec_load(c, rx, l->off), y = td_spec_load(c, ry, l->off);
    }
    if (isfinite(x) && isfinite(y)) return 0;
    *ref = x + y;
    return 1;
}

TD_NOCOV_END
#endif
