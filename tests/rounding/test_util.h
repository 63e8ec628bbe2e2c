/* Helpers shared by the rounding tests (header-only, static). */
#ifndef TD_TEST_ROUNDING_UTIL_H
#define TD_TEST_ROUNDING_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rounding.h"

static inline float tu_f32(uint32_t u) {
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}
static inline uint32_t tu_u32(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}
static inline double tu_f64(uint64_t u) {
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}
static inline uint64_t tu_u64(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* splitmix64: explicit state, reproducible. */
static inline uint64_t tu_rand(uint64_t *s) {
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static inline double tu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Every valid profile of every cast target (integer targets once: FTZ is ignored there). */
#define TU_MAX_PROFILES 128
static inline int tu_all_profiles(td_profile *out) {
    int n = 0;
    for (int f = 0; f < TD_FMT_COUNT; f++)
        for (int r = 0; r < 2; r++)
            for (int o = 0; o < 4; o++)
                for (int z = 0; z < 2; z++) {
                    td_profile p = {(td_fmt)f, (td_rnd)r, (td_ovf)o, z != 0};
                    const td_fmt_info *fi = td_fmt_get(p.fmt);
                    if (td_profile_check(p, NULL, 0) || (!fi->is_float && z))
                        continue;
                    out[n++] = p;
                }
    return n;
}

/* Valid profiles of one format. */
static inline int tu_profiles_of(td_fmt f, td_profile *out) {
    td_profile all[TU_MAX_PROFILES];
    int n = tu_all_profiles(all), k = 0;
    for (int i = 0; i < n; i++)
        if (all[i].fmt == f)
            out[k++] = all[i];
    return k;
}

static inline const char *tu_pstr(td_profile p, char *buf, size_t n) {
    td_profile_str(p, buf, n);
    return buf;
}

#endif
