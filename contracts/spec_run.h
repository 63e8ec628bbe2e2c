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

TD_NOCOV_END
#endif
