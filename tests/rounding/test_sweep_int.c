/* The exhaustive sweep of the quantization casts (numfmt.h, td_q_encode_f32): every
 * one of the 2^32 binary32 inputs, cast to int8, uint8, int4 and uint4 under each
 * rounding (half-even, half-away, truncation) and overflow policy (saturate, wrap), 24
 * casts, compared bit for bit with the libm reference (intq_ref.h: rintf / roundf /
 * truncf, then an exact clamp or fmod); the int8/uint8 half-even and truncating casts
 * also with td_encode_f32's profiles of the same meaning, a third path.  The casts run
 * through td_q_encode_f32_array, the scalar cast's code in a vectorised loop (their
 * agreement element by element: test_intq).
 * Label "sweep" (opt-in, like test_sweep).  Threads: TD_SWEEP_THREADS (default 2).
 * TD_SWEEP_INT_STRIDE=k (local timing only) checks every k-th chunk and fails the test,
 * so a sampled run is never taken for the exhaustive one. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "intq_ref.h"
#include "test_util.h"

#define CHUNK (1u << 13) /* inputs, their references and outputs stay in L2 */
#define NCHUNK ((uint32_t)((UINT64_C(1) << 32) / CHUNK))

static atomic_uint next_chunk;
static atomic_long mismatches;
static uint32_t stride = 1;

static void report(uint32_t u, int f, int r, int o, unsigned got, unsigned want, const char *ref) {
    if (atomic_fetch_add(&mismatches, 1) < 20)
        print_error("0x%08x fmt %d rnd %d ovf %d: 0x%x, %s 0x%x\n", (unsigned)u, f, r, o, got, ref, want);
}

/* the eight td_encode_f32 profiles of the same meaning: int8/uint8 x rne/rtz x sat/wrap */
static td_profile prof_of(int f, int r, int o) {
    td_profile p = {f == TD_Q_I8 ? TD_I8 : TD_U8, r == TD_Q_TRUNC ? TD_RTZ : TD_RNE,
                    o == TD_Q_SAT ? TD_OVF_SAT : TD_OVF_WRAP, false};
    return p;
}

/* every mismatch of one cast over the chunk, reported (the slow path: only after a
 * difference was seen) */
static void report_chunk(uint32_t c0, const float *x, int f, int r, int o, const uint8_t *got, const uint64_t *prof) {
    for (uint32_t i = 0; i < CHUNK; i++) {
        unsigned want = iq_ref(x[i], (td_qfmt)f, (td_qrnd)r, (td_qovf)o);
        if (got[i] != want)
            report(c0 + i, f, r, o, got[i], want, "libm");
        if (prof && got[i] != prof[i])
            report(c0 + i, f, r, o, got[i], (unsigned)prof[i], "td_encode_f32");
    }
}

/* The work space of one thread: a chunk's inputs, per rounding the reference's two
 * parts (iq_ref_sat / iq_ref_wrap of the libm-rounded value), one cast's outputs and a
 * profile's. */
typedef struct {
    float x[CHUNK];
    int16_t sat[TD_QRND_COUNT][CHUNK];
    uint8_t wrap[TD_QRND_COUNT][CHUNK];
    uint8_t got[CHUNK];
    uint64_t prof[CHUNK];
} work;

/* The chunk's 24 casts through the array entry point td_q_encode_f32_array (the scalar
 * cast's own code, rounding/intq.c), each output compared with the libm reference
 * (intq_ref.h: rounded once per rounding, joined per format and policy) and, for the
 * eight casts that have one, with the td_encode_f32 profile.  The comparison only
 * accumulates differences (loops without branches); a chunk with one is re-walked with
 * the scalar reference to report it. */
static void sweep_chunk(uint32_t c0, work *w) {
    for (uint32_t i = 0; i < CHUNK; i++)
        w->x[i] = tu_f32(c0 + i);
    for (int r = 0; r < TD_QRND_COUNT; r++)
        for (uint32_t i = 0; i < CHUNK; i++) {
            double v = iq_ref_round(w->x[i], (td_qrnd)r);
            w->sat[r][i] = iq_ref_sat(v);
            w->wrap[r][i] = iq_ref_wrap(v);
        }
    for (int f = 0; f < TD_QFMT_COUNT; f++)
        for (int r = 0; r < TD_QRND_COUNT; r++)
            for (int o = 0; o < TD_QOVF_COUNT; o++) {
                bool has_prof = (f == TD_Q_I8 || f == TD_Q_U8) && r != TD_Q_HALF_AWAY;
                int lo = td_q_min((td_qfmt)f), hi = td_q_max((td_qfmt)f);
                td_q_encode_f32_array((td_qfmt)f, (td_qrnd)r, (td_qovf)o, w->x, w->got, CHUNK);
                unsigned diff = 0;
                if (o == TD_Q_SAT)
                    for (uint32_t i = 0; i < CHUNK; i++)
                        diff |= w->got[i] ^ iq_ref_join(w->sat[r][i], w->wrap[r][i], lo, hi, TD_Q_SAT);
                else
                    for (uint32_t i = 0; i < CHUNK; i++)
                        diff |= w->got[i] ^ iq_ref_join(w->sat[r][i], w->wrap[r][i], lo, hi, TD_Q_WRAP);
                if (has_prof) {
                    td_encode_f32_array(prof_of(f, r, o), w->x, w->prof, CHUNK);
                    uint64_t pd = 0;
                    for (uint32_t i = 0; i < CHUNK; i++)
                        pd |= w->got[i] ^ w->prof[i];
                    diff |= pd != 0;
                }
                if (diff)
                    report_chunk(c0, w->x, f, r, o, w->got, has_prof ? w->prof : NULL);
            }
}

static void *worker(void *arg) {
    (void)arg;
    work *w = malloc(sizeof *w);
    if (!w)
        abort();
    for (;;) {
        uint32_t c = atomic_fetch_add(&next_chunk, stride);
        if (c >= NCHUNK)
            break;
        sweep_chunk(c * CHUNK, w);
    }
    free(w);
    return NULL;
}

static void test_sweep_int(void **st) {
    (void)st;
    const char *e = getenv("TD_SWEEP_THREADS");
    int nt = e ? atoi(e) : 2;
    nt = nt < 1 ? 1 : nt > 64 ? 64 : nt;
    const char *sv = getenv("TD_SWEEP_INT_STRIDE");
    stride = sv && atoi(sv) > 1 ? (uint32_t)atoi(sv) : 1;
    pthread_t th[64];
    double t0 = tu_now();
    for (int i = 0; i < nt; i++)
        assert_int_equal(pthread_create(&th[i], NULL, worker, NULL), 0);
    for (int i = 0; i < nt; i++)
        pthread_join(th[i], NULL);
    print_message("2^32 / %u inputs x 24 casts in %.1f s, %ld mismatches\n", (unsigned)stride, tu_now() - t0,
                  (long)mismatches);
    assert_int_equal(mismatches, 0);
    assert_int_equal(stride, 1); /* a sampled run is not the sweep */
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_sweep_int)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
