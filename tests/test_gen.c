/* The bulk value generator (contracts/gen.h) against the per-value one: a case must
 * decode to the same values, bit for bit, whichever path a contract uses (corpora and
 * reproducers name cases by their bytes), so td_vgen_values must give exactly the
 * values of n calls of td_vgen_value and leave the generator in the same state, and
 * td_set_array must store exactly what n calls of td_set store.  Every menu, every
 * storage format and bounds that make the folding and the saturating paths fire. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gen.h"

/* crosses the bulk path's chunks (512 values) and ends inside one */
enum { N = 1300 };

static const td_fmt fmts[] = {TD_F32, TD_F16, TD_BF16, TD_E4M3FN, TD_E5M2, TD_F64,
                              TD_I8,  TD_U8,  TD_I32,  TD_I64,    TD_BOOL};
/* 0.75 folds small values, 3 and 448 saturate the fp8 formats, 2^126 is add_example's,
 * 2^127 and inf let the wide and large menus reach the binary32 and binary16 limits */
static const double bounds[] = {1, 0.75, 3, 448, 0x1p126, 0x1p127, INFINITY};

static void vgen_at(td_vgen *g, int menu, uint64_t seed, double bound) {
    memset(g, 0, sizeof *g);
    td_rng_seed(&g->rng, seed);
    g->menu = menu;
    g->bound = bound;
    g->cval = -0.625; /* TD_V_CONST */
}

static void bulk_values_equal_per_value_calls(void **st) {
    (void)st;
    static double one[N], bulk[N];
    for (int menu = 0; menu < TD_V_COUNT; menu++)
        for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++)
            for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
                uint64_t seed = 1000003u * (uint64_t)menu + 7919u * f + b;
                td_vgen g1, g2;
                vgen_at(&g1, menu, seed, bounds[b]);
                vgen_at(&g2, menu, seed, bounds[b]);
                for (size_t i = 0; i < N; i++) one[i] = td_vgen_value(&g1, fmts[f]);
                td_vgen_values(&g2, fmts[f], bulk, N);
                if (memcmp(one, bulk, sizeof one) != 0) {
                    for (size_t i = 0; i < N; i++)
                        if (memcmp(&one[i], &bulk[i], sizeof one[i]))
                            print_error("menu %s fmt %s bound %a value %zu: %a one by one, %a in bulk\n",
                                        td_menu_name(menu), td_fmt_get(fmts[f])->name, bounds[b], i, one[i], bulk[i]);
                    fail();
                }
                assert_memory_equal(g1.rng.s, g2.rng.s, sizeof g1.rng.s); /* the next draws agree too */
            }
}

/* A one-region case of format f with n elements (td_case_alloc needs no contract). */
static void case_of(td_case *c, td_fmt f, size_t n) {
    memset(c, 0, sizeof *c);
    c->r[0].fmt = f;
    td_case_alloc(c, 0, n);
}

static void set_array_stores_what_set_stores(void **st) {
    (void)st;
    static double v[N];
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        td_vgen g;
        vgen_at(&g, TD_V_WIDE, 42 + f, 0x1p127); /* values to round, saturate and truncate */
        for (size_t i = 0; i < N; i++) v[i] = td_vgen_value(&g, TD_F64);
        v[3] = NAN, v[4] = -INFINITY, v[5] = -0.0, v[6] = 0x1p-1074;
        if (fmts[f] == TD_I64) /* int64 storage holds integers (metadata): no NaN, inf or 2^127 there */
            for (size_t i = 0; i < N; i++) v[i] = isfinite(v[i]) && fabs(v[i]) < 0x1p62 ? trunc(v[i]) : (double)i;
        td_case a, b;
        case_of(&a, fmts[f], N + 5);
        case_of(&b, fmts[f], N + 5);
        for (size_t i = 0; i < N; i++) td_set(&a, 0, i + 5, v[i]);
        td_set_array(&b, 0, 5, v, N);
        assert_memory_equal(a.r[0].data, b.r[0].data, (N + 5) * td_fmt_get(fmts[f])->bytes);
        free(a.r[0].data);
        free(b.r[0].data);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bulk_values_equal_per_value_calls),
        cmocka_unit_test(set_array_stores_what_set_stores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
