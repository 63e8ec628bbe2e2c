/* The spec of contracts/adam_update_triton.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(lion)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM p = N(in)(cx, c, R_P, l->off), g = N(in)(cx, c, R_GRAD, l->off), m = N(in)(cx, c, R_M, l->off);
    NUM lr = N(exact)(cx, c->p[P_LR].r);
    NUM diff = N(sub)(cx, m, g);
    if (l->o == 1) /* exp_avg = diff * beta2 + grad */
        return N(add)(cx, N(mul)(cx, diff, N(exact)(cx, c->p[P_B2].r)), g);
    /* p = p * (1 - lr * wd) + (-lr * sign(diff * beta1 + grad)) */
    NUM decay = N(sub)(cx, N(exact)(cx, 1.0), N(mul)(cx, lr, N(exact)(cx, c->p[P_WD].r)));
    NUM update = N(add)(cx, N(mul)(cx, diff, N(exact)(cx, c->p[P_B1].r)), g);
    NUM step = N(mul)(cx, lr, N(sign)(cx, update));
    return N(sub)(cx, N(mul)(cx, p, decay), step);
}

