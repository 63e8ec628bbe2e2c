/* bench_cast: conversions per second of the fast path, per profile, from binary32,
 * against references measured in the same run: the x86 F16C instruction (VCVTPS2PH),
 * AVX512-BF16 (VCVTNEPS2BF16) and NVIDIA's host conversions from the CUDA toolkit
 * headers (__float2half_rn, __float2bfloat16_rn, __nv_cvt_float_to_fp8).  A benchmark,
 * not a test: it prints numbers and ratios and always exits 0 unless it cannot run.
 *
 * Run it (Release build; one thread; a quiet machine gives steadier numbers):
 *     cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build --target bench_cast
 *     ./build/bench/cast/bench_cast [SECONDS_PER_MEASUREMENT]     (default 0.3)
 *
 * Times are the thread's CPU time.  Each measurement converts a 64 Ki-element buffer (log-uniform magnitudes over the
 * targets' ranges, both signs, with zeros, subnormals, infinities and NaNs) repeatedly
 * for the given time and keeps the best of three.  "ours" is td_encode_f32_array (the
 * array entry point, which writes 64-bit results); "scalar" is td_encode_f32 called per
 * value.  Ratios are ours(array) / reference: above 1 means faster than the reference.
 * The instruction references write 16-bit results, so they move a quarter of the bytes. */
#if defined(__x86_64__) || defined(__i386__)
#define TD_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rounding.h"
#ifdef TD_HAVE_NV_REF
#include "nv_ref.h"
#endif

#define N (1u << 16)

/* The thread's CPU time, not the wall clock: on a shared machine other processes'
 * time slices would otherwise count against whichever measurement they fell into. */
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t rng(uint64_t *s) {
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

#ifdef TD_X86
static uint64_t xgetbv0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static int has_f16c(void) {
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 27)) && (c & (1u << 28)) && (c & (1u << 29)) &&
           (xgetbv0() & 6) == 6;
}

static int has_avx512bf16(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)) || !__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    int f = (b >> 16) & 1, vl = (b >> 31) & 1;
    if (a < 1 || !__get_cpuid_count(7, 1, &a, &b, &c, &d))
        return 0;
    return f && vl && (a & (1u << 5)) && (xgetbv0() & 0xe6) == 0xe6;
}

__attribute__((target("f16c,avx"))) static void f16c_cvt(const float *x, uint16_t *o, size_t n) {
    for (size_t i = 0; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(o + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

__attribute__((target("avx512bf16,avx512f,avx512vl"))) static void bf16i_cvt(const float *x, uint16_t *o, size_t n) {
    for (size_t i = 0; i + 16 <= n; i += 16) {
        __m256bh r = _mm512_cvtneps_pbh(_mm512_loadu_ps(x + i));
        memcpy(o + i, &r, sizeof r);
    }
}

#else
static int has_f16c(void) { return 0; }
static int has_avx512bf16(void) { return 0; }
static void f16c_cvt(const float *x, uint16_t *o, size_t n) { (void)x, (void)o, (void)n; }
static void bf16i_cvt(const float *x, uint16_t *o, size_t n) { (void)x, (void)o, (void)n; }
#endif

static float *xs;
static uint64_t *out64;
static uint16_t *out16;
static uint8_t *out8;
static volatile uint64_t sink;
static double budget = 0.3;

typedef void (*kernel)(void *ctx);

/* Conversions per second of one kernel (a pass converts N values): best of three. */
static double measure(kernel k, void *ctx) {
    double best = 0;
    for (int rep = 0; rep < 3; rep++) {
        long passes = 0;
        double t0 = now(), t;
        do {
            k(ctx);
            passes++;
            t = now() - t0;
        } while (t < budget / 3);
        double r = (double)passes * N / t;
        best = r > best ? r : best;
    }
    return best;
}

static void k_ours(void *ctx) {
    td_encode_f32_array(*(td_profile *)ctx, xs, out64, N);
    sink += out64[N / 2];
}

static void k_scalar(void *ctx) {
    td_profile p = *(td_profile *)ctx;
    uint64_t acc = 0;
    for (size_t i = 0; i < N; i++)
        acc += td_encode_f32(p, xs[i]);
    sink += acc;
}

static void k_f16c(void *ctx) {
    (void)ctx;
    f16c_cvt(xs, out16, N);
    sink += out16[N / 2];
}

static void k_bf16i(void *ctx) {
    (void)ctx;
    bf16i_cvt(xs, out16, N);
    sink += out16[N / 2];
}

#ifdef TD_HAVE_NV_REF
typedef struct {
    int which; /* 0 half, 1 bf16, 2 e4m3 sat, 3 e4m3 nosat, 4 e5m2 sat, 5 e5m2 nosat */
} nvctx;

static void k_nv(void *ctx) {
    int w = ((nvctx *)ctx)->which;
    if (w == 0)
        td_nv_f16(xs, out16, N);
    else if (w == 1)
        td_nv_bf16(xs, out16, N);
    else
        td_nv_fp8(xs, out8, N, w >= 4, w == 2 || w == 4);
    sink += w < 2 ? out16[N / 2] : out8[N / 2];
}
#endif

int main(int argc, char **argv) {
    if (argc > 1)
        budget = atof(argv[1]) > 0 ? atof(argv[1]) : budget;
    xs = aligned_alloc(64, N * sizeof *xs);
    out64 = aligned_alloc(64, N * sizeof *out64);
    out16 = aligned_alloc(64, N * sizeof *out16);
    out8 = aligned_alloc(64, N);
    if (!xs || !out64 || !out16 || !out8)
        return 3;
    uint64_t s = 42;
    for (size_t i = 0; i < N; i++) {
        uint64_t r = rng(&s);
        float v;
        switch (r % 64) {
        case 0: v = 0; break;
        case 1: v = INFINITY; break;
        case 2: v = NAN; break;
        case 3: v = ldexpf((float)(r >> 40) / 16777216.0f, -126); break; /* subnormal */
        default: v = ldexpf(1 + (float)(r >> 41) / 8388608.0f, (int)((r >> 8) % 60) - 30); break;
        }
        xs[i] = (r >> 7) & 1 ? -v : v;
    }

    double r_f16c = 0, r_bf16i = 0, r_nv[6] = {0};
    const char *nvname[6] = {"__float2half_rn", "__float2bfloat16_rn", "fp8 e4m3 satfinite",
                             "fp8 e4m3 nosat", "fp8 e5m2 satfinite", "fp8 e5m2 nosat"};
    printf("bench_cast: %u binary32 values per pass, best of 3 x %.2f s (thread CPU time) per measurement, one "
           "thread\n",
           N, budget / 3);
    if (has_f16c())
        r_f16c = measure(k_f16c, NULL);
    if (has_avx512bf16())
        r_bf16i = measure(k_bf16i, NULL);
    printf("reference F16C vcvtps2ph:          %s\n", r_f16c ? "" : "not on this CPU");
    if (r_f16c)
        printf("  %8.1f M/s\n", r_f16c / 1e6);
    printf("reference AVX512-BF16 vcvtneps2bf16: %s\n", r_bf16i ? "" : "not on this CPU");
    if (r_bf16i)
        printf("  %8.1f M/s\n", r_bf16i / 1e6);
#ifdef TD_HAVE_NV_REF
    for (int w = 0; w < 6; w++) {
        nvctx c = {w};
        r_nv[w] = measure(k_nv, &c);
        printf("reference NVIDIA host %-20s %8.1f M/s\n", nvname[w], r_nv[w] / 1e6);
    }
#else
    printf("reference NVIDIA host: not built (CUDA toolkit headers not found)\n");
    (void)nvname;
#endif

    printf("\n%-20s %10s %10s %11s %11s  %s\n", "profile (from f32)", "ours M/s", "scalar M/s", "vs F16C",
           "vs NVIDIA", "(NVIDIA reference; instruction for bf16:ftz)");
    td_profile ps[128];
    int np = 0;
    for (int f = TD_F32; f <= TD_I32; f++)
        for (int r = 0; r < 2; r++)
            for (int o = 0; o < 4; o++)
                for (int z = 0; z < 2; z++) {
                    td_profile p = {(td_fmt)f, (td_rnd)r, (td_ovf)o, z != 0};
                    if (td_profile_check(p, NULL, 0) || (!td_fmt_get(p.fmt)->is_float && z))
                        continue;
                    ps[np++] = p;
                }
    for (int i = 0; i < np; i++) {
        td_profile p = ps[i];
        char name[48];
        td_profile_str(p, name, sizeof name);
        double ours = measure(k_ours, &p), scalar = measure(k_scalar, &p);
        /* the NVIDIA conversion of the same target and overflow behaviour (RNE only) */
        int w = -1;
        if (p.fmt == TD_F16)
            w = 0;
        else if (p.fmt == TD_BF16)
            w = 1;
        else if (p.fmt == TD_E4M3FN)
            w = p.ovf == TD_OVF_SAT ? 2 : 3;
        else if (p.fmt == TD_E5M2)
            w = p.ovf == TD_OVF_SAT ? 4 : 5;
        char vf[16] = "", vn[16] = "", note[64] = "";
        if (p.fmt == TD_F16 && r_f16c)
            snprintf(vf, sizeof vf, "%.2fx", ours / r_f16c);
        if (w >= 0 && r_nv[w]) {
            snprintf(vn, sizeof vn, "%.2fx", ours / r_nv[w]);
            snprintf(note, sizeof note, "%s", nvname[w]);
        }
        if (p.fmt == TD_BF16 && p.ftz && r_bf16i)
            snprintf(note + strlen(note), sizeof note - strlen(note), "; vs vcvtneps2bf16 %.2fx", ours / r_bf16i);
        printf("%-20s %10.1f %10.1f %11s %11s  %s\n", name, ours / 1e6, scalar / 1e6, vf, vn, note);
    }
    return 0;
}
