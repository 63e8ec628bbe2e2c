/* seed_fa1.naive_reference_overflow: the documented positive control of the naive FA-1
 * kernel (seed 000).  VeriTile proves fa1NaiveForwardKernelStridedBoundaryD correct over
 * the reals; it has no max subtraction, so in binary32 exp(score) overflows for scores
 * above 88.72.  On the overflow contract's inputs (every row's scores in [100, 2000]):
 *   - the naive kernel (variant "naive") is flagged, and the finding is of class
 *     nonfinite (a NaN / inf output where the exact value is finite);
 *   - the online, max-subtracting boundary kernel (variant "triton") passes the very same
 *     inputs, every lane within a finite bound (and, on a few cases, every lane
 *     re-checked with MPFR). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "builtin_set.h"

#define OVERFLOW_ID "seed_fa1.naive_reference_overflow"
#define NCASES 60

static void test_naive_kernel_overflows(void **st) {
    (void)st;
    const td_kernel *naive = td_kernels_find(&set, OVERFLOW_ID, "naive", TD_ABI_HOST);
    assert_non_null(naive);
    assert_non_null(naive->abi->mutant); /* registered as a known limitation, so selftest expects the flag */
    td_ctx_opts o = {.max_reports = 4};
    char err[256];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    assert_non_null(cx);
    for (uint64_t i = 0; i < NCASES; i++) {
        uint8_t b[64];
        td_case_bytes(1, i, b, sizeof b);
        td_case_result r;
        int rc = td_run_bytes(cx, naive, b, sizeof b, &r);
        if (rc != TD_RUN_FINDING || r.worst != TD_VC_NONFINITE || !r.st.findings[TD_VC_NONFINITE]) {
            fprintf(stderr, "case %llu: rc %d, worst class %s (%s)\n", (unsigned long long)i, rc,
                    td_vclass_name(r.worst), r.msg);
            td_report_text(stderr, naive, &r);
        }
        assert_int_equal(rc, TD_RUN_FINDING);
        assert_int_equal(r.worst, TD_VC_NONFINITE);
        /* the reports name lanes whose exact value is finite and whose output is not */
        assert_true(r.nrep > 0);
        for (int k = 0; k < r.nrep; k++) {
            assert_int_equal(r.rep[k].cls, TD_VC_NONFINITE);
            assert_true(isfinite(r.rep[k].ref)); /* the exact value is finite */
        }
        td_result_free(&r);
    }
    td_ctx_free(cx);
}

static void test_online_kernel_passes_same_inputs(void **st) {
    (void)st;
    const td_kernel *online = td_kernels_find(&set, OVERFLOW_ID, "triton", TD_ABI_HOST);
    assert_non_null(online);
    assert_null(online->abi->mutant);
    td_ctx_opts o = {0};
    char err[256];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    td_ctx_opts om = {.mpfr_all = 1};
    td_ctx *cxm = td_ctx_new(&om, err, sizeof err);
    assert_non_null(cx);
    assert_non_null(cxm);
    for (uint64_t i = 0; i < NCASES; i++) {
        uint8_t b[64];
        td_case_bytes(1, i, b, sizeof b);
        td_case_result r;
        int rc = td_run_bytes(i < 8 ? cxm : cx, online, b, sizeof b, &r);
        if (rc != TD_RUN_OK) {
            fprintf(stderr, "case %llu: rc %d (%s)\n", (unsigned long long)i, rc, r.msg);
            td_report_text(stderr, online, &r);
        }
        assert_int_equal(rc, TD_RUN_OK);
        assert_true(r.st.lanes > 0);
        assert_int_equal(r.st.lanes_unbounded, 0); /* every lane was checked against a finite bound */
        td_result_free(&r);
    }
    td_ctx_free(cx);
    td_ctx_free(cxm);
}

/* seed_fa1.naive_causal_reference_correctness: the spec has no max subtraction; a kernel
 * that subtracts it (alt_online16: the online softmax over blocks of 16 keys) holds its
 * weights at another scale, where they may be subnormal.  Case 1995 of seed 1 has an
 * output lane whose exact value is subnormal (~1e-45): its err/tol was 1.025 against
 * the naive evaluation's bound, which charges no subnormal weights, rescales or
 * argument roundings of a max-subtracting evaluation.  With the model of any stable
 * evaluation (fa1_naive_any) it passes, and a real bug on the same contract (the
 * causal mask taken on the tile-local row) is still flagged within the first cases. */
#define NAIVE_CAUSAL_ID "seed_fa1.naive_causal_reference_correctness"
static void test_naive_stable_alternative_subnormal_lane(void **st) {
    (void)st;
    const td_kernel *alt = td_kernels_find(&set, NAIVE_CAUSAL_ID, "alt_online16", TD_ABI_HOST);
    const td_kernel *bug = td_kernels_find(&set, NAIVE_CAUSAL_ID, "mut_causal_local_row", TD_ABI_HOST);
    assert_non_null(alt);
    assert_non_null(bug);
    td_ctx_opts o = {.mpfr_all = 1};
    char err[256];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    assert_non_null(cx);
    uint8_t b[64];
    td_case_bytes(1, 1995, b, sizeof b);
    td_case_result r;
    int rc = td_run_bytes(cx, alt, b, sizeof b, &r);
    if (rc != TD_RUN_OK) td_report_text(stderr, alt, &r);
    assert_int_equal(rc, TD_RUN_OK);
    assert_int_equal(r.st.lanes_unbounded, 0);
    td_result_free(&r);
    int found = 0;
    for (uint64_t i = 0; i < 40 && !found; i++) {
        td_case_bytes(1, i, b, sizeof b);
        found = td_run_bytes(cx, bug, b, sizeof b, &r) == TD_RUN_FINDING;
        td_result_free(&r);
    }
    assert_true(found);
    td_ctx_free(cx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_naive_kernel_overflows),
        cmocka_unit_test(test_online_kernel_passes_same_inputs),
        cmocka_unit_test(test_naive_stable_alternative_subnormal_lane),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
