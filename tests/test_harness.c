/* Every checker feature fires: a seeded bug it must flag, a correct kernel it must
 * pass.  The contract and kernels here are local to the test (a test contract,
 * "test.plus_one": out[i] = in[i] + 1 over a flat masked launch), so each feature is
 * exercised in isolation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign.h"
#include "gen.h"
#include "harness.h"
#include "loader.h"
#include "spec.h"

const td_abi_table *td_builtin_host_table(void);

enum { P_N, P_BLOCK, NP };
enum { R_IN, R_OUT, NR };

static const td_param_decl params[NP] = {{"n", TD_P_INT}, {"BLOCK", TD_P_INT}};
static const td_region_decl regions_f32[NR] = {{"in", TD_F32, TD_R_IN}, {"out", TD_F32, TD_R_OUT}};
static const td_region_decl regions_i8[NR] = {{"in", TD_F32, TD_R_IN}, {"out", TD_I8, TD_R_OUT}};
static const td_cast_decl cast_i8[1] = {{"store", "int8:rtz:sat", "the int8 store"}};
static const int all_regs[NR] = {R_IN, R_OUT}, outs[1] = {R_OUT};

static int g_bad_gen; /* the generator under test breaks a precondition on purpose */
static int g_dup_write;
static int g_bad_write; /* 1: a lane of the input region, 2: an offset one past the output, 3: no such region */

static void gen(td_producer *p, td_case *c) {
    td_flat_shape(p, c, P_N, P_BLOCK, 6, 512, all_regs, NR);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM(TD_V_SMALL), 1);
    td_vgen_fill(&g, c, R_IN);
    if (g_bad_gen) c->grid[0] = 0;
}
static const char *check(const td_case *c) { return td_flat_check(c, P_N, P_BLOCK, all_regs, NR); }
static void writes(const td_case *c, td_wset *ws) {
    td_flat_writes(c, ws, P_N, P_BLOCK, outs, 1);
    if (g_dup_write && ws->n) td_wset_add(ws, &ws->v[0]);
    if (g_bad_write && ws->n) { /* appended after the valid lanes: the write set stays ascending for 2 */
        td_olane l = ws->v[ws->n - 1];
        if (g_bad_write == 1) l.region = R_IN, l.off = 0;
        else if (g_bad_write == 2) l.off = c->r[R_OUT].len;
        else l.region = NR;
        td_wset_add(ws, &l);
    }
}
static td_sh plus_one_sh(td_shcx *cx, const td_case *c, const td_olane *l) {
    return td_sh_add(cx, td_sh_in(cx, c, R_IN, l->off), td_sh_exact(cx, 1.0));
}
static td_mp plus_one_mp(td_mpcx *cx, const td_case *c, const td_olane *l) {
    return td_mp_add(cx, td_mp_in(cx, c, R_IN, l->off), td_mp_exact(cx, 1.0));
}
static td_sh plus_one_i8_sh(td_shcx *cx, const td_case *c, const td_olane *l) {
    return td_sh_cast(cx, td_sh_mul(cx, plus_one_sh(cx, c, l), td_sh_exact(cx, 64.0)), 0);
}
static td_mp plus_one_i8_mp(td_mpcx *cx, const td_case *c, const td_olane *l) {
    return td_mp_cast(cx, td_mp_mul(cx, plus_one_mp(cx, c, l), td_mp_exact(cx, 64.0)), 0);
}

static const td_contract k_f32 = {
    .id = "test.plus_one", .file = "test", .family = "test", .io_class = "MaskedKernelIO_1", .kind = "exact",
    .formula = "out[i] = in[i] + 1", .nparams = NP, .params = params, .nregions = NR, .regions = regions_f32,
    .sv = TD_SV_REAL, .gen = gen, .check = check, .writes = writes, .spec_sh = plus_one_sh, .spec_mp = plus_one_mp};
static const td_contract k_i8 = {
    .id = "test.plus_one_i8", .file = "test", .family = "test", .io_class = "MaskedKernelIO_1", .kind = "rounding",
    .formula = "out[i] = int8(64 * (in[i] + 1))", .nparams = NP, .params = params, .nregions = NR,
    .regions = regions_i8, .ncasts = 1, .casts = cast_i8, .sv = TD_SV_REAL, .gen = gen, .check = check,
    .writes = writes, .spec_sh = plus_one_i8_sh, .spec_mp = plus_one_i8_mp};

/* ---- kernels with one bug each ---- */
typedef enum {
    K_OK, K_TWO_ULPS, K_GUARD, K_OUTSIDE, K_SKIP, K_INPUT, K_FAIL, K_INF, K_SENTINEL,
    /* for the special-value rules */
    K_NAN,        /* lane 0 is NaN */
    K_WILD,       /* lane 0 is 12345 */
    K_MAXF,       /* every lane is +FLT_MAX */
    K_NEG_MAXF,   /* every lane is -FLT_MAX */
    K_TIMES_ZERO, /* out = in * 0 (correct for test.times_zero) */
    K_PLUS_ZERO   /* out = +0 (a zero of the wrong sign where in < 0) */
} kmode;
static kmode g_mode;

static int kernel(const td_abi_launch *L) {
    int64_t n = L->params[P_N].i, B = L->params[P_BLOCK].i;
    float *in = L->regions[R_IN].base;
    int i8 = L->regions[R_OUT].fmt == TD_ABI_I8;
    if (g_mode == K_FAIL) {
        snprintf(L->err, L->errlen, "simulated launch failure");
        return 7;
    }
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off >= n) continue;
            float r = in[off] + 1.0f;
            if (g_mode == K_TWO_ULPS && off == n / 2) r = nextafterf(nextafterf(r, INFINITY), INFINITY);
            if (g_mode == K_INF && off == 0) r = INFINITY;
            if (g_mode == K_NAN && off == 0) r = NAN;
            if (g_mode == K_WILD && off == 0) r = 12345.0f;
            if (g_mode == K_MAXF) r = FLT_MAX;
            if (g_mode == K_NEG_MAXF) r = -FLT_MAX;
            if (g_mode == K_TIMES_ZERO) r = in[off] * 0.0f;
            if (g_mode == K_PLUS_ZERO) r = 0.0f;
            if (g_mode == K_SKIP && off == n - 1) continue;
            if (g_mode == K_INPUT && off == 0) in[0] += 1.0f;
            if (i8) {
                int8_t v = (int8_t)td_encode_f32((td_profile){TD_I8, TD_RTZ, TD_OVF_SAT, false}, r * 64.0f);
                if (g_mode == K_SENTINEL) v = (int8_t)0xa5; /* collides with the first sentinel */
                ((int8_t *)L->regions[R_OUT].base)[off] = v;
            } else
                ((float *)L->regions[R_OUT].base)[off] = r;
        }
    if (g_mode == K_GUARD) ((float *)L->regions[R_OUT].base)[L->regions[R_OUT].len] = 1.0f;
    if (g_mode == K_OUTSIDE && L->regions[R_OUT].len > (uint64_t)n) ((float *)L->regions[R_OUT].base)[n] = 1.0f;
    return 0;
}

static const td_abi_kernel abi_f32 = {"test.plus_one", "test", TD_ABI_HOST, NULL, NULL, NULL, NP, NR, kernel, NULL};
static td_kernel kf32, ki8;

static void bind(void) {
    kf32.abi = &abi_f32;
    kf32.k = &k_f32;
    kf32.math = td_math_model_get("libm");
    kf32.library = "test";
    ki8 = kf32;
    ki8.k = &k_i8;
    td_profile_parse("int8:rtz:sat", &ki8.casts[0]);
}

/* Runs cases until one has the class `want` (or none in `max` cases): the case index. */
static int first_case_with(const td_kernel *kern, kmode mode, td_vclass want, int max, td_case_result *keep) {
    td_ctx_opts o = {0};
    char err[128];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    g_mode = mode;
    int hit = -1;
    for (int c = 0; c < max && hit < 0; c++) {
        uint8_t b[32];
        td_case_bytes(3, (uint64_t)c, b, sizeof b);
        td_case_result r;
        int rc = td_run_bytes(cx, kern, b, sizeof b, &r);
        assert_int_not_equal(rc, TD_RUN_HARNESS_ERROR);
        if ((want == TD_VC_PASS && rc == TD_RUN_OK) || (want != TD_VC_PASS && r.st.findings[want])) {
            hit = c;
            if (keep) {
                *keep = r;
                continue;
            }
        }
        if (want == TD_VC_PASS && rc != TD_RUN_OK) {
            td_report_text(stderr, kern, &r);
            fail();
        }
        td_result_free(&r);
    }
    td_ctx_free(cx);
    g_mode = K_OK;
    return hit;
}

static void test_correct_passes(void **st) {
    (void)st;
    /* 200 cases, every one must pass (first_case_with fails on any finding) */
    td_ctx_opts o = {.mpfr_all = 1};
    char err[128];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    for (int c = 0; c < 200; c++) {
        uint8_t b[32];
        td_case_bytes(3, (uint64_t)c, b, sizeof b);
        td_case_result r;
        assert_int_equal(td_run_bytes(cx, &kf32, b, sizeof b, &r), TD_RUN_OK);
        td_result_free(&r);
    }
    td_ctx_free(cx);
}

/* a campaign's time limit stops it only after min_cases cases (selftest's floor) */
static void test_campaign_case_floor(void **st) {
    (void)st;
    td_ctx_opts o = {0};
    char err[128];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    td_campaign c;
    td_campaign_opts co = {.seed = 5, .max_cases = 1000, .seconds = 1e-9, .min_cases = 50};
    assert_int_equal(td_campaign_run(cx, &kf32, &co, &c), TD_RUN_OK);
    assert_int_equal(c.cases, 50);
    td_campaign_free(&c);
    co.min_cases = 0; /* the time limit alone: it stops after the first case */
    assert_int_equal(td_campaign_run(cx, &kf32, &co, &c), TD_RUN_OK);
    assert_true(c.cases < 50);
    td_campaign_free(&c);
    td_ctx_free(cx);
}

static void test_out_of_tolerance(void **st) {
    (void)st;
    td_case_result r;
    assert_true(first_case_with(&kf32, K_TWO_ULPS, TD_VC_FAIL, 50, &r) >= 0);
    assert_true(r.finding && r.nrep >= 1 && r.rep[0].cls == TD_VC_FAIL);
    assert_true(fabs(r.rep[0].err_ulps) >= 1.5); /* two ulps off a correctly rounded value */
    assert_true(r.rep[0].err_over_tol > 1);
    td_result_free(&r);
}

static void test_guard_zone(void **st) {
    (void)st;
    assert_true(first_case_with(&kf32, K_GUARD, TD_VC_GUARD, 50, NULL) >= 0);
}

static void test_outside_write_set(void **st) {
    (void)st;
    assert_true(first_case_with(&kf32, K_OUTSIDE, TD_VC_OUTSIDE, 200, NULL) >= 0);
}

static void test_unwritten(void **st) {
    (void)st;
    assert_true(first_case_with(&kf32, K_SKIP, TD_VC_UNWRITTEN, 50, NULL) >= 0);
}

static void test_input_modified(void **st) {
    (void)st;
    assert_true(first_case_with(&kf32, K_INPUT, TD_VC_INPUT, 50, NULL) >= 0);
}

static void test_launch_error(void **st) {
    (void)st;
    td_case_result r;
    assert_true(first_case_with(&kf32, K_FAIL, TD_VC_LAUNCH, 5, &r) >= 0);
    assert_non_null(strstr(r.msg, "simulated launch failure"));
    td_result_free(&r);
}

static void test_nonfinite(void **st) {
    (void)st;
    assert_true(first_case_with(&kf32, K_INF, TD_VC_NONFINITE, 50, NULL) >= 0);
}

/* An int8 output whose correct value equals the first sentinel is written, not unwritten:
 * the second run with another sentinel settles it.  A kernel that always writes 0xa5
 * is wrong (out of tolerance) wherever 0xa5 is not the value due, but never "unwritten". */
static void test_sentinel_collision(void **st) {
    (void)st;
    assert_true(first_case_with(&ki8, K_SENTINEL, TD_VC_FAIL, 50, NULL) >= 0);
    assert_int_equal(first_case_with(&ki8, K_SENTINEL, TD_VC_UNWRITTEN, 50, NULL), -1);
    assert_true(first_case_with(&ki8, K_OK, TD_VC_PASS, 50, NULL) >= 0);
}

static void test_precondition_is_a_harness_bug(void **st) {
    (void)st;
    td_ctx_opts o = {0};
    char err[128];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    g_bad_gen = 1;
    uint8_t b[16] = {1, 2, 3};
    td_case_result r;
    assert_int_equal(td_run_bytes(cx, &kf32, b, sizeof b, &r), TD_RUN_HARNESS_ERROR);
    assert_non_null(strstr(r.msg, "precondition"));
    assert_non_null(strstr(r.msg, "grid covers n"));
    td_result_free(&r);
    g_bad_gen = 0;
    g_dup_write = 1;
    assert_int_equal(td_run_bytes(cx, &kf32, b, sizeof b, &r), TD_RUN_HARNESS_ERROR);
    assert_non_null(strstr(r.msg, "twice"));
    td_result_free(&r);
    g_dup_write = 0;
    for (g_bad_write = 1; g_bad_write <= 3; g_bad_write++) { /* each lane outside the output regions */
        assert_int_equal(td_run_bytes(cx, &kf32, b, sizeof b, &r), TD_RUN_HARNESS_ERROR);
        assert_non_null(strstr(r.msg, "outside the output regions"));
        td_result_free(&r);
    }
    g_bad_write = 0;
    td_ctx_free(cx);
}

static void test_artifact_round_trip(void **st) {
    (void)st;
    char dir[] = "/tmp/td-test-artifacts-XXXXXX";
    assert_non_null(mkdtemp(dir));
    uint8_t b[40];
    td_case_bytes(9, 9, b, sizeof b);
    char path[4400];
    assert_int_equal(td_artifact_write(dir, &kf32, b, sizeof b, path, sizeof path), 0);
    uint8_t *d;
    size_t n;
    char c[256], v[256], err[256];
    int be;
    assert_int_equal(td_artifact_read(path, &d, &n, c, sizeof c, v, sizeof v, &be, err, sizeof err), 0);
    assert_int_equal(n, sizeof b);
    assert_memory_equal(d, b, n);
    assert_string_equal(c, "test.plus_one");
    assert_string_equal(v, "test");
    free(d);
    /* a truncated header is an error naming the file, not a crash */
    FILE *f = fopen(path, "wb");
    fputs("TDFZ1 test.plus_one", f);
    fclose(f);
    assert_int_equal(td_artifact_read(path, &d, &n, c, sizeof c, v, sizeof v, &be, err, sizeof err), -1);
    assert_non_null(strstr(err, path));
    unlink(path);
    rmdir(dir);
}

/* The same bytes give the same report, byte for byte. */
static void test_repro_deterministic(void **st) {
    (void)st;
    td_ctx_opts o = {0};
    char err[128];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    g_mode = K_TWO_ULPS;
    char *out[2];
    size_t len[2];
    for (int t = 0; t < 2; t++) {
        uint8_t b[32];
        td_case_bytes(3, 1, b, sizeof b);
        td_case_result r;
        td_run_bytes(cx, &kf32, b, sizeof b, &r);
        FILE *f = open_memstream(&out[t], &len[t]);
        td_report_text(f, &kf32, &r);
        td_report_json(f, &kf32, &r, NULL);
        fclose(f);
        td_result_free(&r);
    }
    g_mode = K_OK;
    assert_int_equal(len[0], len[1]);
    assert_memory_equal(out[0], out[1], len[0]);
    assert_true(len[0] > 100);
    free(out[0]);
    free(out[1]);
    td_ctx_free(cx);
}

/* ---- the two tiers: a long sum whose kernel rounds toward zero at every step makes
 * errors that all point the same way; they exceed the probabilistic (Higham-Mary)
 * bound, which assumes independent rounding errors, but not the worst-case one: WARN,
 * not FAIL.  Rounding to nearest stays inside both. ---- */
enum { RS_N, RS_NP };
enum { RS_IN, RS_OUT, RS_NR };
static const td_param_decl rs_params[RS_NP] = {{"n", TD_P_INT}};
static const td_region_decl rs_regions[RS_NR] = {{"in", TD_F32, TD_R_IN}, {"out", TD_F32, TD_R_OUT}};
static void rs_gen(td_producer *p, td_case *c) {
    int64_t n = 4096 + td_prod_u32(p, 0, 4096);
    c->p[RS_N].i = n;
    td_case_alloc(c, RS_IN, (size_t)n);
    td_case_alloc(c, RS_OUT, 1);
    td_rng r;
    td_rng_seed(&r, td_prod_u64(p));
    for (int64_t i = 0; i < n; i++) td_set(c, RS_IN, (size_t)i, (float)(1.0 + td_rng_unit(&r)));
}
static const char *rs_check(const td_case *c) { return c->r[RS_IN].len == (size_t)c->p[RS_N].i ? NULL : "len(in) = n"; }
static void rs_writes(const td_case *c, td_wset *ws) {
    (void)c;
    td_olane l = {.region = RS_OUT, .off = 0};
    td_wset_add(ws, &l);
}
static td_sh rs_sh(td_shcx *cx, const td_case *c, const td_olane *l) {
    (void)l;
    td_sh_acc a;
    td_sh_acc_init(cx, &a, TD_ORDER_SEQ, 0);
    for (size_t i = 0; i < c->r[RS_IN].len; i++) td_sh_acc_add(cx, &a, td_sh_in(cx, c, RS_IN, i));
    return td_sh_acc_end(cx, &a);
}
static td_mp rs_mp(td_mpcx *cx, const td_case *c, const td_olane *l) {
    (void)l;
    td_mp_acc a;
    td_mp_acc_init(cx, &a, TD_ORDER_SEQ, 0);
    for (size_t i = 0; i < c->r[RS_IN].len; i++) td_mp_acc_add(cx, &a, td_mp_in(cx, c, RS_IN, i));
    return td_mp_acc_end(cx, &a);
}
static const td_contract k_rowsum = {
    .id = "test.rowsum", .file = "test", .family = "test", .io_class = "test", .kind = "exact",
    .formula = "out = sum(in)", .nparams = RS_NP, .params = rs_params, .nregions = RS_NR, .regions = rs_regions,
    .sv = TD_SV_REAL, .gen = rs_gen, .check = rs_check, .writes = rs_writes, .spec_sh = rs_sh, .spec_mp = rs_mp};
static int g_rtz;
static int rowsum_kernel(const td_abi_launch *L) {
    const float *x = L->regions[RS_IN].base;
    float s = 0;
    td_profile rtz = {TD_F32, TD_RTZ, TD_OVF_INF, false};
    for (int64_t i = 0; i < L->params[RS_N].i; i++) {
        if (g_rtz) {
            uint32_t b = (uint32_t)td_encode_f64(rtz, (double)s + (double)x[i]);
            memcpy(&s, &b, 4);
        } else
            s += x[i];
    }
    ((float *)L->regions[RS_OUT].base)[0] = s;
    return 0;
}
static const td_abi_kernel abi_rowsum = {"test.rowsum", "test", TD_ABI_HOST, NULL, NULL, NULL, RS_NP, RS_NR, rowsum_kernel, NULL};

static void test_warn_tier(void **st) {
    (void)st;
    td_kernel k = kf32;
    k.abi = &abi_rowsum;
    k.k = &k_rowsum;
    td_ctx_opts o = {0};
    char err[128];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    int warns = 0, fails = 0, rne_warns = 0;
    for (int c = 0; c < 20; c++) {
        uint8_t b[16];
        td_case_bytes(5, (uint64_t)c, b, sizeof b);
        td_case_result r;
        g_rtz = 1;
        int rc = td_run_bytes(cx, &k, b, sizeof b, &r);
        warns += r.st.lanes_warn > 0;
        fails += rc == TD_RUN_FINDING;
        td_result_free(&r);
        g_rtz = 0;
        assert_int_equal(td_run_bytes(cx, &k, b, sizeof b, &r), TD_RUN_OK);
        rne_warns += r.st.lanes_warn > 0;
        td_result_free(&r);
    }
    td_ctx_free(cx);
    assert_int_equal(fails, 0);    /* within the worst-case bound: never a FAIL */
    assert_int_equal(warns, 20);   /* biased errors beyond the probabilistic bound: WARN */
    assert_int_equal(rne_warns, 0);
}

/* ---- special-value rules ----
 * A test contract out = in + 1 whose shadow reports what its model met (lane flags, no
 * finite bound, an infinite reference), so each rule is exercised on its own. */
static uint32_t g_sv_flags; /* lane flags the shadow reports */
static int g_sv_unbounded;  /* the output has no finite bound */
static int g_sv_ref_inf;    /* the exact value is +inf (beyond a cast's overflow threshold) */

static td_sh sv_sh(td_shcx *cx, const td_case *c, const td_olane *l) {
    td_sh r = plus_one_sh(cx, c, l);
    cx->lane_flags |= g_sv_flags;
    if (g_sv_unbounded || g_sv_ref_inf) r.ek = r.ep = INFINITY;
    if (g_sv_ref_inf) r.v = INFINITY, r.es = 0;
    return r;
}
static td_mp sv_mp(td_mpcx *cx, const td_case *c, const td_olane *l) {
    td_mp r = plus_one_mp(cx, c, l);
    if (g_sv_ref_inf) mpfr_set_inf(r->x, 1);
    return r;
}
static td_sh tz_sh(td_shcx *cx, const td_case *c, const td_olane *l) {
    return td_sh_mul(cx, td_sh_in(cx, c, R_IN, l->off), td_sh_exact(cx, 0.0));
}
static td_mp tz_mp(td_mpcx *cx, const td_case *c, const td_olane *l) {
    return td_mp_mul(cx, td_mp_in(cx, c, R_IN, l->off), td_mp_exact(cx, 0.0));
}
#define SV_CONTRACT(name, pol, fsh, fmp, sz)                                                                      \
    {.id = name, .file = "test", .family = "test", .io_class = "MaskedKernelIO_1", .kind = "exact",               \
     .formula = name, .nparams = NP, .params = params, .nregions = NR, .regions = regions_f32, .sv = pol,         \
     .gen = gen, .check = check, .writes = writes, .spec_sh = fsh, .spec_mp = fmp, .signed_zero = sz}
static const td_contract k_sv_ieee = SV_CONTRACT("test.sv_ieee", TD_SV_IEEE, sv_sh, sv_mp, false);
static const td_contract k_sv_real = SV_CONTRACT("test.sv_real", TD_SV_REAL, sv_sh, sv_mp, false);
static const td_contract k_sz_on = SV_CONTRACT("test.times_zero_signed", TD_SV_REAL, tz_sh, tz_mp, true);
static const td_contract k_sz_off = SV_CONTRACT("test.times_zero", TD_SV_REAL, tz_sh, tz_mp, false);

static void sv_reset(void) {
    g_sv_flags = 0;
    g_sv_unbounded = g_sv_ref_inf = 0;
}

/* Runs 40 cases of contract k with kernel mode `mode` (every lane in MPFR too when
 * mpfr_all); the summed stats in *st; returns the number of cases that are findings. */
static int sv_run(const td_contract *k, kmode mode, int mpfr_all, td_stats *st) {
    td_kernel kern = kf32;
    kern.k = k;
    td_ctx_opts o = {.mpfr_all = mpfr_all};
    char err[128];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    memset(st, 0, sizeof *st);
    g_mode = mode;
    int findings = 0;
    for (int c = 0; c < 40; c++) {
        uint8_t b[32];
        td_case_bytes(11, (uint64_t)c, b, sizeof b);
        td_case_result r;
        int rc = td_run_bytes(cx, &kern, b, sizeof b, &r);
        assert_int_not_equal(rc, TD_RUN_HARNESS_ERROR);
        findings += rc == TD_RUN_FINDING;
        td_stats_merge(st, &r.st);
        td_result_free(&r);
    }
    g_mode = K_OK;
    td_ctx_free(cx);
    return findings;
}

/* NaN against a finite reference: an overflow somewhere in the lane (MAYOVF) whose
 * output still has a finite bound does not make a NaN admissible (the sticky flag used
 * to let it through); an infinity of the reference's sign stays admissible there. */
static void test_nan_needs_a_cause(void **st) {
    (void)st;
    td_stats s;
    sv_reset();
    g_sv_flags = TD_LF_MAYOVF;
    for (int all = 0; all < 2; all++) {
        assert_true(sv_run(&k_sv_ieee, K_NAN, all, &s) > 0);
        assert_true(s.findings[TD_VC_NONFINITE] > 0);
        assert_int_equal(sv_run(&k_sv_ieee, K_INF, all, &s), 0); /* in + 1 >= 0: +inf has its sign */
        assert_true(s.lanes_overflow_ok > 0);
    }
    sv_reset();
}

/* NaN where the shadow shows an invalid operation reachable: a domain edge, or a
 * non-finite intermediate that reaches the output (no finite bound) -- IEEE policy only. */
static void test_nan_admissible_only_with_cause_and_ieee(void **st) {
    (void)st;
    td_stats s;
    sv_reset();
    g_sv_flags = TD_LF_DOMAIN;
    assert_int_equal(sv_run(&k_sv_ieee, K_NAN, 0, &s), 0);
    assert_true(sv_run(&k_sv_real, K_NAN, 0, &s) > 0); /* the real-valued policy admits none */
    g_sv_flags = TD_LF_MAYOVF;
    g_sv_unbounded = 1;
    assert_int_equal(sv_run(&k_sv_ieee, K_NAN, 0, &s), 0);
    g_sv_flags = 0; /* no cause at all: the same NaN is a disagreement */
    assert_true(sv_run(&k_sv_ieee, K_NAN, 0, &s) > 0);
    sv_reset();
}

/* An infinite bound passes nothing: the lanes are counted unbounded (not checked), and a
 * contract whose lanes are mostly unbounded is "not checked".  A wild value is not a
 * finding either (no bound says it is wrong), but it is never a PASS. */
static void test_unbounded_is_not_a_pass(void **st) {
    (void)st;
    td_stats s;
    sv_reset();
    g_sv_flags = TD_LF_MAYOVF | TD_LF_UNBOUNDED;
    g_sv_unbounded = 1;
    for (int all = 0; all < 2; all++) { /* decided by the shadow, and on the MPFR reference */
        assert_int_equal(sv_run(&k_sv_ieee, K_WILD, all, &s), 0);
        assert_true(s.lanes > 0);
        assert_int_equal(s.lanes_unbounded, s.lanes);
        assert_int_equal(s.hist[0] + s.hist[1] + s.hist[2] + s.hist[7] + s.hist[8], 0); /* not among checked lanes */
        char why[256];
        assert_true(td_stats_unchecked(&s, why, sizeof why));
        assert_non_null(strstr(why, "not checked"));
    }
    td_stats h = {.lanes = 10, .lanes_unbounded = 5};
    assert_false(td_stats_unchecked(&h, NULL, 0)); /* half: still checked */
    h.lanes_unbounded = 6;
    assert_true(td_stats_unchecked(&h, NULL, 0));
    sv_reset();
}

/* A finite value against an infinite reference: only the largest finite value of the
 * reference's sign (rounding on the finite side of the threshold, or a saturating
 * store), and only where the shadow says the value may lie there. */
static void test_finite_against_infinite_reference(void **st) {
    (void)st;
    td_stats s;
    sv_reset();
    g_sv_ref_inf = 1;
    g_sv_flags = TD_LF_MAYOVF;
    assert_true(sv_run(&k_sv_ieee, K_OK, 0, &s) > 0); /* in + 1: an arbitrary finite value */
    assert_true(s.findings[TD_VC_NONFINITE] > 0);
    assert_int_equal(sv_run(&k_sv_ieee, K_MAXF, 0, &s), 0);
    assert_true(sv_run(&k_sv_ieee, K_NEG_MAXF, 0, &s) > 0); /* the wrong sign */
    g_sv_flags = 0; /* the shadow never saw the value near the threshold */
    assert_true(sv_run(&k_sv_ieee, K_MAXF, 0, &s) > 0);
    sv_reset();
}

/* Signed zero: a zero of the wrong sign is a disagreement only where the contract says
 * its spec distinguishes -0 (the default does not). */
static void test_signed_zero(void **st) {
    (void)st;
    td_stats s;
    for (int all = 0; all < 2; all++) {
        assert_int_equal(sv_run(&k_sz_on, K_TIMES_ZERO, all, &s), 0);
        assert_true(sv_run(&k_sz_on, K_PLUS_ZERO, all, &s) > 0);
        assert_true(s.findings[TD_VC_FAIL] > 0);
        assert_int_equal(sv_run(&k_sz_off, K_PLUS_ZERO, all, &s), 0);
    }
}

/* A contract whose preconditions allow NaN and +-inf inputs (nonfinite_inputs:
 * add_example, IEEE addition) gets them from its generator, with -0 and subnormals, and
 * its correct kernel passes them; a contract without the opt-in never sees them. */
static void test_ieee_inputs_policy(void **st) {
    (void)st;
    td_kernel_set set;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    const td_kernel *add = td_kernels_find(&set, "add_example.add_kernel_correctness", "triton", TD_ABI_HOST);
    const td_contract *plain = td_contract_find("vector_addition.add_kernel_correctness");
    assert_non_null(add);
    assert_non_null(plain);
    assert_true(add->k->nonfinite_inputs && !plain->nonfinite_inputs);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    int seen[5] = {0}, plain_special = 0;
    for (uint64_t i = 0; i < 300; i++) {
        uint8_t b[64];
        td_case_bytes(17, i, b, sizeof b);
        td_case c;
        assert_int_equal(td_decode_case(add->k, b, sizeof b, &c, err, sizeof err), 0);
        for (size_t e = 0; e < c.r[0].len; e++) {
            double x = td_get(&c, 0, e);
            seen[0] |= isnan(x), seen[1] |= x == INFINITY, seen[2] |= x == -INFINITY;
            seen[3] |= x == 0 && signbit(x), seen[4] |= x != 0 && fabs(x) < FLT_MIN;
        }
        td_case_free(&c);
        assert_int_equal(td_decode_case(plain, b, sizeof b, &c, err, sizeof err), 0);
        for (size_t e = 0; e < c.r[0].len; e++) plain_special |= !isfinite(td_get(&c, 0, e));
        td_case_free(&c);
        td_case_result r;
        assert_int_equal(td_run_bytes(cx, add, b, sizeof b, &r), TD_RUN_OK);
        td_result_free(&r);
    }
    for (int k = 0; k < 5; k++) assert_true(seen[k]);
    assert_false(plain_special);
    td_ctx_free(cx);
    td_kernels_close(&set);
}

/* ---- undefined lanes (TD_SH_UNDEF): a row softmax over scores that may be -inf ----
 * test.masked_softmax: rows of n scores, masked ones -inf.  Row 0 is fully masked (the
 * exact softmax is 0/0: undefined), row 1 masks its whole first half only (defined:
 * the masked columns are 0, the rest a softmax), the other rows mask nothing, some or
 * all columns.  The spec also meets an undefined intermediate on row 1 that a certain
 * selection discards (max of the first half minus itself, -inf - -inf), so a lane-level
 * (sticky) "undefined" flag would accept a NaN on row 1: only the output value's flag
 * may decide. */
enum { MS_N, MS_ROWS, MS_NP };
enum { MS_IN, MS_OUT, MS_NR };
static const td_param_decl ms_params[MS_NP] = {{"n", TD_P_INT}, {"rows", TD_P_INT}};
static const td_region_decl ms_regions[MS_NR] = {{"in", TD_F32, TD_R_IN}, {"out", TD_F32, TD_R_OUT}};
static void ms_gen(td_producer *p, td_case *c) {
    int64_t n = 2 + td_prod_u32(p, 0, 10), rows = 3 + td_prod_u32(p, 0, 4);
    c->p[MS_N].i = n;
    c->p[MS_ROWS].i = rows;
    td_case_alloc(c, MS_IN, (size_t)(n * rows));
    td_case_alloc(c, MS_OUT, (size_t)(n * rows));
    td_rng r;
    td_rng_seed(&r, td_prod_u64(p));
    for (int64_t i = 0; i < rows; i++) {
        int kind = i == 0 ? 2 : i == 1 ? 3 : (int)td_rng_below(&r, 3); /* none, some, all, first half */
        int64_t keep = td_rng_below(&r, (uint64_t)n);                    /* a column kept by "some" */
        for (int64_t j = 0; j < n; j++) {
            double x = 8 * (2 * td_rng_unit(&r) - 1);
            int masked = kind == 2 || (kind == 3 && j < n / 2) || (kind == 1 && j != keep && td_rng_below(&r, 2));
            td_set(c, MS_IN, (size_t)(i * n + j), masked ? -INFINITY : (double)(float)x);
        }
    }
}
static const char *ms_check(const td_case *c) {
    return c->r[MS_IN].len == (size_t)(c->p[MS_N].i * c->p[MS_ROWS].i) ? NULL : "len(in) = n * rows";
}
static void ms_writes(const td_case *c, td_wset *ws) {
    for (int64_t i = 0; i < c->p[MS_ROWS].i; i++)
        for (int64_t j = 0; j < c->p[MS_N].i; j++) {
            td_olane l = {.region = MS_OUT, .off = (uint64_t)(i * c->p[MS_N].i + j)};
            l.idx[0] = i, l.idx[1] = j;
            td_wset_add(ws, &l);
        }
}
/* out = exp(x_j - max) / sum_k exp(x_k - max) + g (the sum in one or two passes), where g = (m1 > -inf ? m1 - m1 : 0)
 * = 0 exactly, m1 the max of the first half: the selection discards -inf - -inf. */
#define MS_SPEC(T, NUMT, ACC)                                                                                    \
    static NUMT ms_##T(td_##T##cx *cx, const td_case *c, const td_olane *l) {                                 \
        int64_t n = c->p[MS_N].i, base = l->idx[0] * n;                                                      \
        NUMT m = td_##T##_in(cx, c, MS_IN, (size_t)base), m1 = m;                                             \
        for (int64_t j = 1; j < n; j++) {                                                                     \
            m = td_##T##_max(cx, m, td_##T##_in(cx, c, MS_IN, (size_t)(base + j)));                          \
            if (j < n / 2) m1 = td_##T##_max(cx, m1, td_##T##_in(cx, c, MS_IN, (size_t)(base + j)));         \
        }                                                                                                     \
        ACC acc;                                                                                              \
        NUMT spread = td_##T##_exact(cx, 0.0);                                                                \
        td_##T##_acc_init(cx, &acc, TD_ORDER_ANY, 0);                                                         \
        for (int64_t j = 0; j < n; j++) {                                                                     \
            NUMT d = td_##T##_sub(cx, td_##T##_in(cx, c, MS_IN, (size_t)(base + j)), m);                      \
            td_##T##_acc_add(cx, &acc, td_##T##_exp(cx, d));                                                  \
            spread = td_##T##_max(cx, spread, td_##T##_neg(cx, d));                                           \
        }                                                                                                     \
        NUMT s = td_##T##_rescaled(cx, td_##T##_acc_end(cx, &acc), (long)n, spread, 0, 1.0);                 \
        NUMT e = td_##T##_exp(cx, td_##T##_sub(cx, td_##T##_in(cx, c, MS_IN, l->off), m));                   \
        NUMT g = td_##T##_sel(cx, td_##T##_cmp(cx, m1, td_##T##_exact(cx, -INFINITY), '>'),                  \
                              td_##T##_sub(cx, m1, m1), td_##T##_exact(cx, 0.0));                             \
        return td_##T##_add(cx, td_##T##_div(cx, e, s), g);                                                  \
    }
MS_SPEC(sh, td_sh, td_sh_acc)
MS_SPEC(mp, td_mp, td_mp_acc)
static const td_contract k_msoftmax = {
    .id = "test.masked_softmax", .file = "test", .family = "test", .io_class = "test", .kind = "exact",
    .formula = "softmax of rows with -inf scores", .nparams = MS_NP, .params = ms_params, .nregions = MS_NR,
    .regions = ms_regions, .sv = TD_SV_IEEE, .gen = ms_gen, .check = ms_check, .writes = ms_writes,
    .spec_sh = ms_sh, .spec_mp = ms_mp};
/* the same spec read as IEEE arithmetic on its -inf inputs: NaN is its value there */
static const td_contract k_msoftmax_ieee = {
    .id = "test.masked_softmax_ieee", .file = "test", .family = "test", .io_class = "test", .kind = "exact",
    .formula = "softmax of rows with -inf scores, IEEE", .nparams = MS_NP, .params = ms_params, .nregions = MS_NR,
    .regions = ms_regions, .sv = TD_SV_IEEE, .gen = ms_gen, .check = ms_check, .writes = ms_writes,
    .spec_sh = ms_sh, .spec_mp = ms_mp, .nonfinite_inputs = true};
typedef enum {
    MSK_NAN,     /* two-pass IEEE: a fully masked row is 0/0 = NaN (correct) */
    MSK_ZERO,    /* guarded: a fully masked row stores 0 (correct) */
    MSK_UNIFORM, /* a fully masked row stores 1/n (the finite-fill softmax; correct) */
    MSK_ONLINE,  /* online over the two halves, running max guarded (correct) */
    MSK_ONLINE_UNGUARDED, /* the same without the guard: a masked first half makes the whole row NaN (bug) */
    MSK_SKIP             /* a fully masked row returns early, its outputs never written (bug) */
} msk_mode;
static msk_mode g_msk;
/* the online softmax of row x over the blocks [0, n/2) and [n/2, n); `guard`: a block
 * whose running max is still -inf rescales by 1 instead of exp(-inf - -inf) */
static void ms_online(const float *x, float *o, int64_t n, int guard) {
    float m = -INFINITY, l = 0;
    int64_t h = n / 2, lo[2] = {0, h}, hi[2] = {h, n};
    for (int b = 0; b < 2; b++) {
        float mb = m;
        for (int64_t j = lo[b]; j < hi[b]; j++) mb = fmaxf(mb, x[j]);
        float alpha = (guard && mb == -INFINITY) ? 1.0f : expf(m - mb), s = 0;
        for (int64_t j = lo[b]; j < hi[b]; j++) s += (guard && mb == -INFINITY) ? 0.0f : expf(x[j] - mb);
        l = l * alpha + s;
        m = mb;
    }
    for (int64_t j = 0; j < n; j++) o[j] = (guard && m == -INFINITY) ? 0.0f : expf(x[j] - m) / l;
}
static int ms_kernel(const td_abi_launch *L) {
    int64_t n = L->params[MS_N].i, rows = L->params[MS_ROWS].i;
    for (int64_t i = 0; i < rows; i++) {
        const float *x = (const float *)L->regions[MS_IN].base + i * n;
        float *o = (float *)L->regions[MS_OUT].base + i * n, m = -INFINITY, s = 0;
        if (g_msk == MSK_ONLINE || g_msk == MSK_ONLINE_UNGUARDED) {
            ms_online(x, o, n, g_msk == MSK_ONLINE);
            continue;
        }
        for (int64_t j = 0; j < n; j++) m = fmaxf(m, x[j]);
        if (m == -INFINITY && g_msk == MSK_SKIP) continue;
        for (int64_t j = 0; j < n; j++) s += expf(x[j] - m);
        for (int64_t j = 0; j < n; j++) {
            o[j] = expf(x[j] - m) / s;
            if (m == -INFINITY && g_msk == MSK_ZERO) o[j] = 0.0f;
            if (m == -INFINITY && g_msk == MSK_UNIFORM) o[j] = 1.0f / (float)n;
        }
    }
    return 0;
}
static const td_abi_kernel abi_msoftmax = {"test.masked_softmax", "test", TD_ABI_HOST, NULL, NULL, NULL, MS_NP, MS_NR,
                                           ms_kernel, NULL};

/* 60 cases of test.masked_softmax with kernel mode `mode`: the number of cases that are
 * findings, the summed stats in *st */
static int ms_run_k(const td_contract *k, msk_mode mode, int mpfr_all, td_stats *st) {
    td_kernel kern = kf32;
    kern.abi = &abi_msoftmax;
    kern.k = k;
    td_ctx_opts o = {.mpfr_all = mpfr_all};
    char err[128];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    memset(st, 0, sizeof *st);
    g_msk = mode;
    int findings = 0;
    for (int c = 0; c < 60; c++) {
        uint8_t b[32];
        td_case_bytes(13, (uint64_t)c, b, sizeof b);
        td_case_result r;
        int rc = td_run_bytes(cx, &kern, b, sizeof b, &r);
        assert_int_not_equal(rc, TD_RUN_HARNESS_ERROR);
        if (rc == TD_RUN_FINDING && mode < MSK_ONLINE_UNGUARDED && k == &k_msoftmax) td_report_text(stderr, &kern, &r);
        findings += rc == TD_RUN_FINDING;
        td_stats_merge(st, &r.st);
        td_result_free(&r);
    }
    td_ctx_free(cx);
    return findings;
}
static int ms_run(msk_mode mode, int mpfr_all, td_stats *st) { return ms_run_k(&k_msoftmax, mode, mpfr_all, st); }

/* Rule "undefined lane": every admissible outcome of a fully masked row passes (NaN, 0,
 * the uniform distribution), and only there: the lanes of row 0 and of the other fully
 * masked rows are counted undefined, row 1's are checked, and a NaN there (the
 * unguarded online softmax) is a disagreement; an undefined lane left unwritten is one
 * too. */
static void test_undefined_lanes(void **st) {
    (void)st;
    td_stats s;
    for (int all = 0; all < 2; all++) {
        for (msk_mode m = MSK_NAN; m <= MSK_ONLINE; m++) {
            assert_int_equal(ms_run(m, all, &s), 0);
            assert_true(s.lanes_undefined > 0);             /* the generator makes fully masked rows */
            assert_true(s.lanes_undefined < s.lanes);       /* and checked ones (row 1) */
            assert_int_equal(s.findings[TD_VC_NONFINITE], 0);
        }
        assert_int_equal(ms_run(MSK_ONLINE_UNGUARDED, all, &s), 60); /* row 1 in every case */
        assert_true(s.findings[TD_VC_NONFINITE] > 0);
        /* an undefined lane is still a lane of the write set: it must be written */
        assert_int_equal(ms_run(MSK_SKIP, all, &s), 60); /* row 0 in every case */
        assert_true(s.findings[TD_VC_UNWRITTEN] > 0);
    }
    /* where the contract's spec is IEEE arithmetic on its special inputs, NaN is the value:
     * the IEEE kernel passes, the guarded one is a disagreement */
    assert_int_equal(ms_run_k(&k_msoftmax_ieee, MSK_NAN, 0, &s), 0);
    assert_int_equal(s.lanes_undefined, 0);
    assert_int_equal(ms_run_k(&k_msoftmax_ieee, MSK_ZERO, 0, &s), 60);
    /* a contract whose lanes are mostly unmeasured (undefined or unbounded) is not checked */
    td_stats h = {.lanes = 10, .lanes_undefined = 3, .lanes_unbounded = 2};
    assert_false(td_stats_unchecked(&h, NULL, 0));
    h.lanes_undefined = 4;
    char why[256];
    assert_true(td_stats_unchecked(&h, why, sizeof why));
    assert_non_null(strstr(why, "undefined"));
}

/* td_err_tol_bin is floor(log10(eot)) + 8 clamped to [1, 8] (0 for 0), bin for bin:
 * around every power of ten (the values whose side only log10's rounding decides, where
 * a bare comparison with the decade's double gives another bin) and across the range. */
static int bin_by_log10(double eot) {
    int b = eot == 0 ? 0 : (eot > 1 ? 8 : (eot >= 0.1 ? 7 : (int)floor(log10(eot)) + 8));
    return b < 1 && eot > 0 ? 1 : b;
}
static void test_err_tol_bin(void **st) {
    (void)st;
    static const double special[] = {0, 0x1p-1074, 1e-300, 0.1, 1, 1.5, 1e300, INFINITY};
    for (size_t i = 0; i < sizeof special / sizeof *special; i++)
        assert_int_equal(td_err_tol_bin(special[i]), bin_by_log10(special[i]));
    int near_differs = 0;
    for (int k = 0; k <= 9; k++) {
        double t = pow(10, -k);
        for (int dir = -1; dir <= 1; dir += 2) {
            double x = t;
            for (int j = 0; j < 200; j++, x = nextafter(x, dir * INFINITY)) {
                assert_int_equal(td_err_tol_bin(x), bin_by_log10(x));
                near_differs += (x < t && x > 0.5 * t && (int)floor(log10(x)) == -k); /* log10 rounds up to the decade */
            }
            for (double r = 0x1p-34; r < 0x1p-20; r *= 1.5) { /* across the 2^-30 switch */
                double y = t * (1 + dir * r);
                assert_int_equal(td_err_tol_bin(y), bin_by_log10(y));
            }
        }
    }
    assert_true(near_differs > 0); /* the test reaches the values a plain comparison puts in the wrong bin */
    for (double x = 1e-12; x < 10; x *= 1.0009765625) assert_int_equal(td_err_tol_bin(x), bin_by_log10(x));
}

int main(void) {
    bind();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_correct_passes),    cmocka_unit_test(test_out_of_tolerance),
        cmocka_unit_test(test_guard_zone),        cmocka_unit_test(test_outside_write_set),
        cmocka_unit_test(test_unwritten),         cmocka_unit_test(test_input_modified),
        cmocka_unit_test(test_launch_error),      cmocka_unit_test(test_nonfinite),
        cmocka_unit_test(test_sentinel_collision), cmocka_unit_test(test_precondition_is_a_harness_bug),
        cmocka_unit_test(test_artifact_round_trip), cmocka_unit_test(test_repro_deterministic),
        cmocka_unit_test(test_warn_tier),         cmocka_unit_test(test_campaign_case_floor),
        cmocka_unit_test(test_nan_needs_a_cause), cmocka_unit_test(test_nan_admissible_only_with_cause_and_ieee),
        cmocka_unit_test(test_unbounded_is_not_a_pass), cmocka_unit_test(test_finite_against_infinite_reference),
        cmocka_unit_test(test_signed_zero),       cmocka_unit_test(test_ieee_inputs_policy),
        cmocka_unit_test(test_undefined_lanes),   cmocka_unit_test(test_err_tol_bin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
