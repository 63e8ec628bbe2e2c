/* td_sh_lrec_step: see lrec.h for the model and the implementations it covers. */
#include "lrec.h"
#include "nocov.h"

/* the oracle: no fuzzing coverage instrumentation (nocov.h) */
TD_NOCOV_BEGIN

td_sh td_sh_lrec_step(td_shcx *cx, td_sh h, td_sh a, td_sh b, double mag[2]) {
    double ma = td_mag(a), mh = td_mag(h);
    td_sh r;
    r.v = fma(a.v, h.v, b.v);
    r.es = td_nonan(td_up(ma * h.es + mh * a.es + a.es * h.es + b.es + 0x1p-53 * fabs(r.v) + 0x1p-1074));
    r.leaves = 0;
    /* the kernel's perturbed operands: |a^ h^| + |b^| <= S (M_{t-1} >= |h^|) */
    double S = td_up(td_magk(a) * mag[0] + td_magk(b));
    double P = td_up(ma * h.ek + mh * a.ek + a.ek * h.ek + b.ek);
    double Pp = td_up(ma * h.ep + mh * a.ep + a.ep * h.ep + b.ep);
    /* TD_LREC_ROUNDINGS roundings relative to the magnitude state, (1 + u) for the
     * rounded product inside the sum; underflow: eta (3 + max M), see lrec.h */
    double local = td_up(TD_LREC_ROUNDINGS * cx->u * (1 + cx->u) * S + cx->eta * (3 + mag[1]));
    P = td_nonan(P);
    Pp = td_nonan(Pp);
    r.ek = td_up(P + local);
    r.ep = fmin(td_up(Pp + local), r.ek);
    r.fl = (a.fl | h.fl | b.fl) & TD_SH_UNDEF;
    if (r.v != r.v && a.es == 0 && h.es == 0 && b.es == 0 && a.v == a.v && h.v == h.v && b.v == b.v)
        r.fl |= TD_SH_UNDEF;
    if (S + P >= cx->ovf || !(r.ek < INFINITY)) {
        cx->lane_flags |= TD_LF_MAYOVF | TD_LF_UNBOUNDED;
        r.ek = r.ep = INFINITY;
    }
    mag[0] = td_up(fmax(S, fabs(r.v) + r.es) + r.ek);
    mag[1] = fmax(mag[1], mag[0]);
    TD_SH_TRACE(cx, "lrec step", r, P, local, 0, "h = a*h + b: |a| ek_h + |h| ek_a + ek_b, + 3u M_t + eta (3 + max M) (M_t = |a| M + |b|)");
    return r;
}

/* td_sh_lrec_any: see lrec.h (the any-order chunk's shortfall over the per-step charge) */
td_sh td_sh_lrec_any(td_shcx *cx, td_sh h, const double mag[2], int64_t n) {
    double w = n > 2 ? (double)(n - 2) : 0.0;
    return td_sh_widen(cx, h, td_up(w * cx->u * (1 + cx->u) * mag[0]), "lrec: a chunk of up to n steps summed in any order, (n - 2)^+ u M");
}

TD_NOCOV_END
