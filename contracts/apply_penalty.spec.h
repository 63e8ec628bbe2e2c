/* The spec of contracts/apply_penalty.c (vocabulary: contracts/spec.h): lionPenalty of
 * the lane's logit; idx[] = {batch row b, window position m1 + j, token id}. */
static NUM SPEC(apply_penalty)(NCX *cx, const td_case *c, const td_olane *l) {
    size_t b = (size_t)l->idx[0];
    NUM x = N(in)(cx, c, R_LOGITS, l->off);
    NUM rep = N(in)(cx, c, R_REP, b), freq = N(in)(cx, c, R_FREQ, b), pres = N(in)(cx, c, R_PRES, b);
    NUM cnt = N(exact)(cx, (double)td_geti(c, R_CNTS, (size_t)l->idx[1]));
    NUM rep_logit = N(sel)(cx, N(cmp)(cx, x, N(exact)(cx, 0.0), '>'), N(div)(cx, x, rep), N(mul)(cx, x, rep));
    NUM cf = N(mul)(cx, cnt, freq);
    NUM as_written = N(sub)(cx, N(sub)(cx, rep_logit, cf), pres);
    NUM grouped = N(sub)(cx, rep_logit, N(add)(cx, cf, pres));
    return N(either)(cx, as_written, grouped);
}
