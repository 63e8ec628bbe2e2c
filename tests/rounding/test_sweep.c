/* The exhaustive sweep: every one of the 2^32 binary32 inputs, converted by the fast
 * path (td_encode_f32_array) to fp16, bf16, e4m3fn and e5m2 under every overflow policy
 * (RNE), and to bf16 with FTZ, compared with independent references:
 *  - NVIDIA's host conversions from the CUDA toolkit headers (nv_ref.cpp):
 *    __float2half_rn, __float2bfloat16_rn, __nv_cvt_float_to_fp8 with __NV_SATFINITE
 *    and __NV_NOSAT;
 *  - the x86 F16C instruction VCVTPS2PH (imm8 = round to nearest even) for fp16;
 *  - the AVX512-BF16 instruction VCVTNEPS2BF16 for bf16.  Intel's SDM gives it DAZ and
 *    FTZ semantics (a binary32 denormal input becomes a zero of its sign; bf16 shares
 *    binary32's exponent range, so no normal input gives a subnormal result), so it is
 *    the reference of the FTZ profiles only.  The sweep checks that claim too: against
 *    the non-FTZ profile it must differ exactly on binary32 subnormals.
 * Where a reference has no such policy, its result is derived from the IEEE one by the
 * policy's documented rule, and each such derivation is named below: NVIDIA has no
 * saturating or NaN-overflow fp16/bf16 host conversion and no NaN-overflow e5m2 one, and
 * neither NVIDIA nor F16C has an FTZ mode.
 * Comparison: NaN as a class (any NaN encoding is NaN; the references disagree with our
 * canonical NaN and with each other on encodings), everything else bit for bit.
 * A reference that is missing (headers not found, CPU without the instruction) is
 * reported as skipped; a profile no reference could check fails the test.
 * Two threads (TD_SWEEP_THREADS), chunks of 2^13 inputs. */
#if defined(__x86_64__) || defined(__i386__)
#define TD_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "test_util.h"
#ifdef TD_HAVE_NV_REF
#include "nv_ref.h"
#endif

#define CHUNK (1u << 13) /* inputs, 64-bit outputs and the references of a chunk stay in L2 */
#define NCHUNK ((uint32_t)((UINT64_C(1) << 32) / CHUNK))

enum { REF_NV, REF_F16C, REF_BF16I, NREF };
static const char *const ref_names[NREF] = {"NVIDIA host", "F16C vcvtps2ph", "AVX512-BF16 vcvtneps2bf16"};

/* How a reference's IEEE result is turned into the profile's: */
enum {
    D_SAT = 1,    /* an inf result becomes max finite with its sign (sat: clamp, inf inputs too) */
    D_NAN = 2,    /* an inf result becomes NaN (nan: every non-finite result is NaN) */
    D_FTZSRC = 4, /* a binary32 subnormal input gives a zero of its sign (FTZ of the source;
                     with bf16's exponent range no other result is subnormal) */
};

/* Raw reference outputs of one chunk. */
enum { RAW_NV16, RAW_NVBF, RAW_NVE4S, RAW_NVE4N, RAW_NVE5S, RAW_NVE5N, RAW_F16C, RAW_BF16I, NRAW };

typedef struct {
    const char *prof;
    struct {
        int ref, raw, derive;
    } chk[3];
    int nchk;
} sweep_profile;

static const sweep_profile sweep[] = {
    {"fp16:rne:inf", {{REF_NV, RAW_NV16, 0}, {REF_F16C, RAW_F16C, 0}}, 2},
    {"fp16:rne:sat", {{REF_NV, RAW_NV16, D_SAT}, {REF_F16C, RAW_F16C, D_SAT}}, 2},
    {"fp16:rne:nan", {{REF_NV, RAW_NV16, D_NAN}, {REF_F16C, RAW_F16C, D_NAN}}, 2},
    {"bf16:rne:inf", {{REF_NV, RAW_NVBF, 0}}, 1},
    {"bf16:rne:sat", {{REF_NV, RAW_NVBF, D_SAT}}, 1},
    {"bf16:rne:nan", {{REF_NV, RAW_NVBF, D_NAN}}, 1},
    {"bf16:rne:inf:ftz", {{REF_BF16I, RAW_BF16I, 0}, {REF_NV, RAW_NVBF, D_FTZSRC}}, 2},
    {"bf16:rne:sat:ftz", {{REF_BF16I, RAW_BF16I, D_SAT}, {REF_NV, RAW_NVBF, D_FTZSRC | D_SAT}}, 2},
    {"bf16:rne:nan:ftz", {{REF_BF16I, RAW_BF16I, D_NAN}, {REF_NV, RAW_NVBF, D_FTZSRC | D_NAN}}, 2},
    {"e4m3fn:rne:sat", {{REF_NV, RAW_NVE4S, 0}}, 1},
    {"e4m3fn:rne:nan", {{REF_NV, RAW_NVE4N, 0}}, 1},
    {"e5m2:rne:inf", {{REF_NV, RAW_NVE5N, 0}}, 1},
    {"e5m2:rne:sat", {{REF_NV, RAW_NVE5S, 0}}, 1},
    {"e5m2:rne:nan", {{REF_NV, RAW_NVE5N, D_NAN}}, 1},
};
#define NPROF ((int)(sizeof sweep / sizeof sweep[0]))

/* ---- run-time CPU detection (CPUID + XGETBV; no -march) ---- */

#ifdef TD_X86

static uint64_t xgetbv0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static bool cpu_has_f16c(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return false;
    bool osxsave = c & (1u << 27), avx = c & (1u << 28), f16c = c & (1u << 29);
    return osxsave && avx && f16c && (xgetbv0() & 6) == 6; /* XMM and YMM state enabled */
}

static bool cpu_has_avx512bf16(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)))
        return false;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return false;
    bool f = b & (1u << 16), vl = b & (1u << 31);
    unsigned maxsub = a;
    if (maxsub < 1 || !__get_cpuid_count(7, 1, &a, &b, &c, &d))
        return false;
    bool bf16 = a & (1u << 5);
    return f && vl && bf16 && (xgetbv0() & 0xe6) == 0xe6; /* XMM, YMM, opmask, ZMM state */
}

__attribute__((target("f16c,avx"))) static void f16c_convert(const float *x, uint16_t *out, size_t n) {
    for (size_t i = 0; i + 8 <= n; i += 8) {
        __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        _mm_storeu_si128((__m128i *)(out + i), h);
    }
}

__attribute__((target("avx512bf16,avx512f,avx512vl"))) static void bf16i_convert(const float *x, uint16_t *out,
                                                                                size_t n) {
    for (size_t i = 0; i + 16 <= n; i += 16) {
        __m256bh r = _mm512_cvtneps_pbh(_mm512_loadu_ps(x + i));
        memcpy(out + i, &r, sizeof r);
    }
}

#else /* not x86: the instruction references do not exist */
static bool cpu_has_f16c(void) { return false; }
static bool cpu_has_avx512bf16(void) { return false; }
static void f16c_convert(const float *x, uint16_t *out, size_t n) { (void)x, (void)out, (void)n; }
static void bf16i_convert(const float *x, uint16_t *out, size_t n) { (void)x, (void)out, (void)n; }
#endif

/* ---- comparison ---- */

/* Bit layout of a target, for NaN / inf tests and the derivations. */
typedef struct {
    uint32_t sign, expm, mantm, maxb;
    bool has_inf;
} layout;

static inline __attribute__((always_inline)) layout layout_of(td_fmt f) {
    switch (f) {
    case TD_F16:
        return (layout){0x8000, 0x7c00, 0x03ff, 0x7bff, true};
    case TD_BF16:
        return (layout){0x8000, 0x7f80, 0x007f, 0x7f7f, true};
    case TD_E5M2:
        return (layout){0x80, 0x7c, 0x03, 0x7b, true};
    default: /* e4m3fn */
        return (layout){0x80, 0x78, 0x07, 0x7e, false};
    }
}

static inline bool is_nan_l(const layout *L, uint32_t b) {
    if (!L->has_inf)
        return (b & 0x7f) == 0x7f;
    return (b & L->expm) == L->expm && (b & L->mantm);
}

static inline uint32_t derive(const layout *L, uint32_t r, uint32_t u, int how) {
    if ((how & D_FTZSRC) && !(u & 0x7f800000u) && (u & 0x007fffffu))
        r = (u >> 31) ? L->sign : 0;
    bool inf = L->has_inf && (r & ~L->sign) == L->expm;
    if ((how & D_SAT) && inf)
        r = (r & L->sign) | L->maxb;
    if ((how & D_NAN) && inf) /* the canonical NaN: only the references' own NaN encodings count as differing */
        r = (r & L->sign) | L->expm | ((L->mantm + 1) >> 1);
    return r;
}

/* The comparison of one chunk against one derived reference, written without branches
 * and instantiated per (format, derivation) below so that it vectorises: it runs 20
 * times over every input.  Counts mismatches; NaN is a class. */
static inline __attribute__((always_inline)) uint64_t cmp_chunk(const uint64_t *ours, const uint16_t *rw,
                                                                 uint32_t base, layout L, int how,
                                                                 uint64_t *encd) {
    uint64_t bad = 0, enc = 0;
    for (uint32_t i = 0; i < CHUNK; i++) {
        uint32_t r = rw[i], u = base + i, o = (uint32_t)ours[i];
        /* all-ones / all-zeros masks instead of ?: so that the loop has no control flow */
        if (how & D_FTZSRC) {
            uint32_t sub = 0u - (uint32_t)(((u & 0x7f800000u) == 0) & ((u & 0x007fffffu) != 0));
            r = (r & ~sub) | ((u >> 31) * L.sign & sub);
        }
        uint32_t inf = 0u - (uint32_t)(L.has_inf & ((r & ~L.sign) == L.expm));
        if (how & D_SAT)
            r = (r & ~inf) | (((r & L.sign) | L.maxb) & inf);
        if (how & D_NAN)
            r = (r & ~inf) | (((r & L.sign) | L.expm | ((L.mantm + 1) >> 1)) & inf);
        uint32_t rn, on;
        if (L.has_inf) {
            rn = ((r & L.expm) == L.expm) & ((r & L.mantm) != 0);
            on = ((o & L.expm) == L.expm) & ((o & L.mantm) != 0);
        } else {
            rn = (r & 0x7f) == 0x7f;
            on = (o & 0x7f) == 0x7f;
        }
        uint32_t ne = o != r;
        bad += (rn & (on ^ 1)) | ((rn ^ 1) & ne);
        enc += rn & ne;
    }
    *encd += enc;
    return bad;
}

#define CMP_HOWS(FMT)                                                                                  \
    switch (how) {                                                                                     \
    case 0: return cmp_chunk(ours, rw, base, layout_of(FMT), 0, encd);                                 \
    case D_SAT: return cmp_chunk(ours, rw, base, layout_of(FMT), D_SAT, encd);                         \
    case D_NAN: return cmp_chunk(ours, rw, base, layout_of(FMT), D_NAN, encd);                         \
    case D_FTZSRC: return cmp_chunk(ours, rw, base, layout_of(FMT), D_FTZSRC, encd);                   \
    case D_FTZSRC | D_SAT: return cmp_chunk(ours, rw, base, layout_of(FMT), D_FTZSRC | D_SAT, encd);   \
    default: return cmp_chunk(ours, rw, base, layout_of(FMT), D_FTZSRC | D_NAN, encd);                 \
    }

#define COMPARE_CHUNK(NAME, ATTR)                                                                      \
    ATTR static uint64_t NAME(td_fmt f, int how, const uint64_t *ours, const uint16_t *rw, uint32_t base,  \
                              uint64_t *encd) {                                                          \
        switch (f) {                                                                                   \
        case TD_F16: CMP_HOWS(TD_F16)                                                                  \
        case TD_BF16: CMP_HOWS(TD_BF16)                                                                \
        case TD_E5M2: CMP_HOWS(TD_E5M2)                                                                \
        default: CMP_HOWS(TD_E4M3FN)                                                                   \
        }                                                                                              \
    }
/* The same loops for the baseline and, chosen at run time, for AVX2 and AVX-512. */
COMPARE_CHUNK(compare_chunk_base, )
COMPARE_CHUNK(compare_chunk_avx2, __attribute__((target("avx2"))))
COMPARE_CHUNK(compare_chunk_avx512, __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))))

typedef uint64_t (*compare_fn)(td_fmt, int, const uint64_t *, const uint16_t *, uint32_t, uint64_t *);

static compare_fn pick_compare(void) {
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
        return compare_chunk_avx512;
    if (__builtin_cpu_supports("avx2"))
        return compare_chunk_avx2;
    return compare_chunk_base;
}

typedef struct {
    uint64_t checked[NPROF][3], bad[NPROF][3], nan_enc_differs[NPROF][3];
    uint64_t ours_nan[NPROF];
    uint64_t bf16i_vs_noftz_diff, bf16i_vs_noftz_diff_not_sub;
    uint32_t example[NPROF][3][3][3]; /* up to 3 mismatches: input, ours, reference */
    int nexample[NPROF][3];
} counters;

typedef struct {
    td_profile p[NPROF];
    bool have[NREF];
    atomic_uint next; /* the next chunk, shared by all threads */
} shared_job;

typedef struct {
    shared_job *j;
    counters *c; /* this thread's */
} thread_arg;

static void *sweep_worker(void *arg) {
    shared_job *j = ((thread_arg *)arg)->j;
    counters *c = ((thread_arg *)arg)->c;
    float *x = aligned_alloc(64, CHUNK * sizeof *x);
    uint64_t *ours = aligned_alloc(64, CHUNK * sizeof *ours);
    uint8_t *raw8 = aligned_alloc(64, CHUNK);
    uint16_t *raw[NRAW];
    for (int r = 0; r < NRAW; r++)
        raw[r] = aligned_alloc(64, CHUNK * sizeof(uint16_t));
    layout L[NPROF];
    for (int k = 0; k < NPROF; k++)
        L[k] = layout_of(j->p[k].fmt);
    const layout Lbf = layout_of(TD_BF16);
    const td_profile bf_noftz = {TD_BF16, TD_RNE, TD_OVF_INF, false};
    const compare_fn compare_chunk = pick_compare();
    for (;;) {
        uint32_t ci = atomic_fetch_add(&j->next, 1);
        if (ci >= NCHUNK)
            break;
        uint32_t base = ci * CHUNK;
        for (uint32_t i = 0; i < CHUNK; i++) {
            uint32_t u = base + i;
            memcpy(&x[i], &u, sizeof u);
        }
#ifdef TD_HAVE_NV_REF
        if (j->have[REF_NV]) {
            td_nv_f16(x, raw[RAW_NV16], CHUNK);
            td_nv_bf16(x, raw[RAW_NVBF], CHUNK);
            const int which[4][3] = {{RAW_NVE4S, 0, 1}, {RAW_NVE4N, 0, 0}, {RAW_NVE5S, 1, 1}, {RAW_NVE5N, 1, 0}};
            for (int w = 0; w < 4; w++) {
                td_nv_fp8(x, raw8, CHUNK, which[w][1], which[w][2]);
                for (uint32_t i = 0; i < CHUNK; i++)
                    raw[which[w][0]][i] = raw8[i];
            }
        }
#endif
        if (j->have[REF_F16C])
            f16c_convert(x, raw[RAW_F16C], CHUNK);
        if (j->have[REF_BF16I]) {
            bf16i_convert(x, raw[RAW_BF16I], CHUNK);
            /* the claim that the instruction is DAZ: against the non-FTZ profile it may
             * differ only where the input is a binary32 subnormal */
            td_encode_f32_array(bf_noftz, x, ours, CHUNK);
            uint64_t unused = 0;
            if (compare_chunk(TD_BF16, 0, ours, raw[RAW_BF16I], base, &unused)) {
                for (uint32_t i = 0; i < CHUNK; i++) {
                    uint32_t r = raw[RAW_BF16I][i], o = (uint32_t)ours[i];
                    if (is_nan_l(&Lbf, r) ? !is_nan_l(&Lbf, o) : r != o) {
                        c->bf16i_vs_noftz_diff++;
                        c->bf16i_vs_noftz_diff_not_sub += ((base + i) & 0x7f800000u) != 0;
                    }
                }
            }
        }
        for (int k = 0; k < NPROF; k++) {
            td_encode_f32_array(j->p[k], x, ours, CHUNK);
            const layout *Lk = &L[k];
            if (base == 0x7f800000u || base == 0xff800000u) /* the chunks that hold the NaN inputs */
                for (uint32_t i = 0; i < CHUNK; i++)
                    c->ours_nan[k] += is_nan_l(Lk, (uint32_t)ours[i]);
            for (int q = 0; q < sweep[k].nchk; q++) {
                if (!j->have[sweep[k].chk[q].ref])
                    continue;
                const uint16_t *rw = raw[sweep[k].chk[q].raw];
                int how = sweep[k].chk[q].derive;
                uint64_t encd = 0;
                uint64_t bad = compare_chunk(j->p[k].fmt, how, ours, rw, base, &encd);
                c->checked[k][q] += CHUNK;
                c->nan_enc_differs[k][q] += encd;
                c->bad[k][q] += bad;
                for (uint32_t i = 0; bad && i < CHUNK && c->nexample[k][q] < 3; i++) {
                    uint32_t want = derive(Lk, rw[i], base + i, how), o = (uint32_t)ours[i];
                    if (is_nan_l(Lk, want) ? !is_nan_l(Lk, o) : o != want) {
                        uint32_t *e = c->example[k][q][c->nexample[k][q]++];
                        e[0] = base + i;
                        e[1] = o;
                        e[2] = want;
                    }
                }
            }
        }
    }
    free(x);
    free(ours);
    free(raw8);
    for (int r = 0; r < NRAW; r++)
        free(raw[r]);
    return NULL;
}

static void test_sweep(void **state) {
    (void)state;
    static shared_job j; /* large; one per process */
    memset(&j, 0, sizeof j);
    for (int k = 0; k < NPROF; k++)
        assert_int_equal(td_profile_parse(sweep[k].prof, &j.p[k]), 0);
#ifdef TD_HAVE_NV_REF
    j.have[REF_NV] = true;
    print_message("using reference %s: CUDA toolkit headers in %s\n", ref_names[REF_NV], TD_NV_INCLUDE);
#else
    print_message("SKIP reference %s: the CUDA toolkit headers were not found at configure time\n",
                  ref_names[REF_NV]);
#endif
    j.have[REF_F16C] = cpu_has_f16c();
    j.have[REF_BF16I] = cpu_has_avx512bf16();
    for (int r = REF_F16C; r < NREF; r++)
        print_message("%s reference %s: %s\n", j.have[r] ? "using" : "SKIP", ref_names[r],
                      j.have[r] ? "the CPU has it" : "this CPU does not have it (CPUID/XGETBV), or it is not x86");
    /* The instructions take their rounding from imm8 / always RNE, but DAZ in MXCSR
     * would change the binary32 inputs VCVTPS2PH sees. */
#ifdef TD_X86
    unsigned csr = _mm_getcsr();
    if (csr & 0x8040) {
        print_error("MXCSR has DAZ/FTZ set (0x%x): the instruction references would be wrong\n", csr);
        fail();
    }
#endif
    int nthreads = 2;
    const char *env = getenv("TD_SWEEP_THREADS");
    if (env && atoi(env) > 0 && atoi(env) <= 16)
        nthreads = atoi(env);
    counters *per = calloc((size_t)nthreads, sizeof *per);
    assert_non_null(per);
    pthread_t th[16];
    thread_arg args[16];
    double t0 = tu_now();
    for (int t = 0; t < nthreads; t++) {
        args[t] = (thread_arg){&j, &per[t]};
        assert_int_equal(pthread_create(&th[t], NULL, sweep_worker, &args[t]), 0);
    }
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    double secs = tu_now() - t0;

    counters tot;
    memset(&tot, 0, sizeof tot);
    for (int t = 0; t < nthreads; t++) {
        for (int k = 0; k < NPROF; k++) {
            tot.ours_nan[k] += per[t].ours_nan[k];
            for (int q = 0; q < 3; q++) {
                tot.checked[k][q] += per[t].checked[k][q];
                tot.bad[k][q] += per[t].bad[k][q];
                tot.nan_enc_differs[k][q] += per[t].nan_enc_differs[k][q];
                for (int e = 0; e < per[t].nexample[k][q] && tot.nexample[k][q] < 3; e++)
                    memcpy(tot.example[k][q][tot.nexample[k][q]++], per[t].example[k][q][e], sizeof tot.example[0][0][0]);
            }
        }
        tot.bf16i_vs_noftz_diff += per[t].bf16i_vs_noftz_diff;
        tot.bf16i_vs_noftz_diff_not_sub += per[t].bf16i_vs_noftz_diff_not_sub;
    }
    free(per);

    print_message("%-18s %-26s %-12s %11s %9s %14s\n", "profile", "reference", "derived", "checked", "mismatch",
                  "NaN enc differs");
    bool failed = false;
    for (int k = 0; k < NPROF; k++) {
        int used = 0;
        for (int q = 0; q < sweep[k].nchk; q++) {
            int ref = sweep[k].chk[q].ref, how = sweep[k].chk[q].derive;
            char dv[32];
            snprintf(dv, sizeof dv, "%s%s%s%s", how ? "" : "-", how & D_FTZSRC ? "ftz-src " : "",
                     how & D_SAT ? "inf->max " : "", how & D_NAN ? "inf->nan" : "");
            if (!j.have[ref]) {
                print_message("%-18s %-26s %-12s %11s\n", sweep[k].prof, ref_names[ref], dv, "SKIPPED");
                continue;
            }
            used++;
            print_message("%-18s %-26s %-12s %11llu %9llu %14llu\n", sweep[k].prof, ref_names[ref], dv,
                          (unsigned long long)tot.checked[k][q], (unsigned long long)tot.bad[k][q],
                          (unsigned long long)tot.nan_enc_differs[k][q]);
            for (int e = 0; e < tot.nexample[k][q]; e++)
                print_error("  input 0x%08x (%a): ours 0x%x, reference 0x%x\n", tot.example[k][q][e][0],
                            (double)tu_f32(tot.example[k][q][e][0]), tot.example[k][q][e][1],
                            tot.example[k][q][e][2]);
            /* every input reached every reference, and there was something to disagree on */
            if (tot.checked[k][q] != (UINT64_C(1) << 32) || tot.bad[k][q])
                failed = true;
        }
        if (!used) {
            print_error("%s: no reference available, the profile was not checked\n", sweep[k].prof);
            failed = true;
        }
        /* a sanity check of the check: every binary32 NaN input in the first chunk of each
         * NaN range gave a NaN (CHUNK - 1 per sign: the chunk starts with the infinity) */
        if (tot.ours_nan[k] < 2 * (CHUNK - 1)) {
            print_error("%s: NaN inputs did not give NaN\n", sweep[k].prof);
            failed = true;
        }
    }
    if (j.have[REF_BF16I]) {
        print_message("VCVTNEPS2BF16 against bf16:rne:inf without FTZ: %llu differences, %llu of them not at a "
                      "binary32 subnormal input (it treats subnormal inputs as zero, as the SDM says)\n",
                      (unsigned long long)tot.bf16i_vs_noftz_diff, (unsigned long long)tot.bf16i_vs_noftz_diff_not_sub);
        if (tot.bf16i_vs_noftz_diff_not_sub || tot.bf16i_vs_noftz_diff == 0)
            failed = true;
    }
    print_message("swept 2^32 binary32 inputs x %d profiles in %.1f s on %d threads\n", NPROF, secs, nthreads);
    assert_false(failed);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_sweep)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
