/* The metadata generators (contracts/gen_meta.h): every output satisfies its invariant
 * (injective slots in range, indices in range, consistent cu_seqlens, positions in range)
 * and every boundary class each one claims is reached from random bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "gen_meta.h"

enum { TRIES = 3000 };

/* a producer over fresh pseudo-random bytes for try t */
static void bytes_for(uint8_t *buf, size_t n, unsigned t) {
    td_rng r;
    td_rng_seed(&r, 0x9e3779b97f4a7c15ull * (t + 1));
    for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)td_rng_next(&r);
}

static void slots_are_injective_and_reach_their_classes(void **st) {
    (void)st;
    uint64_t seen = 0;
    for (unsigned t = 0; t < TRIES; t++) {
        uint8_t b[64];
        bytes_for(b, sizeof b, t);
        td_producer p;
        td_prod_init(&p, b, sizeof b);
        td_rng r;
        td_rng_seed(&r, t);
        int64_t cap = 1 + (int64_t)(t % 40), n = 1 + (int64_t)(t * 7 % (uint64_t)cap), out[40];
        if (t % 5 == 0) n = cap;
        uint64_t cl = 0;
        td_gen_slots(&p, &r, out, n, cap, &cl);
        char used[40] = {0};
        for (int64_t i = 0; i < n; i++) {
            assert_true(out[i] >= 0 && out[i] < cap);
            assert_int_equal(used[out[i]], 0);
            used[out[i]] = 1;
        }
        seen |= cl;
    }
    assert_true(seen & TD_BC(TD_BC_IDX_PERMUTATION));
    assert_true(seen & TD_BC(TD_BC_IDX_FIRST_LAST));
}

static void indices_stay_in_range_and_repeat(void **st) {
    (void)st;
    uint64_t seen = 0;
    for (unsigned t = 0; t < TRIES; t++) {
        uint8_t b[64];
        bytes_for(b, sizeof b, t);
        td_producer p;
        td_prod_init(&p, b, sizeof b);
        td_rng r;
        td_rng_seed(&r, t);
        int64_t cap = 1 + (int64_t)(t % 1000), n = 1 + (int64_t)(t % 17), out[17];
        uint64_t cl = 0;
        td_gen_indices(&p, &r, out, n, cap, &cl);
        for (int64_t i = 0; i < n; i++) assert_true(out[i] >= 0 && out[i] < cap);
        seen |= cl;
    }
    assert_true(seen & TD_BC(TD_BC_IDX_REPEATS));
    assert_true(seen & TD_BC(TD_BC_IDX_FIRST_LAST));
}

static void ragged_batches_are_consistent(void **st) {
    (void)st;
    uint64_t seen = 0;
    for (unsigned t = 0; t < TRIES; t++) {
        uint8_t b[64];
        bytes_for(b, sizeof b, t);
        td_producer p;
        td_prod_init(&p, b, sizeof b);
        td_rng r;
        td_rng_seed(&r, t);
        int nb = 1 + (int)(t % 6);
        int64_t lens[6], starts[7], blk = 1 + (int64_t)(t % 16), min_len = t % 2 ? 0 : 1, max_len = 40;
        uint64_t cl = 0;
        int64_t total = td_gen_ragged(&p, &r, lens, starts, nb, min_len, max_len, blk, &cl);
        assert_int_equal(starts[0], 0);
        for (int i = 0; i < nb; i++) {
            assert_true(lens[i] >= min_len && lens[i] <= max_len);
            assert_int_equal(starts[i + 1], starts[i] + lens[i]);
        }
        assert_int_equal(total, starts[nb]);
        seen |= cl;
    }
    for (int c = TD_BC_SEQ_EMPTY; c <= TD_BC_SEQ_ENDS_AT_END; c++) assert_true(seen & TD_BC(c));
}

static void positions_adapters_masks_reach_their_classes(void **st) {
    (void)st;
    uint64_t seen = 0;
    for (unsigned t = 0; t < TRIES; t++) {
        uint8_t b[64];
        bytes_for(b, sizeof b, t);
        td_producer p;
        td_prod_init(&p, b, sizeof b);
        td_rng r;
        td_rng_seed(&r, t);
        int64_t n = 2 + (int64_t)(t % 30), maxp = n - 1 + (int64_t)(t % 50), pos[32], ad[32];
        uint8_t m[32];
        uint64_t cl = 0;
        td_gen_positions(&p, &r, pos, n, maxp, 1, &cl);
        for (int64_t i = 0; i < n; i++) assert_true(pos[i] >= 0 && pos[i] <= maxp);
        td_gen_adapters(&p, &r, ad, n, 4, 1, &cl);
        for (int64_t i = 0; i < n; i++) assert_true(ad[i] >= -1 && ad[i] < 4);
        td_gen_mask(&p, &r, m, n, &cl);
        for (int64_t i = 0; i < n; i++) assert_true(m[i] <= 1);
        seen |= cl;
    }
    for (int c = TD_BC_POS_EXTREME; c <= TD_BC_ADAPTER_NONE; c++) assert_true(seen & TD_BC(c));
    assert_true(seen & TD_BC(TD_BC_MASK_PATTERN));
}

/* every index tuple maps to its own offset inside the span, and padding is reached */
static void layouts_are_injective(void **st) {
    (void)st;
    uint64_t seen = 0;
    int orders = 0;
    for (unsigned t = 0; t < TRIES; t++) {
        uint8_t b[64];
        bytes_for(b, sizeof b, t);
        td_producer p;
        td_prod_init(&p, b, sizeof b);
        int k = 1 + (int)(t % 4);
        int64_t n[4], s[4], tot = 1;
        for (int d = 0; d < k; d++) n[d] = 1 + (int64_t)((t / 4 + 3 * (unsigned)d) % 5), tot *= n[d];
        uint64_t cl = 0;
        int64_t span = td_gen_layout(&p, k, n, s, t % 3 == 0, &cl);
        char *used = calloc((size_t)span, 1);
        assert_non_null(used);
        for (int64_t f = 0; f < tot; f++) {
            int64_t off = 0, r = f;
            for (int d = k - 1; d >= 0; d--) off += (r % n[d]) * s[d], r /= n[d];
            assert_true(off >= 0 && off < span);
            assert_int_equal(used[off], 0);
            used[off] = 1;
        }
        free(used);
        if (k >= 2 && n[0] > 1 && n[1] > 1 && s[0] < s[1]) orders = 1; /* an outer dim nested inside */
        seen |= cl;
    }
    assert_true(orders);
    assert_true(seen & TD_BC(TD_BC_STRIDE_GT_ROW));
}

/* rotary tables: binary32 values of cos/sin of pos * theta_i, exactly (1, 0) at position 0,
 * and row i = 0 has theta 1 (the angle is the position itself) */
static void rotary_tables_are_real_angles(void **st) {
    (void)st;
    for (unsigned t = 0; t < 200; t++) {
        uint8_t b[16];
        bytes_for(b, sizeof b, t);
        td_producer p;
        td_prod_init(&p, b, sizeof b);
        int64_t n = 1 + (int64_t)(t % 7), half = 1 + (int64_t)(t % 9), pos[8];
        double cs[8 * 9], sn[8 * 9];
        for (int64_t i = 0; i < n; i++) pos[i] = i == 0 ? 0 : (int64_t)(t * 977 + (unsigned)i * 131071u);
        td_gen_rotary_table(&p, pos, n, half, cs, sn);
        for (int64_t r = 0; r < n; r++)
            for (int64_t i = 0; i < half; i++) {
                double c = cs[r * half + i], s = sn[r * half + i];
                assert_true(c == (double)(float)c && s == (double)(float)s);
                assert_true(fabs(c * c + s * s - 1.0) < 0x1p-20);
                if (pos[r] == 0) assert_true(c == 1.0 && s == 0.0);
                if (i == 0) assert_true(c == (double)(float)cos((double)pos[r]));
            }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(slots_are_injective_and_reach_their_classes),
        cmocka_unit_test(indices_stay_in_range_and_repeat),
        cmocka_unit_test(ragged_batches_are_consistent),
        cmocka_unit_test(positions_adapters_masks_reach_their_classes),
        cmocka_unit_test(layouts_are_injective),
        cmocka_unit_test(rotary_tables_are_real_angles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
