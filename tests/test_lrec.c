/* The linear-recurrence bound (oracle/lrec.h) against binary32 kernels.
 *
 * Each case runs h_t = a_t h_{t-1} + b_t for up to 3000 steps with decays from the
 * ranges the recurrence contracts use (sigmoid gates, exp of log-space decays, a
 * retention decay 1 - 2^-5, decays at exactly 1 and near 0, a gate slightly above
 * 1), evaluated by the admissible implementations lrec.h names -- the sequential
 * scan without and with FMA, the chunked scan with the state carried (running
 * product of the chunk's decays, any chunk size) -- and checks |kernel - v| <= ek + es
 * at every step.  Then the bugs the recurrence contracts ship (the state reset per
 * chunk, a decay applied twice, an fp16 state) must exceed the bound, and the
 * per-step charge is pinned, so a loosened rule fails here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "lrec.h"
#include "rounding.h"

static void init_sh(td_shcx *s) {
    memset(s, 0, sizeof *s);
    s->efmt = TD_F32;
    s->u = 0x1p-24;
    s->eta = 0x1p-150;
    s->ulp_min = 0x1p-149;
    s->ovf = 0x1.ffffffp127;
    s->lambda_n = 64;
    s->math = td_math_model_get(TD_MATH_DEFAULT);
}

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static double unit(void) { /* [0, 1) */
    rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
    return (double)(rs >> 11) * 0x1p-53;
}

enum { T_MAX = 3000 };
/* the state stored as fp16 between steps (the bug) */
static float f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(td_profile_default(TD_F16), x)); }

typedef enum { K_SEQ, K_FMA, K_CHUNK, K_RESET, K_TWICE, K_F16 } kkind;

/* one binary32 kernel over a[0..T), b[0..T) from h0; chunk size C for the chunked forms */
static void kernel(kkind k, const float *a, const float *b, float h0, int T, int C, float *out) {
    float h = h0, hc = h0, A = 1, loc = 0;
    for (int t = 0; t < T; t++) {
        switch (k) {
        case K_SEQ: h = a[t] * h + b[t]; break; /* -ffp-contract=off: two roundings */
        case K_FMA: h = fmaf(a[t], h, b[t]); break;
        case K_TWICE: h = a[t] * (a[t] * h) + b[t]; break;
        case K_F16: h = f16(a[t] * h + b[t]); break;
        case K_CHUNK:
        case K_RESET:
            if (t % C == 0) { /* a chunk starts: carry the state (or, the bug, drop it) */
                hc = (k == K_RESET && t) ? 0 : h;
                A = 1, loc = 0;
            }
            A = (t % C == 0) ? a[t] : A * a[t];
            loc = a[t] * loc + b[t];
            h = A * hc + loc;
            break;
        }
        out[t] = h;
    }
}

/* the shadow of the recurrence, every step: value, es, ek */
static void shadow(const float *a, const float *b, float h0, int T, td_sh *hs) {
    td_shcx s;
    init_sh(&s);
    td_sh h = td_sh_exact(&s, h0);
    double mag[2];
    td_sh_lrec_init(&s, h, mag);
    for (int t = 0; t < T; t++) {
        h = td_sh_lrec_step(&s, h, td_sh_exact(&s, a[t]), td_sh_exact(&s, b[t]), mag);
        hs[t] = h;
    }
}

/* decays of one kind: 0 sigmoid gates, 1 exp of log-space decays in [-8, 0], 2 the
 * retention decay 1 - 2^-5, 3 exactly 1, 4 near 0 (1e-6), 5 a gate of 1.0005 */
static float decay(int kind) {
    switch (kind) {
    case 0: return (float)(1 / (1 + exp(-(unit() * 12 - 6))));
    case 1: return (float)exp(-8 * unit());
    case 2: return 1 - 0x1p-5f;
    case 3: return 1;
    case 4: return 1e-6f;
    default: return 1.0005f;
    }
}

static float a_[T_MAX], b_[T_MAX], out[T_MAX];
static td_sh hs[T_MAX];

static void fill(int dk, int cancel, int T) {
    for (int t = 0; t < T; t++) {
        a_[t] = decay(dk);
        b_[t] = (float)(unit() * 2 - 1);
        if (cancel && t % 2) b_[t] = -b_[t - 1] * a_[t]; /* alternating: |h| small, M not */
    }
}

static void test_sound(void **st) {
    (void)st;
    static const int Ts[] = {1, 2, 63, 64, 65, 3000};
    static const int Cs[] = {1, 7, 64};
    double worst = 0;
    for (int dk = 0; dk < 6; dk++)
        for (int cancel = 0; cancel < 3; cancel++) /* 2: values near the subnormals */
            for (size_t ti = 0; ti < sizeof Ts / sizeof *Ts; ti++) {
                int T = Ts[ti];
                fill(dk, cancel, T);
                float h0 = (float)(unit() * 4 - 2);
                if (cancel == 2)
                    for (int t = 0; t < T; t++) b_[t] = ldexpf(b_[t], -120);
                shadow(a_, b_, h0, T, hs);
                for (int k = K_SEQ; k <= K_CHUNK; k++)
                    for (size_t ci = 0; ci < (k == K_CHUNK ? 3u : 1u); ci++) {
                        kernel((kkind)k, a_, b_, h0, T, Cs[ci], out);
                        for (int t = 0; t < T; t++) {
                            double err = fabs((double)out[t] - hs[t].v);
                            if (!(err <= hs[t].ek + hs[t].es))
                                fail_msg("decay %d cancel %d T %d kernel %d C %d: step %d err %g > ek %g", dk,
                                         cancel, T, k, Cs[ci], t, err, hs[t].ek);
                            if (hs[t].ek > 0) worst = fmax(worst, err / hs[t].ek);
                        }
                    }
            }
    assert_true(worst > 0); /* some kernel did round (the test exercises the bound) */
}

/* The plain ops (mul then add) bound the sequential scan too -- the claim of lrec.h's
 * first paragraph -- and lrec's bound is never below theirs. */
static void test_ops_sequential(void **st) {
    (void)st;
    td_shcx s;
    init_sh(&s);
    for (int dk = 0; dk < 6; dk++) {
        fill(dk, dk % 2, 2000);
        shadow(a_, b_, 0.5f, 2000, hs);
        kernel(K_SEQ, a_, b_, 0.5f, 2000, 1, out);
        td_sh h = td_sh_exact(&s, 0.5);
        for (int t = 0; t < 2000; t++) {
            h = td_sh_add(&s, td_sh_mul(&s, td_sh_exact(&s, a_[t]), h), td_sh_exact(&s, b_[t]));
            assert_true(fabs((double)out[t] - h.v) <= h.ek + h.es);
            assert_true(hs[t].ek >= h.ek);
        }
    }
}

/* The bugs: each one's error exceeds the bound at some step (3000 steps, decays 1 - 2^-5
 * and sigmoid gates). */
static void test_mutants_exceed(void **st) {
    (void)st;
    for (int dk = 0; dk < 3; dk++) {
        if (dk == 1) continue;
        fill(dk, 0, T_MAX);
        shadow(a_, b_, 1.0f, T_MAX, hs);
        for (int k = K_RESET; k <= K_F16; k++) {
            kernel((kkind)k, a_, b_, 1.0f, T_MAX, 64, out);
            int caught = 0;
            for (int t = 0; t < T_MAX && !caught; t++) caught = fabs((double)out[t] - hs[t].v) > hs[t].ek + hs[t].es;
            if (!caught) fail_msg("mutant %d with decay %d within the bound", k, dk);
        }
    }
}

/* The charge of one step is pinned: propagated |a| ek_h + |h| ek_a + ek_b, local
 * 3u(1 + u) M_t + eta, M_t = |a| M + |b| (a rule loosened here fails this test). */
static void test_charge(void **st) {
    (void)st;
    td_shcx s;
    init_sh(&s);
    td_sh h = td_sh_exact(&s, 2.0), a = td_sh_exact(&s, 0.5), b = td_sh_exact(&s, -3.0);
    h.ek = 0x1p-20;
    a.ek = 0x1p-26;
    double mag[2] = {2.0 + 0x1p-20, 4.0};
    td_sh r = td_sh_lrec_step(&s, h, a, b, mag);
    double S = (0.5 + 0x1p-26) * (2.0 + 0x1p-20) + 3.0;
    double P = 0.5 * 0x1p-20 + 2.0 * 0x1p-26 + 0x1p-46;
    double want = P + 3 * 0x1p-24 * (1 + 0x1p-24) * S + 0x1p-150 * (3 + 4.0);
    assert_true(r.v == -2.0 && r.es <= 0x1p-51); /* 2^-53 |v| for the binary64 fma */
    assert_true(r.ek >= want && r.ek <= want * (1 + 0x1p-45));
    assert_true(mag[0] >= S + r.ek && mag[0] <= (S + r.ek) * (1 + 0x1p-45) && mag[1] == fmax(4.0, mag[0]));
    assert_true(TD_LREC_ROUNDINGS == 3);
}

/* td_sh_lrec_any: a chunk of C steps summed as one dot product in any order -- here the
 * decayed terms b_s (a_{s+1} .. a_end) added from the chunk's LAST step backwards, so the
 * last term goes through C - 1 additions -- then added to the decayed carried state,
 * decay powers as running products.  The bound of lrec_step widened by td_sh_lrec_any
 * (n = steps so far) holds for every chunk size up to the whole sequence; the charge is
 * pinned. */
static void kernel_tree(const float *a, const float *b, float h0, int T, int C, float *o) {
    float h = h0;
    for (int c0 = 0; c0 < T; c0 += C) {
        int c1 = c0 + C < T ? c0 + C : T;
        for (int e = c0; e < c1; e++) { /* the state after step e: the chunk's prefix [c0, e] */
            float loc = 0, A = 1;
            for (int s = e; s >= c0; s--) { /* the latest term first */
                loc = loc + A * b[s];
                A = A * a[s];
            }
            o[e] = A * h + loc;
        }
        h = o[c1 - 1];
    }
}
static void test_any_order(void **st) {
    (void)st;
    static const int Ts[] = {2, 65, 700};
    static float a[700], b[700], o[700];
    for (int dk = 0; dk < 6; dk++)
        for (size_t ti = 0; ti < 3; ti++) {
            int T = Ts[ti];
            for (int t = 0; t < T; t++) a[t] = decay(dk), b[t] = (float)(unit() * 2 - 1);
            b[T - 1] = 64; /* a large last term: the one an any-order sum rounds most */
            for (int C = 1; C <= T; C = C * 4 + 1) {
                kernel_tree(a, b, 0.75f, T, C, o);
                td_shcx s;
                init_sh(&s);
                td_sh h = td_sh_exact(&s, 0.75);
                double mag[2];
                td_sh_lrec_init(&s, h, mag);
                for (int t = 0; t < T; t++) {
                    h = td_sh_lrec_step(&s, h, td_sh_exact(&s, a[t]), td_sh_exact(&s, b[t]), mag);
                    td_sh w = td_sh_lrec_any(&s, h, mag, t + 1);
                    if (!(fabs((double)o[t] - w.v) <= w.ek + w.es))
                        fail_msg("decay %d T %d C %d step %d: err %g > %g", dk, T, C, t, fabs((double)o[t] - w.v), w.ek);
                }
            }
        }
    td_shcx s;
    init_sh(&s);
    td_sh h = td_sh_exact(&s, 1.0);
    h.ek = 0x1p-30;
    double mag[2] = {8.0, 8.0};
    td_sh w = td_sh_lrec_any(&s, h, mag, 10), w2 = td_sh_lrec_any(&s, h, mag, 2);
    double want = 0x1p-30 + 8 * 0x1p-24 * (1 + 0x1p-24) * 8.0;
    assert_true(w.ek >= want && w.ek <= want * (1 + 0x1p-45) && w.v == 1.0);
    assert_true(w2.ek <= 0x1p-30 * (1 + 0x1p-45) + 0x1p-1000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sound),
        cmocka_unit_test(test_ops_sequential),
        cmocka_unit_test(test_mutants_exceed),
        cmocka_unit_test(test_charge),
        cmocka_unit_test(test_any_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
