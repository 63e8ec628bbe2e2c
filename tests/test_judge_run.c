/* The batched verdict path (td_contract.spec_sh_run, engine/harness.c judge_run)
 * against its reference, the per-lane path (td_ctx_opts.lane_by_lane):
 *  - every contract with a run entry: the run entry's shadows and lane flags are the
 *    per-lane spec's, bit for bit, on every lane of random cases;
 *  - add_example and vector_addition judged twice, batched and lane by lane, on random
 *    cases with their port and with a kernel that spoils a random share of the lanes
 *    (one ulp off, NaN, +-inf, a flipped sign, a lane left unwritten): the same verdict,
 *    statistics (timings aside), err/tol histogram, top lane and detailed reports in the
 *    same order.  A batched path that passed a lane the per-lane rules do not (a looser
 *    "clearly within ep" test, a special value taken as a number) changes them. */
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
#include "loader.h"
#include "spec.h"

const td_abi_table *td_builtin_host_table(void);

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* ---- the run entry is the per-lane spec ---- */
static void run_entry_is_the_lane_spec(const td_contract *k, int cases) {
    td_shcx sh;
    memset(&sh, 0, sizeof sh);
    sh.efmt = TD_F32, sh.u = 0x1p-24, sh.eta = 0x1p-150, sh.ulp_min = 0x1p-149, sh.ovf = 0x1.ffffffp127;
    sh.lambda_n = 64;
    char err[256];
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
        k->spec_sh_run(&sh, &c, ws.v, ws.n, out, lf);
        for (size_t j = 0; j < ws.n; j++) {
            sh.lane_flags = 0;
            td_sh s = k->spec_sh(&sh, &c, &ws.v[j]);
            assert_true(same_bits(s.v, out[j].v) && same_bits(s.es, out[j].es));
            assert_true(same_bits(s.ek, out[j].ek) && same_bits(s.ep, out[j].ep));
            assert_int_equal(s.fl, out[j].fl);
            assert_int_equal(s.leaves, out[j].leaves);
            assert_int_equal(sh.lane_flags, lf[j]);
        }
        free(out);
        free(lf);
        free(ws.v);
        td_case_free(&c);
    }
    td_shcx_memo_free(&sh);
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
    assert_true(n >= 2); /* add_example and vector_addition at least */
}

/* ---- a kernel that spoils some lanes ---- */
static uint64_t g_case; /* the case being launched: which lanes are spoiled, and how many */

static uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

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
    td_kernel kern = *port;
    td_abi_kernel abi = *port->abi;
    abi.launch = spoiled_add;
    if (spoiled) kern.abi = &abi;
    td_ctx_opts ob = {0}, ol = {0};
    ol.lane_by_lane = 1;
    td_ctx *cb = td_ctx_new(&ob, err, sizeof err), *cl = td_ctx_new(&ol, err, sizeof err);
    assert_non_null(cb);
    assert_non_null(cl);
    uint64_t lanes = 0, findings = 0;
    for (int i = 0; i < cases; i++) {
        uint8_t b[64];
        td_campaign_case_bytes(port->k, 7, (uint64_t)i, b, sizeof b);
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(run_entries_match_lane_specs),
        cmocka_unit_test(add_example_batched_is_lane_by_lane),
        cmocka_unit_test(vector_addition_batched_is_lane_by_lane),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
