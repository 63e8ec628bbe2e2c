/* Production shapes' lane sample (engine/sample.c): the strata are always there (the
 * first and the last program, every partial tile), the uniform part is exactly its
 * size, and a bug planted where only the strata reach (the last program, a masked edge
 * of an interior program) is caught, while one in an unsampled interior lane is not:
 * what the report says the sample does and does not guarantee.  The guard, sentinel
 * and outside-write-set checks still see every cell. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "harness.h"
#include "sample.h"
#include "spec.h"

/* ---- a 2-D masked launch: out[r*cols + c] = in[r*cols + c] + 1, grid (col tiles, row tiles) ---- */
enum { P_ROWS, P_COLS, P_BR, P_BC, NP };
enum { R_IN, R_OUT, NR };
static const td_param_decl params[NP] = {{"rows", TD_P_INT}, {"cols", TD_P_INT}, {"BR", TD_P_INT}, {"BC", TD_P_INT}};
static const td_region_decl regions[NR] = {{"in", TD_F32, TD_R_IN}, {"out", TD_F32, TD_R_OUT}};

static void shape(td_producer *p, td_case *c, const td_shape *s) {
    for (int i = 0; i < NP; i++) c->p[i].i = s->d[i];
    c->grid[0] = (uint32_t)((s->d[1] + s->d[3] - 1) / s->d[3]);
    c->grid[1] = (uint32_t)((s->d[0] + s->d[2] - 1) / s->d[2]);
    c->grid[2] = 1;
    size_t n = (size_t)(s->d[0] * s->d[1]);
    td_case_alloc(c, R_IN, n);
    td_case_alloc(c, R_OUT, n + 1); /* one cell past the write set */
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM(TD_V_SMALL), 1);
    td_vgen_fill(&g, c, R_IN);
}
static void gen(td_producer *p, td_case *c) {
    const td_shape s = {{5, 7, 2, 4}};
    shape(p, c, &s);
}
static const char *check(const td_case *c) {
    return c->p[P_BR].i > 0 && c->p[P_BC].i > 0 ? NULL : "BR, BC > 0";
}
static void writes(const td_case *c, td_wset *ws) {
    int64_t rows = c->p[P_ROWS].i, cols = c->p[P_COLS].i, BR = c->p[P_BR].i, BC = c->p[P_BC].i;
    for (uint32_t pr = 0; pr < c->grid[1]; pr++)
        for (uint32_t pc = 0; pc < c->grid[0]; pc++)
            for (int64_t i = 0; i < BR; i++)
                for (int64_t j = 0; j < BC; j++) {
                    int64_t r = pr * BR + i, col = pc * BC + j;
                    if (r >= rows || col >= cols) continue; /* the mask */
                    td_olane l = {.region = R_OUT, .off = (uint64_t)(r * cols + col), .pid = {pc, pr, 0},
                                  .j = (uint64_t)(i * BC + j), .idx = {r, col}};
                    td_wset_add(ws, &l);
                }
}
static td_sh plus_one_sh(td_shcx *cx, const td_case *c, const td_olane *l) {
    return td_sh_add(cx, td_sh_in(cx, c, R_IN, l->off), td_sh_exact(cx, 1.0));
}
static td_mp plus_one_mp(td_mpcx *cx, const td_case *c, const td_olane *l) {
    return td_mp_add(cx, td_mp_in(cx, c, R_IN, l->off), td_mp_exact(cx, 1.0));
}
static const td_contract k2d = {
    .id = "test.tile2d", .file = "test", .family = "test", .io_class = "Masked2D", .kind = "exact",
    .formula = "out[r, c] = in[r, c] + 1", .nparams = NP, .params = params, .nregions = NR, .regions = regions,
    .sv = TD_SV_REAL, .gen = gen, .gen_shape = shape, .check = check, .writes = writes, .spec_sh = plus_one_sh,
    .spec_mp = plus_one_mp};

/* rows 40 (5 row tiles of 8), cols 70 (5 column tiles of 16, the last one 6 wide):
 * programs pid0 = 4 are the masked edge, the last program (4, 4) among them */
static const td_shape S = {{40, 70, 8, 16}};
typedef enum { B_OK, B_LAST, B_EDGE, B_INTERIOR, B_UNWRITTEN, B_OUTSIDE } bug;
static bug g_bug;

static int kernel(const td_abi_launch *L) {
    int64_t rows = L->params[P_ROWS].i, cols = L->params[P_COLS].i, BR = L->params[P_BR].i, BC = L->params[P_BC].i;
    const float *in = L->regions[R_IN].base;
    float *out = L->regions[R_OUT].base;
    for (uint32_t pr = 0; pr < L->grid[1]; pr++)
        for (uint32_t pc = 0; pc < L->grid[0]; pc++)
            for (int64_t i = 0; i < BR; i++)
                for (int64_t j = 0; j < BC; j++) {
                    int64_t r = pr * BR + i, c = pc * BC + j;
                    if (r >= rows || c >= cols) continue;
                    float v = in[r * cols + c] + 1.0f;
                    int here = i == 3 && j == 2; /* one lane of the tile */
                    if (here && ((g_bug == B_LAST && pr == 4 && pc == 4) || (g_bug == B_EDGE && pr == 2 && pc == 4) ||
                                 (g_bug == B_INTERIOR && pr == 2 && pc == 1)))
                        v += 0.5f;
                    if (here && g_bug == B_UNWRITTEN && pr == 2 && pc == 1) continue;
                    out[r * cols + c] = v;
                }
    if (g_bug == B_OUTSIDE) out[rows * cols] = 1.0f;
    return 0;
}
static const td_abi_kernel abi = {"test.tile2d", "test", TD_ABI_HOST, NULL, NULL, NULL, NP, NR, kernel, NULL};

/* One production-shape case of kernel bug b, the oracle on the strata only (no random
 * program, no uniform lanes): the verdict, and what the sample judged. */
static int run_strata(bug b, td_case_result *r, td_sample_info *info) {
    td_kernel kern = {.abi = &abi, .k = &k2d, .math = td_math_model_get("libm"), .library = "test"};
    td_ctx_opts o = {0};
    char err[128];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    const td_sample_opts so = {.seed = 1, .random_programs = 0, .interior = 0};
    td_ctx_set_shape(cx, &S);
    td_ctx_set_sample(cx, &so);
    uint8_t bytes[32];
    td_case_bytes(7, 0, bytes, sizeof bytes);
    g_bug = b;
    int rc = td_run_bytes(cx, &kern, bytes, sizeof bytes, r);
    g_bug = B_OK;
    *info = *td_ctx_sampled(cx);
    td_ctx_free(cx);
    return rc;
}

static void test_strata_catch_planted_bugs(void **st) {
    (void)st;
    td_case_result r;
    td_sample_info si;
    assert_int_equal(run_strata(B_OK, &r, &si), TD_RUN_OK);
    assert_int_equal(si.lanes, 40 * 70);
    assert_int_equal(si.full_programs, 2);  /* the first and the last */
    assert_int_equal(si.edge_programs, 4);  /* the other partial column tiles */
    assert_int_equal(si.judged, 128 + 48 + 4 * 48);
    assert_int_equal(r.st.lanes + r.st.lanes_sampled_out, 40 * 70);
    td_result_free(&r);
    assert_int_equal(run_strata(B_LAST, &r, &si), TD_RUN_FINDING);
    assert_int_equal(r.rep[0].lane.pid[0], 4), assert_int_equal(r.rep[0].lane.pid[1], 4);
    td_result_free(&r);
    assert_int_equal(run_strata(B_EDGE, &r, &si), TD_RUN_FINDING);
    assert_int_equal(r.rep[0].lane.pid[0], 4), assert_int_equal(r.rep[0].lane.pid[1], 2);
    td_result_free(&r);
    /* an interior lane the sample left out: not seen, as the report says */
    assert_int_equal(run_strata(B_INTERIOR, &r, &si), TD_RUN_OK);
    td_result_free(&r);
}

/* the sentinel and outside-write-set checks do not sample */
static void test_every_cell_checked(void **st) {
    (void)st;
    td_case_result r;
    td_sample_info si;
    assert_int_equal(run_strata(B_UNWRITTEN, &r, &si), TD_RUN_FINDING);
    assert_true(r.st.findings[TD_VC_UNWRITTEN] == 1);
    td_result_free(&r);
    assert_int_equal(run_strata(B_OUTSIDE, &r, &si), TD_RUN_FINDING);
    assert_true(r.st.findings[TD_VC_OUTSIDE] == 1);
    td_result_free(&r);
}

/* td_sample_pick on a write set of 10 programs of 16 lanes, program 4 and the last
 * partial: the strata for every seed, exactly `interior` others, the same for one seed */
static void test_pick_strata_and_size(void **st) {
    (void)st;
    td_olane v[150];
    size_t n = 0;
    for (uint32_t p = 0; p < 10; p++)
        for (int j = 0; j < (p == 4 ? 7 : p == 9 ? 5 : 16); j++) v[n++] = (td_olane){.pid = {p, 0, 0}, .j = (uint64_t)j};
    const uint32_t grid[3] = {10, 1, 1};
    uint8_t pick[150], again[150];
    for (uint64_t seed = 0; seed < 50; seed++) {
        td_sample_opts o = {.seed = seed, .random_programs = 1, .interior = 10};
        td_sample_info si;
        assert_int_equal(td_sample_pick(v, n, grid, &o, pick, &si), 0);
        size_t got = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t p = v[i].pid[0];
            if (p == 0 || p == 4 || p == 9) assert_true(pick[i]);
            got += pick[i];
        }
        assert_int_equal(got, si.judged);
        /* the random program is one of the full ones, the rest are 10 uniform lanes */
        assert_int_equal(si.full_lanes + si.edge_lanes + 10, si.judged);
        assert_true(got >= 16 + 7 + 5 + 10);
        assert_int_equal(td_sample_pick(v, n, grid, &o, again, &si), 0);
        assert_memory_equal(pick, again, n);
    }
    /* more uniform lanes than there are: every lane */
    td_sample_opts all = {.seed = 3, .interior = 1000};
    td_sample_info si;
    assert_int_equal(td_sample_pick(v, n, grid, &all, pick, &si), 0);
    assert_int_equal(si.judged, n);
    char text[2048];
    td_sample_describe(&si, &all, text, sizeof text);
    assert_non_null(strstr(text, "Every lane was judged"));
}

/* the report's guarantee: the 95% threshold of the uniform part, and what is not guaranteed */
static void test_describe_states_guarantee(void **st) {
    (void)st;
    td_sample_info si = {.lanes = 100000, .programs = 100, .full_programs = 5, .full_lanes = 5000, .rest = 95000,
                         .interior = 4096, .judged = 9096};
    td_sample_opts o = {.seed = 1, .random_programs = 3, .interior = 4096};
    char text[2048];
    td_sample_describe(&si, &o, text, sizeof text);
    assert_non_null(strstr(text, "9096 of 100000 lanes"));
    assert_non_null(strstr(text, "(1-f)^4096"));
    assert_non_null(strstr(text, "0.0731%")); /* 1 - 0.05^(1/4096) */
    assert_non_null(strstr(text, "Not guaranteed"));
    assert_non_null(strstr(text, "checked in full"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pick_strata_and_size),
        cmocka_unit_test(test_describe_states_guarantee),
        cmocka_unit_test(test_strata_catch_planted_bugs),
        cmocka_unit_test(test_every_cell_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
