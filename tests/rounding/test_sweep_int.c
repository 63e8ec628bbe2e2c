/* The exhaustive sweep of the quantization casts (numfmt.h, td_q_encode_f32): every
 * one of the 2^32 binary32 inputs, cast to int8, uint8, int4 and uint4 under each
 * rounding (half-even, half-away, truncation) and overflow policy (saturate, wrap), 24
 * casts, compared bit for bit with the libm reference (intq_ref.h: rintf / roundf /
 * truncf, then an exact clamp or fmod); the int8/uint8 half-even and truncating casts
 * also with td_encode_f32's profiles of the same meaning, a third path.
 * Label "sweep" (opt-in, like test_sweep).  Threads: TD_SWEEP_THREADS (default 2). */
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

#define CHUNK (1u << 16)
#define NCHUNK ((uint32_t)((UINT64_C(1) << 32) / CHUNK))

static atomic_uint next_chunk;
static atomic_long mismatches;

static void report(uint32_t u, int f, int r, int o, unsigned got, unsigned want, const char *ref) {
    if (atomic_fetch_add(&mismatches, 1) < 20)
        print_error("0x%08x fmt %d rnd %d ovf %d: 0x%x, %s 0x%x\n", (unsigned)u, f, r, o, got, ref, want);
}

static void sweep_one(uint32_t u) {
    float x = tu_f32(u);
    double v[TD_QRND_COUNT];
    for (int r = 0; r < TD_QRND_COUNT; r++)
        v[r] = iq_ref_round(x, (td_qrnd)r);
    for (int f = 0; f < TD_QFMT_COUNT; f++)
        for (int r = 0; r < TD_QRND_COUNT; r++)
            for (int o = 0; o < TD_QOVF_COUNT; o++) {
                unsigned got = td_q_encode_f32(x, (td_qfmt)f, (td_qrnd)r, (td_qovf)o);
                unsigned want = iq_ref_finish(v[r], (td_qfmt)f, (td_qovf)o);
                if (got != want)
                    report(u, f, r, o, got, want, "libm");
                if ((f == TD_Q_I8 || f == TD_Q_U8) && r != TD_Q_HALF_AWAY) {
                    td_profile p = {f == TD_Q_I8 ? TD_I8 : TD_U8, r == TD_Q_TRUNC ? TD_RTZ : TD_RNE,
                                    o == TD_Q_SAT ? TD_OVF_SAT : TD_OVF_WRAP, false};
                    unsigned prof = (unsigned)td_encode_f32(p, x);
                    if (got != prof)
                        report(u, f, r, o, got, prof, "td_encode_f32");
                }
            }
}

static void *worker(void *arg) {
    (void)arg;
    for (;;) {
        uint32_t c = atomic_fetch_add(&next_chunk, 1);
        if (c >= NCHUNK)
            return NULL;
        for (uint32_t i = 0; i < CHUNK; i++)
            sweep_one(c * CHUNK + i);
    }
}

static void test_sweep_int(void **st) {
    (void)st;
    const char *e = getenv("TD_SWEEP_THREADS");
    int nt = e ? atoi(e) : 2;
    nt = nt < 1 ? 1 : nt > 64 ? 64 : nt;
    pthread_t th[64];
    double t0 = tu_now();
    for (int i = 0; i < nt; i++)
        assert_int_equal(pthread_create(&th[i], NULL, worker, NULL), 0);
    for (int i = 0; i < nt; i++)
        pthread_join(th[i], NULL);
    print_message("2^32 inputs x 24 casts in %.0f s, %ld mismatches\n", tu_now() - t0, (long)mismatches);
    assert_int_equal(mismatches, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_sweep_int)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
