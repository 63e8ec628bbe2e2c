/* The spec of contracts/adam_update_triton.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

/* b*m + (1-b)*g in the kernel's form (m-g)*b + g, the catalogue's, or the lerp's */
static NUM SPEC(blend)(NCX *cx, NUM m, NUM g, double beta) {
    NUM b = N(exact)(cx, beta), one_b = N(sub)(cx, N(exact)(cx, 1.0), b);
    NUM kernel = N(add)(cx, N(mul)(cx, N(sub)(cx, m, g), b), g);
    NUM catalogue = N(add)(cx, N(mul)(cx, b, m), N(mul)(cx, one_b, g));
    NUM lerp = N(add)(cx, m, N(mul)(cx, one_b, N(sub)(cx, g, m)));
    return N(either)(cx, kernel, N(either)(cx, catalogue, lerp));
}

static NUM SPEC(lion)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM p = N(in)(cx, c, R_P, l->off), g = N(in)(cx, c, R_GRAD, l->off), m = N(in)(cx, c, R_M, l->off);
    NUM lr = N(exact)(cx, c->p[P_LR].r);
    if (l->o == 1) /* exp_avg = b2*m + (1-b2)*g */
        return SPEC(blend)(cx, m, g, c->p[P_B2].r);
    /* p = p * (1 - lr * wd) + (-lr * sign(b1*m + (1-b1)*g)) */
    NUM decay = N(sub)(cx, N(exact)(cx, 1.0), N(mul)(cx, lr, N(exact)(cx, c->p[P_WD].r)));
    NUM update = SPEC(blend)(cx, m, g, c->p[P_B1].r);
    NUM step = N(mul)(cx, lr, N(sign)(cx, update));
    return N(sub)(cx, N(mul)(cx, p, decay), step);
}


/* The intent (docs/intent.md): one step of Lion (Chen et al. 2023, "Symbolic Discovery
 * of Optimization Algorithms", Algorithm 2, decoupled weight decay; lucidrains'
 * lion-pytorch update_fn, which this kernel ports despite its name: NOT torch.optim.Adam):
 *   p' = p * (1 - lr*wd) - lr * sign(b1*m + (1-b1)*g),  m' = b2*m + (1-b2)*g,
 * sign(0) = 0 (torch.sign), every value exact. */
static NUM SPEC(lion_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM p = N(in)(cx, c, R_P, l->off), g = N(in)(cx, c, R_GRAD, l->off), m = N(in)(cx, c, R_M, l->off);
    double b = l->o == 1 ? c->p[P_B2].r : c->p[P_B1].r;
    NUM eb = N(exact)(cx, b);
    NUM blend = N(add)(cx, N(mul)(cx, eb, m), N(mul)(cx, N(sub)(cx, N(exact)(cx, 1.0), eb), g));
    if (l->o == 1) return blend;
    NUM lr = N(exact)(cx, c->p[P_LR].r);
    NUM decay = N(sub)(cx, N(exact)(cx, 1.0), N(mul)(cx, lr, N(exact)(cx, c->p[P_WD].r)));
    return N(sub)(cx, N(mul)(cx, p, decay), N(mul)(cx, lr, N(sign)(cx, blend)));
}
