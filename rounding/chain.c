/* rounding/chain.c: named double rounding.  A chain applies its profiles in order,
 * each to the exact decoded result of the step before, e.g. {fp32:rne, bf16:rne}
 * for a kernel that computes in binary64, stores through binary32 and then casts
 * to bfloat16. */
#include <stdio.h>
#include <string.h>

#include "rounding.h"

static bool chain_ok(const td_cast_chain *c) { return c && c->n >= 1 && c->n <= TD_CHAIN_MAX; }

uint64_t td_chain_f64(const td_cast_chain *c, double x) {
    if (!chain_ok(c))
        return 0;
    uint64_t b = td_encode_f64(c->step[0], x);
    for (int i = 1; i < c->n; i++)
        b = td_encode_f64(c->step[i], td_decode(c->step[i - 1].fmt, b));
    return b;
}

uint64_t td_chain_f32(const td_cast_chain *c, float x) {
    if (!chain_ok(c))
        return 0;
    uint64_t b = td_encode_f32(c->step[0], x);
    for (int i = 1; i < c->n; i++)
        b = td_encode_f64(c->step[i], td_decode(c->step[i - 1].fmt, b));
    return b;
}

uint64_t td_chain_mpfr(const td_cast_chain *c, mpfr_srcptr x, int ternary) {
    if (!chain_ok(c))
        return 0;
    uint64_t b = td_encode_mpfr_t(c->step[0], x, ternary);
    mpfr_t v;
    mpfr_init2(v, 64); /* holds every value of every format exactly */
    for (int i = 1; i < c->n; i++) {
        td_decode_mpfr(c->step[i - 1].fmt, b, v);
        b = td_encode_mpfr(c->step[i], v);
    }
    mpfr_clear(v);
    return b;
}

int td_chain_parse(const char *s, td_cast_chain *out) {
    char buf[TD_CHAIN_MAX * 40];
    if (!s || strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    td_cast_chain c = {0};
    for (char *q = buf;;) {
        char *gt = strchr(q, '>');
        if (gt)
            *gt = '\0';
        if (c.n == TD_CHAIN_MAX || td_profile_parse(q, &c.step[c.n]))
            return -1;
        c.n++;
        if (!gt)
            break;
        q = gt + 1;
    }
    *out = c;
    return 0;
}

void td_chain_str(const td_cast_chain *c, char *buf, size_t n) {
    size_t used = 0;
    if (n == 0)
        return;
    buf[0] = '\0';
    for (int i = 0; c && i < c->n && i < TD_CHAIN_MAX; i++) {
        char one[48];
        td_profile_str(c->step[i], one, sizeof one);
        int w = snprintf(buf + used, n - used, "%s%s", i ? ">" : "", one);
        if (w < 0 || (size_t)w >= n - used)
            return; /* truncated, still terminated */
        used += (size_t)w;
    }
}
