/* The kernel loader's rules for what a kernel may declare (kernel ABI v2): a
 * declaration narrows the bound and never what the contract requires, unknown
 * declarations are refused with a message naming them, and a version 1 table is read
 * without its kernels' `declares` (a v1 record ends before it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "loader.h"

static int launch(const td_abi_launch *L) {
    (void)L;
    return 0;
}

#define ADD_VALUE "add_value.puzzle1_kernel_correctness" /* store fp32:rne:inf, 3 params, 2 regions */
#define F8 "f8_conversion_utils.f16_to_f8_io_correctness" /* store e5m2:rne:sat, 2 params, 2 regions */

/* Binds one kernel; returns the loader's code and leaves its message in err. */
static int bind1(uint32_t version, const char *id, const char *casts, const char *declares, td_kernel_set *set,
                 char *err, size_t errlen) {
    static td_abi_kernel k;
    static const td_abi_kernel *list[1] = {&k};
    static td_abi_table t;
    int f8 = !strcmp(id, F8);
    k = (td_abi_kernel){id, "v", TD_ABI_HOST, casts, NULL, NULL, f8 ? 2 : 3, 2, launch, declares};
    t = (td_abi_table){version, 1, list, "test"};
    err[0] = 0;
    return td_kernels_bind(&t, "test", set, err, errlen);
}

static void expect_refused(const char *id, const char *casts, const char *declares, const char *says) {
    td_kernel_set set;
    char err[512];
    int rc = bind1(2, id, casts, declares, &set, err, sizeof err);
    if (rc == TD_LOAD_OK) td_kernels_close(&set);
    assert_int_equal(rc, TD_LOAD_INVALID);
    assert_non_null(strstr(err, says));
}

static const td_kernel *expect_bound(uint32_t version, const char *id, const char *casts, const char *declares,
                                     td_kernel_set *set) {
    char err[512];
    assert_int_equal(bind1(version, id, casts, declares, set, err, sizeof err), TD_LOAD_OK);
    assert_int_equal(set->n, 1);
    return &set->kernels[0];
}

static void test_casts_keep_the_contract(void **st) {
    (void)st;
    /* a store slot keeps its format: an e5m2 "store" is not an fp32 contract's */
    expect_refused(ADD_VALUE, "store=e5m2:rne:sat", NULL, "cast slot store");
    expect_refused(ADD_VALUE, "store=fp16", NULL, "format");
    /* nor its rounding or flush-to-zero */
    expect_refused(ADD_VALUE, "store=fp32:rtz:inf", NULL, "rounding");
    expect_refused(ADD_VALUE, "store=fp32:rne:inf:ftz", NULL, "flush-to-zero");
    expect_refused(ADD_VALUE, "store=fp32:rne:sat", NULL, "overflow policy");
    /* the fp8 overflow policy is the one choice the stacks really differ on */
    td_kernel_set set;
    const td_kernel *k = expect_bound(2, F8, "store=e5m2:rne:inf", NULL, &set);
    assert_int_equal(k->casts[0].ovf, TD_OVF_INF);
    td_kernels_close(&set);
    expect_refused(F8, "store=e5m2:rtz:sat", NULL, "rounding");
    /* restating the contract's own profile is fine */
    k = expect_bound(2, ADD_VALUE, "store=fp32:rne:inf", NULL, &set);
    td_kernels_close(&set);
}

static void test_declarations(void **st) {
    (void)st;
    td_kernel_set set;
    const td_kernel *k = expect_bound(2, ADD_VALUE, NULL, "order=blocked:64;div=ieee", &set);
    assert_int_equal(k->decl.order, TD_ORDER_BLOCKED);
    assert_int_equal(k->decl.block, 64);
    assert_int_equal(k->decl.div_ieee, 1);
    assert_string_equal(k->decl.text, "order=blocked:64;div=ieee");
    /* nothing declared: any order, any division, the union math model */
    td_kernels_close(&set);
    k = expect_bound(2, ADD_VALUE, NULL, NULL, &set);
    assert_int_equal(k->decl.order, TD_ORDER_ANY);
    assert_int_equal(k->decl.div_ieee, 0);
    assert_string_equal(k->math->name, TD_MATH_DEFAULT);
    td_kernels_close(&set);
    expect_refused(ADD_VALUE, NULL, "order=zigzag", "order=zigzag");
    expect_refused(ADD_VALUE, NULL, "order=blocked:0", "order=blocked:0");
    expect_refused(ADD_VALUE, NULL, "fma=off", "fma=off");
    expect_refused(ADD_VALUE, NULL, "div", "div");
}

static void test_v1_tables(void **st) {
    (void)st;
    td_kernel_set set;
    /* what stands where a v1 record has nothing is never read */
    const td_kernel *k = expect_bound(1, ADD_VALUE, NULL, "order=zigzag", &set);
    assert_int_equal(k->decl.order, TD_ORDER_ANY);
    assert_int_equal(k->abi_version, 1);
    td_kernels_close(&set);
    char err[256];
    assert_int_equal(bind1(3, ADD_VALUE, NULL, NULL, &set, err, sizeof err), TD_LOAD_VERSION);
    assert_non_null(strstr(err, "v1 to v2"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_casts_keep_the_contract),
        cmocka_unit_test(test_declarations),
        cmocka_unit_test(test_v1_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
