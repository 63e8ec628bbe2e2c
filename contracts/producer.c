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

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t td_rng_next(td_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double td_rng_unit(td_rng *r) { return (double)(td_rng_next(r) >> 11) * 0x1p-53; }

uint64_t td_rng_below(td_rng *r, uint64_t n) {
    if (n <= 1) return 0;
    /* Lemire's multiply-shift with rejection keeps it unbiased */
    for (;;) {
        uint64_t x = td_rng_next(r);
        __uint128_t m = (__uint128_t)x * n;
        uint64_t l = (uint64_t)m;
        if (l >= n || l >= (uint64_t)(-n) % n) return (uint64_t)(m >> 64);
    }
}
