/* The built-in host kernel library bound once for a test group (the tests that look
 * kernels up by contract and variant): `set`, and cmocka group setup and teardown that
 * bind and close it.  Include after <cmocka.h> and "harness.h". */
#ifndef TD_TEST_BUILTIN_SET_H
#define TD_TEST_BUILTIN_SET_H

const td_abi_table *td_builtin_host_table(void);

static td_kernel_set set;

static int setup(void **st) {
    (void)st;
    char err[512];
    if (td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err) != TD_LOAD_OK) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}

static int teardown(void **st) {
    (void)st;
    td_kernels_close(&set);
    return 0;
}

#endif
