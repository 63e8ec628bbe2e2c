/* MPFR instantiation of the spec vocabulary (see mp.h). */
#include "mp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consts.h"
#include "memo_hash.h"
#include "nocov.h"

/* the oracle: no fuzzing coverage instrumentation (nocov.h) */
TD_NOCOV_BEGIN

#define CHUNK 64

void td_mpcx_init(td_mpcx *cx, mpfr_prec_t prec) {
    memset(cx, 0, sizeof *cx);
    cx->prec = prec;
    /* The reference is the REAL value: MPFR's default exponent range (2^-2^30) would
     * underflow e^-1e9 = 2^-1.44e9 (an additive mask of -1e9) to 0 and make a real
     * softmax 0/0.  2^+-2^31 holds it.  Not MPFR's widest range: an exact sum
     * (mpfr_sum) needs memory in proportion to its terms' exponent span, 2^32 bits =
     * 512 MiB at most here, and 2^62 bits with the widest range. */
    mpfr_set_emin(-((mpfr_exp_t)1 << 31));
    mpfr_set_emax((mpfr_exp_t)1 << 31);
    mpfr_init2(cx->last_cast_in.x, prec);
}

/* The memo's table, and the MPFR values its entries hold, released (it grows again
 * on demand: the memo only saves work, so its size changes no value). */
static void memo_release(td_mpcx *cx) {
    for (size_t i = 0; i < cx->memo_cap; i++)
        if (cx->memo[i].init) mpfr_clear(cx->memo[i].v.x);
    free(cx->memo);
    cx->memo = NULL;
    cx->memo_cap = cx->memo_n = 0;
}

void td_mpcx_free(td_mpcx *cx) {
    memo_release(cx);
    for (int c = 0; c < cx->nchunks; c++) {
        for (int i = 0; i < CHUNK; i++) mpfr_clear(cx->chunks[c][i].x);
        free(cx->chunks[c]);
    }
    free(cx->chunks);
    mpfr_clear(cx->last_cast_in.x);
    memset(cx, 0, sizeof *cx);
}

void td_mpcx_reset(td_mpcx *cx) {
    cx->used = 0;
    cx->have_cast_in = 0;
    cx->cast_out = NULL; /* the pool's values are handed out again */
    cx->undecided_tie = 0;
}

void td_mpcx_memo_clear(td_mpcx *cx) {
    /* Called for every case: a case that used no memo (memo_n counts the used entries)
     * has nothing to clear, and a table grown by one large case is released once
     * mostly empty, so that clearing costs what a case uses, not what the largest
     * case needed (it was a tenth of test_contracts' time, issue 20). */
    if (!cx->memo_n) return;
    if (cx->memo_cap > 4096 && cx->memo_n * 16 < cx->memo_cap) {
        memo_release(cx);
        return;
    }
    for (size_t i = 0; i < cx->memo_cap; i++) cx->memo[i].used = 0;
    cx->memo_n = 0;
}

static size_t memo_slot(const td_mp_memo_ent *m, size_t cap, uint64_t key) {
    size_t h = td_memo_hash(key, cap);
    while (m[h].used && m[h].key != key) h = (h + 1) & (cap - 1);
    return h;
}

int td_mp_memo_get(td_mpcx *cx, uint64_t key, td_mp *out) {
    if (!cx->memo_n) return 0;
    const td_mp_memo_ent *e = &cx->memo[memo_slot(cx->memo, cx->memo_cap, key)];
    if (!e->used) return 0;
    td_mp r = td_mp_new(cx);
    mpfr_set(r->x, e->v.x, MPFR_RNDN); /* same precision: exact */
    r->t = e->v.t;
    cx->undecided_tie |= e->undecided_tie;
    *out = r;
    return 1;
}

void td_mp_memo_put(td_mpcx *cx, uint64_t key, td_mp v) {
    if (2 * (cx->memo_n + 1) > cx->memo_cap) {
        size_t ncap = cx->memo_cap ? 2 * cx->memo_cap : 256;
        td_mp_memo_ent *nm = calloc(ncap, sizeof *nm);
        if (!nm) return; /* the memo is an optimisation only */
        for (size_t i = 0; i < cx->memo_cap; i++) {
            td_mp_memo_ent *o = &cx->memo[i];
            if (o->used) nm[memo_slot(nm, ncap, o->key)] = *o; /* rehashed */
            else if (o->init) mpfr_clear(o->v.x);
        }
        free(cx->memo);
        cx->memo = nm;
        cx->memo_cap = ncap;
    }
    size_t h = memo_slot(cx->memo, cx->memo_cap, key);
    td_mp_memo_ent *e = &cx->memo[h];
    if (!e->init) {
        mpfr_init2(e->v.x, cx->prec);
        e->init = 1;
    }
    if (!e->used) cx->memo_n++;
    e->used = 1;
    e->key = key;
    mpfr_set(e->v.x, v->x, MPFR_RNDN);
    e->v.t = v->t;
    e->undecided_tie = cx->undecided_tie;
}

td_mp td_mp_new(td_mpcx *cx) {
    int c = cx->used / CHUNK, i = cx->used % CHUNK;
    if (c == cx->nchunks) {
        td_mpv **nc = realloc(cx->chunks, (size_t)(cx->nchunks + 1) * sizeof *nc);
        td_mpv *chunk = malloc(CHUNK * sizeof *chunk);
        if (!nc || !chunk) {
            fputs("tilediff: out of memory in the MPFR oracle\n", stderr);
            abort();
        }
        cx->chunks = nc;
        for (int k = 0; k < CHUNK; k++) mpfr_init2(chunk[k].x, cx->prec);
        cx->chunks[cx->nchunks++] = chunk;
    }
    cx->used++;
    td_mp r = &cx->chunks[c][i];
    r->t = 0;
    cx->have_cast_in = 0; /* the newest value is not a cast's result (td_mp_cast_to sets it after) */
    return r;
}

/* Ternary bookkeeping: the result of an operation is exact when the operands are
 * and MPFR says so; one inexact step on exact operands has a known direction. */
static int tern(int t_in, int ternary) {
    if (t_in) return 2;
    return ternary == 0 ? 0 : (ternary > 0 ? 1 : -1);
}

td_mp td_mp_exact(td_mpcx *cx, double x) {
    td_mp r = td_mp_new(cx);
    mpfr_set_d(r->x, x, MPFR_RNDN);
    return r;
}

td_mp td_mp_lit_mp(td_mpcx *cx, mpfr_srcptr exact) {
    td_mp r = td_mp_new(cx);
    r->t = tern(0, mpfr_set(r->x, exact, MPFR_RNDN));
    return r;
}

#define BIN(name, fn)                                                                                        \
    td_mp td_mp_##name(td_mpcx *cx, td_mp a, td_mp b) {                                                     \
        td_mp r = td_mp_new(cx);                                                                             \
        r->t = tern(a->t | b->t, fn(r->x, a->x, b->x, MPFR_RNDN));                                           \
        return r;                                                                                            \
    }
BIN(add, mpfr_add)
BIN(sub, mpfr_sub)
BIN(mul, mpfr_mul)
BIN(div, mpfr_div)

td_mp td_mp_fma(td_mpcx *cx, td_mp a, td_mp b, td_mp c) {
    td_mp r = td_mp_new(cx);
    r->t = tern(a->t | b->t | c->t, mpfr_fma(r->x, a->x, b->x, c->x, MPFR_RNDN));
    return r;
}

td_mp td_mp_neg(td_mpcx *cx, td_mp a) {
    td_mp r = td_mp_new(cx);
    mpfr_neg(r->x, a->x, MPFR_RNDN);
    r->t = (a->t == 1 || a->t == -1) ? -a->t : a->t;
    return r;
}

td_mp td_mp_abs(td_mpcx *cx, td_mp a) {
    td_mp r = td_mp_new(cx);
    mpfr_abs(r->x, a->x, MPFR_RNDN);
    r->t = (a->t == 1 || a->t == -1) ? (mpfr_sgn(a->x) < 0 ? -a->t : a->t) : a->t;
    return r;
}

#define UN(name, fn)                                                                                         \
    td_mp td_mp_##name(td_mpcx *cx, td_mp a) {                                                              \
        td_mp r = td_mp_new(cx);                                                                             \
        r->t = tern(a->t, fn(r->x, a->x, MPFR_RNDN));                                                        \
        return r;                                                                                            \
    }
UN(sqrt, mpfr_sqrt)
UN(rsqrt, mpfr_rec_sqrt)
UN(exp, mpfr_exp)
UN(exp2, mpfr_exp2)
UN(log, mpfr_log)
UN(log2, mpfr_log2)
UN(sin, mpfr_sin)
UN(cos, mpfr_cos)
UN(tanh, mpfr_tanh)
UN(erf, mpfr_erf)

td_mp td_mp_sigmoid(td_mpcx *cx, td_mp a) {
    /* 1 / (1 + e^-x), evaluated at the working precision */
    td_mp r = td_mp_new(cx);
    mpfr_neg(r->x, a->x, MPFR_RNDN);
    int t = mpfr_exp(r->x, r->x, MPFR_RNDN);
    t |= mpfr_add_ui(r->x, r->x, 1, MPFR_RNDN);
    t |= mpfr_ui_div(r->x, 1, r->x, MPFR_RNDN);
    r->t = (a->t || t) ? 2 : 0;
    return r;
}

/* max, min and sel hand out one of their operands: the newest value is a cast's result
 * exactly when the chosen operand is the last cast's (see td_mpcx.have_cast_in). */
static td_mp chosen(td_mpcx *cx, td_mp r) {
    cx->have_cast_in = r == cx->cast_out;
    return r;
}

td_mp td_mp_max(td_mpcx *cx, td_mp a, td_mp b) { return chosen(cx, mpfr_cmp(a->x, b->x) >= 0 ? a : b); }
td_mp td_mp_min(td_mpcx *cx, td_mp a, td_mp b) { return chosen(cx, mpfr_cmp(a->x, b->x) <= 0 ? a : b); }

td_mp td_mp_sign(td_mpcx *cx, td_mp a) {
    td_mp r = td_mp_new(cx);
    mpfr_set_si(r->x, mpfr_sgn(a->x), MPFR_RNDN);
    return r;
}

td_mp td_mp_ldexp(td_mpcx *cx, td_mp a, int e) {
    td_mp r = td_mp_new(cx);
    r->t = tern(a->t, mpfr_mul_2si(r->x, a->x, e, MPFR_RNDN));
    return r;
}

td_mpb td_mp_cmp(td_mpcx *cx, td_mp a, td_mp b, char op) {
    int c = mpfr_cmp(a->x, b->x);
    int truth = op == '>' ? c > 0 : c >= 0;
    return truth | 6;
}

td_mp td_mp_sel(td_mpcx *cx, td_mpb c, td_mp a, td_mp b) { return chosen(cx, (c & 1) ? a : b); }

td_mp td_mp_cast_to(td_mpcx *cx, td_mp a, td_profile p, const char *what) {
    (void)what;
    td_mp r = td_mp_new(cx);
    int dir = (a->t == 1 || a->t == -1) ? a->t : 0;
    uint64_t bits = td_encode_mpfr_t(p, a->x, dir);
    if (a->t == 2) {
        /* an inexact value whose direction is unknown: if it sits exactly on a tie of
         * the target format, the rounding direction is undecided at this precision */
        uint64_t up = td_encode_mpfr_t(p, a->x, 1), dn = td_encode_mpfr_t(p, a->x, -1);
        if (up != dn) cx->undecided_tie = 1;
    }
    td_decode_mpfr(p.fmt, bits, r->x);
    r->t = 0;
    mpfr_set(cx->last_cast_in.x, a->x, MPFR_RNDN); /* same precision: exact */
    cx->last_cast_in.t = a->t;
    cx->cast_out = r;
    cx->have_cast_in = 1;
    return r;
}

td_mp td_mp_cast(td_mpcx *cx, td_mp a, int slot) {
    if (slot < 0 || slot >= cx->ncasts) abort(); /* a contract bug: a cast slot it did not declare */
    return td_mp_cast_to(cx, a, cx->casts[slot], "cast");
}

void td_mp_acc_init(td_mpcx *cx, td_mp_acc *acc, td_order order, long block) {
    (void)cx;
    (void)order;
    (void)block;
    acc->terms = NULL;
    acc->n = acc->cap = 0;
}

void td_mp_acc_add(td_mpcx *cx, td_mp_acc *acc, td_mp t) {
    (void)cx;
    if (acc->n == acc->cap) {
        long cap = acc->cap ? 2 * acc->cap : 64;
        td_mp *nt = realloc(acc->terms, (size_t)cap * sizeof *nt);
        if (!nt) {
            fputs("tilediff: out of memory in the MPFR oracle\n", stderr);
            abort();
        }
        acc->terms = nt;
        acc->cap = cap;
    }
    acc->terms[acc->n++] = t;
}

td_mp td_mp_acc_end(td_mpcx *cx, td_mp_acc *acc) {
    td_mp r = td_mp_new(cx);
    int t_in = 0;
    mpfr_ptr *xs = malloc((size_t)(acc->n ? acc->n : 1) * sizeof *xs);
    if (!xs) {
        fputs("tilediff: out of memory in the MPFR oracle\n", stderr);
        abort();
    }
    for (long i = 0; i < acc->n; i++) {
        xs[i] = acc->terms[i]->x;
        t_in |= acc->terms[i]->t;
    }
    /* mpfr_sum is correctly rounded whatever the exponents: the exact sum rounded once */
    int tt = mpfr_sum(r->x, (const mpfr_ptr *)xs, (unsigned long)acc->n, MPFR_RNDN);
    r->t = tern(t_in, tt);
    free(xs);
    free(acc->terms);
    acc->terms = NULL;
    acc->n = acc->cap = 0;
    return r;
}

double td_mp_hi(td_mpcx *cx, td_mp a) {
    (void)cx;
    return fabs(mpfr_get_d(a->x, mpfr_sgn(a->x) < 0 ? MPFR_RNDD : MPFR_RNDU));
}
double td_mp_up(td_mpcx *cx, td_mp a) {
    (void)cx;
    return mpfr_get_d(a->x, MPFR_RNDU);
}
double td_mp_down(td_mpcx *cx, td_mp a) {
    (void)cx;
    return mpfr_get_d(a->x, MPFR_RNDD);
}

TD_NOCOV_END
