/* Reports a reader can use: err/tol against a zero tolerance in words, long
 * reductions summarised (every term on request), one finding per root cause. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"
#include "harness.h"

static void test_errtol_zero_tolerance_in_words(void **st) {
    (void)st;
    char b[64];
    td_errtol_str(INFINITY, 1.0, b, sizeof b);
    assert_string_equal(b, "1 ulp over a zero tolerance");
    td_errtol_str(INFINITY, -2.0, b, sizeof b);
    assert_string_equal(b, "2 ulp over a zero tolerance");
    td_errtol_str(INFINITY, NAN, b, sizeof b);
    assert_string_equal(b, "nonzero error over a zero tolerance");
    td_errtol_str(0.25, 1.0, b, sizeof b);
    assert_string_equal(b, "0.25");
}

/* A 4096-term sequential sum then a store cast: the shape that printed 12,000 lines. */
static td_trace long_trace(void) {
    td_trace t = {0};
    t.n = t.cap = 4097;
    t.steps = calloc((size_t)t.cap, sizeof *t.steps);
    assert_non_null(t.steps);
    for (int i = 0; i < 4096; i++)
        t.steps[i] = (td_trace_step){.op = "add", .v = i, .local = 1e-7 * (i % 97), .ek = 1e-7 * i};
    t.steps[4096] = (td_trace_step){.op = "cast store", .v = 4095, .local = 0.5, .ek = 0.9};
    return t;
}

static int count_lines(const char *s) {
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static char *print_trace(const td_trace *t, int full) {
    FILE *f = tmpfile();
    assert_non_null(f);
    td_trace_print(f, t, full);
    long len = ftell(f);
    assert_true(len > 0);
    char *buf = malloc((size_t)len + 1);
    assert_non_null(buf);
    rewind(f);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    buf[len] = 0;
    fclose(f);
    return buf;
}

static void test_long_reduction_is_summarised(void **st) {
    (void)st;
    td_trace t = long_trace();
    char *s = print_trace(&t, 0);
    assert_true(count_lines(s) < 40);
    assert_non_null(strstr(s, "4097 steps (summarised; --full prints every one)"));
    assert_non_null(strstr(s, "add                   4096 steps"));
    assert_non_null(strstr(s, "cast store               1 steps"));
    /* the largest term is listed first, and the total is there */
    char *top = strstr(s, "largest local terms and the last 4 steps:\n");
    assert_non_null(top);
    assert_non_null(strstr(top, "cast store"));
    assert_non_null(strstr(top, "4097 cast store"));
    assert_non_null(strstr(s, "total: local errors sum"));
    free(s);
    s = print_trace(&t, 1);
    assert_true(count_lines(s) > 4097);
    free(s);
    t.n = 12; /* a short trace is printed whole */
    s = print_trace(&t, 0);
    assert_int_equal(count_lines(s), 13);
    assert_null(strstr(s, "summarised"));
    free(s);
    free(t.steps);
}

/* A finding report keeps the same steps explain's summary shows, named by step number. */
static void test_report_terms_match_explain(void **st) {
    (void)st;
    td_trace t = long_trace();
    td_term terms[TD_MAX_TERMS];
    int n = td_trace_terms(&t, terms, TD_MAX_TERMS);
    char *s = print_trace(&t, 0);
    assert_true(n >= 5 && n <= 10);
    int saw_cast = 0;
    for (int i = 0; i < n; i++) {
        int step;
        char op[32];
        assert_int_equal(sscanf(terms[i].op, "#%d %31[^\n]", &step, op), 2);
        char line[64];
        snprintf(line, sizeof line, "%4d %-18s", step, op); /* as explain prints the step */
        assert_non_null(strstr(s, line));
        saw_cast |= !strcmp(op, "cast store");
    }
    assert_true(saw_cast); /* the final cast, the largest term, is kept */
    free(s);
    t.n = 12;
    assert_int_equal(td_trace_terms(&t, terms, TD_MAX_TERMS), 12);
    assert_string_equal(terms[0].op, "add");
    free(t.steps);
}

const td_abi_table *td_builtin_host_table(void);

/* The lines of `s` that start (after their indentation) with `prefix`, each checked to
 * appear in `in` with the same text after the indentation. */
static int lines_found_in(const char *s, const char *prefix, const char *in) {
    int n = 0;
    for (const char *l = s; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        while (*l == ' ') l++;
        size_t len = strcspn(l, "\n");
        if (strncmp(l, prefix, strlen(prefix))) continue;
        char line[256];
        snprintf(line, sizeof line, "%.*s\n", (int)len, l);
        assert_non_null(strstr(in, line));
        n++;
    }
    return n;
}

/* repro (a finding report) prints the same summary of a long reduction as explain:
 * the steps by kind and the total, beside the kept terms. */
static void test_repro_summary_matches_explain(void **st) {
    (void)st;
    td_kernel_set set;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    const td_kernel *kern = td_kernels_find(&set, "softmax_triton1.softmax_kernel_correctness", "triton", TD_ABI_HOST);
    assert_non_null(kern);
    td_trace t = long_trace();
    td_lane_report l = {.cls = TD_VC_FAIL, .has_lane = 1, .region = 0, .tol = 1, .err = 2, .err_over_tol = 2};
    td_lane_terms(&l, &t);
    td_case_result r = {.finding = 1, .worst = TD_VC_FAIL, .rep = &l, .nrep = 1, .caprep = 1, .nbad = 1};
    FILE *f = tmpfile();
    assert_non_null(f);
    td_report_text(f, kern, &r);
    long len = ftell(f);
    char *rep = calloc(1, (size_t)len + 1);
    assert_non_null(rep);
    rewind(f);
    assert_int_equal(fread(rep, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    char *ex = print_trace(&t, 0);
    assert_int_equal(lines_found_in(ex, "add ", rep) + lines_found_in(ex, "cast store ", rep), 2); /* by kind */
    assert_int_equal(lines_found_in(ex, "total: ", rep), 1);
    assert_non_null(strstr(rep, "4097 steps (summarised; tilediff explain --full prints every one)"));
    /* a short trace is reported whole, with no summary */
    t.n = 12;
    td_lane_terms(&l, &t);
    f = tmpfile();
    td_report_text(f, kern, &r);
    len = ftell(f);
    char *rep2 = calloc(1, (size_t)len + 1);
    rewind(f);
    assert_int_equal(fread(rep2, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    assert_null(strstr(rep2, "summarised"));
    assert_null(strstr(rep2, "total:"));
    free(rep2);
    free(rep);
    free(ex);
    free(t.steps);
    td_kernels_close(&set);
}

static void test_root_cause_key(void **st) {
    (void)st;
    td_fkey a = {.cls = TD_VC_FAIL, .region = 2, .lc = TD_LC_FIRST, .rel = 3};
    td_fkey b = a;
    b.lc = TD_LC_LAST; /* the same bug seen in another program: one finding */
    assert_true(td_same_root(&a, &b));
    b.rel = 4; /* another lane of the tile: another root cause */
    assert_false(td_same_root(&a, &b));
    b = a;
    b.region = 1;
    assert_false(td_same_root(&a, &b));
    b = a;
    b.cls = TD_VC_NONFINITE;
    assert_false(td_same_root(&a, &b));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errtol_zero_tolerance_in_words),
        cmocka_unit_test(test_long_reduction_is_summarised),
        cmocka_unit_test(test_report_terms_match_explain),
        cmocka_unit_test(test_repro_summary_matches_explain),
        cmocka_unit_test(test_root_cause_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
