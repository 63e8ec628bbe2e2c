/* The batched verdict path (td_contract.spec_sh_run, engine/harness.c judge_run)
 * against its reference, the per-lane path (td_ctx_opts.lane_by_lane):
 *  - td_sh_add_exact (oracle/sh_exact_add.h) is td_sh_add of two exact operands, bit
 *    for bit, on edge and random operands, in three evaluation formats;
 *  - every contract with a run entry, and a generated one (TD_SPEC_RUN_DEFINE): the run
 *    entry's shadows and lane flags are the per-lane spec's, bit for bit, on every lane
 *    of random cases;
 *  - add_example and vector_addition judged twice, batched and lane by lane, on random
 *    cases with their port and with a kernel that spoils a random share of the lanes
 *    (one ulp off, NaN, +-inf, a flipped sign, a lane left unwritten): the same verdict,
 *    statistics (timings aside), err/tol histogram, top lane and detailed reports in the
 *    same order.  A batched path that passed a lane the per-lane rules do not (a looser
 *    "clearly within ep" test, a special value taken as a number) changes them;
 *  - add_example's exact reference of a lane with a NaN or infinite input
 *    (td_contract.ref_nonfinite, what the batched path judges such a lane on) is MPFR's
 *    on every pair of edge inputs, and the cases above have such lanes (the per-lane
 *    path judges them on MPFR's). */
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

#include "campaign.h"
#include "harness.h"
#include "loader.h"
#include "spec.h"
#include "sh_exact_add.h"

#define TD_SPEC_FILE "judge_run.spec.h"
#include "spec_instantiate.h"
TD_SPEC_RUN_DEFINE(tadd)

const td_abi_table *td_builtin_host_table(void);

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* ---- the run entry is the per-lane spec ---- */
static void run_entry_is_the_lane_spec(const td_contract *k, int cases) {
    td_shcx sh;
    memset(&sh, 0, sizeof sh);
    sh.efmt = TD_F32, sh.u = 0x1p-24, sh.eta = 0x1p-150, sh.ulp_min = 0x1p-149, sh.ovf = 0x1.ffffffp127;
    sh.lambda_n = 64;
    char err[256];
    /* the contract's own kernel's math model, order and casts (the harness's setup_sh):
     * seed_sm86's specs take exp2 and binary16 casts, retention's exp2 */
    td_kernel_set set;
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    const td_kernel *kern = td_kernels_find(&set, k->id, NULL, TD_ABI_HOST);
    assert_non_null(kern);
    sh.math = kern->math, sh.order = kern->decl.order, sh.block = kern->decl.block;
    sh.div_ieee = kern->decl.div_ieee != 0, sh.casts = kern->casts, sh.ncasts = k->ncasts;
    for (int i = 0; i < cases; i++) {
        uint8_t b[64];
        td_campaign_case_bytes(k, 20261202, (uint64_t)i, b, sizeof b);
        td_case c;
        assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
        td_wset ws;
        memset(&ws, 0, sizeof ws);
        k->writes(&c, &ws);
        assert_false(ws.oom);
        td_sh *out = malloc((ws.n + 1) * sizeof *out);
        uint32_t *lf = malloc((ws.n + 1) * sizeof *lf);
        assert_non_null(out);
        assert_non_null(lf);
        /* a fresh memo for each side (the harness clears it for every case): a run
         * entry that shares row quantities (seed_sm86) is compared with per-lane
         * calls that compute or fetch their rows themselves, then run again over the
         * memo those calls filled (the harness's run entry may meet memoised rows) */
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 0) td_shcx_memo_clear(&sh);
            k->spec_sh_run(&sh, &c, ws.v, ws.n, out, lf);
            if (pass == 0) td_shcx_memo_clear(&sh);
            for (size_t j = 0; j < ws.n; j++) {
                sh.lane_flags = 0;
                td_sh s = k->spec_sh(&sh, &c, &ws.v[j]);
                assert_true(same_bits(s.v, out[j].v) && same_bits(s.es, out[j].es));
                assert_true(same_bits(s.ek, out[j].ek) && same_bits(s.ep, out[j].ep));
                assert_int_equal(s.fl, out[j].fl);
                assert_int_equal(s.leaves, out[j].leaves);
                assert_int_equal(sh.lane_flags, lf[j]);
            }
        }
        free(out);
        free(lf);
        free(ws.v);
        td_case_free(&c);
    }
    td_shcx_memo_free(&sh);
    td_kernels_close(&set);
}

static void run_entries_match_lane_specs(void **st) {
    (void)st;
    int n = 0;
    for (int i = 0; i < td_contract_count(); i++) {
        const td_contract *k = td_contract_at(i);
        if (!k->spec_sh_run) continue;
        run_entry_is_the_lane_spec(k, 60);
        n++;
    }
    assert_true(n >= 5); /* add_example, vector_addition and seed_sm86's three passes at least */
}

/* ---- the folded exact addition is the shadow's general one ---- */
static void shcx_for(td_shcx *sh, td_fmt f) {
    memset(sh, 0, sizeof *sh);
    sh->efmt = f, sh->lambda_n = 64;
    if (f == TD_F32) sh->u = 0x1p-24, sh->eta = 0x1p-150, sh->ulp_min = 0x1p-149, sh->ovf = 0x1.ffffffp127;
    else if (f == TD_F16) sh->u = 0x1p-11, sh->eta = 0x1p-25, sh->ulp_min = 0x1p-24, sh->ovf = 65520;
    else sh->u = 0x1p-53, sh->eta = 0x1p-1074, sh->ulp_min = 0x1p-1074, sh->ovf = INFINITY;
}

static void same_sh(td_sh a, td_sh b) {
    assert_true(same_bits(a.v, b.v) && same_bits(a.es, b.es) && same_bits(a.ek, b.ek) && same_bits(a.ep, b.ep));
    assert_int_equal(a.fl, b.fl);
    assert_int_equal(a.leaves, b.leaves);
}

static void add_exact_is_add_of_exacts(void **st) {
    (void)st;
    static const double edge[] = {0.0, -0.0, 1.0, -1.0, 0x1p-149, -0x1p-149, 0x1p-126, 0x1.fffffep127, -0x1.fffffep127,
                                  0x1p127, 0x1.ffffffp127, 0x1p128, 0x1p1023, -0x1p1023, DBL_MAX, 0x1p-1074, 1e-300,
                                  3.0, 0x1p-24, 1 + 0x1p-23, 65504, 65520, 0x1p-25, 1e30, -1e30};
    const size_t ne = sizeof edge / sizeof edge[0];
    const td_fmt fmts[3] = {TD_F32, TD_F16, TD_F64};
    uint64_t h = 1;
    for (int fi = 0; fi < 3; fi++) {
        td_shcx sh;
        shcx_for(&sh, fmts[fi]);
        for (size_t i = 0; i < ne * ne + 20000; i++) {
            double a, b;
            if (i < ne * ne) a = edge[i / ne], b = edge[i % ne];
            else { /* random binary32 pairs, and pairs far apart in magnitude (inexact binary64 sums) */
                uint32_t ba = (uint32_t)(h = mix(h)), bb = (uint32_t)(h = mix(h));
                float fa, fb;
                memcpy(&fa, &ba, sizeof fa);
                memcpy(&fb, &bb, sizeof fb);
                if (!isfinite(fa) || !isfinite(fb)) continue;
                a = fa, b = (h & 1) ? fb : ldexp(fb, (int)(h >> 8 & 63) - 32);
            }
            sh.lane_flags = 0;
            td_sh g = td_sh_add(&sh, td_sh_exact(&sh, a), td_sh_exact(&sh, b));
            uint32_t gf = sh.lane_flags;
            sh.lane_flags = 0;
            td_sh f = td_sh_add_exact(&sh, a, b);
            same_sh(f, g);
            assert_int_equal(sh.lane_flags, gf);
        }
    }
}

/* ---- a kernel that spoils some lanes ---- */
static uint64_t g_case; /* the case being launched: which lanes are spoiled, and how many */
static const td_contract *g_contract; /* the contract judged instead of the port's own (NULL: its own) */

/* out = x + y in binary32 (both contracts: params n, BLOCK; regions x, y, out), with one
 * lane in 2^(case % 8) spoiled (none every eighth case), each in one of six ways. */
static int spoiled_add(const td_abi_launch *L) {
    int64_t n = L->params[0].i;
    const float *x = L->regions[0].base, *y = L->regions[1].base;
    float *o = L->regions[2].base;
    unsigned rate = (unsigned)(g_case % 8);
    for (int64_t i = 0; i < n; i++) {
        float s = x[i] + y[i];
        uint64_t h = mix(g_case * 0x100000001b3ull + (uint64_t)i);
        if (rate != 7 && (h & ((1u << rate) - 1)) == 0) switch ((h >> 8) % 6) {
            case 0: s = nextafterf(s, INFINITY); break;
            case 1: s = NAN; break;
            case 2: s = (h >> 16) & 1 ? INFINITY : -INFINITY; break;
            case 3: continue; /* unwritten: the sentinel stays */
            case 4: s = -s; break;
            default: s = nextafterf(s, -INFINITY); break;
            }
        o[i] = s;
    }
    return 0;
}

/* Any port's launch, then one cell in 2^(case % 8) of its first region (the output of
 * softmax_triton1 and rms_norm_triton) spoiled as above (none every eighth case; the
 * "unwritten" way leaves the port's value). */
static td_abi_launch_fn g_port_launch;
static int spoiled_port(const td_abi_launch *L) {
    int rc = g_port_launch(L);
    if (rc != 0 || L->nregions < 1 || L->regions[0].fmt != TD_ABI_F32) return rc;
    float *o = L->regions[0].base;
    unsigned rate = (unsigned)(g_case % 8);
    for (uint64_t i = 0; i < L->regions[0].len; i++) {
        uint64_t h = mix(g_case * 0x100000001b3ull + i);
        if (rate == 7 || (h & ((1u << rate) - 1)) != 0) continue;
        switch ((h >> 8) % 6) {
        case 0: o[i] = nextafterf(o[i], INFINITY); break;
        case 1: o[i] = NAN; break;
        case 2: o[i] = (h >> 16) & 1 ? INFINITY : -INFINITY; break;
        case 3: break;
        case 4: o[i] = -o[i]; break;
        default: o[i] = nextafterf(o[i], -INFINITY); break;
        }
    }
    return 0;
}

/* ---- the same case, batched and lane by lane ---- */
static void same_report(const td_lane_report *a, const td_lane_report *b) {
    assert_int_equal(a->cls, b->cls);
    assert_int_equal(a->has_lane, b->has_lane);
    assert_int_equal(a->region, b->region);
    assert_int_equal(a->off, b->off);
    assert_int_equal(a->got_bits, b->got_bits);
    assert_true(same_bits(a->got, b->got) && same_bits(a->ref, b->ref));
    assert_true(same_bits(a->tol, b->tol) && same_bits(a->tol_p, b->tol_p));
    assert_true(same_bits(a->err, b->err) && same_bits(a->err_ulps, b->err_ulps));
    assert_true(same_bits(a->err_over_tol, b->err_over_tol));
    assert_int_equal(a->lane_flags, b->lane_flags);
    assert_int_equal(a->nterms, b->nterms);
    assert_int_equal(a->nsteps, b->nsteps);
    assert_string_equal(a->ref_exact, b->ref_exact);
    assert_string_equal(a->ref_precast, b->ref_precast);
    assert_string_equal(a->note, b->note);
}

static void same_result(const td_case_result *a, const td_case_result *b) {
    assert_int_equal(a->finding, b->finding);
    assert_int_equal(a->worst, b->worst);
    assert_string_equal(a->desc, b->desc);
    assert_string_equal(a->msg, b->msg);
    td_stats sa = a->st, sb = b->st;
    sa.t_decode = sa.t_kernel = sa.t_oracle = sa.t_compare = 0;
    sb.t_decode = sb.t_kernel = sb.t_oracle = sb.t_compare = 0;
    assert_memory_equal(&sa, &sb, sizeof sa);
    assert_int_equal(a->nbad, b->nbad);
    assert_int_equal(a->nrep, b->nrep);
    for (int i = 0; i < a->nrep; i++) same_report(&a->rep[i], &b->rep[i]);
    assert_int_equal(a->has_top, b->has_top);
    if (a->has_top) same_report(&a->top, &b->top);
}

/* Returns the lanes the batched path judged in all (for the test's own sanity). */
static uint64_t both_paths_agree(const char *contract, int spoiled, int cases) {
    td_kernel_set set;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    const td_kernel *port = td_kernels_find(&set, contract, "triton", TD_ABI_HOST);
    assert_non_null(port);
    assert_non_null(port->k->spec_sh_run);
    assert_non_null(g_contract ? g_contract->spec_sh_run : port->k->spec_sh_run);
    td_kernel kern = *port;
    if (g_contract) kern.k = g_contract;
    td_abi_kernel abi = *port->abi;
    g_port_launch = port->abi->launch;
    abi.launch = spoiled == 2 ? spoiled_port : spoiled_add; /* 1: the add contracts' own */
    if (spoiled) kern.abi = &abi;
    td_ctx_opts ob = {0}, ol = {0};
    ol.lane_by_lane = 1;
    td_ctx *cb = td_ctx_new(&ob, err, sizeof err), *cl = td_ctx_new(&ol, err, sizeof err);
    assert_non_null(cb);
    assert_non_null(cl);
    uint64_t lanes = 0, findings = 0;
    for (int i = 0; i < cases; i++) {
        uint8_t b[64];
        td_campaign_case_bytes(kern.k, 7, (uint64_t)i, b, sizeof b);
        td_case_result rb, rl;
        g_case = (uint64_t)i;
        int xb = td_run_bytes(cb, &kern, b, sizeof b, &rb);
        int xl = td_run_bytes(cl, &kern, b, sizeof b, &rl);
        assert_int_equal(xb, xl);
        same_result(&rb, &rl);
        lanes += rb.st.lanes;
        findings += (uint64_t)rb.finding;
        td_result_free(&rb);
        td_result_free(&rl);
    }
    if (spoiled) assert_true(findings > 0);
    else assert_int_equal(findings, 0);
    td_ctx_free(cb);
    td_ctx_free(cl);
    td_kernels_close(&set);
    return lanes;
}

/* The generated run entry (TD_SPEC_RUN_DEFINE) of a test spec equal to add_example's,
 * in a copy of add_example's contract: run entry against spec, then both paths. */
static void generated_run_entry_is_lane_by_lane(void **st) {
    (void)st;
    td_contract k = *td_contract_find("add_example.add_kernel_correctness");
    k.spec_sh = tadd_sh, k.spec_mp = tadd_mp, k.spec_sh_run = tadd_sh_run;
    run_entry_is_the_lane_spec(&k, 60);
    g_contract = &k;
    assert_true(both_paths_agree("add_example.add_kernel_correctness", 0, 40) > 0);
    assert_true(both_paths_agree("add_example.add_kernel_correctness", 1, 80) > 0);
    g_contract = NULL;
}

static void add_example_batched_is_lane_by_lane(void **st) {
    (void)st;
    assert_true(both_paths_agree("add_example.add_kernel_correctness", 0, 40) > 0);
    assert_true(both_paths_agree("add_example.add_kernel_correctness", 1, 120) > 0);
}

static void vector_addition_batched_is_lane_by_lane(void **st) {
    (void)st;
    assert_true(both_paths_agree("vector_addition.add_kernel_correctness", 0, 40) > 0);
    assert_true(both_paths_agree("vector_addition.add_kernel_correctness", 1, 120) > 0);
}

/* Row contracts whose lanes share memoised row quantities (the sum, 1/rms): the run
 * entry meets rows that earlier lanes filled, as the per-lane spec does. */
static void softmax_batched_is_lane_by_lane(void **st) {
    (void)st;
    assert_true(both_paths_agree("softmax_triton1.softmax_kernel_correctness", 0, 40) > 0);
    assert_true(both_paths_agree("softmax_triton1.softmax_kernel_correctness", 2, 80) > 0);
}

static void rms_norm_batched_is_lane_by_lane(void **st) {
    (void)st;
    assert_true(both_paths_agree("rms_norm_triton.rms_norm_kernel_correctness", 0, 40) > 0);
    assert_true(both_paths_agree("rms_norm_triton.rms_norm_kernel_correctness", 2, 80) > 0);
}

/* ---- the non-finite reference without MPFR ---- */
/* Every pair of edge inputs in one case of add_example: where ref_nonfinite gives a
 * reference it is MPFR's (the same NaN, or the same infinity), and where it gives none
 * MPFR's is finite. */
static void add_nonfinite_ref_is_mpfrs(void **st) {
    (void)st;
    static const double edge[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.5, 0x1p-149, -0x1p-126,
                                  0x1.fffffep127, -0x1.fffffep127, 0x1p126, 3.25e-20};
    const size_t ne = sizeof edge / sizeof edge[0];
    const td_contract *k = td_contract_find("add_example.add_kernel_correctness");
    assert_non_null(k);
    assert_non_null(k->ref_nonfinite);
    td_case c;
    td_case_init(&c, k);
    for (int r = 0; r < 3; r++) td_case_alloc(&c, r, ne * ne);
    for (size_t i = 0; i < ne * ne; i++) {
        td_set(&c, 0, i, edge[i / ne]);
        td_set(&c, 1, i, edge[i % ne]);
    }
    td_mpcx mp;
    td_mpcx_init(&mp, 640);
    int known = 0;
    for (size_t i = 0; i < ne * ne; i++) {
        td_olane l = {.region = 2, .off = i};
        double ref = 0;
        td_mpcx_reset(&mp);
        td_mp x = k->spec_mp(&mp, &c, &l);
        if (!k->ref_nonfinite(&c, &l, &ref)) {
            assert_true(mpfr_number_p(x->x));
            continue;
        }
        known++;
        assert_false(isfinite(ref));
        assert_int_equal(!!isnan(ref), !!mpfr_nan_p(x->x));
        if (!isnan(ref)) {
            assert_true(mpfr_inf_p(x->x));
            assert_int_equal(ref > 0, mpfr_sgn(x->x) > 0);
        }
    }
    assert_int_equal(known, (int)(ne * ne - (ne - 4) * (ne - 4))); /* every pair with a NaN or an infinity */
    td_mpcx_free(&mp);
    td_case_free(&c);
}

/* The cases add_example_batched_is_lane_by_lane judges have lanes with NaN and
 * infinite inputs, which the batched path judges on ref_nonfinite's reference. */
static void add_example_cases_have_nonfinite_lanes(void **st) {
    (void)st;
    const td_contract *k = td_contract_find("add_example.add_kernel_correctness");
    char err[256];
    uint64_t lanes = 0;
    for (int i = 0; i < 120; i++) {
        uint8_t b[64];
        td_campaign_case_bytes(k, 7, (uint64_t)i, b, sizeof b);
        td_case c;
        assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
        td_wset ws;
        memset(&ws, 0, sizeof ws);
        k->writes(&c, &ws);
        double ref;
        for (size_t j = 0; j < ws.n; j++) lanes += (uint64_t)k->ref_nonfinite(&c, &ws.v[j], &ref);
        free(ws.v);
        td_case_free(&c);
    }
    assert_true(lanes >= 100);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(add_exact_is_add_of_exacts),
        cmocka_unit_test(run_entries_match_lane_specs),
        cmocka_unit_test(generated_run_entry_is_lane_by_lane),
        cmocka_unit_test(add_example_batched_is_lane_by_lane),
        cmocka_unit_test(vector_addition_batched_is_lane_by_lane),
        cmocka_unit_test(softmax_batched_is_lane_by_lane),
        cmocka_unit_test(rms_norm_batched_is_lane_by_lane),
        cmocka_unit_test(add_nonfinite_ref_is_mpfrs),
        cmocka_unit_test(add_example_cases_have_nonfinite_lanes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
