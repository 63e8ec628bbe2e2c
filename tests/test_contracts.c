/* Every contract, every built-in host kernel, every mutant.
 *
 * For each contract of the registry:
 *   - its generator is total: empty, tiny, random and 1 MiB inputs all decode to a
 *     case that passes the explicit precondition checker (a failure is a generator bug);
 *   - its correct host kernel passes TD_TEST_CASES contract-valid cases (default 2000,
 *     the acceptance number) with no disagreement and no harness error, and its first
 *     TD_TEST_MPFR_CASES cases (default 25) re-checked with every lane in MPFR (the
 *     shadow's decisions and error claims must agree with MPFR);
 *   - each of its mutants is flagged within 2000 cases.
 * The kill table is printed (mutant, cases to kill).
 * TD_TEST_CONTRACTS (a glob over contract ids, e.g. 'add_example.*') restricts the run
 * to the matching contracts: what to run while writing one (docs/contracts.md). */
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "builtin_set.h"

/* this process's slice of the registry: contract i is tested when i % shard_n == shard_k - 1 */
static int shard_k = 1, shard_n = 1;
static int mine(const td_contract *k) {
    const char *only = getenv("TD_TEST_CONTRACTS");
    if (only && *only && fnmatch(only, k->id, 0) != 0) return 0;
    for (int i = 0; i < td_contract_count(); i++)
        if (td_contract_at(i) == k) return i % shard_n == shard_k - 1;
    return 0;
}

static long env_long(const char *name, long dflt) {
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

static void test_generators_total(void **st) {
    (void)st;
    static uint8_t big[1 << 20];
    td_case_bytes(7, 7, big, sizeof big);
    for (int i = 0; i < td_contract_count(); i++) {
        const td_contract *k = td_contract_at(i);
        if (!mine(k)) continue;
        char err[1024];
        td_case c;
        const uint8_t zero[8] = {0};
        const uint8_t *inputs[4] = {NULL, zero, zero, big};
        size_t sizes[4] = {0, 1, 8, sizeof big};
        for (int t = 0; t < 4; t++) {
            if (td_decode_case(k, inputs[t], sizes[t], &c, err, sizeof err) != 0) {
                fprintf(stderr, "%s\n", err);
                fail();
            }
            td_case_free(&c);
        }
        for (uint64_t s = 0; s < 200; s++) {
            uint8_t b[96];
            size_t n = (size_t)(s % 97);
            td_case_bytes(11, s, b, sizeof b);
            if (td_decode_case(k, b, n, &c, err, sizeof err) != 0) {
                fprintf(stderr, "%s\n", err);
                fail();
            }
            td_case_free(&c);
        }
    }
}

static void test_correct_kernels(void **st) {
    (void)st;
    long ncases = env_long("TD_TEST_CASES", 2000);
    long nmpfr = env_long("TD_TEST_MPFR_CASES", 25);
    td_ctx_opts o = {0};
    char err[256];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    td_ctx_opts om = {.mpfr_all = 1};
    td_ctx *cxm = td_ctx_new(&om, err, sizeof err);
    assert_non_null(cx);
    int covered = 0;
    for (int i = 0; i < td_contract_count(); i++) {
        const td_contract *k = td_contract_at(i);
        if (!mine(k)) continue;
        const td_kernel *kern = td_kernels_find(&set, k->id, NULL, TD_ABI_HOST);
        if (!kern) {
            fprintf(stderr, "%s: no built-in host kernel\n", k->id);
            fail();
        }
        covered++;
        uint64_t lanes = 0;
        double worst = 0;
        for (long c = 0; c < ncases; c++) {
            uint8_t b[64];
            td_campaign_case_bytes(k, 1, (uint64_t)c, b, sizeof b); /* far cases included */
            td_case_result r;
            int rc = td_run_bytes(c < nmpfr ? cxm : cx, kern, b, sizeof b, &r);
            if (rc != TD_RUN_OK) {
                fprintf(stderr, "%s: case %ld: %s\n", k->id, c, rc == TD_RUN_FINDING ? "disagreement" : r.msg);
                if (rc == TD_RUN_FINDING) td_report_text(stderr, kern, &r);
                td_result_free(&r);
                fail();
            }
            lanes += r.st.lanes;
            if (r.st.worst_err_over_tol > worst) worst = r.st.worst_err_over_tol;
            td_result_free(&r);
        }
        fprintf(stderr, "  %-64s %ld cases %10llu lanes  worst err/tol %.3g\n", k->id, ncases,
                (unsigned long long)lanes, worst);
    }
    assert_true(covered > 0 || td_contract_count() < shard_n);
    td_ctx_free(cx);
    td_ctx_free(cxm);
}

static void test_mutants_killed(void **st) {
    (void)st;
    td_ctx_opts o = {.max_reports = 1};
    char err[256];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    int nmut = 0, alive = 0;
    for (int i = 0; i < set.n; i++) {
        const td_kernel *kern = &set.kernels[i];
        /* a mutant of the large tier survives these cases by design (tests/test_large.c) */
        if (!kern->abi->mutant || !mine(kern->k) || td_kernel_large_only(kern)) continue;
        nmut++;
        long killed_at = -1;
        for (long c = 0; c < 2000 && killed_at < 0; c++) {
            uint8_t b[64];
            td_campaign_case_bytes(kern->k, 1, (uint64_t)c, b, sizeof b); /* far cases kill int32 offsets */
            td_case_result r;
            int rc = td_run_bytes(cx, kern, b, sizeof b, &r);
            if (rc == TD_RUN_HARNESS_ERROR) {
                fprintf(stderr, "%s/%s: harness error: %s\n", kern->k->id, kern->abi->variant, r.msg);
                td_result_free(&r);
                fail();
            }
            if (rc == TD_RUN_FINDING) killed_at = c + 1;
            td_result_free(&r);
        }
        fprintf(stderr, "  %-56s %-28s %s after %ld cases\n", kern->k->id, kern->abi->variant,
                killed_at > 0 ? "killed" : "SURVIVED", killed_at > 0 ? killed_at : 2000);
        if (killed_at < 0) alive++;
    }
    td_ctx_free(cx);
    assert_int_equal(alive, 0);
}

/* Every contract has at least one mutant, so every checker path is exercised by a bug. */
static void test_every_contract_has_a_mutant(void **st) {
    (void)st;
    for (int i = 0; i < td_contract_count(); i++) {
        const td_contract *k = td_contract_at(i);
        if (!mine(k)) continue;
        int m = 0;
        for (int j = 0; j < set.n; j++) m += set.kernels[j].k == k && set.kernels[j].abi->mutant != NULL;
        if (!m) {
            fprintf(stderr, "%s has no mutant\n", k->id);
            fail();
        }
    }
}

int main(int argc, char **argv) {
    /* test_contracts [K/N]: the K-th of N slices of the registry (CTest runs the slices in parallel) */
    if (argc > 1 && (sscanf(argv[1], "%d/%d", &shard_k, &shard_n) != 2 || shard_n < 1 || shard_k < 1 || shard_k > shard_n)) {
        fprintf(stderr, "usage: test_contracts [K/N]\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generators_total),
        cmocka_unit_test(test_every_contract_has_a_mutant),
        cmocka_unit_test(test_correct_kernels),
        cmocka_unit_test(test_mutants_killed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
