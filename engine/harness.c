/* The generic harness (see harness.h): one case end to end. */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "spec.h"

#define GUARD_BYTES 256
#define GUARD_BYTE(i) ((uint8_t)(0xA5 ^ (uint8_t)((i) * 7)))

/* ---- memo (shadow values of per-case quantities) ---- */
typedef struct memo_ent {
    uint64_t key;
    td_sh v;
    uint32_t flags;
    int used;
} memo_ent;

struct td_ctx {
    td_ctx_opts o;
    const td_backend_ops *dev;
    td_shcx sh;
    td_mpcx mp;
    memo_ent *memo;
    size_t memo_cap, memo_n;
    td_trace trace;
    td_wset ws;
    td_lane_observer obs;
    void *obs_user;
};

int td_sh_memo_get(td_shcx *cx, uint64_t key, td_sh *out) {
    td_ctx *c = (td_ctx *)((char *)cx - offsetof(td_ctx, sh));
    if (!c->memo_cap) return 0;
    size_t h = (size_t)(key * 0x9e3779b97f4a7c15ull) & (c->memo_cap - 1);
    for (size_t i = 0; i < c->memo_cap; i++) {
        memo_ent *e = &c->memo[(h + i) & (c->memo_cap - 1)];
        if (!e->used) return 0;
        if (e->key == key) {
            *out = e->v;
            cx->lane_flags |= e->flags;
            return 1;
        }
    }
    return 0;
}

void td_sh_memo_put(td_shcx *cx, uint64_t key, td_sh v) {
    td_ctx *c = (td_ctx *)((char *)cx - offsetof(td_ctx, sh));
    if (cx->trace) return; /* an explained lane must show every step, so it is not memoised */
    if (2 * (c->memo_n + 1) > c->memo_cap) {
        size_t ncap = c->memo_cap ? 2 * c->memo_cap : 1024;
        memo_ent *nm = calloc(ncap, sizeof *nm);
        if (!nm) return; /* memo is an optimisation only */
        for (size_t i = 0; i < c->memo_cap; i++)
            if (c->memo[i].used) {
                size_t h = (size_t)(c->memo[i].key * 0x9e3779b97f4a7c15ull) & (ncap - 1);
                while (nm[h].used) h = (h + 1) & (ncap - 1);
                nm[h] = c->memo[i];
            }
        free(c->memo);
        c->memo = nm;
        c->memo_cap = ncap;
    }
    size_t h = (size_t)(key * 0x9e3779b97f4a7c15ull) & (c->memo_cap - 1);
    while (c->memo[h].used && c->memo[h].key != key) h = (h + 1) & (c->memo_cap - 1);
    if (!c->memo[h].used) c->memo_n++;
    c->memo[h].used = 1;
    c->memo[h].key = key;
    c->memo[h].v = v;
    c->memo[h].flags = cx->lane_flags;
}

static void memo_clear(td_ctx *c) {
    if (c->memo_n) memset(c->memo, 0, c->memo_cap * sizeof *c->memo);
    c->memo_n = 0;
    td_mpcx_memo_clear(&c->mp);
}

const char *td_vclass_name(td_vclass v) {
    static const char *n[TD_VC_COUNT] = {"pass",    "warn",    "out-of-tolerance", "nonfinite", "unwritten", "outside-write-set",
                                        "guard-zone", "input-modified", "launch-error", "crash", "hang"};
    return (unsigned)v < TD_VC_COUNT ? n[v] : "?";
}

int td_vclass_is_finding(td_vclass v) { return v != TD_VC_PASS && v != TD_VC_WARN; }

void td_stats_merge(td_stats *a, const td_stats *s) {
    a->cases += s->cases;
    a->lanes += s->lanes;
    a->lanes_mpfr += s->lanes_mpfr;
    a->lanes_unbounded += s->lanes_unbounded;
    a->lanes_overflow_ok += s->lanes_overflow_ok;
    a->lanes_warn += s->lanes_warn;
    for (int i = 0; i < TD_VC_COUNT; i++) a->findings[i] += s->findings[i];
    a->cases_with_finding += s->cases_with_finding;
    if (s->worst_err_over_tol > a->worst_err_over_tol) a->worst_err_over_tol = s->worst_err_over_tol;
    if (s->worst_ulps > a->worst_ulps) a->worst_ulps = s->worst_ulps;
    a->classes |= s->classes;
    a->t_decode += s->t_decode;
    a->t_kernel += s->t_kernel;
    a->t_oracle += s->t_oracle;
    a->t_compare += s->t_compare;
    for (int i = 0; i < 9; i++) a->hist[i] += s->hist[i];
}

void td_result_free(td_case_result *r) {
    free(r->rep);
    memset(r, 0, sizeof *r);
}

td_ctx *td_ctx_new(const td_ctx_opts *opts, char *err, size_t errlen) {
    td_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (opts) c->o = *opts;
    if (!c->o.max_reports) c->o.max_reports = 16;
    if (!c->o.mpfr_prec) c->o.mpfr_prec = 640;
    td_mpcx_init(&c->mp, c->o.mpfr_prec);
    return c;
}

void td_ctx_set_backend(td_ctx *c, const td_backend_ops *dev) { c->dev = dev; }

void td_ctx_set_lane_observer(td_ctx *c, td_lane_observer fn, void *user) {
    c->obs = fn;
    c->obs_user = user;
}

void td_ctx_free(td_ctx *c) {
    if (!c) return;
    td_mpcx_free(&c->mp);
    free(c->memo);
    free(c->trace.steps);
    free(c->ws.v);
    free(c);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int td_decode_case(const td_contract *k, const uint8_t *data, size_t size, td_case *c, char *err, size_t errlen) {
    td_producer p;
    td_prod_init(&p, data, size);
    td_case_init(c, k);
    k->gen(&p, c);
    for (int i = 0; i < k->nregions; i++)
        if (!c->r[i].data) td_case_alloc(c, i, 0);
    const char *bad = k->check ? k->check(c) : NULL;
    if (bad) {
        char d[512];
        td_case_describe(c, d, sizeof d);
        snprintf(err, errlen, "harness bug: the generator of %s produced a case that fails precondition %s (%s)",
                 k->id, bad, d);
        return -1;
    }
    return 0;
}

/* ---- region images ---- */
typedef struct image {
    uint8_t *buf;   /* guard | data | guard */
    size_t bytes;   /* data bytes */
    void *dev;      /* device copy (CUDA) */
} image;

static uint64_t load_raw(const uint8_t *p, unsigned bytes) {
    switch (bytes) {
    case 1: return p[0];
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}
static void store_raw(uint8_t *p, unsigned bytes, uint64_t v) {
    switch (bytes) {
    case 1: p[0] = (uint8_t)v; break;
    case 2: { uint16_t w = (uint16_t)v; memcpy(p, &w, 2); break; }
    case 4: { uint32_t w = (uint32_t)v; memcpy(p, &w, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

/* Sentinels: quiet NaNs with a payload for the floating formats (a correct kernel
 * writes no such value unless a NaN is due), fixed patterns for the others; the
 * second sentinel settles lanes whose value equals the first one. */
static uint64_t sentinel(td_fmt f, int which) {
    switch (f) {
    case TD_F64: return which ? 0x7ff8b1a5c3d2e1f0ull : 0x7ff85a5a5a5a5a5aull;
    case TD_F32: return which ? 0x7fc3b1a5u : 0x7fa5a5a5u | 0x00400000u;
    case TD_F16: return which ? 0x7e5bu : 0x7fa5u;
    case TD_BF16: return which ? 0x7fd3u : 0x7fa5u | 0x0040u;
    case TD_E5M2: return which ? 0x7eu : 0x7fu;
    case TD_E4M3FN: return which ? 0x7eu : 0x7fu; /* 0x7e is 448: the second run settles it */
    case TD_I8: case TD_U8: case TD_BOOL: return which ? 0x3cu : 0xa5u;
    case TD_I32: return which ? 0x3c3c3c3cu : 0xa5a5a5a5u;
    default: return which ? 0x3c3c3c3c3c3c3c3cull : 0xa5a5a5a5a5a5a5a5ull;
    }
}

static int images_prepare(td_ctx *cx, const td_case *c, image *im, int which, char *err, size_t errlen) {
    const td_contract *k = c->k;
    for (int i = 0; i < k->nregions; i++) {
        unsigned eb = td_fmt_get(c->r[i].fmt)->bytes;
        size_t bytes = c->r[i].len * eb;
        if (!im[i].buf) {
            im[i].buf = malloc(bytes + 2 * GUARD_BYTES);
            if (!im[i].buf) {
                snprintf(err, errlen, "out of memory for region %s", k->regions[i].name);
                return -1;
            }
        }
        im[i].bytes = bytes;
        for (size_t g = 0; g < GUARD_BYTES; g++) {
            im[i].buf[g] = GUARD_BYTE(g);
            im[i].buf[GUARD_BYTES + bytes + g] = GUARD_BYTE(g + 101);
        }
        uint8_t *d = im[i].buf + GUARD_BYTES;
        if (k->regions[i].role == TD_R_OUT) {
            uint64_t s = sentinel(c->r[i].fmt, which);
            for (size_t e = 0; e < c->r[i].len; e++) store_raw(d + e * eb, eb, s);
        } else if (bytes) {
            memcpy(d, c->r[i].data, bytes);
        }
        if (cx->dev) {
            if (!im[i].dev && cx->dev->alloc(cx->dev->state, bytes + 2 * GUARD_BYTES, &im[i].dev, err, errlen))
                return -1;
            if (cx->dev->upload(cx->dev->state, im[i].dev, im[i].buf, bytes + 2 * GUARD_BYTES, err, errlen)) return -1;
        }
    }
    return 0;
}

static void images_free(td_ctx *cx, image *im, int n) {
    for (int i = 0; i < n; i++) {
        free(im[i].buf);
        if (im[i].dev && cx->dev) cx->dev->release(cx->dev->state, im[i].dev);
    }
}

static int launch(td_ctx *cx, const td_kernel *kern, const td_case *c, image *im, char *msg, size_t msglen) {
    const td_contract *k = c->k;
    td_abi_param params[TD_MAX_PARAMS];
    td_abi_region regs[TD_MAX_REGIONS];
    for (int i = 0; i < k->nparams; i++) {
        if (k->params[i].kind == TD_P_REAL) params[i].r = c->p[i].r;
        else params[i].i = c->p[i].i;
    }
    for (int i = 0; i < k->nregions; i++) {
        regs[i].base = cx->dev ? (uint8_t *)im[i].dev + GUARD_BYTES : im[i].buf + GUARD_BYTES;
        regs[i].len = c->r[i].len;
        regs[i].fmt = (uint32_t)c->r[i].fmt;
        regs[i].reserved = 0;
    }
    char kerr[256] = "";
    td_abi_launch L = {kern->abi_version, kern->abi->backend, k->id, {c->grid[0], c->grid[1], c->grid[2]},
                       (uint32_t)k->nparams, params, (uint32_t)k->nregions, regs,
                       cx->dev ? cx->dev->stream : NULL, kerr, sizeof kerr};
    int rc = kern->abi->launch(&L);
    if (rc != 0) {
        kerr[sizeof kerr - 1] = 0;
        snprintf(msg, msglen, "launch failed (%d): %s", rc, kerr[0] ? kerr : "no message");
        return -1;
    }
    if (cx->dev) {
        if (cx->dev->sync(cx->dev->state, kerr, sizeof kerr)) {
            snprintf(msg, msglen, "launch failed: %s", kerr);
            return -1;
        }
        for (int i = 0; i < k->nregions; i++)
            if (cx->dev->download(cx->dev->state, im[i].buf, im[i].dev, im[i].bytes + 2 * GUARD_BYTES, kerr,
                                  sizeof kerr)) {
                snprintf(msg, msglen, "copying region %s back failed: %s", k->regions[i].name, kerr);
                return -1;
            }
    }
    return 0;
}

/* ---- reports ---- */
static int severity(td_vclass v) {
    static const int s[TD_VC_COUNT] = {0, 1, 6, 7, 5, 4, 3, 2, 8, 9, 9};
    return s[v];
}

static td_lane_report *add_report(td_ctx *cx, td_case_result *r, td_vclass cls, double key) {
    r->nbad++;
    if (cls != TD_VC_WARN) r->st.findings[cls]++;
    if (severity(cls) > severity(r->worst)) r->worst = cls;
    if (r->nrep == r->caprep) {
        if (r->caprep >= cx->o.max_reports) {
            /* replace the least severe report if this one is worse */
            int wi = 0;
            for (int i = 1; i < r->nrep; i++)
                if (severity(r->rep[i].cls) < severity(r->rep[wi].cls) ||
                    (severity(r->rep[i].cls) == severity(r->rep[wi].cls) &&
                     r->rep[i].err_over_tol < r->rep[wi].err_over_tol))
                    wi = i;
            if (severity(cls) < severity(r->rep[wi].cls) ||
                (severity(cls) == severity(r->rep[wi].cls) && key <= r->rep[wi].err_over_tol))
                return NULL;
            memset(&r->rep[wi], 0, sizeof r->rep[wi]);
            r->rep[wi].cls = cls;
            return &r->rep[wi];
        }
        int cap = r->caprep ? 2 * r->caprep : 4;
        if (cap > cx->o.max_reports) cap = cx->o.max_reports;
        td_lane_report *nr = realloc(r->rep, (size_t)cap * sizeof *nr);
        if (!nr) return NULL;
        r->rep = nr;
        r->caprep = cap;
    }
    td_lane_report *l = &r->rep[r->nrep++];
    memset(l, 0, sizeof *l);
    l->cls = cls;
    return l;
}

static void region_report(td_ctx *cx, td_case_result *r, td_vclass cls, uint32_t reg, uint64_t off, uint64_t bits,
                          const char *note) {
    td_lane_report *l = add_report(cx, r, cls, INFINITY);
    if (!l) return;
    l->region = reg;
    l->off = off;
    l->got_bits = bits;
    l->err_over_tol = INFINITY;
    snprintf(l->note, sizeof l->note, "%.*s", (int)sizeof l->note - 1, note);
}

/* ---- per-lane oracle ---- */
static void setup_sh(td_ctx *cx, const td_kernel *kern) {
    td_shcx *s = &cx->sh;
    s->efmt = TD_F32;
    s->u = 0x1p-24;
    s->eta = 0x1p-150;
    s->ulp_min = 0x1p-149;
    s->ovf = 0x1.ffffffp127; /* RNE rounds |x| >= (2 - 2^-24) 2^127 to inf */
    s->lambda_n = 64;
    s->math = kern->math;
    s->order = kern->decl.order;
    s->block = kern->decl.block;
    s->div_ieee = kern->decl.div_ieee != 0;
    s->casts = kern->casts;
    s->ncasts = kern->k->ncasts;
    s->lane_flags = 0;
    s->trace = NULL;
    cx->mp.casts = kern->casts;
    cx->mp.ncasts = kern->k->ncasts;
}

static void mp_to_str(mpfr_srcptr x, char *buf, size_t n) {
    if (mpfr_nan_p(x)) snprintf(buf, n, "nan");
    else if (mpfr_inf_p(x)) snprintf(buf, n, mpfr_sgn(x) > 0 ? "inf" : "-inf");
    else mpfr_snprintf(buf, n, "%.20Rg", x);
}

static void copy_terms(td_lane_report *l, const td_trace *t) { l->nterms = td_trace_terms(t, l->terms, TD_MAX_TERMS); }

static double ulp_out(td_fmt f, double ref) {
    const td_fmt_info *fi = td_fmt_get(f);
    if (!fi->is_float) return 1.0;
    return td_ulp(f, isfinite(ref) ? ref : fi->max_finite);
}

/* The lane's verdict.  Returns the class; fills *rl when a report is wanted. */
static td_vclass judge_lane(td_ctx *cx, const td_kernel *kern, const td_case *c, const td_olane *ol,
                            uint64_t got_bits, td_case_result *res, int want_mpfr_check, char *msg,
                            size_t msglen) {
    const td_contract *k = c->k;
    td_fmt of = c->r[ol->region].fmt;
    double got = of == TD_I64 ? (double)td_decode_i64(got_bits) : td_decode(of, got_bits);
    cx->sh.lane_flags = 0;
    td_sh s = k->spec_sh(&cx->sh, c, ol);
    uint32_t lf = cx->sh.lane_flags;
    res->st.lanes++;
    double v = s.v, es = s.es, ek = s.ek, ep = s.ep;
    int need_mp = want_mpfr_check;
    td_vclass cls = TD_VC_PASS;
    /* |got - v| with a rigorous enclosure [dlo, dhi]: exact when TwoSum says the binary64
     * subtraction was (always for values of the same binade), else +-1 ulp64.  The
     * tolerance ek (ep) is the computed bound itself, so it needs no margin. */
    double diff = got - v;
    double bb = diff - got, terr = (got - (diff - bb)) + (-v - bb);
    double d = fabs(diff);
    double dlo = terr == 0 ? d : d * (1 - 0x1p-52), dhi = terr == 0 ? d : d * (1 + 0x1p-52);
    int decided = 0;
    td_vclass scls = TD_VC_PASS;
    if (!want_mpfr_check && !isfinite(got) && k->sv == TD_SV_IEEE &&
        (lf & (TD_LF_MAYOVF | TD_LF_DOMAIN | TD_LF_UNBOUNDED)) && isfinite(v) && isfinite(es) && fabs(v) > es &&
        (isnan(got) || (got > 0) == (v > 0))) {
        /* The shadow proves the reference finite with the sign of v: the IEEE acceptance
         * below would decide the same on the MPFR value, so MPFR is not needed. */
        res->st.lanes_overflow_ok++;
        d = INFINITY;
        decided = 1;
    } else if (!isfinite(got) || !isfinite(v) || isnan(v) || isnan(got)) {
        need_mp = 1; /* special values: decided on the MPFR reference below */
    } else if (!isfinite(ek)) {
        res->st.lanes_unbounded++;
        decided = 1;
    } else if (dhi + es <= ep) {
        decided = 1;
    } else if (dlo - es > ek) {
        cls = scls = TD_VC_FAIL; /* MPFR only if the lane makes it into the detailed reports */
        decided = 1;
    } else if (dhi + es <= ek && dlo - es > ep) {
        cls = scls = TD_VC_WARN;
        decided = 1;
    } else {
        need_mp = 1;
    }
    double ref = v;
    char ref_exact[80] = "", ref_precast[80] = "";
    if (need_mp) {
        res->st.lanes_mpfr++;
        td_mpcx_reset(&cx->mp);
        td_mp R = k->spec_mp(&cx->mp, c, ol);
        ref = mpfr_get_d(R->x, MPFR_RNDN);
        mp_to_str(R->x, ref_exact, sizeof ref_exact);
        if (cx->mp.have_cast_in) mp_to_str(cx->mp.last_cast_in.x, ref_precast, sizeof ref_precast);
        if (want_mpfr_check && isfinite(v) && mpfr_number_p(R->x)) {
            /* the shadow's claim |v - x*| <= es must hold: an oracle bug otherwise */
            mpfr_t t;
            mpfr_init2(t, cx->mp.prec);
            mpfr_sub_d(t, R->x, v, MPFR_RNDN);
            mpfr_abs(t, t, MPFR_RNDU);
            if (mpfr_cmp_d(t, es * (1 + 0x1p-40)) > 0 && !cx->mp.undecided_tie) {
                char rb[80];
                mp_to_str(R->x, rb, sizeof rb);
                snprintf(msg, msglen,
                         "oracle bug: %s lane off=%" PRIu64 ": shadow value %.17g claims error <= %.3g, MPFR says %s",
                         k->id, ol->off, v, es, rb);
                mpfr_clear(t);
                return TD_VC_COUNT;
            }
            mpfr_clear(t);
        }
        int ref_fin = mpfr_number_p(R->x), got_fin = isfinite(got);
        if (ref_fin && got_fin) {
            if (!isfinite(ek)) cls = TD_VC_PASS;
            else {
                mpfr_t t;
                mpfr_init2(t, cx->mp.prec);
                mpfr_d_sub(t, got, R->x, MPFR_RNDN);
                mpfr_abs(t, t, MPFR_RNDN);
                d = mpfr_get_d(t, MPFR_RNDU);
                if (mpfr_cmp_d(t, ek) > 0) cls = TD_VC_FAIL;
                else if (mpfr_cmp_d(t, ep) > 0) cls = TD_VC_WARN;
                else cls = TD_VC_PASS;
                mpfr_clear(t);
                if (decided && want_mpfr_check && !cx->mp.undecided_tie && cls != scls) {
                    /* the shadow decided this lane on its own: MPFR must agree */
                    snprintf(msg, msglen,
                             "oracle bug: %s lane off=%" PRIu64 ": the shadow decided %s, MPFR says %s (got %.9g, "
                             "shadow %.17g +- %.3g, tol %.3g)",
                             k->id, ol->off, td_vclass_name(scls), td_vclass_name(cls), got, v, es, ek);
                    return TD_VC_COUNT;
                }
            }
        } else if (ref_fin && !got_fin) {
            /* IEEE policy: the model found that the binary32 evaluation may overflow,
             * leave a function's domain (log 0, inf - inf) or divide by a value that
             * may be 0; there the kernel's inf / NaN is its IEEE result. */
            if (k->sv == TD_SV_IEEE && (lf & (TD_LF_MAYOVF | TD_LF_DOMAIN | TD_LF_UNBOUNDED)) &&
                (isnan(got) || (got > 0) == (mpfr_sgn(R->x) > 0) || mpfr_zero_p(R->x))) {
                cls = TD_VC_PASS;
                res->st.lanes_overflow_ok++;
            } else
                cls = TD_VC_NONFINITE;
            d = INFINITY;
        } else if (!ref_fin) {
            int same = (mpfr_nan_p(R->x) && isnan(got)) ||
                       (mpfr_inf_p(R->x) && isinf(got) && (got > 0) == (mpfr_sgn(R->x) > 0));
            if (same) cls = TD_VC_PASS, d = 0;
            else if (got_fin && !isfinite(ek) && (lf & TD_LF_MAYOVF) && !mpfr_nan_p(R->x) &&
                     (got > 0) == (mpfr_sgn(R->x) > 0))
                cls = TD_VC_PASS, d = 0, res->st.lanes_overflow_ok++;
            else
                cls = TD_VC_NONFINITE, d = INFINITY;
        }
    }
    /* statistics */
    double eot = (ek > 0 && isfinite(ek)) ? d / ek : (d == 0 ? 0 : (isfinite(ek) ? INFINITY : 0));
    if (cls == TD_VC_PASS || cls == TD_VC_WARN || cls == TD_VC_FAIL) {
        if (isfinite(eot) && eot > res->st.worst_err_over_tol) res->st.worst_err_over_tol = eot;
        else if (!isfinite(eot) && cls == TD_VC_FAIL) res->st.worst_err_over_tol = INFINITY;
        /* bins: [0] exactly 0, [1] < 1e-6, [2..7] decades up to [0.1, 1], [8] > 1 */
        int b = eot == 0 ? 0 : (eot > 1 ? 8 : (eot >= 0.1 ? 7 : (int)floor(log10(eot)) + 8));
        if (b < 1 && eot > 0) b = 1;
        res->st.hist[b]++;
        if (!res->has_top || eot > res->top.err_over_tol) {
            /* the lane closest to (or furthest beyond) its bound: reports show it even when it passes */
            td_lane_report *t = &res->top;
            memset(t, 0, sizeof *t);
            t->cls = cls;
            t->lane = *ol;
            t->has_lane = 1;
            t->region = ol->region;
            t->off = ol->off;
            t->got_bits = got_bits;
            t->got = got;
            t->ref = ref;
            t->tol = ek;
            t->tol_p = ep;
            t->err = d;
            t->err_over_tol = eot;
            t->err_ulps = (isfinite(ref) && isfinite(got)) ? (got - ref) / ulp_out(of, ref) : NAN;
            t->lane_flags = lf;
            res->has_top = 1;
        }
        double ul = isfinite(ref) && isfinite(got) ? fabs(got - ref) / ulp_out(of, ref) : 0;
        if (ul > res->st.worst_ulps) res->st.worst_ulps = ul;
    }
    if (cls == TD_VC_WARN) res->st.lanes_warn++;
    if (cls != TD_VC_PASS) {
        td_lane_report *l = add_report(cx, res, cls, eot);
        if (l && !need_mp) {
            /* decided by the shadow: the exact reference, for the report only */
            td_mpcx_reset(&cx->mp);
            td_mp R = k->spec_mp(&cx->mp, c, ol);
            res->st.lanes_mpfr++;
            ref = mpfr_get_d(R->x, MPFR_RNDN);
            mp_to_str(R->x, ref_exact, sizeof ref_exact);
            if (cx->mp.have_cast_in) mp_to_str(cx->mp.last_cast_in.x, ref_precast, sizeof ref_precast);
            if (mpfr_number_p(R->x) && isfinite(got)) {
                mpfr_t t;
                mpfr_init2(t, cx->mp.prec);
                mpfr_d_sub(t, got, R->x, MPFR_RNDN);
                mpfr_abs(t, t, MPFR_RNDN);
                d = mpfr_get_d(t, MPFR_RNDU);
                mpfr_clear(t);
                eot = ek > 0 ? d / ek : INFINITY;
                l->err_over_tol = eot;
            }
        }
        if (l) {
            l->lane = *ol;
            l->has_lane = 1;
            l->region = ol->region;
            l->off = ol->off;
            l->got_bits = got_bits;
            l->got = got;
            l->ref = ref;
            snprintf(l->ref_exact, sizeof l->ref_exact, "%s", ref_exact);
            snprintf(l->ref_precast, sizeof l->ref_precast, "%s", ref_precast);
            l->tol = ek;
            l->tol_p = ep;
            l->err = d;
            l->err_ulps = (isfinite(ref) && isfinite(got)) ? (got - ref) / ulp_out(of, ref) : NAN;
            l->err_over_tol = eot;
            l->lane_flags = lf;
            /* the tolerance's terms: the same spec again, traced */
            cx->trace.n = 0;
            cx->sh.trace = &cx->trace;
            cx->sh.lane_flags = 0;
            (void)k->spec_sh(&cx->sh, c, ol);
            cx->sh.trace = NULL;
            copy_terms(l, &cx->trace);
        }
    }
    if (cx->obs) {
        int chk = cls == TD_VC_PASS || cls == TD_VC_WARN || cls == TD_VC_FAIL;
        td_lane_obs o = {0, ol, cls, got_bits, got, chk, d, ek, eot, cx, kern, c, v, es};
        o.index = (size_t)(ol - cx->ws.v);
        cx->obs(cx->obs_user, &o);
    }
    return cls;
}

int td_lane_obs_closer(const td_lane_obs *o, double a, double b) {
    if (a == b || !isfinite(a) || !isfinite(b)) return 0;
    /* x* is closer to a iff it lies on a's side of m = (a + b) / 2; m is exact in
     * binary64 for values of every output format narrower than binary64 */
    const td_case *c = o->c;
    td_fmt of = c->r[o->lane->region].fmt;
    double m = a / 2 + b / 2, hi = a > b ? 1 : -1;
    if (of != TD_F64 && isfinite(o->v) && isfinite(o->es)) {
        if (o->v - o->es > m) return (int)-hi; /* x* above m: the larger value is closer */
        if (o->v + o->es < m) return (int)hi;
    }
    td_ctx *cx = o->cx;
    td_mpcx_reset(&cx->mp);
    td_mp R = c->k->spec_mp(&cx->mp, c, o->lane);
    if (!mpfr_number_p(R->x)) return 0;
    mpfr_t t;
    mpfr_init2(t, 2200); /* a + b exactly for any two binary64 values */
    mpfr_set_d(t, a, MPFR_RNDN);
    mpfr_add_d(t, t, b, MPFR_RNDN);
    mpfr_div_2ui(t, t, 1, MPFR_RNDN);
    int s = mpfr_cmp(R->x, t);
    mpfr_clear(t);
    return s == 0 ? 0 : (s > 0 ? (int)-hi : (int)hi);
}

static int cmp_off(const void *a, const void *b) {
    const td_olane *x = a, *y = b;
    if (x->region != y->region) return x->region < y->region ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

int td_run_bytes(td_ctx *cx, const td_kernel *kern, const uint8_t *data, size_t size, td_case_result *res) {
    memset(res, 0, sizeof *res);
    const td_contract *k = kern->k;
    td_case c;
    double t0 = now();
    int rc = TD_RUN_OK;
    image im[TD_MAX_REGIONS];
    memset(im, 0, sizeof im);
    uint8_t *inwrite[TD_MAX_REGIONS] = {0};
    if (td_decode_case(k, data, size, &c, res->msg, sizeof res->msg) != 0) {
        td_case_free(&c);
        return TD_RUN_HARNESS_ERROR;
    }
    td_case_describe(&c, res->desc, sizeof res->desc);
    res->case_digest = td_fnv1a((const uint8_t *)res->desc, strlen(res->desc));
    for (int i = 0; i < k->nregions; i++)
        if (c.r[i].len)
            res->case_digest ^= td_fnv1a(c.r[i].data, c.r[i].len * td_fmt_get(c.r[i].fmt)->bytes) * (uint64_t)(2 * i + 3);
    memcpy(res->grid, c.grid, sizeof res->grid);
    res->st.cases = 1;
    res->st.classes = c.classes;
    setup_sh(cx, kern);
    memo_clear(cx);

    /* the write set: sorted, in range, no duplicates */
    cx->ws.n = 0;
    cx->ws.oom = 0;
    k->writes(&c, &cx->ws);
    if (cx->ws.oom) {
        snprintf(res->msg, sizeof res->msg, "out of memory building the write set of %s", k->id);
        rc = TD_RUN_HARNESS_ERROR;
        goto out;
    }
    for (size_t i = 0; i < cx->ws.n; i++) {
        const td_olane *l = &cx->ws.v[i];
        if (l->region >= (uint32_t)k->nregions || !(k->regions[l->region].role & TD_R_OUT) ||
            l->off >= c.r[l->region].len) {
            snprintf(res->msg, sizeof res->msg,
                     "harness bug: write set of %s names region %u offset %" PRIu64 " (outside the output regions)",
                     k->id, l->region, l->off);
            rc = TD_RUN_HARNESS_ERROR;
            goto out;
        }
    }
    if (cx->ws.n > 1) qsort(cx->ws.v, cx->ws.n, sizeof *cx->ws.v, cmp_off); /* an empty write set has no array */
    for (size_t i = 1; i < cx->ws.n; i++)
        if (cx->ws.v[i].region == cx->ws.v[i - 1].region && cx->ws.v[i].off == cx->ws.v[i - 1].off) {
            snprintf(res->msg, sizeof res->msg,
                     "harness bug: write set of %s writes region %s offset %" PRIu64 " twice (the contract's write "
                     "addresses must be injective)",
                     k->id, k->regions[cx->ws.v[i].region].name, cx->ws.v[i].off);
            rc = TD_RUN_HARNESS_ERROR;
            goto out;
        }
    for (int i = 0; i < k->nregions; i++) {
        if (!(k->regions[i].role & TD_R_OUT)) continue;
        inwrite[i] = calloc(c.r[i].len ? c.r[i].len : 1, 1);
        if (!inwrite[i]) {
            snprintf(res->msg, sizeof res->msg, "out of memory");
            rc = TD_RUN_HARNESS_ERROR;
            goto out;
        }
    }
    for (size_t i = 0; i < cx->ws.n; i++) inwrite[cx->ws.v[i].region][cx->ws.v[i].off] = 1;
    double t1 = now();
    res->st.t_decode = t1 - t0;

    /* launch */
    if (images_prepare(cx, &c, im, 0, res->msg, sizeof res->msg) != 0) {
        rc = TD_RUN_HARNESS_ERROR;
        goto out;
    }
    if (launch(cx, kern, &c, im, res->msg, sizeof res->msg) != 0) {
        region_report(cx, res, TD_VC_LAUNCH, 0, 0, 0, res->msg);
        res->finding = 1;
        res->st.cases_with_finding = 1;
        rc = TD_RUN_FINDING;
        goto out;
    }
    double t2 = now();
    res->st.t_kernel = t2 - t1;

    /* regions: guards, read-only regions, cells outside the write set */
    int suspicious = 0;
    for (int i = 0; i < k->nregions; i++) {
        unsigned eb = td_fmt_get(c.r[i].fmt)->bytes;
        size_t bytes = im[i].bytes;
        for (size_t g = 0; g < GUARD_BYTES; g++) {
            if (im[i].buf[g] != GUARD_BYTE(g)) {
                region_report(cx, res, TD_VC_GUARD, (uint32_t)i, 0, im[i].buf[g], "guard zone before the region written");
                break;
            }
        }
        for (size_t g = 0; g < GUARD_BYTES; g++) {
            if (im[i].buf[GUARD_BYTES + bytes + g] != GUARD_BYTE(g + 101)) {
                region_report(cx, res, TD_VC_GUARD, (uint32_t)i, c.r[i].len + g / eb,
                              im[i].buf[GUARD_BYTES + bytes + g], "guard zone after the region written");
                break;
            }
        }
        const uint8_t *d = im[i].buf + GUARD_BYTES;
        td_role role = k->regions[i].role;
        if (role == TD_R_SCRATCH) continue; /* written, not specified: only the guards are checked */
        if (!(role & TD_R_OUT)) {
            if (bytes && memcmp(d, c.r[i].data, bytes) != 0) {
                for (size_t e = 0; e < c.r[i].len; e++)
                    if (memcmp(d + e * eb, (uint8_t *)c.r[i].data + e * eb, eb)) {
                        region_report(cx, res, TD_VC_INPUT, (uint32_t)i, e, load_raw(d + e * eb, eb),
                                      "read-only region modified");
                    }
            }
            continue;
        }
        uint64_t s0 = sentinel(c.r[i].fmt, 0);
        for (size_t e = 0; e < c.r[i].len; e++) {
            uint64_t b = load_raw(d + e * eb, eb);
            if (inwrite[i][e]) {
                if (role == TD_R_OUT && b == s0) suspicious = 1;
                continue;
            }
            uint64_t expect = role == TD_R_OUT ? s0 : load_raw((uint8_t *)c.r[i].data + e * eb, eb);
            if (b != expect) region_report(cx, res, TD_VC_OUTSIDE, (uint32_t)i, e, b, "cell outside the write set modified");
        }
    }
    /* lanes still holding the sentinel: a second run with another sentinel tells an
     * unwritten lane from a lane whose correct value happens to equal the sentinel */
    image im2[TD_MAX_REGIONS];
    memset(im2, 0, sizeof im2);
    int have2 = 0;
    if (suspicious) {
        char m2[256];
        if (images_prepare(cx, &c, im2, 1, m2, sizeof m2) == 0 && launch(cx, kern, &c, im2, m2, sizeof m2) == 0)
            have2 = 1;
    }
    double t3 = now();

    /* every lane of the write set */
    for (size_t i = 0; i < cx->ws.n; i++) {
        const td_olane *ol = &cx->ws.v[i];
        unsigned eb = td_fmt_get(c.r[ol->region].fmt)->bytes;
        uint64_t b = load_raw(im[ol->region].buf + GUARD_BYTES + ol->off * eb, eb);
        if (k->regions[ol->region].role == TD_R_OUT && b == sentinel(c.r[ol->region].fmt, 0)) {
            uint64_t b2 = have2 ? load_raw(im2[ol->region].buf + GUARD_BYTES + ol->off * eb, eb) : 0;
            if (!have2 || b2 == sentinel(c.r[ol->region].fmt, 1)) {
                if (cx->obs) {
                    td_lane_obs o = {i, ol, TD_VC_UNWRITTEN, b, NAN, 0, NAN, NAN, NAN, cx, kern, &c, NAN, NAN};
                    cx->obs(cx->obs_user, &o);
                }
                td_lane_report *l = add_report(cx, res, TD_VC_UNWRITTEN, INFINITY);
                if (l) {
                    l->lane = *ol;
                    l->has_lane = 1;
                    l->region = ol->region;
                    l->off = ol->off;
                    l->got_bits = b;
                    l->err_over_tol = INFINITY;
                    snprintf(l->note, sizeof l->note, "lane of the write set still holds the sentinel");
                }
                res->st.lanes++;
                continue;
            }
        }
        char msg[512] = "";
        td_vclass v = judge_lane(cx, kern, &c, ol, b, res, cx->o.mpfr_all, msg, sizeof msg);
        if (v == TD_VC_COUNT) {
            snprintf(res->msg, sizeof res->msg, "%s", msg);
            rc = TD_RUN_HARNESS_ERROR;
            images_free(cx, im2, k->nregions);
            goto out;
        }
    }
    images_free(cx, im2, k->nregions);
    double t4 = now();
    res->st.t_oracle = t4 - t3;
    res->st.t_compare = t3 - t2;
    for (int v = 0; v < TD_VC_COUNT; v++)
        if (td_vclass_is_finding((td_vclass)v) && res->st.findings[v]) res->finding = 1;
    if (res->finding) {
        res->st.cases_with_finding = 1;
        rc = TD_RUN_FINDING;
    }
    /* the top lane: its exact reference and the terms of its bound */
    if (res->has_top) {
        td_lane_report *t = &res->top;
        td_mpcx_reset(&cx->mp);
        td_mp R = k->spec_mp(&cx->mp, &c, &t->lane);
        mp_to_str(R->x, t->ref_exact, sizeof t->ref_exact);
        if (cx->mp.have_cast_in) mp_to_str(cx->mp.last_cast_in.x, t->ref_precast, sizeof t->ref_precast);
        cx->trace.n = 0;
        cx->sh.trace = &cx->trace;
        cx->sh.lane_flags = 0;
        (void)k->spec_sh(&cx->sh, &c, &t->lane);
        cx->sh.trace = NULL;
        copy_terms(t, &cx->trace);
    }
    /* the worst report first */
    for (int i = 1; i < res->nrep; i++) {
        td_lane_report t = res->rep[i];
        int j = i - 1;
        while (j >= 0 && (severity(res->rep[j].cls) < severity(t.cls) ||
                          (severity(res->rep[j].cls) == severity(t.cls) && res->rep[j].err_over_tol < t.err_over_tol))) {
            res->rep[j + 1] = res->rep[j];
            j--;
        }
        res->rep[j + 1] = t;
    }
out:
    for (int i = 0; i < TD_MAX_REGIONS; i++) free(inwrite[i]);
    images_free(cx, im, k->nregions);
    td_case_free(&c);
    return rc;
}

/* ---- explain: one lane's tolerance, step by step ---- */
static void print_region_head(FILE *f, const td_case *c, int reg) {
    const td_region *R = &c->r[reg];
    size_t n = R->len < 8 ? R->len : 8;
    fprintf(f, "    %-12s %-7s %-5s [%zu]", c->k->regions[reg].name, td_fmt_get(R->fmt)->name,
            c->k->regions[reg].role == TD_R_IN ? "in" : c->k->regions[reg].role == TD_R_OUT ? "out" :
            c->k->regions[reg].role == TD_R_INOUT     ? "inout"
            : c->k->regions[reg].role == TD_R_SCRATCH ? "scratch"
                                                      : "meta",
            R->len);
    for (size_t i = 0; i < n; i++) {
        if (R->fmt == TD_I64 || R->fmt == TD_I32 || R->fmt == TD_I8 || R->fmt == TD_U8 || R->fmt == TD_BOOL)
            fprintf(f, " %" PRId64, td_geti(c, reg, i));
        else
            fprintf(f, " %.9g", td_get(c, reg, i));
    }
    fprintf(f, "%s\n", R->len > n ? " ..." : "");
}

int td_explain(td_ctx *cx, const td_kernel *kern, const uint8_t *data, size_t size, long lane, FILE *f) {
    const td_contract *k = kern->k;
    td_case c;
    char err[512];
    if (td_decode_case(k, data, size, &c, err, sizeof err) != 0) {
        fprintf(stderr, "tilediff explain: %s\n", err);
        td_case_free(&c);
        return TD_RUN_HARNESS_ERROR;
    }
    setup_sh(cx, kern);
    memo_clear(cx);
    cx->ws.n = 0;
    k->writes(&c, &cx->ws);
    if (cx->ws.n > 1) qsort(cx->ws.v, cx->ws.n, sizeof *cx->ws.v, cmp_off);
    image im[TD_MAX_REGIONS];
    memset(im, 0, sizeof im);
    int launched = images_prepare(cx, &c, im, 0, err, sizeof err) == 0 && launch(cx, kern, &c, im, err, sizeof err) == 0;

    char desc[1024];
    td_case_describe(&c, desc, sizeof desc);
    fprintf(f, "contract  %s  (%s, %s)\n", k->id, k->io_class, k->kind);
    fprintf(f, "spec      %s\n", k->formula);
    fprintf(f, "kernel    %s [%s backend, math model %s]%s%s\n", kern->abi->variant,
            kern->abi->backend == TD_ABI_CUDA ? "cuda" : "host", kern->math->name, kern->abi->mutant ? ", mutant: " : "",
            kern->abi->mutant ? kern->abi->mutant : "");
    fprintf(f, "policy    %s: %s\n", k->sv == TD_SV_IEEE ? "ieee" : "real", k->sv_note ? k->sv_note : "");
    fprintf(f, "model     %s\n", k->error_model ? k->error_model : "");
    for (int i = 0; i < k->ncasts; i++) {
        char p[64];
        td_profile_str(kern->casts[i], p, sizeof p);
        fprintf(f, "cast      %s = %s  (%s)\n", k->casts[i].slot, p, k->casts[i].where);
    }
    fprintf(f, "case      %s\n", desc);
    fprintf(f, "  boundary classes:");
    for (int b = 0; b < TD_BC_COUNT; b++)
        if (c.classes & (1ull << b)) fprintf(f, " %s", td_bclass_name(b));
    fprintf(f, "\n  regions (first values):\n");
    for (int i = 0; i < k->nregions; i++) print_region_head(f, &c, i);
    fprintf(f, "  write set: %zu lanes\n", cx->ws.n);
    if (!launched) fprintf(f, "  kernel: %s\n", err);
    if (cx->ws.n == 0) {
        fprintf(f, "no lane to explain\n");
        images_free(cx, im, k->nregions);
        td_case_free(&c);
        return TD_RUN_OK;
    }
    size_t li = 0;
    if (lane >= 0) {
        if ((size_t)lane >= cx->ws.n) {
            fprintf(stderr, "tilediff explain: lane %ld out of range (the write set has %zu lanes, 0..%zu)\n", lane,
                    cx->ws.n, cx->ws.n - 1);
            images_free(cx, im, k->nregions);
            td_case_free(&c);
            return TD_RUN_USAGE;
        }
        li = (size_t)lane;
    } else if (launched) {
        td_case_result tmp;
        memset(&tmp, 0, sizeof tmp);
        for (size_t i = 0; i < cx->ws.n; i++) {
            const td_olane *ol = &cx->ws.v[i];
            unsigned eb = td_fmt_get(c.r[ol->region].fmt)->bytes;
            uint64_t b = load_raw(im[ol->region].buf + GUARD_BYTES + ol->off * eb, eb);
            char m[256];
            td_vclass v = judge_lane(cx, kern, &c, ol, b, &tmp, 0, m, sizeof m);
            if (v != TD_VC_PASS) {
                li = i;
                break;
            }
        }
        td_result_free(&tmp);
    }
    const td_olane *ol = &cx->ws.v[li];
    fprintf(f, "\nlane %zu: pid=(%u,%u,%u) j=%" PRIu64 " step %u, output %u -> %s[%" PRIu64 "]", li, ol->pid[0],
            ol->pid[1], ol->pid[2], ol->j, ol->t, ol->o + 1, k->regions[ol->region].name, ol->off);
    fprintf(f, "  idx=(%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ")\n", ol->idx[0], ol->idx[1], ol->idx[2], ol->idx[3]);
    cx->trace.n = 0;
    cx->sh.trace = &cx->trace;
    cx->sh.lane_flags = 0;
    td_sh s = k->spec_sh(&cx->sh, &c, ol);
    cx->sh.trace = NULL;
    td_mpcx_reset(&cx->mp);
    td_mp R = k->spec_mp(&cx->mp, &c, ol);
    char rs[80], pc[80] = "";
    mp_to_str(R->x, rs, sizeof rs);
    if (cx->mp.have_cast_in) mp_to_str(cx->mp.last_cast_in.x, pc, sizeof pc);
    if (pc[0]) fprintf(f, "  reference   %s  (exact value before the cast: %s)\n", rs, pc);
    else fprintf(f, "  reference   %s  (exact, MPFR %ld bits)\n", rs, (long)cx->mp.prec);
    fprintf(f, "  shadow      %.17g  +- %.3g (binary64 evaluation and its own error bound)\n", s.v, s.es);
    fprintf(f, "  bound       %.6g worst case (FAIL beyond), %.6g probabilistic (WARN beyond)\n", s.ek, s.ep);
    td_trace_print(f, &cx->trace, cx->o.explain_full);
    if (cx->sh.lane_flags) {
        char fl[160];
        snprintf(fl, sizeof fl, "%s%s%s%s", cx->sh.lane_flags & TD_LF_MAYOVF ? " may-overflow" : "",
                 cx->sh.lane_flags & TD_LF_UNBOUNDED ? " unbounded" : "", cx->sh.lane_flags & TD_LF_DOMAIN ? " domain-edge" : "",
                 cx->sh.lane_flags & TD_LF_TIE ? " near-a-boundary" : "");
        fprintf(f, "  lane flags:%s\n", fl);
    }
    int rc = TD_RUN_OK;
    if (launched) {
        unsigned eb = td_fmt_get(c.r[ol->region].fmt)->bytes;
        uint64_t b = load_raw(im[ol->region].buf + GUARD_BYTES + ol->off * eb, eb);
        td_fmt of = c.r[ol->region].fmt;
        double got = of == TD_I64 ? (double)td_decode_i64(b) : td_decode(of, b);
        char g[64];
        if (of == TD_I64) snprintf(g, sizeof g, "%" PRId64, td_decode_i64(b));
        else td_format_value(of, b, g, sizeof g);
        td_case_result tmp;
        memset(&tmp, 0, sizeof tmp);
        char m[256];
        td_vclass v = judge_lane(cx, kern, &c, ol, b, &tmp, 0, m, sizeof m);
        double ref = mpfr_get_d(R->x, MPFR_RNDN);
        double ulps = (isfinite(ref) && isfinite(got)) ? (got - ref) / ulp_out(of, ref) : NAN;
        char et[64];
        td_errtol_str(s.ek > 0 ? fabs(got - ref) / s.ek : (got == ref ? 0 : INFINITY), ulps, et, sizeof et);
        fprintf(f, "  kernel      %s (0x%0*" PRIx64 ")  error %.6g = %.4g ulp(%s)  err/tol %s  -> %s\n", g, (int)eb * 2,
                b, fabs(got - ref), ulps, td_fmt_get(of)->name, et, td_vclass_name(v));
        if (td_vclass_is_finding(v)) rc = TD_RUN_FINDING;
        td_result_free(&tmp);
    }
    images_free(cx, im, k->nregions);
    td_case_free(&c);
    return rc;
}

/* The bytes of case i of a campaign with seed `seed` (run, certify, selftest and the
 * tests all draw cases this way, so "case i of seed S" names the same case everywhere). */
void td_case_bytes(uint64_t seed, uint64_t i, uint8_t *out, size_t n) {
    td_rng r;
    td_rng_seed(&r, seed * 0x9e3779b97f4a7c15ull ^ (i + 1) * 0xd1b54a32d192ed03ull);
    for (size_t k = 0; k < n; k += 8) {
        uint64_t v = td_rng_next(&r);
        for (size_t b = 0; b < 8 && k + b < n; b++) out[k + b] = (uint8_t)(v >> (8 * b));
    }
}

