/* The write set's sort (contracts/contract.c td_wset_sort): the radix path orders the
 * lanes by (region, off) exactly as the comparison sort does, over write sets of every
 * shape a contract makes (already sorted, reversed, interleaved regions, duplicates,
 * offsets past 2^31 and near 2^64 where the compact keys would overflow and qsort
 * takes over), and keeps the rest of each lane with it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "contract.h"

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int by_key(const void *a, const void *b) {
    const td_olane *x = a, *y = b;
    if (x->region != y->region) return x->region < y->region ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* n lanes, regions below nreg, offsets below maxoff (0: near 2^64) */
static void check_one(size_t n, uint32_t nreg, uint64_t maxoff) {
    td_wset ws;
    memset(&ws, 0, sizeof ws);
    for (size_t i = 0; i < n; i++) {
        td_olane l;
        memset(&l, 0, sizeof l);
        l.region = (uint32_t)(next() % nreg);
        l.off = maxoff ? next() % maxoff : UINT64_MAX - next() % 1000;
        l.j = l.region * 7919 + l.off; /* travels with its lane */
        l.idx[3] = (int64_t)i;
        td_wset_add(&ws, &l);
    }
    td_olane *want = malloc(n * sizeof *want + 1);
    if (n) memcpy(want, ws.v, n * sizeof *want); /* an empty write set has no array */
    qsort(want, n, sizeof *want, by_key);
    td_wset_sort(&ws);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(ws.v[i].region, want[i].region);
        assert_true(ws.v[i].off == want[i].off);
        assert_true(ws.v[i].j == ws.v[i].region * 7919 + ws.v[i].off);
        if (i && by_key(&ws.v[i - 1], &ws.v[i]) == 0) /* equal keys keep their order */
            assert_true(ws.v[i - 1].idx[3] < ws.v[i].idx[3]);
    }
    free(want);
    free(ws.v);
}

static void sorts_like_qsort(void **st) {
    (void)st;
    static const size_t ns[] = {0, 1, 2, 3, 100, 2049, 40000};
    static const uint64_t offs[] = {1, 7, 4096, 1ull << 20, (1ull << 33) + 5, 1ull << 60, 0};
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t b = 0; b < sizeof offs / sizeof offs[0]; b++)
            for (uint32_t nreg = 1; nreg <= 9; nreg += 4) check_one(ns[a], nreg, offs[b]);
}

/* td_contract_find (a hash index since issue 20) finds what a scan of the registry
 * finds: every id's first entry, and nothing for ids it does not hold. */
static void find_is_the_registry_scan(void **st) {
    (void)st;
    int n = td_contract_count();
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        const td_contract *k = td_contract_at(i), *first = NULL;
        for (int j = 0; j <= i && !first; j++)
            if (!strcmp(td_contract_at(j)->id, k->id)) first = td_contract_at(j);
        assert_ptr_equal(td_contract_find(k->id), first);
        char other[512];
        snprintf(other, sizeof other, "%s.", k->id); /* an id one character longer is not that id */
        assert_null(td_contract_find(other));
    }
    assert_null(td_contract_find(""));
    assert_null(td_contract_find("no_such_file.no_such_theorem"));
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(sorts_like_qsort), cmocka_unit_test(find_is_the_registry_scan)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
