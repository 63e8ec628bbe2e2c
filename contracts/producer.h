/* The data producer: turns any byte string into the choices a generator makes.
 *
 * Like zstd's tests/fuzz/fuzz_data_producer: it never fails.  Integer choices are
 * taken from the END of the buffer (so a libFuzzer mutation that appends bytes
 * keeps the earlier choices), and when the bytes run out every choice returns the
 * low end of its range.  The value generator (tensor contents) is a seeded PRNG
 * whose seed is itself taken from the bytes, so a few bytes describe a large case
 * and the case is a pure function of the bytes. */
#ifndef TD_PRODUCER_H
#define TD_PRODUCER_H

#include <stddef.h>
#include <stdint.h>

typedef struct td_producer {
    const uint8_t *data;
    size_t size;     /* bytes left (consumed from the end) */
    size_t consumed;
} td_producer;

void td_prod_init(td_producer *p, const uint8_t *data, size_t size);
/* uniform-ish in [lo, hi] (inclusive); lo when empty or lo >= hi */
uint32_t td_prod_u32(td_producer *p, uint32_t lo, uint32_t hi);
uint64_t td_prod_u64(td_producer *p);
int td_prod_bool(td_producer *p);
/* picks one of n weighted options (weights > 0); 0 when empty */
int td_prod_pick(td_producer *p, const unsigned *weights, int n);
size_t td_prod_remaining(const td_producer *p);

/* xoshiro256** seeded through splitmix64: the value generator. */
typedef struct td_rng {
    uint64_t s[4];
} td_rng;
void td_rng_seed(td_rng *r, uint64_t seed);

/* The generator's steps are inline: bulk value generation (gen.c) draws one or two
 * numbers per value, and a call per draw cost more than the draw itself. */
static inline uint64_t td_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t td_rng_next(td_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = td_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = td_rng_rotl(s[3], 45);
    return result;
}

/* [0, 1) with 53 random bits */
static inline double td_rng_unit(td_rng *r) { return (double)(td_rng_next(r) >> 11) * 0x1p-53; }

/* [0, n): Lemire's multiply-shift with rejection keeps it unbiased */
static inline uint64_t td_rng_below(td_rng *r, uint64_t n) {
    if (n <= 1) return 0;
    for (;;) {
        uint64_t x = td_rng_next(r);
        __uint128_t m = (__uint128_t)x * n;
        uint64_t l = (uint64_t)m;
        if (l >= n || l >= (uint64_t)(-n) % n) return (uint64_t)(m >> 64);
    }
}

#endif
