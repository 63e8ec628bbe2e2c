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

/* td_vgen_fill_as stores a region's own format's values as the bits the rounding gave
 * them: they must be what td_vgen_values then td_set_array store, for every menu
 * (TD_V_IEEE included), format and bound, at an offset, across chunks. */
static void fill_stores_what_values_and_set_store(void **st) {
    (void)st;
    static double v[N];
    /* 0.3 is in none of the formats: values of the large menu round past it (and are
     * rounded towards zero instead), which changes their bits after the rounding */
    static const double fbounds[] = {1, 0.75, 0.3, 448, 0x1p126, INFINITY};
    for (int menu = 0; menu < TD_V_COUNT; menu++)
        for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++)
            for (size_t b = 0; b < sizeof fbounds / sizeof fbounds[0]; b++) {
                if (fmts[f] == TD_I64) continue; /* int64 storage holds integers: no menu's reals */
                uint64_t seed = 7777u * (uint64_t)menu + 31u * f + b;
                td_vgen g1, g2;
                vgen_at(&g1, menu, seed, fbounds[b]);
                vgen_at(&g2, menu, seed, fbounds[b]);
                td_case a, c;
                case_of(&a, fmts[f], N + 3);
                case_of(&c, fmts[f], N + 3);
                td_vgen_values(&g1, fmts[f], v, N);
                td_set_array(&a, 0, 3, v, N);
                td_vgen_fill_as(&g2, &c, 0, 3, N, fmts[f]);
                if (memcmp(a.r[0].data, c.r[0].data, (N + 3) * td_fmt_get(fmts[f])->bytes))
                    fail_msg("menu %s fmt %s bound %a: td_vgen_fill_as stores other bits", td_menu_name(menu),
                             td_fmt_get(fmts[f])->name, fbounds[b]);
                assert_memory_equal(g1.rng.s, g2.rng.s, sizeof g1.rng.s);
                free(a.r[0].data);
                free(c.r[0].data);
            }
}

/* td_flat_writes's lanes: those of the masked loop over programs and tile lanes,
 * pid * B + j < n, in its order, one per output, whatever the grid (short, exact, long). */
static void flat_writes_are_the_masked_lanes(void **st) {
    (void)st;
    static const int64_t ns[] = {1, 5, 64, 1000, 2500};
    static const int64_t bs[] = {1, 4, 64, 1024};
    static const int outs[2] = {2, 0};
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t b = 0; b < sizeof bs / sizeof bs[0]; b++)
            for (int64_t dg = -1; dg <= 1; dg++)
                for (int nouts = 1; nouts <= 2; nouts++) {
                    int64_t n = ns[a], B = bs[b], grid = (n + B - 1) / B + dg;
                    if (grid < 1) continue;
                    td_case c;
                    memset(&c, 0, sizeof c);
                    c.p[0].i = n, c.p[1].i = B, c.grid[0] = (uint32_t)grid;
                    td_wset ws;
                    memset(&ws, 0, sizeof ws);
                    td_flat_writes(&c, &ws, 0, 1, outs, nouts);
                    size_t k = 0;
                    for (int64_t pid = 0; pid < grid; pid++)
                        for (int64_t j = 0; j < B && pid * B + j < n; j++)
                            for (int o = 0; o < nouts; o++, k++) {
                                assert_true(k < ws.n);
                                const td_olane *l = &ws.v[k];
                                assert_int_equal(l->o, o);
                                assert_int_equal(l->region, outs[o]);
                                assert_true(l->off == (uint64_t)(pid * B + j) && l->idx[0] == pid * B + j);
                                assert_true(l->pid[0] == pid && !l->pid[1] && !l->pid[2] && !l->t);
                                assert_true(l->j == (uint64_t)j && !l->idx[1] && !l->idx[2] && !l->idx[3]);
                            }
                    assert_int_equal(k, ws.n);
                    free(ws.v);
                }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bulk_values_equal_per_value_calls),
        cmocka_unit_test(set_array_stores_what_set_stores),
        cmocka_unit_test(fill_stores_what_values_and_set_store),
        cmocka_unit_test(flat_writes_are_the_masked_lanes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
