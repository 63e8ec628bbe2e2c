/* The driver of the checker-rule tests (test_kvcopy_checks, test_ctx_pc_checks,
 * test_sparse_checks): a contract's precondition is a real check when a generated case
 * passes the contract's checker and the same case with the rule broken is refused with
 * the rule's name.  A checker that stops looking at a rule fails its row. */
#ifndef TD_TEST_BREAKERS_H
#define TD_TEST_BREAKERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

/* One broken rule: breaks() breaks it in a case its contract's checker passes and that
 * is usable (the programs or metadata the rule speaks of are there). */
typedef struct breaker {
    const char *contract, *expect; /* the failing hypothesis' name contains expect */
    int (*usable)(const td_case *c);
    void (*breaks)(td_case *c);
} breaker;

/* Each rule of bs[0..n) on the first usable case of 2000 decoded from
 * td_case_bytes(stream, s, ...): the checker must refuse the broken case naming it. */
static void breakers_refused(const breaker *bs, size_t n, uint64_t stream) {
    for (size_t i = 0; i < n; i++) {
        const breaker *b = &bs[i];
        const td_contract *k = td_contract_find(b->contract);
        assert_non_null(k);
        int found = 0;
        for (uint64_t s = 0; s < 2000 && !found; s++) {
            uint8_t bytes[256];
            char err[512];
            td_case c;
            td_case_bytes(stream, s, bytes, sizeof bytes);
            assert_int_equal(td_decode_case(k, bytes, sizeof bytes, &c, err, sizeof err), 0);
            if (!k->check(&c) && b->usable(&c)) {
                found = 1;
                b->breaks(&c);
                const char *why = k->check(&c);
                if (!why || !strstr(why, b->expect)) {
                    fprintf(stderr, "%s: breaking '%s' gave '%s'\n", b->contract, b->expect, why ? why : "(accepted)");
                    fail();
                }
            }
            td_case_free(&c);
        }
        if (!found) fprintf(stderr, "%s: no usable case for '%s'\n", b->contract, b->expect);
        assert_true(found);
    }
}

#endif
