/* `tilediff cast`, run as a process: output lines, errors, exit status, stdin. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#ifndef TD_TILEDIFF
#error "TD_TILEDIFF (the path of the tilediff binary) must be defined"
#endif

typedef struct {
    int rc;
    char out[1 << 18], err[1 << 14];
} run_result;

static void slurp(const char *path, char *buf, size_t n) {
    FILE *f = fopen(path, "rb");
    size_t k = f ? fread(buf, 1, n - 1, f) : 0;
    buf[k] = '\0';
    if (f)
        fclose(f);
}

/* Runs `tilediff ARGS` with STDIN_TEXT (or nothing) on standard input. */
static run_result *run(const char *args, const char *stdin_text) {
    static run_result r;
    char in[] = "/tmp/td_cli_in_XXXXXX", out[] = "/tmp/td_cli_out_XXXXXX", err[] = "/tmp/td_cli_err_XXXXXX";
    int fi = mkstemp(in), fo = mkstemp(out), fe = mkstemp(err);
    assert_true(fi >= 0 && fo >= 0 && fe >= 0);
    if (stdin_text)
        assert_int_equal(write(fi, stdin_text, strlen(stdin_text)), (ssize_t)strlen(stdin_text));
    close(fi);
    close(fo);
    close(fe);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' %s < %s > %s 2> %s", TD_TILEDIFF, args, in, out, err);
    int st = system(cmd);
    assert_true(st != -1 && WIFEXITED(st));
    r.rc = WEXITSTATUS(st);
    slurp(out, r.out, sizeof r.out);
    slurp(err, r.err, sizeof r.err);
    unlink(in);
    unlink(out);
    unlink(err);
    return &r;
}

static void expect(const char *args, const char *stdin_text, int rc, const char *out) {
    run_result *r = run(args, stdin_text);
    if (r->rc != rc || strcmp(r->out, out)) {
        print_error("tilediff %s\n rc %d (want %d)\n stdout:\n%s\n want:\n%s\n stderr:\n%s\n", args, r->rc, rc, r->out,
                    out, r->err);
        fail();
    }
    if (rc == 0 && r->err[0]) {
        print_error("tilediff %s: unexpected stderr: %s\n", args, r->err);
        fail();
    }
}

static void test_issue_cases(void **state) {
    (void)state;
    expect("cast 464 465 --to e4m3fn", NULL, 0, "0x7e 448\n0x7f nan\n");
    expect("cast 464 465 --to e4m3fn --overflow sat", NULL, 0, "0x7e 448\n0x7e 448\n");
    expect("cast 1e30 --to fp16", NULL, 0, "0x7c00 inf\n");
    expect("cast 1e30 --to fp16 --overflow sat", NULL, 0, "0x7bff 65504\n");
    expect("cast inf --to e5m2 --overflow sat", NULL, 0, "0x7b 57344\n");
    expect("cast -inf --to e5m2 --overflow=sat", NULL, 0, "0xfb -57344\n");
    /* 1 + 2^-8 + 2^-28: above bf16's tie directly, on it after binary32 */
    expect("cast 0x1.0100001p0 --to bf16", NULL, 0, "0x3f81 1.0078125\n");
    expect("cast 0x1.0100001p0 --from f64 --via fp32 --to bf16", NULL, 0, "0x3f80 1\n");
    expect("cast 0x1.0100001p0 --from mpfr --via fp32 --to bf16", NULL, 0, "0x3f80 1\n");
    expect("cast 0x1.0100001p0 --from f32 --to bf16", NULL, 0, "0x3f80 1\n");
    expect("cast 1.00390625 --from f64 --via fp32 --to bf16", NULL, 0, "0x3f80 1\n");
    /* the decimal is rounded into binary64 first, unless --from mpfr */
    expect("cast 1.0009765625000000000000001 --to fp16 --rounding rtz", NULL, 0, "0x3c01 1.0009765625\n");
    expect("cast 1.0009765624999999999999999 --to fp16 --rounding rtz", NULL, 0, "0x3c01 1.0009765625\n");
    expect("cast 1.0009765624999999999999999 --from mpfr --to fp16 --rounding rtz", NULL, 0, "0x3c00 1\n");
}

static void test_formats_and_widths(void **state) {
    (void)state;
    expect("cast 1 --to fp32", NULL, 0, "0x3f800000 1\n");
    expect("cast 0.1 --to fp32", NULL, 0, "0x3dcccccd 0.1\n");
    expect("cast -1 --to int32", NULL, 0, "0xffffffff -1\n");
    expect("cast 1 -1 --to int8", NULL, 0, "0x01 1\n0xff -1\n");
    expect("cast -3.7 2.5 300 nan --to int8", NULL, 0, "0xfd -3\n0x02 2\n0x7f 127\n0x00 0\n");
    expect("cast 2.5 3.5 --to int8 --rounding rne", NULL, 0, "0x02 2\n0x04 4\n");
    expect("cast 300 -1 --to uint8 --overflow wrap", NULL, 0, "0x2c 44\n0xff 255\n");
    expect("cast 1 --to e5m2", NULL, 0, "0x3c 1\n");
    expect("cast 0x1p-20 --to fp16", NULL, 0, "0x0010 9.5367431640625e-07\n");
    expect("cast 0x1p-20 -0x1p-20 --to fp16 --ftz", NULL, 0, "0x0000 0\n0x8000 -0\n");
    expect("cast nan -nan --to e4m3fn", NULL, 0, "0x7f nan\n0xff nan\n");
    expect("cast 3.4e38 --to bf16 --overflow nan", NULL, 0, "0x7fc0 nan\n");
    expect("cast 0x7f800000 0xff800001 --bits --from f32 --to e5m2 --overflow sat", NULL, 0, "0x7b 57344\n0xfe nan\n");
    expect("cast 0x3ff0000000000000 --bits --to fp16", NULL, 0, "0x3c00 1\n");
    expect("cast 0x3f81 --bits --from bf16 --to e4m3fn --overflow sat", NULL, 0, "0x38 1\n");
    expect("cast 0xffffffffffffffff --bits --from int64 --to int32 --overflow wrap", NULL, 0, "0xffffffff -1\n");
    expect("cast --to int8 -- -5 --6", NULL, 2, "0xfb -5\n"); /* after --, "--6" is a value, and not a number */
    expect("cast 1 --to fp16 --via e4m3fn:rne:sat --via int8:rne", NULL, 0, "0x3c00 1\n");
}

static void test_stdin(void **state) {
    (void)state;
    expect("cast --to fp16", "1 2\n3.5\t-7\n\n  0x1p-30  ", 0, "0x3c00 1\n0x4000 2\n0x4300 3.5\n0xc700 -7\n0x0000 0\n");
    expect("cast --to e4m3fn --overflow sat", "", 0, "");
    /* 10^4 values in one process, one line each */
    char *in = malloc(10000 * 12);
    size_t o = 0;
    for (int i = 0; i < 10000; i++)
        o += (size_t)sprintf(in + o, "%d.25\n", i - 5000);
    run_result *r = run("cast --to bf16 --from f32", in);
    free(in);
    assert_int_equal(r->rc, 0);
    int lines = 0;
    for (char *p = r->out; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 10000);
}

static void test_errors(void **state) {
    (void)state;
    run_result *r = run("cast 1 abc 2 --to int8", NULL);
    assert_int_equal(r->rc, 2);
    assert_string_equal(r->out, "0x01 1\n0x02 2\n");
    assert_non_null(strstr(r->err, "tilediff cast: 'abc'"));
    r = run("cast --to fp16", "1 x1 2");
    assert_int_equal(r->rc, 2);
    assert_string_equal(r->out, "0x3c00 1\n0x4000 2\n");
    assert_non_null(strstr(r->err, "'x1'"));
    r = run("cast 1 --to e4m3fn --overflow inf", NULL);
    assert_int_equal(r->rc, 2);
    assert_string_equal(r->out, "");
    assert_non_null(strstr(r->err, "e4m3fn has no infinity"));
    r = run("cast 1 --to fp16 --overflow wrap", NULL);
    assert_int_equal(r->rc, 2);
    assert_non_null(strstr(r->err, "wrap applies to integer targets only"));
    r = run("cast 1 --to int8 --overflow nan", NULL);
    assert_int_equal(r->rc, 2);
    r = run("cast 1", NULL);
    assert_int_equal(r->rc, 2);
    assert_non_null(strstr(r->err, "--to"));
    r = run("cast 1 --to", NULL);
    assert_int_equal(r->rc, 2);
    assert_non_null(strstr(r->err, "missing value after '--to'"));
    r = run("cast 1 --to fp9", NULL);
    assert_int_equal(r->rc, 2);
    assert_non_null(strstr(r->err, "fp9"));
    r = run("cast 1 --to fp64", NULL);
    assert_int_equal(r->rc, 2);
    r = run("cast 1 --to fp16 --rounding rnd", NULL);
    assert_int_equal(r->rc, 2);
    r = run("cast 1 --to fp16 --frob", NULL);
    assert_int_equal(r->rc, 2);
    assert_non_null(strstr(r->err, "--frob"));
    r = run("cast 1 --to fp16 --via e4m3fn:inf", NULL);
    assert_int_equal(r->rc, 2);
    assert_non_null(strstr(r->err, "e4m3fn has no infinity"));
    r = run("cast 0x1ffffffff --bits --from f32 --to fp16", NULL);
    assert_int_equal(r->rc, 2);
    assert_non_null(strstr(r->err, "'0x1ffffffff'"));
    r = run("cast 1.5 --bits --from f32 --to fp16", NULL);
    assert_int_equal(r->rc, 2);
    r = run("cast 1 --bits --from mpfr --to fp16", NULL);
    assert_int_equal(r->rc, 2);
    r = run("cast 1 --from int8 --to fp16", NULL);
    assert_int_equal(r->rc, 2);
    r = run("cast --help", NULL);
    assert_int_equal(r->rc, 0);
    assert_non_null(strstr(r->out, "--to FMT"));
}

/* What is printed parses back (exactly, --from mpfr) to the same encoding. */
static void test_printed_round_trips(void **state) {
    (void)state;
    const char *targets[] = {"fp32", "fp16", "bf16", "e4m3fn", "e5m2", NULL};
    for (int t = 0; targets[t]; t++) {
        char args[128];
        snprintf(args, sizeof args, "cast --to %s --overflow sat", targets[t]);
        run_result *r = run(args, "0.1 -3.14159 65504 1e-7 123456.789 448 0x1.fffffep127 -0x1p-149 2.5e-5");
        assert_int_equal(r->rc, 0);
        static char first[1 << 18], again[1 << 18];
        snprintf(first, sizeof first, "%s", r->out);
        /* the decimals, fed back */
        static char decs[1 << 18];
        decs[0] = 0;
        for (char *line = strtok(first, "\n"); line; line = strtok(NULL, "\n")) {
            char *sp = strchr(line, ' ');
            assert_non_null(sp);
            strcat(decs, sp + 1);
            strcat(decs, " ");
        }
        snprintf(args, sizeof args, "cast --to %s --overflow sat --from mpfr", targets[t]);
        snprintf(first, sizeof first, "%s", r->out);
        r = run(args, decs);
        assert_int_equal(r->rc, 0);
        snprintf(again, sizeof again, "%s", r->out);
        assert_string_equal(again, first);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue_cases), cmocka_unit_test(test_formats_and_widths),
        cmocka_unit_test(test_stdin),       cmocka_unit_test(test_errors),
        cmocka_unit_test(test_printed_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
