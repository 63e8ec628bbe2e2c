/* tilediff cast: what a value becomes when a kernel stores it in a format.
 *
 *   tilediff cast VALUE... --to FMT [--from f32|f64|mpfr|FMT] [--rounding rne|rtz]
 *                 [--overflow inf|sat|nan|wrap] [--ftz] [--bits] [--via FMT[:rnd:ovf[:ftz]]]...
 *
 * VALUE is a decimal or C99 hex-float, parsed exactly; it is first rounded RNE to the
 * source format (--from, binary64 by default; mpfr keeps the exact value), then cast
 * through each --via profile in order (a named double rounding) and finally with the
 * profile of --to/--rounding/--overflow/--ftz.  With --bits, VALUE is 0x-prefixed raw
 * bits of the source format (any format then, e.g. --from bf16).  With no VALUE, the
 * values are read from standard input, separated by white space.
 *
 * Each value gives one line: 0x<bits of the target, zero-padded to its width> and the
 * shortest decimal that rounds back to it (nan, inf, -inf).  Every binary32/binary64
 * cast is computed twice, by the fast path and by the MPFR reference, and a
 * disagreement is reported as an internal error (exit 3).
 * A token that is not a number: an error naming it on stderr and no line for it; the
 * other values are still converted, and the exit status is 2. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "rounding.h"

#define ERR_PREFIX "tilediff cast: "

static const char usage_text[] =
    "usage: tilediff cast VALUE... --to FMT [--from f32|f64|mpfr|FMT] [--rounding rne|rtz]\n"
    "                     [--overflow inf|sat|nan|wrap] [--ftz] [--bits] [--via FMT[:rnd[:ovf[:ftz]]]]...\n"
    "  FMT: fp32 fp16 bf16 e4m3fn e5m2 int8 uint8 int32\n"
    "  VALUE: decimal or C99 hex-float (inf, -inf, nan); with --bits, 0x-prefixed raw bits of\n"
    "         the source format.  No VALUE: values are read from standard input.\n"
    "  --from: the source format the value is first rounded to (RNE), default f64; mpfr casts\n"
    "          the exact value.\n"
    "  --via: cast through this profile first (repeatable): a named double rounding, e.g.\n"
    "         tilediff cast 1.00390625 --from f64 --via fp32 --to bf16\n"
    "  --overflow: default inf for fp32/fp16/bf16/e5m2, nan for e4m3fn, sat for integers;\n"
    "          --rounding: default rne for floats, rtz for integers.\n"
    "  Output per value: 0x<target bits> <shortest round-trip decimal>\n";

typedef enum { SRC_MPFR, SRC_FMT } src_kind;

typedef struct {
    src_kind kind;
    td_fmt src;         /* SRC_FMT */
    bool bits;          /* --bits */
    td_cast_chain chain; /* the --via steps, then the target */
    int status;         /* the exit status so far */
} cast_ctx;

static void fail_usage(const char *msg, const char *arg) {
    if (arg)
        fprintf(stderr, ERR_PREFIX "%s '%s'\n", msg, arg);
    else
        fprintf(stderr, ERR_PREFIX "%s\n", msg);
}

/* The source value of a token: for MPFR sources m and t, otherwise the binary64 (which
 * holds every value of every format exactly) or, for binary32, the float. */
typedef struct {
    double d;
    float f;
    uint64_t bits; /* --bits: the pattern */
} src_val;

/* The sign of a NaN token as written: MPFR keeps no NaN sign, binary32/64 sources do. */
static bool nan_token_negative(const char *s) { return s[0] == '-'; }

static int parse_bits(const cast_ctx *c, const char *tok, src_val *v) {
    const td_fmt_info *fi = td_fmt_get(c->src);
    if (tok[0] != '0' || (tok[1] != 'x' && tok[1] != 'X') || !tok[2])
        return -1;
    size_t nd = 0;
    for (const char *p = tok + 2; *p; p++) {
        if (!strchr("0123456789abcdefABCDEF", *p))
            return -1;
        if (nd || *p != '0')
            nd++;
    }
    if (nd > fi->bits / 4)
        return -1; /* more bits than the source format has */
    errno = 0;
    uint64_t b = strtoull(tok + 2, NULL, 16);
    if (errno)
        return -1;
    if (c->src == TD_F32) {
        uint32_t u = (uint32_t)b;
        memcpy(&v->f, &u, sizeof u);
        v->d = v->f;
    } else if (c->src == TD_F64) {
        memcpy(&v->d, &b, sizeof b);
    } else {
        v->d = td_decode(c->src, b);
    }
    v->bits = b;
    return 0;
}

/* The fast path and the reference for binary32/binary64 sources, step by step. */
static uint64_t ref_chain(const cast_ctx *c, const src_val *v) {
    uint64_t b = c->src == TD_F32 ? td_ref_encode_f32(c->chain.step[0], v->f) : td_ref_encode_f64(c->chain.step[0], v->d);
    for (int i = 1; i < c->chain.n; i++)
        b = td_ref_encode_f64(c->chain.step[i], td_decode(c->chain.step[i - 1].fmt, b));
    return b;
}

static void print_result(td_fmt f, uint64_t b) {
    char dec[64];
    td_format_value(f, b, dec, sizeof dec);
    const td_fmt_info *fi = td_fmt_get(f);
    printf("0x%0*llx %s\n", (int)(fi->bits / 4), (unsigned long long)b, dec);
}

static void cast_one(cast_ctx *c, const char *tok, mpfr_ptr m) {
    src_val v = {0, 0, 0};
    int t = 0;
    mpfr_set_prec(m, 64); /* a long token before must not slow down the next ones */
    if (c->bits) {
        if (parse_bits(c, tok, &v)) {
            fprintf(stderr, ERR_PREFIX "'%s' is not a %u-bit pattern of %s (0x and at most %u hex digits)\n", tok,
                    td_fmt_get(c->src)->bits, td_fmt_get(c->src)->name, td_fmt_get(c->src)->bits / 4);
            c->status = c->status ? c->status : TD_EXIT_USAGE;
            return;
        }
        if (c->src == TD_I64) { /* beyond 2^53 not a binary64: exactly through MPFR */
            td_decode_mpfr(TD_I64, v.bits, m);
            print_result(c->chain.step[c->chain.n - 1].fmt, td_chain_mpfr(&c->chain, m, 0));
            return;
        }
    } else {
        if (td_parse_value_mpfr_t(tok, m, &t)) {
            fprintf(stderr, ERR_PREFIX "'%s' is not a number\n", tok);
            c->status = c->status ? c->status : TD_EXIT_USAGE;
            return;
        }
        if (c->kind == SRC_MPFR) {
            print_result(c->chain.step[c->chain.n - 1].fmt, td_chain_mpfr(&c->chain, m, t));
            return;
        }
        /* Round the exact value RNE into the source format, with its own overflow rule
         * (IEEE inf; e4m3fn has none, its values beyond 464 are NaN). */
        td_profile sp = td_profile_default(c->src);
        sp.rnd = TD_RNE;
        uint64_t sb = td_encode_mpfr_t(sp, m, t);
        if (mpfr_nan_p(m))
            sb = td_nan_bits(c->src, nan_token_negative(tok));
        if (c->src == TD_F32) {
            uint32_t u = (uint32_t)sb;
            memcpy(&v.f, &u, sizeof u);
            v.d = v.f;
        } else if (c->src == TD_F64) {
            memcpy(&v.d, &sb, sizeof sb);
        } else {
            v.d = td_decode(c->src, sb);
        }
    }
    uint64_t fast = c->src == TD_F32 ? td_chain_f32(&c->chain, v.f) : td_chain_f64(&c->chain, v.d);
    uint64_t ref = ref_chain(c, &v);
    if (fast != ref) {
        char chs[256];
        td_chain_str(&c->chain, chs, sizeof chs);
        fprintf(stderr,
                ERR_PREFIX "internal error: for '%s' under %s the fast path gives 0x%llx and the MPFR reference "
                           "0x%llx\n",
                tok, chs, (unsigned long long)fast, (unsigned long long)ref);
        c->status = TD_EXIT_INTERNAL;
        return;
    }
    print_result(c->chain.step[c->chain.n - 1].fmt, fast);
}

/* Tokens separated by white space from f, of any length. */
static void cast_stream(cast_ctx *c, FILE *f, mpfr_ptr m) {
    size_t cap = 256, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fprintf(stderr, ERR_PREFIX "out of memory\n");
        c->status = TD_EXIT_INTERNAL;
        return;
    }
    for (int ch;;) {
        ch = getc(f);
        bool space = ch == EOF || ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
        if (!space) {
            if (n + 1 == cap) {
                char *nb = realloc(buf, cap * 2);
                if (!nb) {
                    fprintf(stderr, ERR_PREFIX "out of memory\n");
                    c->status = TD_EXIT_INTERNAL;
                    break;
                }
                buf = nb;
                cap *= 2;
            }
            buf[n++] = (char)ch;
            continue;
        }
        if (n) {
            buf[n] = '\0';
            cast_one(c, buf, m);
            n = 0;
        }
        if (ch == EOF)
            break;
    }
    if (ferror(f)) {
        fprintf(stderr, ERR_PREFIX "error reading standard input\n");
        c->status = c->status ? c->status : TD_EXIT_USAGE;
    }
    free(buf);
}

/* A profile from its parts; rnd/ovf NULL keep the format's defaults.  On error, err
 * says what is wrong (and -1). */
static int build_profile(const char *fmt, const char *rnd, const char *ovf, bool ftz, td_profile *out, char *err,
                         size_t n) {
    td_fmt f;
    if (td_fmt_parse(fmt, &f)) {
        snprintf(err, n, "unknown format '%s' (fp32 fp16 bf16 e4m3fn e5m2 int8 uint8 int32)", fmt);
        return -1;
    }
    td_profile p = td_profile_default(f);
    p.ftz = ftz;
    if (rnd) {
        if (!strcmp(rnd, "rne"))
            p.rnd = TD_RNE;
        else if (!strcmp(rnd, "rtz"))
            p.rnd = TD_RTZ;
        else {
            snprintf(err, n, "unknown rounding '%s' (rne or rtz)", rnd);
            return -1;
        }
    }
    if (ovf) {
        const char *const on[] = {"inf", "sat", "nan", "wrap"};
        int o = -1;
        for (int k = 0; k < 4; k++)
            if (!strcmp(ovf, on[k]))
                o = k;
        if (o < 0) {
            snprintf(err, n, "unknown overflow policy '%s' (inf, sat, nan or wrap)", ovf);
            return -1;
        }
        p.ovf = (td_ovf)o;
    }
    if (td_profile_check(p, err, n))
        return -1;
    *out = p;
    return 0;
}

/* --via FMT[:rne|rtz][:inf|sat|nan|wrap][:ftz] */
static int parse_via(const char *s, td_profile *out, char *err, size_t n) {
    char buf[64];
    if (strlen(s) >= sizeof buf) {
        snprintf(err, n, "too long");
        return -1;
    }
    strcpy(buf, s);
    const char *rnd = NULL, *ovf = NULL;
    bool ftz = false;
    char *save = NULL, *fmt = strtok_r(buf, ":", &save);
    if (!fmt) {
        snprintf(err, n, "empty");
        return -1;
    }
    for (char *f; (f = strtok_r(NULL, ":", &save));) {
        if (!strcmp(f, "rne") || !strcmp(f, "rtz"))
            rnd = f;
        else if (!strcmp(f, "inf") || !strcmp(f, "sat") || !strcmp(f, "nan") || !strcmp(f, "wrap"))
            ovf = f;
        else if (!strcmp(f, "ftz"))
            ftz = true;
        else {
            snprintf(err, n, "unknown field '%s' (expected FMT[:rne|rtz][:inf|sat|nan|wrap][:ftz])", f);
            return -1;
        }
    }
    return build_profile(fmt, rnd, ovf, ftz, out, err, n);
}

/* "--name value" or "--name=value"; advances *i past what it used. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, bool *missing) {
    size_t l = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, l))
        return NULL;
    if (a[l] == '=')
        return a + l + 1;
    if (a[l])
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

/* The command line, as given; values[] points into argv. */
typedef struct {
    const char *to, *from, *rnd, *ovf;
    const char *via[TD_CHAIN_MAX];
    int nvia;
    bool ftz, bits, help;
    const char **values;
    int nvalues;
} cast_args;

/* One option at argv[*i]; TD_EXIT_USAGE (reported) when it is unknown or incomplete. */
static int parse_option(int argc, char **argv, int *i, cast_args *o) {
    const char *a = argv[*i], *v;
    bool missing = false;
    if (!strcmp(a, "--help")) {
        o->help = true;
    } else if (!strcmp(a, "--ftz")) {
        o->ftz = true;
    } else if (!strcmp(a, "--bits")) {
        o->bits = true;
    } else if ((v = opt_value(argc, argv, i, "--to", &missing))) {
        o->to = v;
    } else if ((v = opt_value(argc, argv, i, "--from", &missing))) {
        o->from = v;
    } else if ((v = opt_value(argc, argv, i, "--rounding", &missing))) {
        o->rnd = v;
    } else if ((v = opt_value(argc, argv, i, "--overflow", &missing))) {
        o->ovf = v;
    } else if ((v = opt_value(argc, argv, i, "--via", &missing))) {
        if (o->nvia == TD_CHAIN_MAX - 1) {
            fprintf(stderr, ERR_PREFIX "at most %d --via steps\n", TD_CHAIN_MAX - 1);
            return TD_EXIT_USAGE;
        }
        o->via[o->nvia++] = v;
    } else {
        fail_usage(missing ? "missing value after" : "unknown option", a);
        return TD_EXIT_USAGE;
    }
    return TD_EXIT_OK;
}

/* Values and options; "-1.5" and "-inf" are values, and so is everything after "--". */
static int parse_args(int argc, char **argv, cast_args *o) {
    bool only_values = false;
    for (int i = 1; i < argc && !o->help; i++) {
        const char *a = argv[i];
        if (!only_values && !strcmp(a, "--")) {
            only_values = true;
        } else if (!only_values && !strcmp(a, "-h")) {
            o->help = true;
        } else if (only_values || strncmp(a, "--", 2)) {
            o->values[o->nvalues++] = a;
        } else if (parse_option(argc, argv, &i, o)) {
            return TD_EXIT_USAGE;
        }
    }
    return TD_EXIT_OK;
}

/* The source kind and format of --from / --bits into c. */
static int resolve_source(const cast_args *o, cast_ctx *c) {
    if (!strcmp(o->from, "mpfr")) {
        c->kind = SRC_MPFR;
        if (o->bits) {
            fail_usage("--bits needs a source format with an encoding, not", "--from mpfr");
            return TD_EXIT_USAGE;
        }
    } else if (td_fmt_parse(o->from, &c->src)) {
        fail_usage("unknown source format", o->from);
        return TD_EXIT_USAGE;
    } else if (!o->bits && !td_fmt_get(c->src)->is_float) {
        fail_usage("a decimal cannot come from an integer format without --bits:", o->from);
        return TD_EXIT_USAGE;
    } else {
        c->kind = SRC_FMT;
    }
    return TD_EXIT_OK;
}

/* The cast chain: each --via profile, then the --to profile. */
static int resolve_chain(const cast_args *o, cast_ctx *c) {
    char err[160];
    if (!o->to) {
        fail_usage("--to FMT is required (fp32 fp16 bf16 e4m3fn e5m2 int8 uint8 int32)", NULL);
        return TD_EXIT_USAGE;
    }
    td_profile p = {0};
    if (build_profile(o->to, o->rnd, o->ovf, o->ftz, &p, err, sizeof err)) {
        fprintf(stderr, ERR_PREFIX "--to %s: %s\n", o->to, err);
        return TD_EXIT_USAGE;
    }
    if (resolve_source(o, c))
        return TD_EXIT_USAGE;
    for (int k = 0; k < o->nvia; k++) {
        if (parse_via(o->via[k], &c->chain.step[k], err, sizeof err)) {
            fprintf(stderr, ERR_PREFIX "--via %s: %s\n", o->via[k], err);
            return TD_EXIT_USAGE;
        }
    }
    c->chain.n = o->nvia + 1;
    c->chain.step[o->nvia] = p;
    return TD_EXIT_OK;
}

static int cast_values(cast_ctx *c, const cast_args *o) {
    mpfr_t m;
    mpfr_init2(m, 64);
    if (o->nvalues)
        for (int k = 0; k < o->nvalues; k++)
            cast_one(c, o->values[k], m);
    else
        cast_stream(c, stdin, m);
    mpfr_clear(m);
    mpfr_free_cache();
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, ERR_PREFIX "error writing standard output\n");
        return TD_EXIT_INTERNAL;
    }
    return c->status;
}

int td_cmd_cast(int argc, char **argv) {
    cast_args o = {.from = "f64", .values = calloc((size_t)argc + 1, sizeof(const char *))};
    if (!o.values) {
        fprintf(stderr, ERR_PREFIX "out of memory\n");
        return TD_EXIT_INTERNAL;
    }
    cast_ctx c = {.status = TD_EXIT_OK};
    int status = parse_args(argc, argv, &o);
    if (status == TD_EXIT_OK && o.help) {
        fputs(usage_text, stdout);
    } else {
        c.bits = o.bits;
        if (status == TD_EXIT_OK)
            status = resolve_chain(&o, &c);
        if (status != TD_EXIT_OK)
            fputs(ERR_PREFIX "see 'tilediff cast --help'\n", stderr);
        else
            status = cast_values(&c, &o);
    }
    free(o.values);
    return status;
}
