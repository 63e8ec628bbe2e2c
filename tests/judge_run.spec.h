/* A test spec for the generated run entry (TD_SPEC_RUN_DEFINE): add_example's lane
 * formula, x + y rounded once, over regions 0 and 1, compiled through the generic macro
 * (tests/test_judge_run.c). */
static NUM SPEC(tadd)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(add)(cx, N(in)(cx, c, 0, l->off), N(in)(cx, c, 1, l->off));
}
