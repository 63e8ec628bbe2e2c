/* The spec of contracts/layer_norm_ops.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "layernorm_common.spec.h"

static NUM SPEC(fwd_plain)(NCX *cx, const td_case *c, const td_olane *l) {
    static const int src[3] = {FP_VALUEPRE, FP_MEANPRE, FP_RSTDPRE};
    return N(in)(cx, c, src[l->o], l->off);
}
static NUM SPEC(fwd_rms)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(in)(cx, c, l->o == 0 ? FR_VALUEPRE : FR_RSTDPRE, l->off);
}
static NUM SPEC(fwd_residual)(NCX *cx, const td_case *c, const td_olane *l) {
    static const int src[4] = {FX_RESPRE, FX_VALUEPRE, FX_MEANPRE, FX_RSTDPRE};
    return N(in)(cx, c, src[l->o], l->off);
}

/* sum_{i < min(N,B)} xhat_i * (w_i * dy_i) (with_xhat) or w_i * dy_i, / N: the tree sum
 * of the c1 / c2 reduction slices (terms are a prefix of the tile: see layernorm_common.h) */
static NUM SPEC(bwd_reduce)(NCX *cx, const td_case *c, const bwd_regs *R, uint64_t row, int with_xhat) {
    uint64_t w = c_width(c, BP_N, BP_BLOCK), sxh = (uint64_t)c->p[BP_SXHAT].i, sdy = (uint64_t)c->p[BP_SDY].i;
    NUM sum;
    if (w == 1) { /* one non-zero leaf: the tree adds zeros exactly */
        NUM wdy = N(mul)(cx, N(in)(cx, c, R->w, 0), N(in)(cx, c, R->dy, row * sdy));
        sum = with_xhat ? N(mul)(cx, N(in)(cx, c, R->xhat, row * sxh), wdy) : wdy;
    } else {
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_TREE, 0);
        for (uint64_t i = 0; i < w; i++) {
            NUM wdy = N(mul)(cx, N(in)(cx, c, R->w, i), N(in)(cx, c, R->dy, row * sdy + i));
            N(acc_add)(cx, &acc, with_xhat ? N(mul)(cx, N(in)(cx, c, R->xhat, row * sxh + i), wdy) : wdy);
        }
        sum = N(acc_end)(cx, &acc);
    }
    return N(div)(cx, sum, N(exact)(cx, (double)c->p[BP_N].i));
}

static NUM SPEC(bwd)(NCX *cx, const td_case *c, const td_olane *l, const bwd_regs *R) {
    uint64_t row = l->pid[0], i = l->j;
    if (l->o == O_C1) return SPEC(bwd_reduce)(cx, c, R, row, 1);
    if (l->o == O_C2) return SPEC(bwd_reduce)(cx, c, R, row, 0);
    NUM dy = N(in)(cx, c, R->dy, row * (uint64_t)c->p[BP_SDY].i + i);
    NUM rstd = N(in)(cx, c, R->rstd, row);
    if (l->o == O_DB) return dy;
    if (l->o == O_DW) {
        NUM x = N(in)(cx, c, R->x, row * (uint64_t)c->p[BP_SX].i + i);
        NUM xc = R->mean >= 0 ? N(sub)(cx, x, N(in)(cx, c, R->mean, row)) : x;
        return N(mul)(cx, dy, N(mul)(cx, xc, rstd));
    }
    /* DX from the supplied C1 (and C2) */
    NUM wdy = N(mul)(cx, N(in)(cx, c, R->w, i), dy);
    NUM xhc1 = N(mul)(cx, N(in)(cx, c, R->xhat, row * (uint64_t)c->p[BP_SXHAT].i + i), N(in)(cx, c, R->c1, row));
    NUM corr = R->c2 >= 0 ? N(add)(cx, xhc1, N(in)(cx, c, R->c2, row)) : xhc1;
    return N(mul)(cx, N(sub)(cx, wdy, corr), rstd);
}
static NUM SPEC(bwd_rms)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(bwd)(cx, c, l, &BR); }
static NUM SPEC(bwd_plain)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(bwd)(cx, c, l, &BB); }

static NUM SPEC(bwd_residual_add)(NCX *cx, const td_case *c, const td_olane *l) {
    uint64_t row = l->pid[0], i = l->j;
    return N(add)(cx, N(in)(cx, c, BA_DXBASE, row * (uint64_t)c->p[BA_SDX].i + i),
                  N(in)(cx, c, BA_DRES, row * (uint64_t)c->p[BA_SDRES].i + i));
}

static NUM SPEC(stores)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(in)(cx, c, l->o == 0 ? SS_MEANPRE : SS_RSTDPRE, l->off);
}
static NUM SPEC(stores_r)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(stores)(cx, c, l), C_STORE);
}

