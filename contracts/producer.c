#include "producer.h"

void td_prod_init(td_producer *p, const uint8_t *data, size_t size) {
    p->data = data;
    p->size = data ? size : 0;
    p->consumed = 0;
}

size_t td_prod_remaining(const td_producer *p) { return p->size; }

static uint64_t take(td_producer *p, uint64_t range) {
    /* consume just enough bytes to cover `range` values, from the end */
    uint64_t v = 0;
    for (uint64_t span = range; span && p->size; span >>= 8) {
        v = (v << 8) | p->data[--p->size];
        p->consumed++;
    }
    return v;
}

uint32_t td_prod_u32(td_producer *p, uint32_t lo, uint32_t hi) {
    if (lo >= hi) return lo;
    uint64_t range = (uint64_t)hi - lo;
    uint64_t v = take(p, range);
    return lo + (uint32_t)(v % (range + 1));
}

uint64_t td_prod_u64(td_producer *p) { return take(p, UINT64_MAX); }

int td_prod_bool(td_producer *p) { return (int)(take(p, 1) & 1); }

int td_prod_pick(td_producer *p, const unsigned *weights, int n) {
    uint64_t total = 0;
    for (int i = 0; i < n; i++) total += weights[i];
    if (n <= 0 || total == 0) return 0;
    uint64_t x = take(p, total - 1) % total;
    for (int i = 0; i < n; i++) {
        if (x < weights[i]) return i;
        x -= weights[i];
    }
    return n - 1;
}

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void td_rng_seed(td_rng *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}
