/* The spec of contracts/rbe_triton_transform.c (vocabulary: contracts/spec.h):
 * rbeOutRealSpec (o = 0) and rbeOutImagSpec (o = 1) at the angle rbeFreqP. */

/* f = (start + row) / THETA^((col % DIM) / DIM); THETA^e as exp2(e * log2 THETA) (the
 * contract's header says why this form's bound covers libdevice's pow) */
static NUM SPEC(rbe_angle)(NCX *cx, const td_case *c, int64_t row, int64_t col) {
    int64_t dim = c->p[P_DIM].i;
    NUM e = N(div)(cx, N(exact)(cx, (double)(col % dim)), N(exact)(cx, (double)dim));
    NUM pw = N(exp2)(cx, N(mul)(cx, e, N(log2)(cx, N(exact)(cx, c->p[P_THETA].r))));
    return N(div)(cx, N(exact)(cx, (double)(c->p[P_START].i + row)), pw);
}

static NUM SPEC(rbe)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], row = l->idx[1], col = l->idx[2], K = c->p[P_K].i;
    size_t off = (size_t)(b * c->p[P_SXB].i + row * c->p[P_SXM].i + col * c->p[P_SXN].i);
    NUM f = SPEC(rbe_angle)(cx, c, row, col);
    NUM cs = N(cos)(cx, f), sn = N(sin)(cx, f);
    NUM xr = N(in)(cx, c, R_X, off);
    NUM xi = 1 + col < K ? N(in)(cx, c, R_X, off + 1) : N(exact)(cx, 0.0); /* other = 0.0 */
    if (l->o == 0) return N(sub)(cx, N(mul)(cx, xr, cs), N(mul)(cx, xi, sn));
    return N(add)(cx, N(mul)(cx, xr, sn), N(mul)(cx, xi, cs));
}

/* The intent (docs/intent.md): RoFormer's rotary embedding (Su et al. 2021, eq. 34 with
 * theta_i = THETA^(-2i/d)) of each head of DIM columns (K = heads * DIM, pairs (2i,
 * 2i + 1) interleaved, i < DIM/2 within the head), at position start + row:
 * out[2i] = x[2i] cos(m theta_i) - x[2i+1] sin(m theta_i), out[2i+1] = x[2i] sin + x[2i+1] cos.
 * Exact cos and sin of the exact angle (the vocabulary has no pow: THETA^y = 2^(y log2 THETA)).
 * Defined where every head is whole (rbe_intent_gap). */
static NUM SPEC(rbe_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], row = l->idx[1], col = l->idx[2], dim = c->p[P_DIM].i, i = (col % dim) / 2;
    size_t off = (size_t)(b * c->p[P_SXB].i + row * c->p[P_SXM].i + col * c->p[P_SXN].i);
    NUM y = N(div)(cx, N(exact)(cx, (double)(-2 * i)), N(exact)(cx, (double)dim));
    NUM theta = N(exp2)(cx, N(mul)(cx, y, N(log2)(cx, N(exact)(cx, c->p[P_THETA].r))));
    NUM f = N(mul)(cx, N(exact)(cx, (double)(c->p[P_START].i + row)), theta);
    NUM cs = N(cos)(cx, f), sn = N(sin)(cx, f);
    NUM x0 = N(in)(cx, c, R_X, off), x1 = N(in)(cx, c, R_X, off + 1);
    if (l->o == 0) return N(sub)(cx, N(mul)(cx, x0, cs), N(mul)(cx, x1, sn));
    return N(add)(cx, N(mul)(cx, x0, sn), N(mul)(cx, x1, cs));
}
