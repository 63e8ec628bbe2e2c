/* seed_vyre: the builders' invalid-size traps (seed 002).  vyre-libs returns a trap
 * program instead of a kernel when seq_len, head_dim or tile_size is 0 or when a planner
 * product overflows u32 (flash_attention_2), and when seq_len or head_dim is 0 or
 * seq_len*head_dim overflows u32 (flash_attention_2_reference).  The ports report the
 * trap as the launch's error; the trap must be observed (a non-zero return with the
 * builder's message) and the output must be left as it was, never silently zero. */
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

#define VY_ID "seed_vyre.flash_attention_2_matches_reference"
#define CELLS 64

/* launches `variant` with (seq_len, head_dim, tile_size) on 64-cell buffers; returns the
 * launch's status, the message and whether the output kept its sentinel */
static int launch(const char *variant, int64_t S, int64_t D, int64_t T, char *msg, size_t msglen, int *untouched) {
    const td_kernel *k = td_kernels_find(&set, VY_ID, variant, TD_ABI_HOST);
    assert_non_null(k);
    static float q[CELLS], kk[CELLS], v[CELLS], out[CELLS];
    for (int i = 0; i < CELLS; i++) q[i] = kk[i] = v[i] = 0.25f * (float)(i % 5), out[i] = -12345.0f;
    td_abi_param params[3];
    params[0].i = S, params[1].i = D, params[2].i = T;
    td_abi_region regs[4] = {{q, CELLS, TD_ABI_F32, 0}, {kk, CELLS, TD_ABI_F32, 0}, {v, CELLS, TD_ABI_F32, 0},
                             {out, CELLS, TD_ABI_F32, 0}};
    msg[0] = 0;
    td_abi_launch L = {TD_KERNEL_ABI_VERSION, TD_ABI_HOST, VY_ID, {1, 1, 1}, 3, params, 4, regs, NULL, msg, msglen};
    int rc = k->abi->launch(&L);
    *untouched = 1;
    for (int i = 0; i < CELLS; i++) *untouched &= out[i] == -12345.0f;
    return rc;
}

static void expect_trap(const char *variant, int64_t S, int64_t D, int64_t T, const char *why) {
    char msg[256];
    int untouched;
    int rc = launch(variant, S, D, T, msg, sizeof msg, &untouched);
    if (rc == 0 || !strstr(msg, "trap") || !strstr(msg, why) || !untouched)
        fprintf(stderr, "%s (%lld, %lld, %lld): rc %d, message '%s', output untouched %d\n", variant, (long long)S,
                (long long)D, (long long)T, rc, msg, untouched);
    assert_int_not_equal(rc, 0);
    assert_non_null(strstr(msg, "trap"));
    assert_non_null(strstr(msg, why));
    assert_true(untouched);
}

static void test_tiled_traps(void **st) {
    (void)st;
    expect_trap("tiled", 0, 4, 2, "must all be > 0");
    expect_trap("tiled", 4, 0, 2, "must all be > 0");
    expect_trap("tiled", 4, 4, 0, "must all be > 0");
    expect_trap("tiled", 65536, 65536, 4, "seq_len*head_dim overflows u32");
    expect_trap("tiled", 1, (int64_t)1 << 26, 4, "64*head_dim");
    expect_trap("tiled", 4, 4, (int64_t)1 << 26, "64*tile_size");
}

static void test_reference_traps(void **st) {
    (void)st;
    expect_trap("scalar_reference", 0, 4, 2, "must all be > 0");
    expect_trap("scalar_reference", 4, 0, 2, "must all be > 0");
    expect_trap("scalar_reference", 65536, 65536, 4, "seq_len*head_dim overflows u32");
}

/* the same kernels run on valid sizes, and tile_size 0 is no concern of the reference's */
static void test_valid_sizes_run(void **st) {
    (void)st;
    char msg[256];
    int untouched;
    assert_int_equal(launch("tiled", 8, 8, 3, msg, sizeof msg, &untouched), 0);
    assert_false(untouched);
    assert_int_equal(launch("scalar_reference", 8, 8, 0, msg, sizeof msg, &untouched), 0);
    assert_false(untouched);
}

/* and the generator never asks for a trap: every generated case runs and passes */
static void test_generated_sizes_valid(void **st) {
    (void)st;
    td_ctx_opts o = {0};
    char err[256];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    assert_non_null(cx);
    const char *variants[2] = {"tiled", "scalar_reference"};
    for (int vi = 0; vi < 2; vi++) {
        const td_kernel *k = td_kernels_find(&set, VY_ID, variants[vi], TD_ABI_HOST);
        assert_non_null(k);
        for (uint64_t i = 0; i < 40; i++) {
            uint8_t b[64];
            td_case_bytes(5, i, b, sizeof b);
            td_case_result r;
            int rc = td_run_bytes(cx, k, b, sizeof b, &r);
            if (rc != TD_RUN_OK) td_report_text(stderr, k, &r);
            assert_int_equal(rc, TD_RUN_OK);
            td_result_free(&r);
        }
    }
    td_ctx_free(cx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiled_traps),
        cmocka_unit_test(test_reference_traps),
        cmocka_unit_test(test_valid_sizes_run),
        cmocka_unit_test(test_generated_sizes_valid),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
