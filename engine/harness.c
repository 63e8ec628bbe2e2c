/* The generic harness (see harness.h): one case end to end. */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "gen_far.h"
#include "gen_large.h"
#include "sample.h"
#include "spec.h"

#define GUARD_BYTES 256
#define GUARD_BYTE(i) ((uint8_t)(0xA5 ^ (uint8_t)((i) * 7)))

/* TD_NO_COVERAGE (oracle/nocov.h) on the harness's loops over every cell, lane or byte
 * of a case (guards, sentinels, the write set and its membership map, the cells outside
 * it, the batched verdict loop, the digest's hash): they run the same way for every
 * input of a shape, so their traced comparisons (a call per loop test under libFuzzer)
 * guide nothing, and they were about a third of an elementwise case's instructions in
 * the Release libFuzzer build that bench/fuzz_throughput.sh measures.  What the rules decide for a lane that
 * is not a plain pass (judge_lane, judge_left) stays instrumented. */

struct td_ctx {
    td_ctx_opts o;
    const td_backend_ops *dev;
    td_shcx sh; /* owns the shadow pass's per-case memo */
    td_mpcx mp; /* owns the MPFR pass's */
    td_trace trace;
    td_wset ws;
    td_lane_observer obs;
    void *obs_user;
    const td_shape *shape;        /* cases at this production shape (NULL: the bytes choose) */
    const td_sample_opts *sample; /* the oracle judges this sample of the lanes (NULL: all) */
    td_sample_info sampled;       /* what the samples checked since td_ctx_set_sample */
    uint8_t *pick;                /* the current case's sample, one flag per write-set lane */
    size_t pickcap;
    double mp_nan;                /* the NaN mpfr_get_d gives: a NaN reference's binary64 value, bit for bit */
};

/* Both passes memoise per-row quantities for one case only. */
static void memo_clear(td_ctx *c) {
    td_shcx_memo_clear(&c->sh);
    td_mpcx_memo_clear(&c->mp);
}

const char *td_vclass_name(td_vclass v) {
    static const char *n[TD_VC_COUNT] = {"pass",    "warn",    "out-of-tolerance", "nonfinite", "unwritten", "outside-write-set",
                                        "guard-zone", "input-modified", "launch-error", "crash", "hang",
                                        "unbounded"};
    return (unsigned)v < TD_VC_COUNT ? n[v] : "?";
}

int td_vclass_is_finding(td_vclass v) { return v != TD_VC_PASS && v != TD_VC_WARN && v != TD_VC_UNBOUNDED; }

int td_stats_unchecked(const td_stats *st, char *why, size_t n) {
    /* lanes measured against nothing: no finite bound, or no spec value (undefined) */
    uint64_t unmeasured = st->lanes_unbounded + st->lanes_undefined;
    if (!st->lanes || 2 * unmeasured <= st->lanes) return 0;
    if (why && st->lanes_undefined)
        snprintf(why, n,
                 "%" PRIu64 " of %" PRIu64 " lanes (%.0f%%) were not measured: %" PRIu64 " have no finite error bound, "
                 "%" PRIu64 " no spec value (undefined on their inputs, e.g. a fully masked row's 0/0)",
                 unmeasured, st->lanes, 100.0 * (double)unmeasured / (double)st->lanes, st->lanes_unbounded,
                 st->lanes_undefined);
    else if (why)
        snprintf(why, n,
                 "%" PRIu64 " of %" PRIu64 " lanes (%.0f%%) have no finite error bound (the model found an overflow or a "
                 "divisor that may be 0): their values were not checked",
                 st->lanes_unbounded, st->lanes, 100.0 * (double)st->lanes_unbounded / (double)st->lanes);
    return 1;
}

void td_stats_merge(td_stats *a, const td_stats *s) {
    a->cases += s->cases;
    a->lanes += s->lanes;
    a->lanes_mpfr += s->lanes_mpfr;
    a->lanes_unbounded += s->lanes_unbounded;
    a->lanes_overflow_ok += s->lanes_overflow_ok;
    a->lanes_undefined += s->lanes_undefined;
    a->lanes_warn += s->lanes_warn;
    a->lanes_sampled_out += s->lanes_sampled_out;
    for (int i = 0; i < TD_VC_COUNT; i++) a->findings[i] += s->findings[i];
    a->cases_with_finding += s->cases_with_finding;
    a->cases_not_covered += s->cases_not_covered;
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
    mpfr_t nan;
    mpfr_init2(nan, 53);
    mpfr_set_nan(nan);
    c->mp_nan = mpfr_get_d(nan, MPFR_RNDN);
    mpfr_clear(nan);
    return c;
}

void td_ctx_set_backend(td_ctx *c, const td_backend_ops *dev) { c->dev = dev; }

void td_ctx_set_lane_observer(td_ctx *c, td_lane_observer fn, void *user) {
    c->obs = fn;
    c->obs_user = user;
}

void td_ctx_set_shape(td_ctx *c, const td_shape *s) { c->shape = s; }

void td_ctx_set_sample(td_ctx *c, const td_sample_opts *o) {
    c->sample = o;
    memset(&c->sampled, 0, sizeof c->sampled);
}

const td_sample_info *td_ctx_sampled(const td_ctx *c) { return &c->sampled; }

void td_ctx_free(td_ctx *c) {
    if (!c) return;
    free(c->pick);
    td_mpcx_free(&c->mp);
    td_shcx_memo_free(&c->sh);
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
    return td_decode_case_shape(k, data, size, NULL, c, err, errlen);
}

int td_decode_case_shape(const td_contract *k, const uint8_t *data, size_t size, const td_shape *s, td_case *c,
                         char *err, size_t errlen) {
    td_producer p;
    /* the far tier: gen, then the far hook; a production shape fixes the case's shape itself */
    int far = !s && k->far && td_far_tier(data, size);
    int large = !s && k->large && td_large_tier(data, size);
    if (far) data += TD_FAR_MAGIC_LEN, size -= TD_FAR_MAGIC_LEN;
    if (large) data += TD_LARGE_MAGIC_LEN, size -= TD_LARGE_MAGIC_LEN;
    td_prod_init(&p, data, size);
    td_case_init(c, k);
    if (s && !k->gen_shape) {
        snprintf(err, errlen, "%s has no production shape (docs/production-shapes.md)", k->id);
        return -1;
    }
    if (s) {
        k->gen_shape(&p, c, s);
    } else {
        k->gen(&p, c);
        if (far) k->far(&p, c);
        if (large) k->large(&p, c);
    }
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
    size_t mapped;  /* bytes of buf when it is a mapping (a sparse read-only region, or an aliased output), else 0 */
    int alias;      /* an output of the large tier: private windows, the rest one shared buffer (image_alias) */
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

/* ---- sparse regions (offsets beyond 2^31, contracts/gen_far.h) ----
 * A read-only region the case holds as a sparse mapping gets a sparse image: only the
 * pages the generator wrote are copied, and afterwards only the pages someone touched
 * are compared, so a case of 2^31 elements costs its rows' pages, not 8 GiB. */
typedef struct copy_to {
    uint8_t *d;
    const uint8_t *src;
} copy_to;
static void copy_range(void *u, size_t lo, size_t hi) {
    copy_to *c = u;
    memcpy(c->d + lo, c->src + lo, hi - lo);
}

/* ---- outputs of the large tier (contracts/gen_large.h) ----
 * The kernel writes every one of their 2^31+ elements, which as private pages would
 * commit 4 to 8 GiB per region.  The image keeps private pages for the guards and the
 * case's windows (page-rounded: the lanes the oracle judges) and maps one shared
 * ALIAS_CHUNK buffer over and over across every other stretch: the kernel's writes
 * there commit that buffer only, and what they leave is not judged (those lanes are
 * counted as sampled out).  A stray write into such a stretch is not seen; one into a
 * window, a guard or past the end is. */
#define ALIAS_CHUNK ((size_t)4 << 20)

/* [a, b) of the mapping at p (page-aligned) becomes views of fd's first ALIAS_CHUNK bytes. */
static int alias_range(uint8_t *p, size_t a, size_t b, int fd) {
    for (size_t x = a; x < b; x += ALIAS_CHUNK) {
        size_t len = b - x < ALIAS_CHUNK ? b - x : ALIAS_CHUNK;
        if (mmap(p + x, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) return -1;
    }
    return 0;
}

static size_t page_down(size_t x, size_t pg) { return x / pg * pg; }
static size_t page_up(size_t x, size_t pg) { return (x + pg - 1) / pg * pg; }

static int image_alias(image *m, const td_case *c, int i, size_t bytes) {
    size_t total = bytes + 2 * GUARD_BYTES, pg = (size_t)sysconf(_SC_PAGESIZE);
    unsigned eb = td_fmt_get(c->r[i].fmt)->bytes;
    uint8_t *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return -1;
    int fd = memfd_create("tilediff-large", MFD_CLOEXEC), rc = fd < 0 || ftruncate(fd, (off_t)ALIAS_CHUNK) != 0;
    size_t at = page_up(GUARD_BYTES, pg); /* private so far: [0, at) */
    for (int w = 0; !rc && w < c->nwin; w++) {
        td_window e = td_case_window(c, i, w); /* (in region i's elements) */
        size_t a = page_down(GUARD_BYTES + e.lo * eb, pg);
        if (a > at) rc = alias_range(p, at, a, fd);
        size_t b = page_up(GUARD_BYTES + e.hi * eb, pg);
        if (b > at) at = b;
    }
    size_t end = page_down(GUARD_BYTES + bytes, pg); /* the guard after the region stays private */
    if (!rc && end > at) rc = alias_range(p, at, end, fd);
    if (fd >= 0) close(fd); /* the views keep the buffer */
    if (rc) {
        munmap(p, total);
        return -1;
    }
    m->buf = p;
    m->mapped = total;
    m->alias = 1;
    return 0;
}

/* A fresh image buffer of `bytes` data bytes and its guards: a sparse mapping for a
 * sparse read-only region or a sparse output of the far tier (remapped for every run:
 * a kernel that wrote into it leaves nothing behind), an aliased one for an output of
 * the large tier, else the heap. */
static int image_alloc(image *m, const td_case *c, int i, td_role role, size_t bytes) {
    const td_region *R = &c->r[i];
    if (m->mapped) munmap(m->buf, m->mapped), m->buf = NULL, m->mapped = 0, m->alias = 0;
    if (m->buf) return 0;
    if (!R->mapped) return (m->buf = malloc(bytes + 2 * GUARD_BYTES)) ? 0 : -1;
    if ((role & (TD_R_OUT | TD_R_SCRATCH)) && c->nwin && (c->large_regs >> i & 1)) return image_alias(m, c, i, bytes);
    /* read-only data and metadata, outputs, in-out regions (see "sparse in-out regions");
     * sparse scratch: no check covers it */
    if (role != TD_R_IN && role != TD_R_META && role != TD_R_OUT && role != TD_R_INOUT) return -1;
    void *p = mmap(NULL, bytes + 2 * GUARD_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED) return -1;
    m->buf = p;
    m->mapped = bytes + 2 * GUARD_BYTES;
    return 0;
}

/* ---- sparse outputs of the far tier (gen_far.h: one row stride for input and output) ----
 * A far case whose output is written at the same far row stride as its input holds that
 * output as a sparse mapping as well (an output region of 2^31+ elements, TD_R_OUT only).
 * Its image sets sentinels only on its write pages: the pages of the image that hold a
 * lane of the write set, so every lane judged is on one and a case costs its rows'
 * pages.  After the kernel (check_outside_sparse) every cell of a write page is checked
 * as in a dense image (lanes of the write set written, every other cell still the
 * sentinel), and every other page the kernel touched must still read as zero, down to
 * the cell.  Not seen: a stray write of zero bytes off the write pages (the page reads
 * as it did); on a device, any write off the write pages (only those and the guards
 * travel, dev_sparse).  Scratch regions are never sparse (image_alloc); in-out regions:
 * below. */

/* 1 when a lane of the sorted write set ws lies in cells [a, b) of region i. */
static int ws_hits(const td_wset *ws, int i, uint64_t a, uint64_t b) {
    size_t lo = 0, hi = ws->n; /* the first lane at or after (i, a) */
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        const td_olane *l = &ws->v[m];
        if (l->region < (uint32_t)i || (l->region == (uint32_t)i && l->off < a)) lo = m + 1;
        else hi = m;
    }
    return lo < ws->n && ws->v[lo].region == (uint32_t)i && ws->v[lo].off < b;
}

/* The cells [*a, *b) of a region of `len` cells of `eb` bytes on the image page holding
 * data bytes [lo, lo + 1) (GUARD_BYTES and the page size are multiples of eb: no cell
 * straddles two pages). */
static void page_cells(size_t lo, unsigned eb, size_t len, uint64_t *a, uint64_t *b) {
    size_t pg = (size_t)sysconf(_SC_PAGESIZE), p0 = page_down(GUARD_BYTES + lo, pg);
    size_t hi = p0 + pg - GUARD_BYTES;
    *a = (p0 > GUARD_BYTES ? p0 - GUARD_BYTES : 0) / eb;
    *b = hi / eb < len ? hi / eb : len;
}

/* fn(user, lo, hi) over the data bytes [lo, hi) of each image page of region i (of
 * `len` cells of `eb` bytes) holding a lane of the sorted write set ws, each page once. */
static void ws_pages(const td_wset *ws, int i, unsigned eb, size_t len, void (*fn)(void *, size_t, size_t),
                     void *user) {
    uint64_t done = 0, a, b;
    for (size_t k = 0; k < ws->n; k++) {
        if (ws->v[k].region != (uint32_t)i || ws->v[k].off < done) continue;
        page_cells(ws->v[k].off * eb, eb, len, &a, &b);
        fn(user, a * eb, b * eb);
        done = b;
    }
}

/* ---- sparse in-out regions of the far tier ----
 * An in-out region the case holds as a sparse mapping (written in place at a far row
 * stride: apply_penalty's Logits) gets a fresh sparse image holding the case's
 * contents on the pages the case touched (image_fill copies them as for a sparse
 * input; every other page reads as zero, as the case's does).  After the kernel the
 * lanes of the write set are judged as any in-out lane, and check_outside_inout
 * compares every other cell with its initial value on every page that is nonzero in
 * the image (a cell of the case's contents clobbered, a page that was zero written)
 * or in the case (a page of the case's contents the kernel zeroed whole).  Not seen:
 * a stray write of zero bytes on a page that was zero (it reads as before); on a
 * device, any write off the pages that travel both ways (the case's nonzero pages and
 * the pages of the write set, which a kernel reads before writing in place:
 * dev_sparse). */

/* A sparse output's image: the sentinel on every cell of its write pages. */
static void image_fill_write_pages(image *m, const td_case *c, int i, int which, const td_wset *ws) {
    unsigned eb = td_fmt_get(c->r[i].fmt)->bytes;
    uint8_t *d = m->buf + GUARD_BYTES;
    uint64_t s = sentinel(c->r[i].fmt, which), done = 0, a, b;
    for (size_t k = 0; k < ws->n; k++) {
        if (ws->v[k].region != (uint32_t)i || ws->v[k].off < done) continue;
        page_cells(ws->v[k].off * eb, eb, c->r[i].len, &a, &b);
        for (uint64_t e = a; e < b; e++) store_raw(d + e * eb, eb, s);
        done = b;
    }
}

/* An aliased image: only its windows are set (sentinels, or an in-out region's contents). */
static void image_fill_windows(image *m, const td_case *c, int i, int which) {
    unsigned eb = td_fmt_get(c->r[i].fmt)->bytes;
    uint8_t *d = m->buf + GUARD_BYTES;
    td_role role = c->k->regions[i].role;
    uint64_t s = sentinel(c->r[i].fmt, which);
    for (int w = 0; w < c->nwin; w++) {
        td_window x = td_case_window(c, i, w);
        if (role == TD_R_INOUT)
            memcpy(d + x.lo * eb, (const uint8_t *)c->r[i].data + x.lo * eb, (size_t)(x.hi - x.lo) * eb);
        else if (role == TD_R_OUT)
            for (uint64_t e = x.lo; e < x.hi; e++) store_raw(d + e * eb, eb, s);
    }
}

TD_NO_COVERAGE static void image_fill(image *m, const td_case *c, int i, int which, const td_wset *ws) {
    unsigned eb = td_fmt_get(c->r[i].fmt)->bytes;
    uint8_t *d = m->buf + GUARD_BYTES;
    if (m->alias) {
        image_fill_windows(m, c, i, which);
    } else if (c->k->regions[i].role == TD_R_OUT && m->mapped) {
        image_fill_write_pages(m, c, i, which, ws);
    } else if (c->k->regions[i].role == TD_R_OUT) {
        uint64_t s = sentinel(c->r[i].fmt, which);
        for (size_t e = 0; e < c->r[i].len; e++) store_raw(d + e * eb, eb, s);
    } else if (c->r[i].mapped) {
        copy_to ct = {d, c->r[i].data};
        td_touched_pages(c->r[i].data, m->bytes, copy_range, &ct);
    } else if (m->bytes) {
        memcpy(d, c->r[i].data, m->bytes);
    }
}

/* A sparse image on a device goes over as its guards and the pages the case wrote, up
 * and back: staging the whole reservation would cost its 8 GiB or more in transfers
 * and, downloaded, in host memory.  The device's holes hold what its allocator left
 * (no correct kernel reads them); a device kernel's stray write into a hole is not
 * seen (on the host backend every page is checked).  tests/test_far.c stages onto a
 * device whose fresh pages hold garbage, so a page this rule fails to move up or back
 * changes what the kernel reads or what the checks see. */
typedef struct dev_xfer {
    td_ctx *cx;
    image *m;
    int up, rc;
    char *err;
    size_t errlen;
} dev_xfer;
static void dev_xfer_range(void *u, size_t lo, size_t hi) { /* [lo, hi): bytes of the image's buffer */
    dev_xfer *x = u;
    if (x->rc) return;
    const td_backend_ops *d = x->cx->dev;
    uint8_t *h = x->m->buf + lo, *dv = (uint8_t *)x->m->dev + lo;
    x->rc = x->up ? d->upload(d->state, dv, h, hi - lo, x->err, x->errlen)
                  : d->download(d->state, h, dv, hi - lo, x->err, x->errlen);
}
static void dev_xfer_data(void *u, size_t lo, size_t hi) { dev_xfer_range(u, lo + GUARD_BYTES, hi + GUARD_BYTES); }
static int dev_sparse(td_ctx *cx, image *m, const td_region *R, int i, td_role role, int up, char *err,
                      size_t errlen) {
    dev_xfer x = {cx, m, up, 0, err, errlen};
    dev_xfer_range(&x, 0, GUARD_BYTES);
    dev_xfer_range(&x, GUARD_BYTES + m->bytes, 2 * GUARD_BYTES + m->bytes);
    if (role == TD_R_OUT) td_touched_pages(m->buf, m->mapped, dev_xfer_range, &x); /* its write pages */
    else td_touched_pages(R->data, m->bytes, dev_xfer_data, &x);
    if (role == TD_R_INOUT) /* and its write pages the case left zero: read, then written in place */
        ws_pages(&cx->ws, i, td_fmt_get(R->fmt)->bytes, R->len, dev_xfer_data, &x);
    return x.rc;
}

/* The guard zones of an image of `bytes` data bytes. */
TD_NO_COVERAGE static void guards_fill(uint8_t *buf, size_t bytes) {
    for (size_t g = 0; g < GUARD_BYTES; g++) {
        buf[g] = GUARD_BYTE(g);
        buf[GUARD_BYTES + bytes + g] = GUARD_BYTE(g + 101);
    }
}

static int images_prepare(td_ctx *cx, const td_case *c, image *im, int which, char *err, size_t errlen) {
    const td_contract *k = c->k;
    for (int i = 0; i < k->nregions; i++) {
        size_t bytes = c->r[i].len * td_fmt_get(c->r[i].fmt)->bytes;
        if (image_alloc(&im[i], c, i, k->regions[i].role, bytes)) {
            snprintf(err, errlen, "%s for region %s (%zu bytes)",
                     c->r[i].mapped ? "cannot map a sparse image" : "out of memory", k->regions[i].name, bytes);
            return -1;
        }
        im[i].bytes = bytes;
        guards_fill(im[i].buf, bytes);
        image_fill(&im[i], c, i, which, &cx->ws);
        if (cx->dev) {
            if (!im[i].dev && cx->dev->alloc(cx->dev->state, bytes + 2 * GUARD_BYTES, &im[i].dev, err, errlen))
                return -1;
            if (im[i].mapped ? dev_sparse(cx, &im[i], &c->r[i], i, k->regions[i].role, 1, err, errlen)
                             : cx->dev->upload(cx->dev->state, im[i].dev, im[i].buf, bytes + 2 * GUARD_BYTES, err, errlen))
                return -1;
        }
    }
    return 0;
}

static void images_free(td_ctx *cx, image *im, int n) {
    for (int i = 0; i < n; i++) {
        if (im[i].mapped) munmap(im[i].buf, im[i].mapped);
        else free(im[i].buf);
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
    if (rc == TD_ABI_NOT_COVERED) {
        kerr[sizeof kerr - 1] = 0;
        /* the bridge may already say it; say it once */
        const char *why = strncmp(kerr, "not covered on this backend: ", 29) ? kerr : kerr + 29;
        snprintf(msg, msglen, "not covered on this backend: %s", why[0] ? why : "no reason given");
        return 1;
    }
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
            if (im[i].mapped ? dev_sparse(cx, &im[i], &c->r[i], i, k->regions[i].role, 0, kerr, sizeof kerr)
                             : cx->dev->download(cx->dev->state, im[i].buf, im[i].dev, im[i].bytes + 2 * GUARD_BYTES,
                                                 kerr, sizeof kerr)) {
                snprintf(msg, msglen, "copying region %s back failed: %s", k->regions[i].name, kerr);
                return -1;
            }
    }
    return 0;
}

/* ---- reports ---- */
static int severity(td_vclass v) {
    static const int s[TD_VC_COUNT] = {0, 1, 6, 7, 5, 4, 3, 2, 8, 9, 9, 0};
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

#define REF_STR 80 /* the printed references of a td_lane_report */
_Static_assert(sizeof(((td_lane_report *)0)->ref_exact) == REF_STR, "ref_exact holds REF_STR chars");
_Static_assert(sizeof(((td_lane_report *)0)->ref_precast) == REF_STR, "ref_precast holds REF_STR chars");

static void mp_to_str(mpfr_srcptr x, char *buf, size_t n) {
    if (mpfr_nan_p(x)) snprintf(buf, n, "nan");
    else if (mpfr_inf_p(x)) snprintf(buf, n, mpfr_sgn(x) > 0 ? "inf" : "-inf");
    else mpfr_snprintf(buf, n, "%.20Rg", x);
}

/* The lane's terms as a report keeps them, and the summary of its whole trace (the
 * kinds and the total explain prints for a long reduction). */
void td_lane_terms(td_lane_report *l, const td_trace *t) {
    l->nterms = td_trace_terms(t, l->terms, TD_MAX_TERMS);
    l->nsteps = t->n;
    l->local_sum = 0;
    for (int i = 0; i < t->n; i++) l->local_sum += t->steps[i].local;
    l->bound_last = t->n ? t->steps[t->n - 1].ek : 0;
    l->nkinds = td_trace_kinds(t, l->kinds, TD_MAX_TERM_KINDS);
}

static inline double ulp_out(td_fmt f, double ref) {
    if (f == TD_F32 && isfinite(ref)) return td_ulp_f32(ref); /* most outputs: inline, no format lookup */
    const td_fmt_info *fi = td_fmt_get(f);
    if (!fi->is_float) return 1.0;
    return td_ulp(f, isfinite(ref) ? ref : fi->max_finite);
}

/* The one trace replay (explain, finding reports, the top lane): the lane's spec again
 * in the shadow type with the trace on.  The shadow memo hands out nothing while
 * tracing, so every step of the bound is recorded.  Leaves the steps in cx->trace and
 * the lane's flags in cx->sh.lane_flags. */
static td_sh trace_replay(td_ctx *cx, const td_contract *k, const td_case *c, const td_olane *ol) {
    cx->trace.n = 0;
    cx->sh.trace = &cx->trace;
    cx->sh.lane_flags = 0;
    td_sh s = k->spec_sh(&cx->sh, c, ol);
    cx->sh.trace = NULL;
    return s;
}

/* The lane's exact reference in MPFR, printed into exact (and into precast the exact
 * value before the last cast, when the spec casts; left untouched otherwise). */
static td_mp mp_reference(td_ctx *cx, const td_contract *k, const td_case *c, const td_olane *ol,
                          char exact[REF_STR], char precast[REF_STR]) {
    td_mpcx_reset(&cx->mp);
    td_mp R = k->spec_mp(&cx->mp, c, ol);
    mp_to_str(R->x, exact, REF_STR);
    if (cx->mp.have_cast_in) mp_to_str(cx->mp.last_cast_in.x, precast, REF_STR);
    return R;
}

/* |got - x| rounded up to binary64 into *d; the class the bounds give it, compared
 * exactly (in MPFR) against ek (FAIL beyond) and ep (WARN beyond). */
static td_vclass mp_judge(td_ctx *cx, double got, mpfr_srcptr x, double ek, double ep, double *d) {
    mpfr_t t;
    mpfr_init2(t, cx->mp.prec);
    mpfr_d_sub(t, got, x, MPFR_RNDN);
    mpfr_abs(t, t, MPFR_RNDN);
    *d = mpfr_get_d(t, MPFR_RNDU);
    td_vclass cls = mpfr_cmp_d(t, ek) > 0 ? TD_VC_FAIL : mpfr_cmp_d(t, ep) > 0 ? TD_VC_WARN : TD_VC_PASS;
    mpfr_clear(t);
    return cls;
}

/* One lane being judged: the kernel's value, the shadow, and the verdict so far. */
typedef struct lane_eval {
    const td_olane *ol;
    uint64_t got_bits;
    td_fmt of;           /* the output region's format */
    double got;          /* the kernel's value */
    td_sh s;             /* the shadow: value v, its own error es, bounds ek (FAIL) and ep (WARN) */
    uint32_t lf;         /* lane flags met evaluating it (TD_LF_*) */
    double d, dlo, dhi;  /* |got - v| (then |got - reference|), and a rigorous enclosure of |got - v| */
    td_vclass cls, scls; /* the verdict; the shadow's own verdict where it decided */
    int decided;         /* the shadow decided the lane */
    int undef;           /* the spec's value is undefined on the lane (TD_SH_UNDEF on the output) */
    int need_mp;         /* the lane needs its MPFR reference */
    double ref, eot;     /* the reference rounded to binary64; err/tol */
    char ref_exact[REF_STR], ref_precast[REF_STR];
} lane_eval;

/* The kernel's value, exactly as td_decode (td_decode_i64) gives it; a binary32 number,
 * the most common output, is decoded here rather than through a call per lane. */
static inline double got_value(td_fmt of, uint64_t bits) {
    if (of == TD_F32) {
        uint32_t b = (uint32_t)bits;
        if ((b & 0x7fffffffu) <= 0x7f800000u) { /* a NaN keeps td_decode's canonical one */
            float y;
            memcpy(&y, &b, sizeof y);
            return y;
        }
    }
    return of == TD_I64 ? (double)td_decode_i64(bits) : td_decode(of, bits);
}

/* lane_eval's start: lane_eval_set and the rules set every other field before it is
 * read (clearing the struct, 136 bytes before its printed references, was a tenth of
 * the harness's own work on an elementwise lane). */
static inline void lane_eval_start(lane_eval *L, const td_olane *ol, uint64_t got_bits) {
    L->decided = 0;
    L->ref_exact[0] = L->ref_precast[0] = 0;
    L->ol = ol;
    L->got_bits = got_bits;
}

/* The lane's shadow s (and the lane flags lf its evaluation left) and the distance of
 * the kernel's value to it. */
static inline void lane_eval_set(const td_contract *k, const td_case *c, lane_eval *L, const td_sh *s, uint32_t lf) {
    L->of = c->r[L->ol->region].fmt;
    L->got = got_value(L->of, L->got_bits);
    L->s = *s;
    L->lf = lf;
    /* a contract whose spec is IEEE arithmetic on special inputs (nonfinite_inputs) defines
     * those values (inf - inf is NaN there): the kernel must produce them */
    L->undef = (L->s.fl & TD_SH_UNDEF) != 0 && !k->nonfinite_inputs;
    /* |got - v| with a rigorous enclosure [dlo, dhi]: exact when TwoSum says the binary64
     * subtraction was (always for values of the same binade), else +-1 ulp64.  The
     * tolerance ek (ep) is the computed bound itself, so it needs no margin. */
    double got = L->got, v = L->s.v;
    double diff = got - v;
    double bb = diff - got, terr = (got - (diff - bb)) + (-v - bb);
    L->d = fabs(diff);
    L->dlo = terr == 0 ? L->d : L->d * (1 - 0x1p-52);
    L->dhi = terr == 0 ? L->d : L->d * (1 + 0x1p-52);
    L->cls = L->scls = TD_VC_PASS;
    L->ref = v;
}

/* The shadow's evaluation of the lane (its spec), and lane_eval_set. */
static void lane_shadow(td_ctx *cx, const td_contract *k, const td_case *c, lane_eval *L) {
    cx->sh.lane_flags = 0;
    td_sh s = k->spec_sh(&cx->sh, c, L->ol);
    lane_eval_set(k, c, L, &s, cx->sh.lane_flags);
}

/* The lane flags by which the shadow says that an admissible binary32 evaluation may
 * reach a non-finite intermediate: an overflow (MAYOVF), a divisor whose interval holds
 * 0 (UNBOUNDED), an argument that may leave a function's domain (DOMAIN). */
#define LF_NONFINITE (TD_LF_MAYOVF | TD_LF_UNBOUNDED | TD_LF_DOMAIN)

/* Special-value rule "inf against a finite reference" (IEEE policy only): an infinity
 * is the kernel's IEEE result where the shadow found that its evaluation may overflow,
 * divide by a value that may be 0, or take the log of a value that may be 0, and it has
 * the reference's sign (ref_sign -1, 0 or +1; either sign for a zero reference, as in
 * 1/(+-0)). */
static int rule_inf_admissible(const td_contract *k, uint32_t lf, double got, int ref_sign) {
    if (k->sv != TD_SV_IEEE || !(lf & LF_NONFINITE)) return 0;
    return ref_sign == 0 || (got > 0) == (ref_sign > 0);
}

/* Special-value rule "NaN against a finite reference" (IEEE policy only).  The exact
 * value is finite, so the kernel reaches a NaN only through an invalid operation: sqrt
 * or log of a negative value, 0/0, inf - inf, 0 * inf, inf / inf, or a cast whose
 * overflow policy is NaN (e4m3fn).  A NaN is admissible only where the shadow shows that
 * an admissible evaluation can perform one AND that its result can reach the output:
 *  - DOMAIN: an argument's interval crosses out of the function's domain: sqrt/log of a
 *    negative value is itself the NaN (the shadow keeps a finite bound for sqrt there);
 *  - MAYOVF or UNBOUNDED with an infinite worst-case bound of the OUTPUT: an intermediate
 *    may be +-inf (overflow, or x/0), so inf - inf, 0 * inf, inf / inf (or 0/0) may follow,
 *    and every propagation rule of the shadow turns an operand without a bound into a
 *    result without one, so an infinite output bound is the shadow's evidence that the
 *    non-finite intermediate reaches this output (a comparison, a selection or a clamping
 *    cast that discards it leaves the output's bound finite: no NaN can arrive there);
 *  - MAYOVF with a cast profile of the kernel that overflows to NaN: the cast's interval
 *    reached the overflow threshold (the shadow flags it and clamps the bound).
 * A NaN where only an overflow was possible and the output's bound stayed finite is a
 * disagreement (the sticky flags alone used to let it through).  Still conservative:
 * the flags are per lane, not per value, so a domain edge whose NaN a selection discards
 * before the output admits a NaN too.  (A value whose exact value is undefined carries
 * the per-value TD_SH_UNDEF instead, judged by rule "undefined lane" below.) */
static int rule_nan_admissible(const td_shcx *sh, const td_contract *k, uint32_t lf, double ek) {
    if (k->sv != TD_SV_IEEE) return 0;
    if (lf & TD_LF_DOMAIN) return 1;
    if ((lf & (TD_LF_MAYOVF | TD_LF_UNBOUNDED)) && !isfinite(ek)) return 1;
    if (lf & TD_LF_MAYOVF)
        for (int i = 0; i < sh->ncasts; i++)
            if (sh->casts[i].ovf == TD_OVF_NAN) return 1;
    return 0;
}

/* A non-finite kernel value against a finite reference of sign ref_sign: one of the
 * two rules above. */
static int rule_nonfinite_admissible(const td_shcx *sh, const td_contract *k, const lane_eval *L, int ref_sign) {
    if (isnan(L->got)) return rule_nan_admissible(sh, k, L->lf, L->s.ek);
    return rule_inf_admissible(k, L->lf, L->got, ref_sign);
}

/* Special-value rule "finite value against an infinite reference".  The reference is
 * +-inf where the exact value overflows a declared cast of IEEE profile (or is a real
 * infinity, x/0).  A finite kernel value is admissible there only as what rounding on
 * the finite side of the overflow threshold gives: the largest finite value of the
 * output format with the reference's sign (a kernel value just below the threshold
 * rounded to nearest, RTZ rounding, or a saturating store), and only where the shadow
 * shows that the kernel's value may lie on that side (MAYOVF, no finite bound).  Any
 * other finite value is a disagreement: an infinite bound does not pass arbitrary
 * values. */
static int rule_finite_against_infinite_admissible(const lane_eval *L, double ref) {
    const td_fmt_info *fi = td_fmt_get(L->of);
    if (isnan(ref) || !fi->is_float || isfinite(L->s.ek) || !(L->lf & TD_LF_MAYOVF)) return 0;
    return fabs(L->got) == fi->max_finite && (L->got > 0) == (ref > 0);
}

/* Special-value rule "signed zero": where the contract says its spec distinguishes -0
 * from +0 (td_contract.signed_zero), a zero of the wrong sign against an exact zero
 * reference is a disagreement (|got - ref| = 0 would pass it). */
static int rule_signed_zero_violated(const td_contract *k, const lane_eval *L, mpfr_srcptr x) {
    if (!k->signed_zero || !mpfr_zero_p(x) || L->got != 0) return 0;
    return !!signbit(L->got) != !!mpfr_signbit(x);
}

/* Rule "unbounded": a finite value against a finite reference where the model has no
 * finite bound (an intermediate may overflow, a divisor may be 0) is not checked: an
 * infinite bound would pass any value.  The lane is counted as unbounded, never as a
 * PASS, and a contract whose lanes are mostly unbounded is reported "not checked"
 * (td_stats_unchecked). */
static void rule_unbounded(td_case_result *res, lane_eval *L) {
    L->cls = TD_VC_UNBOUNDED;
    res->st.lanes_unbounded++;
}

/* Rule "undefined lane".  The shadow marks a value undefined where the spec's exact
 * value is (oracle/shadow.h, TD_SH_UNDEF: an invalid operation on exact operands, e.g.
 * x_j - max over a row whose every score is -inf, or the empty sum of such a row as a
 * divisor, and whatever is computed from it).  The flag is the OUTPUT value's, not the
 * lane's: a row masked only in part, or a block of keys masked entirely while another
 * block of the same row is not, defines the value, and the ordinary rules judge it (a
 * NaN there is a disagreement).  Where the spec has no value, admissible
 * implementations legitimately differ: NaN (IEEE 0/0, exp(-inf - -inf)), 0 (a guarded
 * denominator: l = 0 -> 1, acc = 0), the uniform distribution or the mean of the values
 * (masking with a finite fill such as -1e30 or finfo.min, over whatever keys the
 * kernel's tiles hold), or -inf for a log-sum-exp (m = -inf and a guarded l: -inf +
 * log 1).  None of them is measured against anything, so any outcome is accepted
 * there; what stays checked is what does not need the value (the lane is written,
 * cells outside the write set are untouched).  The lane is counted (lanes_undefined)
 * and stays out of the err/tol statistics.  Not for a contract whose spec is IEEE
 * arithmetic on NaN and +-inf inputs (td_contract.nonfinite_inputs): there IEEE defines
 * the value (inf - inf = NaN) and the ordinary rules require it. */
static void rule_undefined(td_case_result *res, lane_eval *L) {
    L->cls = L->scls = TD_VC_PASS;
    L->d = 0;
    L->decided = 1;
    L->need_mp = 0;
    res->st.lanes_undefined++;
}

/* Rule "shadow decides": the shadow alone decides a lane whose |got - v| is clearly
 * inside or clearly outside the bounds (its own error es counted against it); special
 * values and ambiguous lanes go to MPFR.  With want_check every lane goes to MPFR too,
 * which must then agree with what the shadow decided. */
static void rule_shadow_decides(const td_shcx *sh, td_case_result *res, const td_contract *k, lane_eval *L,
                                int want_check) {
    const td_sh *s = &L->s;
    L->need_mp = want_check;
    if (L->undef) {
        rule_undefined(res, L); /* no reference to compare with, even with want_check */
    } else if (!want_check && !isfinite(L->got) && isfinite(s->v) && isfinite(s->es) && fabs(s->v) > s->es &&
        rule_nonfinite_admissible(sh, k, L, s->v > 0 ? 1 : -1)) {
        /* The shadow proves the reference finite with the sign of v: the special-value
         * rules would decide the same on the MPFR value, so MPFR is not needed. */
        res->st.lanes_overflow_ok++;
        L->d = INFINITY;
        L->decided = 1;
    } else if (!isfinite(L->got) || !isfinite(s->v) || isnan(s->v) || isnan(L->got)) {
        L->need_mp = 1; /* special values: decided on the MPFR reference */
    } else if (k->signed_zero && L->got == 0) {
        L->need_mp = 1; /* the sign of a zero is judged on the exact reference */
    } else if (!isfinite(s->ek)) {
        rule_unbounded(res, L);
        L->decided = 1;
    } else if (L->dhi + s->es <= s->ep) {
        L->decided = 1;
    } else if (L->dlo - s->es > s->ek) {
        L->cls = L->scls = TD_VC_FAIL; /* MPFR only if the lane makes it into the detailed reports */
        L->decided = 1;
    } else if (L->dhi + s->es <= s->ek && L->dlo - s->es > s->ep) {
        L->cls = L->scls = TD_VC_WARN;
        L->decided = 1;
    } else {
        L->need_mp = 1;
    }
}

/* With want_check: the shadow's claim |v - x*| <= es must hold (an oracle bug otherwise). */
static int check_shadow_claim(td_ctx *cx, const td_contract *k, const lane_eval *L, mpfr_srcptr x, char *msg,
                              size_t msglen) {
    if (!isfinite(L->s.v) || !mpfr_number_p(x)) return 0;
    mpfr_t t;
    mpfr_init2(t, cx->mp.prec);
    mpfr_sub_d(t, x, L->s.v, MPFR_RNDN);
    mpfr_abs(t, t, MPFR_RNDU);
    int bad = mpfr_cmp_d(t, L->s.es * (1 + 0x1p-40)) > 0 && !cx->mp.undecided_tie;
    mpfr_clear(t);
    if (bad) {
        char rb[REF_STR];
        mp_to_str(x, rb, sizeof rb);
        snprintf(msg, msglen, "oracle bug: %s lane off=%" PRIu64 ": shadow value %.17g claims error <= %.3g, MPFR says %s",
                 k->id, L->ol->off, L->s.v, L->s.es, rb);
    }
    return bad;
}

/* Rule "MPFR decision": a finite value against a finite reference, compared exactly
 * with the bounds.  With want_check, MPFR must agree with what the shadow decided. */
static int rule_mpfr_decides(td_ctx *cx, const td_contract *k, td_case_result *res, lane_eval *L, mpfr_srcptr x,
                             int want_check, char *msg, size_t msglen) {
    if (!isfinite(L->s.ek)) {
        if (!L->decided) rule_unbounded(res, L); /* (counted already where the shadow decided it) */
        L->cls = TD_VC_UNBOUNDED;
        return 0;
    }
    if (rule_signed_zero_violated(k, L, x)) {
        L->cls = TD_VC_FAIL; /* |got - ref| = 0: err/tol stays 0, the report says why */
        return 0;
    }
    L->cls = mp_judge(cx, L->got, x, L->s.ek, L->s.ep, &L->d);
    if (L->decided && want_check && !cx->mp.undecided_tie && L->cls != L->scls) {
        snprintf(msg, msglen,
                 "oracle bug: %s lane off=%" PRIu64 ": the shadow decided %s, MPFR says %s (got %.9g, shadow %.17g +- "
                 "%.3g, tol %.3g)",
                 k->id, L->ol->off, td_vclass_name(L->scls), td_vclass_name(L->cls), L->got, L->s.v, L->s.es, L->s.ek);
        return -1;
    }
    return 0;
}

/* A non-finite kernel value against a finite reference: admissible only by the NaN or
 * the inf rule above. */
static void rule_nonfinite_against_finite(const td_shcx *sh, const td_contract *k, td_case_result *res, lane_eval *L,
                                          mpfr_srcptr x) {
    if (rule_nonfinite_admissible(sh, k, L, mpfr_sgn(x))) {
        L->cls = TD_VC_PASS;
        res->st.lanes_overflow_ok++;
    } else {
        L->cls = TD_VC_NONFINITE;
    }
    L->d = INFINITY;
}


/* Against a non-finite reference (NaN or +-inf: exactly L->ref) the kernel must give
 * the same special value (a NaN for a NaN, the infinity of the same sign), or an
 * admissible finite value (rule above). */
static void rule_against_nonfinite_reference(td_case_result *res, lane_eval *L) {
    double got = L->got, ref = L->ref;
    int same = (isnan(ref) && isnan(got)) || (isinf(ref) && isinf(got) && (got > 0) == (ref > 0));
    if (same) {
        L->cls = TD_VC_PASS, L->d = 0;
    } else if (isfinite(got) && rule_finite_against_infinite_admissible(L, ref)) {
        L->cls = TD_VC_PASS, L->d = 0;
        res->st.lanes_overflow_ok++;
    } else if (isfinite(got) && isinf(ref) && (L->lf & TD_LF_UNBOUNDED) && !(L->lf & TD_LF_CASTOVF)) {
        /* the kernel's value before the final cast has no finite bound (a divisor that
         * an admissible evaluation may flush to 0, an overflowing intermediate): any
         * finite output is possible, so the lane is not checked, never passed */
        rule_unbounded(res, L);
    } else {
        L->cls = TD_VC_NONFINITE, L->d = INFINITY;
    }
}

/* The lane on its MPFR reference.  Returns -1 on an oracle bug (message in msg). */
static int lane_mpfr(td_ctx *cx, const td_contract *k, const td_case *c, td_case_result *res, lane_eval *L,
                     int want_check, char *msg, size_t msglen) {
    res->st.lanes_mpfr++;
    td_mp R = mp_reference(cx, k, c, L->ol, L->ref_exact, L->ref_precast);
    L->ref = mpfr_get_d(R->x, MPFR_RNDN);
    if (want_check && check_shadow_claim(cx, k, L, R->x, msg, msglen)) return -1;
    int ref_fin = mpfr_number_p(R->x), got_fin = isfinite(L->got);
    if (ref_fin && got_fin) return rule_mpfr_decides(cx, k, res, L, R->x, want_check, msg, msglen);
    if (ref_fin) rule_nonfinite_against_finite(&cx->sh, k, res, L, R->x);
    else rule_against_nonfinite_reference(res, L); /* L->ref: mpfr_get_d of NaN or +-inf, exact */
    return 0;
}

/* The lane on an exact reference that is NaN or +-inf and known without MPFR
 * (td_contract.ref_nonfinite, a spec without a cast): what lane_mpfr does with MPFR's
 * reference of that value -- the same binary64 value in L->ref (MPFR's NaN), the same
 * printed reference, the same rule -- and counted as lane_mpfr counts it, so that runs
 * report the same statistics either way.  A NaN or infinite operand sent add_example's
 * lanes through MPFR (mp_reference: 16.65M of 430M instructions over 100 random cases
 * in the Release libFuzzer build). */
static void lane_nonfinite_ref(td_ctx *cx, td_case_result *res, lane_eval *L, double ref) {
    res->st.lanes_mpfr++;
    L->ref = isnan(ref) ? cx->mp_nan : ref;
    /* mp_to_str's text (a snprintf was ~900 instructions a lane) */
    const char *str = isnan(ref) ? "nan" : ref > 0 ? "inf" : "-inf";
    memcpy(L->ref_exact, str, strlen(str) + 1);
    rule_against_nonfinite_reference(res, L);
}

static void lane_fill_report(td_lane_report *l, const lane_eval *L) {
    l->lane = *L->ol;
    l->has_lane = 1;
    l->region = L->ol->region;
    l->off = L->ol->off;
    l->got_bits = L->got_bits;
    l->got = L->got;
    l->ref = L->ref;
    l->tol = L->s.ek;
    l->tol_p = L->s.ep;
    l->err = L->d;
    l->err_over_tol = L->eot;
    l->err_ulps = (isfinite(L->ref) && isfinite(L->got)) ? (L->got - L->ref) / ulp_out(L->of, L->ref) : NAN;
    l->lane_flags = L->lf;
}

/* The histogram bin of err/tol by floor(log10), the definition (and the answer near
 * a power of ten, where only libm's rounding of log10 says which side a value is on). */
static int err_tol_bin_log10(double eot) {
    int b = eot == 0 ? 0 : (eot > 1 ? 8 : (eot >= 0.1 ? 7 : (int)floor(log10(eot)) + 8));
    return b < 1 && eot > 0 ? 1 : b;
}

/* bins: [0] exactly 0, [1] < 1e-6, [2..7] decades up to [0.1, 1], [8] > 1.  A log10
 * call on every checked lane was a visible share of the norm and softmax oracles: the
 * decade bounds decide every value farther than a relative 2^-30 from them (log10 is
 * then at least 4e-10 from the integer, far beyond its rounding error), and the values
 * that close keep the libm formula, so every bin is the one floor(log10) gives.  One
 * comparison per decade above the value: the bounds are widened by 2^-30 beforehand. */
#define DEC_HI(d) ((d) * (1 + 0x1p-30))
#define DEC_LO(d) ((d) * (1 - 0x1p-30))
static inline int err_tol_bin(double eot) {
    /* bins 7 .. 1 from above (just below 0.1 too, log10 may round up to -1: bin 7) */
    static const double hi[7] = {DEC_HI(1e-1), DEC_HI(1e-2), DEC_HI(1e-3), DEC_HI(1e-4),
                                 DEC_HI(1e-5), DEC_HI(1e-6), DEC_HI(1e-7)};
    static const double lo[7] = {DEC_LO(1e-1), DEC_LO(1e-2), DEC_LO(1e-3), DEC_LO(1e-4),
                                 DEC_LO(1e-5), DEC_LO(1e-6), DEC_LO(1e-7)};
    if (eot == 0) return 0;
    if (eot >= 0.1) return eot > 1 ? 8 : 7;
    for (int i = 0; i < 7; i++) {
        if (eot > hi[i]) return 7 - i;                   /* clearly inside decade i */
        if (eot >= lo[i]) return err_tol_bin_log10(eot); /* within 2^-30 of its bound */
    }
    return eot != eot ? err_tol_bin_log10(eot) : 1; /* a NaN as before */
}
#undef DEC_HI
#undef DEC_LO
int td_err_tol_bin(double eot) { return err_tol_bin(eot); }

/* The top lane: reports show it even when it passes. */
static void set_top(td_case_result *res, const lane_eval *L) {
    td_lane_report *t = &res->top;
    memset(t, 0, sizeof *t);
    t->cls = L->cls;
    lane_fill_report(t, L);
    res->has_top = 1;
}

/* Statistics of a checked lane (PASS, WARN, FAIL): worst err/tol and ulps, the err/tol
 * histogram, and the top lane (the closest to, or furthest beyond, its bound). */
static void lane_statistics(td_case_result *res, const lane_eval *L) {
    double eot = L->eot;
    if (L->cls != TD_VC_PASS && L->cls != TD_VC_WARN && L->cls != TD_VC_FAIL) return;
    if (isfinite(eot) && eot > res->st.worst_err_over_tol) res->st.worst_err_over_tol = eot;
    else if (!isfinite(eot) && L->cls == TD_VC_FAIL) res->st.worst_err_over_tol = INFINITY;
    res->st.hist[err_tol_bin(eot)]++;
    if (!res->has_top || eot > res->top.err_over_tol) set_top(res, L);
    /* a lane equal to its reference is 0 ulps off whatever the ulp, and 0 never raises
     * the worst: such lanes skip the ulp */
    double ul = isfinite(L->ref) && isfinite(L->got) && L->got != L->ref
                    ? fabs(L->got - L->ref) / ulp_out(L->of, L->ref) : 0;
    if (ul > res->st.worst_ulps) res->st.worst_ulps = ul;
}

/* The detailed report of a lane that did not pass: its exact reference (computed now
 * when the shadow decided the lane alone), and the terms of its bound. */
static void lane_detailed_report(td_ctx *cx, const td_contract *k, const td_case *c, td_case_result *res,
                                 lane_eval *L) {
    td_lane_report *l = add_report(cx, res, L->cls, L->eot);
    if (!l) return;
    if (!L->need_mp) {
        td_mp R = mp_reference(cx, k, c, L->ol, L->ref_exact, L->ref_precast);
        res->st.lanes_mpfr++;
        L->ref = mpfr_get_d(R->x, MPFR_RNDN);
        if (mpfr_number_p(R->x) && isfinite(L->got)) {
            (void)mp_judge(cx, L->got, R->x, L->s.ek, L->s.ep, &L->d);
            L->eot = L->s.ek > 0 ? L->d / L->s.ek : INFINITY;
        }
    }
    lane_fill_report(l, L);
    snprintf(l->ref_exact, sizeof l->ref_exact, "%s", L->ref_exact);
    snprintf(l->ref_precast, sizeof l->ref_precast, "%s", L->ref_precast);
    (void)trace_replay(cx, k, c, L->ol);
    td_lane_terms(l, &cx->trace);
}

/* The lane observer (tilediff diff, accuracy statistics) sees every judged lane. */
static void lane_observe(td_ctx *cx, const td_kernel *kern, const td_case *c, const lane_eval *L) {
    /* an undefined lane was accepted unmeasured: no error to observe */
    int chk = !L->undef && (L->cls == TD_VC_PASS || L->cls == TD_VC_WARN || L->cls == TD_VC_FAIL);
    td_lane_obs o = {0, L->ol, L->cls, L->got_bits, L->got, chk, L->d, L->s.ek, L->eot, cx, kern, c, L->s.v, L->s.es};
    o.index = (size_t)(L->ol - cx->ws.v);
    cx->obs(cx->obs_user, &o);
}

/* The verdict of a lane whose shadow lane_eval_set has set (TD_VC_COUNT on an oracle
 * bug, message in msg), counted in res (a lane that did not pass gets a detailed
 * report), on its exact reference where the shadow alone does not decide it: *ref where
 * the contract knows it to be NaN or +-inf (td_contract.ref_nonfinite; never with
 * want_check, which compares the shadow with MPFR), MPFR's otherwise. */
static td_vclass judge_eval(td_ctx *cx, const td_kernel *kern, const td_case *c, lane_eval *L, td_case_result *res,
                            int want_check, const double *ref, char *msg, size_t msglen) {
    const td_contract *k = c->k;
    res->st.lanes++;
    rule_shadow_decides(&cx->sh, res, k, L, want_check);
    if (L->need_mp && ref && !want_check) lane_nonfinite_ref(cx, res, L, *ref);
    else if (L->need_mp && lane_mpfr(cx, k, c, res, L, want_check, msg, msglen) != 0) return TD_VC_COUNT;
    double ek = L->s.ek;
    L->eot = (ek > 0 && isfinite(ek)) ? L->d / ek : (L->d == 0 ? 0 : (isfinite(ek) ? INFINITY : 0));
    if (!L->undef) lane_statistics(res, L);
    if (L->cls == TD_VC_WARN) res->st.lanes_warn++;
    if (L->cls != TD_VC_PASS && L->cls != TD_VC_UNBOUNDED) lane_detailed_report(cx, k, c, res, L);
    if (cx->obs) lane_observe(cx, kern, c, L);
    return L->cls;
}

static td_vclass judge_lane(td_ctx *cx, const td_kernel *kern, const td_case *c, const td_olane *ol, uint64_t got_bits,
                            td_case_result *res, int want_check, char *msg, size_t msglen) {
    lane_eval L;
    lane_eval_start(&L, ol, got_bits);
    lane_shadow(cx, c->k, c, &L);
    return judge_eval(cx, kern, c, &L, res, want_check, NULL, msg, msglen);
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

/* ---- one case: decode -> write set -> images -> launch -> regions -> lanes -> record ---- */
/* The contract's write set for case c, in cx->ws (unsorted).  -1: out of memory. */
static int wset_build(td_ctx *cx, const td_case *c) {
    cx->ws.n = 0;
    cx->ws.oom = 0;
    /* the large tier: only the windows' lanes are kept (gen_large.h) */
    cx->ws.win_regs = c->large_regs;
    cx->ws.nwin = c->nwin;
    cx->ws.win = c->win;
    cx->ws.win_unit = c->win_unit;
    cx->ws.dropped = 0;
    c->k->writes(c, &cx->ws);
    return cx->ws.oom ? -1 : 0;
}

/* The value a kernel left in the cell of lane ol. */
static uint64_t lane_cell(const image *im, const td_case *c, const td_olane *ol) {
    unsigned eb = td_fmt_get(c->r[ol->region].fmt)->bytes;
    return load_raw(im[ol->region].buf + GUARD_BYTES + ol->off * eb, eb);
}

/* FNV-1a over 8-byte words, each step folding the high half down (a word's high bits
 * would otherwise reach only the hash's high bits), then the tail byte by byte: an
 * operand of a K = 2^23 integer matmul lane is 32 MiB, and hashing it byte-wise was
 * a fifth of that case's time. */
TD_NO_COVERAGE static uint64_t hash_bytes(const uint8_t *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, sizeof w);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 32;
    }
    for (; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* A hash of a region's contents; of a sparse one, its nonzero pages and where they
 * are (hashing every byte of 8 GiB would cost seconds per case). */
typedef struct page_hash {
    const uint8_t *base;
    uint64_t h;
} page_hash;
static void hash_range(void *u, size_t lo, size_t hi) {
    page_hash *ph = u;
    ph->h = (ph->h ^ hash_bytes(ph->base + lo, hi - lo)) * 0x100000001b3ull + lo;
}
static uint64_t region_hash(const td_region *R) {
    size_t bytes = R->len * td_fmt_get(R->fmt)->bytes;
    if (!R->mapped) return hash_bytes(R->data, bytes);
    page_hash ph = {R->data, 0xcbf29ce484222325ull ^ bytes};
    td_touched_pages(R->data, bytes, hash_range, &ph);
    return ph.h;
}

/* One case in flight through td_run_bytes. */
typedef struct run {
    td_ctx *cx;
    const td_kernel *kern;
    const td_contract *k;
    td_case c;
    td_case_result *res;
    image im[TD_MAX_REGIONS];         /* the run judged */
    image im2[TD_MAX_REGIONS];        /* the second run (other sentinel), when one was needed */
    int have2;
    uint8_t *inwrite[TD_MAX_REGIONS]; /* per output region: 1 for the cells of the write set */
    size_t inwrite_mapped[TD_MAX_REGIONS]; /* bytes of inwrite[i] when a sparse mapping (a large region) */
    double t;                         /* start of the current stage */
} run;

static int run_fail(run *R, const char *msg) {
    snprintf(R->res->msg, sizeof R->res->msg, "%s", msg);
    return TD_RUN_HARNESS_ERROR;
}

static int run_decode(run *R, const uint8_t *data, size_t size) {
    td_case_result *res = R->res;
    R->t = now();
    if (R->k->large && td_large_tier(data, size) && !R->cx->o.large) {
        snprintf(res->msg, sizeof res->msg,
                 "%s: an input of the large tier (more than 2^31 elements, gigabytes of address space): it runs only "
                 "with --large",
                 R->k->id);
        return TD_RUN_USAGE;
    }
    if (td_decode_case_shape(R->k, data, size, R->cx->shape, &R->c, res->msg, sizeof res->msg) != 0)
        return TD_RUN_HARNESS_ERROR;
    td_case_describe(&R->c, res->desc, sizeof res->desc);
    res->case_digest = td_fnv1a((const uint8_t *)res->desc, strlen(res->desc));
    for (int i = 0; i < R->k->nregions; i++)
        if (R->c.r[i].len)
            res->case_digest ^= region_hash(&R->c.r[i]) * (uint64_t)(2 * i + 3);
    memcpy(res->grid, R->c.grid, sizeof res->grid);
    res->st.cases = 1;
    res->st.classes = R->c.classes;
    setup_sh(R->cx, R->kern);
    memo_clear(R->cx);
    return TD_RUN_OK;
}

/* The write set must name cells of output regions, each at most once (a contract's
 * write addresses are injective): anything else is a bug in the contract. */
TD_NO_COVERAGE static int wset_check(run *R) {
    const td_wset *ws = &R->cx->ws;
    const td_contract *k = R->k;
    char m[sizeof R->res->msg];
    int ascending = 1; /* strictly, by (region, off): sorted, with no pair twice */
    /* the region's checks once per run of lanes of one region (the lanes' order kept, so
     * the first lane outside is the one reported): a region outside the contract's or not
     * an output makes every lane of its run fail, an offset is checked against the
     * run's length */
    uint32_t cur = UINT32_MAX;
    int cur_ok = 0;
    size_t cur_len = 0;
    for (size_t i = 0; i < ws->n; i++) {
        const td_olane *l = &ws->v[i];
        if (l->region != cur) {
            if (i && l->region < cur) ascending = 0;
            cur = l->region;
            cur_ok = cur < (uint32_t)k->nregions && (k->regions[cur].role & TD_R_OUT);
            cur_len = cur_ok ? R->c.r[cur].len : 0;
        } else if (l->off <= l[-1].off) {
            ascending = 0;
        }
        if (!cur_ok || l->off >= cur_len) {
            snprintf(m, sizeof m,
                     "harness bug: write set of %s names region %u offset %" PRIu64 " (outside the output regions)",
                     k->id, l->region, l->off);
            return run_fail(R, m);
        }
    }
    /* most contracts list their lanes in strictly ascending order: then neither the sort
     * nor the search for a pair written twice has anything to do (two more passes over
     * an elementwise case's ~2.5K lanes) */
    if (ascending) return TD_RUN_OK;
    td_wset_sort(&R->cx->ws); /* equal (region, off) pairs are reported as a harness bug right after */
    for (size_t i = 1; i < ws->n; i++)
        if (ws->v[i].region == ws->v[i - 1].region && ws->v[i].off == ws->v[i - 1].off) {
            snprintf(m, sizeof m,
                     "harness bug: write set of %s writes region %s offset %" PRIu64 " twice (the contract's write "
                     "addresses must be injective)",
                     k->id, k->regions[ws->v[i].region].name, ws->v[i].off);
            return run_fail(R, m);
        }
    return TD_RUN_OK;
}

/* The membership map: 1 for every cell of the write set. */
TD_NO_COVERAGE static void inwrite_mark(run *R) {
    for (size_t i = 0; i < R->cx->ws.n; i++) R->inwrite[R->cx->ws.v[i].region][R->cx->ws.v[i].off] = 1;
}

/* The write set, checked, and its membership map per output region. */
static int run_write_set(run *R) {
    const td_contract *k = R->k;
    if (wset_build(R->cx, &R->c) != 0) {
        char m[160];
        snprintf(m, sizeof m, "out of memory building the write set of %s", k->id);
        return run_fail(R, m);
    }
    int rc = wset_check(R);
    if (rc != TD_RUN_OK) return rc;
    for (int i = 0; i < k->nregions; i++) {
        if (!(k->regions[i].role & TD_R_OUT)) continue;
        size_t n = R->c.r[i].len ? R->c.r[i].len : 1;
        /* 2^31+ cells (the large tier, a sparse output): a sparse map of which only the
         * pages of the windows or of the write set are touched */
        if ((R->c.large_regs >> i & 1) || R->c.r[i].mapped) {
            void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            R->inwrite[i] = m == MAP_FAILED ? NULL : m;
            R->inwrite_mapped[i] = R->inwrite[i] ? n : 0;
        } else {
            R->inwrite[i] = calloc(n, 1);
        }
        if (!R->inwrite[i]) return run_fail(R, "out of memory");
    }
    inwrite_mark(R);
    R->res->st.lanes_sampled_out += R->cx->ws.dropped; /* the large tier's lanes outside its windows */
    R->res->st.t_decode = now() - R->t;
    return TD_RUN_OK;
}

/* Region images with guards and sentinels, then the kernel.  A launch error is a finding. */
/* run_launch's answer for a launch the backend cannot run: td_run_bytes turns it into
 * TD_RUN_OK with res->st.cases_not_covered = 1 and nothing judged. */
#define RUN_NOT_COVERED 100

static int run_launch(run *R) {
    td_case_result *res = R->res;
    R->t = now();
    if (R->c.large_regs && R->cx->dev) { /* a device image would need every region's gigabytes on the device */
        snprintf(res->msg, sizeof res->msg, "not covered on this backend: the large tier runs on the host backend only");
        res->st.cases_not_covered = 1;
        return RUN_NOT_COVERED;
    }
    if (images_prepare(R->cx, &R->c, R->im, 0, res->msg, sizeof res->msg) != 0) return TD_RUN_HARNESS_ERROR;
    int lr = launch(R->cx, R->kern, &R->c, R->im, res->msg, sizeof res->msg);
    if (lr == 1) { /* not covered: no lane is judged, nothing is a finding (res->msg says why) */
        res->st.cases_not_covered = 1;
        return RUN_NOT_COVERED;
    }
    if (lr != 0) {
        region_report(R->cx, res, TD_VC_LAUNCH, 0, 0, 0, res->msg);
        res->finding = 1;
        res->st.cases_with_finding = 1;
        return TD_RUN_FINDING;
    }
    R->res->st.t_kernel = now() - R->t;
    return TD_RUN_OK;
}

/* The guard zones on both sides of region i are intact. */
TD_NO_COVERAGE static void check_guards(run *R, int i) {
    const image *im = &R->im[i];
    unsigned eb = td_fmt_get(R->c.r[i].fmt)->bytes;
    for (size_t g = 0; g < GUARD_BYTES; g++)
        if (im->buf[g] != GUARD_BYTE(g)) {
            region_report(R->cx, R->res, TD_VC_GUARD, (uint32_t)i, 0, im->buf[g], "guard zone before the region written");
            break;
        }
    for (size_t g = 0; g < GUARD_BYTES; g++)
        if (im->buf[GUARD_BYTES + im->bytes + g] != GUARD_BYTE(g + 101)) {
            region_report(R->cx, R->res, TD_VC_GUARD, (uint32_t)i, R->c.r[i].len + g / eb,
                          im->buf[GUARD_BYTES + im->bytes + g], "guard zone after the region written");
            break;
        }
}

/* A read-only region i holds its initial contents, cell by cell: over the data bytes
 * [lo, hi) of its image. */
TD_NO_COVERAGE static void read_only_range(run *R, int i, size_t lo, size_t hi) {
    const uint8_t *d = R->im[i].buf + GUARD_BYTES, *init = R->c.r[i].data;
    unsigned eb = td_fmt_get(R->c.r[i].fmt)->bytes;
    if (hi <= lo || memcmp(d + lo, init + lo, hi - lo) == 0) return;
    for (size_t e = lo / eb; e < R->c.r[i].len && e * eb < hi; e++)
        if (memcmp(d + e * eb, init + e * eb, eb))
            region_report(R->cx, R->res, TD_VC_INPUT, (uint32_t)i, e, load_raw(d + e * eb, eb), "read-only region modified");
}

typedef struct ro_pages {
    run *R;
    int i;
} ro_pages;
/* [lo, hi) of the image's mapping (guards included) -> its data bytes */
static void read_only_page(void *u, size_t lo, size_t hi) {
    ro_pages *q = u;
    size_t n = q->R->im[q->i].bytes;
    lo = lo > GUARD_BYTES ? lo - GUARD_BYTES : 0;
    hi = hi > GUARD_BYTES ? hi - GUARD_BYTES : 0;
    read_only_range(q->R, q->i, lo, hi < n ? hi : n);
}

static void read_only_zeroed(void *u, size_t lo, size_t hi) {
    ro_pages *q = u;
    const uint8_t *d = q->R->im[q->i].buf + GUARD_BYTES + lo;
    for (size_t b = 0; b < hi - lo; b++)
        if (d[b]) return;
    read_only_range(q->R, q->i, lo, hi);
}

/* Of a sparse image only the pages someone touched can differ (the others read as
 * zero in the image and in the case); a page written back to all zeros differs where
 * the case's page held something, and every page the case wrote is compared. */
static void check_read_only(run *R, int i) {
    const image *m = &R->im[i];
    if (!m->mapped) {
        read_only_range(R, i, 0, m->bytes);
        return;
    }
    ro_pages q = {R, i};
    td_touched_pages(m->buf, m->mapped, read_only_page, &q);
    /* pages the case wrote and the kernel zeroed: nonzero in the case, zero in the image */
    td_touched_pages(R->c.r[i].data, m->bytes, read_only_zeroed, &q);
}

/* The cells of output region i outside the write set are untouched (the sentinel, or
 * the initial contents of an in-out region).  Returns 1 when a lane of the write set
 * still holds the sentinel (written with that value, or not written at all). */
static int check_outside_cells(run *R, int i, size_t lo, size_t hi);
static int check_outside_sparse(run *R, int i);
static void check_outside_inout(run *R, int i);
static int check_outside_write_set(run *R, int i) {
    if (R->im[i].mapped && !R->im[i].alias && R->k->regions[i].role == TD_R_INOUT) {
        check_outside_inout(R, i);
        return 0; /* no sentinels: an in-out lane is judged by its value */
    }
    if (R->im[i].mapped && !R->im[i].alias) return check_outside_sparse(R, i);
    if (!R->im[i].alias) return check_outside_cells(R, i, 0, R->c.r[i].len);
    int suspicious = 0; /* an aliased image (the large tier): its windows only */
    for (int w = 0; w < R->c.nwin; w++) {
        td_window e = td_case_window(&R->c, i, w);
        suspicious |= check_outside_cells(R, i, e.lo, e.hi);
    }
    return suspicious;
}

/* check_outside_write_set over cells [lo, hi) of region i. */
TD_NO_COVERAGE static int check_outside_cells(run *R, int i, size_t lo, size_t hi) {
    const uint8_t *d = R->im[i].buf + GUARD_BYTES;
    unsigned eb = td_fmt_get(R->c.r[i].fmt)->bytes;
    td_role role = R->k->regions[i].role;
    uint64_t s0 = sentinel(R->c.r[i].fmt, 0);
    int suspicious = 0;
    for (size_t e = lo; e < hi; e++) {
        uint64_t b = load_raw(d + e * eb, eb);
        if (R->inwrite[i][e]) {
            if (role == TD_R_OUT && b == s0) suspicious = 1;
            continue;
        }
        uint64_t expect = role == TD_R_OUT ? s0 : load_raw((uint8_t *)R->c.r[i].data + e * eb, eb);
        if (b != expect) region_report(R->cx, R->res, TD_VC_OUTSIDE, (uint32_t)i, e, b, "cell outside the write set modified");
    }
    return suspicious;
}

/* A page of a sparse output's image (bytes [lo, hi) of its mapping) off the write pages:
 * every cell reads as zero still. */
static void outside_page(void *u, size_t lo, size_t hi) {
    ro_pages *q = u;
    run *R = q->R;
    int i = q->i;
    unsigned eb = td_fmt_get(R->c.r[i].fmt)->bytes;
    size_t n = R->im[i].bytes;
    lo = lo > GUARD_BYTES ? lo - GUARD_BYTES : 0; /* the guards: check_guards */
    hi = hi > GUARD_BYTES ? hi - GUARD_BYTES : 0;
    if (hi > n) hi = n;
    if (hi <= lo || ws_hits(&R->cx->ws, i, lo / eb, hi / eb)) return; /* a write page: cell by cell already */
    const uint8_t *d = R->im[i].buf + GUARD_BYTES;
    for (size_t e = lo / eb; e < hi / eb; e++) {
        uint64_t b = load_raw(d + e * eb, eb);
        if (b) region_report(R->cx, R->res, TD_VC_OUTSIDE, (uint32_t)i, e, b, "cell outside the write set modified");
    }
}

/* check_outside_write_set of a sparse output (see image_fill_write_pages): its write
 * pages cell by cell, then every other page the kernel touched. */
static int check_outside_sparse(run *R, int i) {
    const td_wset *ws = &R->cx->ws;
    unsigned eb = td_fmt_get(R->c.r[i].fmt)->bytes;
    uint64_t done = 0, a, b;
    int suspicious = 0;
    for (size_t k = 0; k < ws->n; k++) {
        if (ws->v[k].region != (uint32_t)i || ws->v[k].off < done) continue;
        page_cells(ws->v[k].off * eb, eb, R->c.r[i].len, &a, &b);
        suspicious |= check_outside_cells(R, i, a, b);
        done = b;
    }
    ro_pages q = {R, i};
    td_touched_pages(R->im[i].buf, R->im[i].mapped, outside_page, &q);
    return suspicious;
}

/* A page of a sparse in-out image (bytes [lo, hi) of its mapping) that is nonzero:
 * every cell off the write set holds its initial value. */
static void inout_page(void *u, size_t lo, size_t hi) {
    ro_pages *q = u;
    unsigned eb = td_fmt_get(q->R->c.r[q->i].fmt)->bytes;
    size_t n = q->R->im[q->i].bytes;
    lo = lo > GUARD_BYTES ? lo - GUARD_BYTES : 0; /* the guards: check_guards */
    hi = hi > GUARD_BYTES ? hi - GUARD_BYTES : 0;
    if (hi > n) hi = n;
    if (hi > lo) (void)check_outside_cells(q->R, q->i, lo / eb, hi / eb);
}

static int bytes_zero(const uint8_t *p, size_t n) {
    for (size_t b = 0; b < n; b++)
        if (p[b]) return 0;
    return 1;
}

/* A page the case holds (data bytes [lo, hi)): the parts of it on image pages that read
 * all zero now (the kernel zeroed them; a nonzero image page is inout_page's). */
static void inout_zeroed(void *u, size_t lo, size_t hi) {
    ro_pages *q = u;
    const image *m = &q->R->im[q->i];
    unsigned eb = td_fmt_get(q->R->c.r[q->i].fmt)->bytes;
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    for (size_t p0 = page_down(GUARD_BYTES + lo, pg); p0 < GUARD_BYTES + hi; p0 += pg) {
        size_t p1 = p0 + pg < m->mapped ? p0 + pg : m->mapped;
        if (!bytes_zero(m->buf + p0, p1 - p0)) continue;
        size_t a = p0 > GUARD_BYTES + lo ? p0 - GUARD_BYTES : lo, b = p1 - GUARD_BYTES < hi ? p1 - GUARD_BYTES : hi;
        if (b > a) (void)check_outside_cells(q->R, q->i, a / eb, b / eb);
    }
}

/* check_outside_write_set of a sparse in-out region (see "sparse in-out regions"): the
 * image's nonzero pages cell by cell, then the case's pages the image holds as zero. */
static void check_outside_inout(run *R, int i) {
    ro_pages q = {R, i};
    td_touched_pages(R->im[i].buf, R->im[i].mapped, inout_page, &q);
    td_touched_pages(R->c.r[i].data, R->im[i].bytes, inout_zeroed, &q);
}

/* Guards of every region; read-only regions; cells outside the write set.  Lanes still
 * holding the sentinel: a second run with another sentinel tells an unwritten lane
 * from a lane whose correct value happens to equal the sentinel. */
static void run_check_regions(run *R) {
    int suspicious = 0;
    for (int i = 0; i < R->k->nregions; i++) {
        check_guards(R, i);
        td_role role = R->k->regions[i].role;
        if (role == TD_R_SCRATCH) continue; /* written, not specified: only the guards are checked */
        if (!(role & TD_R_OUT)) check_read_only(R, i);
        else suspicious |= check_outside_write_set(R, i);
    }
    if (suspicious) {
        char m2[256];
        R->have2 = images_prepare(R->cx, &R->c, R->im2, 1, m2, sizeof m2) == 0 &&
                   launch(R->cx, R->kern, &R->c, R->im2, m2, sizeof m2) == 0;
    }
}

/* A lane of the write set that holds the sentinel in both runs was never written. */
static int lane_unwritten(run *R, const td_olane *ol, uint64_t b) {
    td_fmt f = R->c.r[ol->region].fmt;
    if (R->k->regions[ol->region].role != TD_R_OUT || b != sentinel(f, 0)) return 0;
    if (R->have2 && lane_cell(R->im2, &R->c, ol) != sentinel(f, 1)) return 0;
    if (R->cx->obs) {
        td_lane_obs o = {(size_t)(ol - R->cx->ws.v), ol, TD_VC_UNWRITTEN, b, NAN, 0, NAN, NAN, NAN, R->cx, R->kern, &R->c, NAN, NAN};
        R->cx->obs(R->cx->obs_user, &o);
    }
    td_lane_report *l = add_report(R->cx, R->res, TD_VC_UNWRITTEN, INFINITY);
    if (l) {
        l->lane = *ol;
        l->has_lane = 1;
        l->region = ol->region;
        l->off = ol->off;
        l->got_bits = b;
        l->err_over_tol = INFINITY;
        snprintf(l->note, sizeof l->note, "lane of the write set still holds the sentinel");
    }
    R->res->st.lanes++;
    return 1;
}

/* The lanes the oracle judges under a production-shape sample, in cx->pick. */
static int sample_lanes(run *R) {
    td_ctx *cx = R->cx;
    if (cx->ws.n > cx->pickcap) {
        uint8_t *p = realloc(cx->pick, cx->ws.n);
        if (!p) return -1;
        cx->pick = p;
        cx->pickcap = cx->ws.n;
    }
    td_sample_info info;
    td_sample_opts o = *cx->sample;
    o.seed ^= R->res->case_digest; /* each case its own draw, the same one for the same bytes */
    if (td_sample_pick(cx->ws.v, cx->ws.n, R->c.grid, &o, cx->pick, &info) != 0) return -1;
    td_sample_info_add(&cx->sampled, &info);
    return 0;
}

/* Per region, what reading a lane's cell needs: its element width, and the first
 * sentinel of an output region (only a cell that holds it can be unwritten).  Looked up
 * once per case: td_fmt_get and the sentinel's switch were per-lane work. */
typedef struct lane_cells {
    unsigned eb[TD_MAX_REGIONS];
    uint64_t s0[TD_MAX_REGIONS];
    uint8_t out[TD_MAX_REGIONS];
} lane_cells;

static void lane_cells_init(const run *R, lane_cells *lc) {
    for (int i = 0; i < R->k->nregions; i++) {
        lc->eb[i] = td_fmt_get(R->c.r[i].fmt)->bytes;
        lc->s0[i] = sentinel(R->c.r[i].fmt, 0);
        lc->out[i] = R->k->regions[i].role == TD_R_OUT;
    }
}

/* The batched verdict path (td_contract.spec_sh_run): the shadows of a run of lanes in
 * one call, then each lane that the shadow alone passes -- finite kernel value, finite
 * shadow value and bound, a defined value, no signed-zero question, |got - v| clearly
 * within ep (rule "shadow decides") -- counted here as lane_statistics counts a PASS.
 * Every other lane (unwritten, special, near or beyond its bound, undefined) goes to
 * judge_lane, which evaluates its spec again: the verdicts, statistics, reports and
 * their order are those of the per-lane path (tests/test_judge_run.c compares both). */
#define RUN_LANES 256

/* 1 when the shadow alone passes the lane (counted in res); 0: judge_lane decides it. */
static inline int judge_simple(td_case_result *res, const td_contract *k, const td_olane *ol, uint64_t got_bits,
                               td_fmt of, const td_sh *s, uint32_t lf) {
    double got = got_value(of, got_bits), v = s->v;
    if (!isfinite(got) || !isfinite(v) || !isfinite(s->ek) || (s->fl & TD_SH_UNDEF) || (k->signed_zero && got == 0))
        return 0;
    /* lane_shadow's |got - v| and its enclosure's upper end */
    double diff = got - v;
    double bb = diff - got, terr = (got - (diff - bb)) + (-v - bb);
    double d = fabs(diff), dhi = terr == 0 ? d : d * (1 + 0x1p-52);
    if (!(dhi + s->es <= s->ep)) return 0;
    /* judge_lane's err/tol of a finite bound; d <= ep <= ek puts it in [0, 1], and the
     * statistics below are lane_statistics's for a PASS lane of such an err/tol */
    double eot = s->ek > 0 ? d / s->ek : (d == 0 ? 0 : INFINITY);
    if (!(eot <= 1)) return 0;
    res->st.lanes++;
    if (eot > res->st.worst_err_over_tol) res->st.worst_err_over_tol = eot;
    res->st.hist[err_tol_bin(eot)]++;
    if (!res->has_top || eot > res->top.err_over_tol) {
        lane_eval L;
        L.ol = ol;
        L.got_bits = got_bits;
        L.of = of;
        L.got = got;
        L.s = *s;
        L.lf = lf;
        L.d = d;
        L.cls = L.scls = TD_VC_PASS;
        L.ref = v;
        L.eot = eot;
        set_top(res, &L);
    }
    double ul = got != v ? fabs(got - v) / ulp_out(of, v) : 0; /* the reference is v, finite, as got */
    if (ul > res->st.worst_ulps) res->st.worst_ulps = ul;
    return 1;
}

/* 1 when a lane whose exact value the contract knows to be NaN or +-inf
 * (td_contract.ref_nonfinite) holds that same special value, with a shadow value that
 * is not finite and defined: judge_left would pass it at distance 0 (rule_shadow_decides
 * sends it to its reference, rule_against_nonfinite_reference finds the same value),
 * counted here as judge_eval counts it (err/tol 0: histogram bin 0, no worst, no ulp).
 * The case's top lane, still unset or with a negative err/tol, is left to judge_left.
 * add_example's NaN and infinite lanes cost ~900 instructions each through judge_left. */
static inline int judge_special_same(td_case_result *res, const td_contract *k, const td_case *c, const td_olane *ol,
                                     uint64_t got_bits, td_fmt of, const td_sh *s) {
    double got, ref;
    if (of == TD_F32) { /* only the class of a NaN and the sign of an infinity are read */
        uint32_t b = (uint32_t)got_bits;
        float y;
        memcpy(&y, &b, sizeof y);
        got = y;
    } else {
        got = got_value(of, got_bits);
    }
    if (isfinite(got) || isfinite(s->v) || ((s->fl & TD_SH_UNDEF) && !k->nonfinite_inputs)) return 0;
    if (!res->has_top || 0 > res->top.err_over_tol) return 0;
    if (!k->ref_nonfinite(c, ol, &ref) || isfinite(ref)) return 0;
    if (isnan(ref) ? !isnan(got) : !(isinf(got) && (got > 0) == (ref > 0))) return 0;
    res->st.lanes++;
    res->st.lanes_mpfr++; /* lane_nonfinite_ref's count */
    res->st.hist[err_tol_bin(0)]++;
    return 1;
}

/* A lane the batched path leaves: judge_lane's rules on the run entry's shadow (the
 * per-lane spec's, bit for bit: not evaluated a second time), on the contract's own
 * exact reference where it knows it to be NaN or +-inf (td_contract.ref_nonfinite).
 * Never inlined into judge_run: these rules stay instrumented for coverage. */
__attribute__((noinline)) static td_vclass judge_left(td_ctx *cx, const td_kernel *kern, const td_case *c,
                                                      const td_olane *ol, uint64_t got_bits, const td_sh *s,
                                                      uint32_t lf, td_case_result *res, char *msg, size_t msglen) {
    lane_eval L;
    lane_eval_start(&L, ol, got_bits);
    lane_eval_set(c->k, c, &L, s, lf);
    double ref;
    int known = c->k->ref_nonfinite && c->k->ref_nonfinite(c, ol, &ref) && !isfinite(ref);
    return judge_eval(cx, kern, c, &L, res, 0, known ? &ref : NULL, msg, msglen);
}

TD_NO_COVERAGE static int judge_run(run *R, const lane_cells *lc, char *msg, size_t msglen) {
    td_ctx *cx = R->cx;
    const td_contract *k = R->k;
    td_sh sh[RUN_LANES];
    uint32_t lf[RUN_LANES];
    for (size_t i0 = 0; i0 < cx->ws.n; i0 += RUN_LANES) {
        size_t n = cx->ws.n - i0 < RUN_LANES ? cx->ws.n - i0 : RUN_LANES;
        const td_olane *run_l = &cx->ws.v[i0];
        k->spec_sh_run(&cx->sh, &R->c, run_l, n, sh, lf);
        for (size_t j = 0; j < n; j++) {
            const td_olane *ol = &run_l[j];
            uint32_t g = ol->region;
            uint64_t b = load_raw(R->im[g].buf + GUARD_BYTES + ol->off * lc->eb[g], lc->eb[g]);
            if (b == lc->s0[g] && lc->out[g] && lane_unwritten(R, ol, b)) continue;
            if (judge_simple(R->res, k, ol, b, R->c.r[g].fmt, &sh[j], lf[j])) continue;
            if (k->ref_nonfinite && judge_special_same(R->res, k, &R->c, ol, b, R->c.r[g].fmt, &sh[j])) continue;
            if (judge_left(cx, R->kern, &R->c, ol, b, &sh[j], lf[j], R->res, msg, msglen) == TD_VC_COUNT) return -1;
        }
    }
    return 0;
}

/* The batched path judges a case when the contract has a run entry and nothing needs
 * every lane one by one: no lane observer, no sample, no MPFR check of every lane. */
static int batched(const run *R) {
    const td_ctx *cx = R->cx;
    return R->k->spec_sh_run && !R->k->by_intent && !cx->obs && !cx->sample && !cx->o.mpfr_all &&
           !cx->o.lane_by_lane;
}

/* Every lane of the write set: unwritten, or judged.  Under a sample the oracle judges
 * the sampled lanes only; the sentinel test (unwritten) still sees every lane. */
static int run_judge_lanes(run *R) {
    if (R->cx->sample && sample_lanes(R) != 0) return run_fail(R, "out of memory sampling the lanes");
    char msg[512]; /* set only where judge_lane fails (clearing 512 bytes a lane cost as much as an add's spec) */
    msg[0] = 0;
    lane_cells lc;
    lane_cells_init(R, &lc);
    if (batched(R)) return judge_run(R, &lc, msg, sizeof msg) == 0 ? TD_RUN_OK : run_fail(R, msg);
    for (size_t i = 0; i < R->cx->ws.n; i++) {
        const td_olane *ol = &R->cx->ws.v[i];
        uint32_t g = ol->region;
        uint64_t b = load_raw(R->im[g].buf + GUARD_BYTES + ol->off * lc.eb[g], lc.eb[g]); /* lane_cell's value */
        /* lane_unwritten's own first test, without its lookups, on every lane */
        if (b == lc.s0[g] && lc.out[g] && lane_unwritten(R, ol, b)) continue;
        if (R->cx->sample && !R->cx->pick[i]) {
            R->res->st.lanes_sampled_out++;
            continue;
        }
        if (judge_lane(R->cx, R->kern, &R->c, ol, b, R->res, R->cx->o.mpfr_all, msg, sizeof msg) == TD_VC_COUNT)
            return run_fail(R, msg);
    }
    return TD_RUN_OK;
}

/* The top lane's exact reference and the terms of its bound (its report shows them). */
static void top_lane_details(run *R) {
    td_lane_report *t = &R->res->top;
    (void)mp_reference(R->cx, R->k, &R->c, &t->lane, t->ref_exact, t->ref_precast);
    (void)trace_replay(R->cx, R->k, &R->c, &t->lane);
    td_lane_terms(t, &R->cx->trace);
}

/* The worst report first (insertion sort: at most max_reports of them). */
static void sort_reports(td_case_result *res) {
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
}

/* The case's outcome: a finding when any lane or region is. */
static int run_record(run *R) {
    td_case_result *res = R->res;
    int rc = TD_RUN_OK;
    for (int v = 0; v < TD_VC_COUNT; v++)
        if (td_vclass_is_finding((td_vclass)v) && res->st.findings[v]) res->finding = 1;
    if (res->finding) {
        res->st.cases_with_finding = 1;
        rc = TD_RUN_FINDING;
    }
    if (res->has_top && (res->finding || !R->cx->o.top_details_findings_only)) top_lane_details(R);
    sort_reports(res);
    return rc;
}

/* After the launch: regions, then lanes, then the outcome. */
static int run_check(run *R) {
    double t2 = now();
    run_check_regions(R);
    double t3 = now();
    int rc = run_judge_lanes(R);
    if (rc != TD_RUN_OK) return rc;
    R->res->st.t_oracle = now() - t3;
    R->res->st.t_compare = t3 - t2;
    return run_record(R);
}

/* A kernel judged by its contract's intent: a case on which the operation is not defined
 * (the intent's gap: it needs inputs the launch does not read) or whose lanes are partials
 * of a split reduction (the intent's partial) is not covered. */
static int run_intent_gap(run *R) {
    const td_contract *k = R->k;
    const char *why = k->by_intent && k->intent->partial ? k->intent->partial(&R->c) : NULL;
    if (!why) why = k->by_intent && k->intent->gap ? k->intent->gap(&R->c) : NULL;
    if (!why) return TD_RUN_OK;
    R->res->st.cases_not_covered = 1;
    snprintf(R->res->msg, sizeof R->res->msg, "not covered by the intent: %s", why);
    return RUN_NOT_COVERED;
}

static void run_free_inwrite(run *R) {
    for (int i = 0; i < TD_MAX_REGIONS; i++)
        if (R->inwrite_mapped[i]) munmap(R->inwrite[i], R->inwrite_mapped[i]);
        else free(R->inwrite[i]);
}

int td_run_bytes(td_ctx *cx, const td_kernel *kern, const uint8_t *data, size_t size, td_case_result *res) {
    memset(res, 0, sizeof *res);
    run R;
    memset(&R, 0, sizeof R);
    R.cx = cx;
    R.kern = kern;
    R.k = kern->k;
    R.res = res;
    int rc = run_decode(&R, data, size);
    if (rc == TD_RUN_OK) rc = run_intent_gap(&R);
    if (rc == TD_RUN_OK) rc = run_write_set(&R);
    if (rc == TD_RUN_OK) rc = run_launch(&R);
    if (rc == TD_RUN_OK) rc = run_check(&R);
    if (rc == RUN_NOT_COVERED) rc = TD_RUN_OK;
    run_free_inwrite(&R);
    images_free(cx, R.im2, R.k->nregions);
    images_free(cx, R.im, R.k->nregions);
    td_case_free(&R.c);
    return rc;
}

/* Every lane the source gives a value: judged as if a kernel had written it. */
static int judge_source_lanes(run *R, const td_value_source *src) {
    for (size_t i = 0; i < R->cx->ws.n; i++) {
        const td_olane *ol = &R->cx->ws.v[i];
        uint64_t b;
        if (src->value(src->user, &R->c, ol, &b) != 0) continue;
        char msg[512] = "";
        if (judge_lane(R->cx, R->kern, &R->c, ol, b, R->res, R->cx->o.mpfr_all, msg, sizeof msg) == TD_VC_COUNT)
            return run_fail(R, msg);
    }
    return TD_RUN_OK;
}

int td_judge_bytes(td_ctx *cx, const td_kernel *kern, const uint8_t *data, size_t size, const td_value_source *src,
                   td_case_result *res) {
    memset(res, 0, sizeof *res);
    run R;
    memset(&R, 0, sizeof R);
    R.cx = cx;
    R.kern = kern;
    R.k = kern->k;
    R.res = res;
    int rc = run_decode(&R, data, size);
    if (rc == TD_RUN_OK) rc = run_write_set(&R);
    if (rc == TD_RUN_OK && src->begin(src->user, &R.c, &cx->ws) != 0) rc = RUN_NOT_COVERED;
    if (rc == TD_RUN_OK) rc = judge_source_lanes(&R, src);
    if (rc == TD_RUN_OK) rc = run_record(&R);
    if (rc == RUN_NOT_COVERED) rc = TD_RUN_OK, res->st.cases_not_covered = 1;
    run_free_inwrite(&R);
    td_case_free(&R.c);
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

/* The contract, the kernel, and the case, as explain prints them first. */
static void explain_case(FILE *f, const td_ctx *cx, const td_kernel *kern, const td_case *c, int launched,
                         const char *err) {
    const td_contract *k = kern->k;
    char desc[1024];
    td_case_describe(c, desc, sizeof desc);
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
        if (c->classes & (1ull << b)) fprintf(f, " %s", td_bclass_name(b));
    fprintf(f, "\n  regions (first values):\n");
    for (int i = 0; i < k->nregions; i++) print_region_head(f, c, i);
    fprintf(f, "  write set: %zu lanes\n", cx->ws.n);
    if (!launched) fprintf(f, "  kernel: %s\n", err);
}

/* The lane to explain: `lane` when given (TD_RUN_USAGE when out of range), else the
 * first lane that is a finding or a WARN (lane 0 when there is none or the kernel did
 * not run). */
static int explain_pick_lane(td_ctx *cx, const td_kernel *kern, const td_case *c, const image *im, int launched, long lane,
                             size_t *li) {
    *li = 0;
    if (lane >= 0) {
        if ((size_t)lane >= cx->ws.n) {
            fprintf(stderr, "tilediff explain: lane %ld out of range (the write set has %zu lanes, 0..%zu)\n", lane,
                    cx->ws.n, cx->ws.n - 1);
            return TD_RUN_USAGE;
        }
        *li = (size_t)lane;
        return TD_RUN_OK;
    }
    if (!launched) return TD_RUN_OK;
    td_case_result tmp;
    memset(&tmp, 0, sizeof tmp);
    for (size_t i = 0; i < cx->ws.n; i++) {
        const td_olane *ol = &cx->ws.v[i];
        char m[256];
        td_vclass v = judge_lane(cx, kern, c, ol, lane_cell(im, c, ol), &tmp, 0, m, sizeof m);
        if (v != TD_VC_PASS && v != TD_VC_UNBOUNDED) {
            *li = i;
            break;
        }
    }
    td_result_free(&tmp);
    return TD_RUN_OK;
}

/* The lane's bound, step by step (the trace replay), and its exact reference. */
static td_sh explain_bound(FILE *f, td_ctx *cx, const td_case *c, size_t li, double *ref) {
    const td_contract *k = c->k;
    const td_olane *ol = &cx->ws.v[li];
    fprintf(f, "\nlane %zu: pid=(%u,%u,%u) j=%" PRIu64 " step %u, output %u -> %s[%" PRIu64 "]", li, ol->pid[0],
            ol->pid[1], ol->pid[2], ol->j, ol->t, ol->o + 1, k->regions[ol->region].name, ol->off);
    fprintf(f, "  idx=(%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ")\n", ol->idx[0], ol->idx[1], ol->idx[2], ol->idx[3]);
    td_sh s = trace_replay(cx, k, c, ol);
    char rs[REF_STR], pc[REF_STR] = "";
    td_mp R = mp_reference(cx, k, c, ol, rs, pc);
    *ref = mpfr_get_d(R->x, MPFR_RNDN);
    if (pc[0]) fprintf(f, "  reference   %s  (exact value before the cast: %s)\n", rs, pc);
    else fprintf(f, "  reference   %s  (exact, MPFR %ld bits)\n", rs, (long)cx->mp.prec);
    fprintf(f, "  shadow      %.17g  +- %.3g (binary64 evaluation and its own error bound)\n", s.v, s.es);
    fprintf(f, "  bound       %.6g worst case (FAIL beyond), %.6g probabilistic (WARN beyond)\n", s.ek, s.ep);
    td_trace_print(f, &cx->trace, cx->o.explain_full);
    uint32_t lf = cx->sh.lane_flags;
    if (lf)
        fprintf(f, "  lane flags:%s%s%s%s\n", lf & TD_LF_MAYOVF ? " may-overflow" : "", lf & TD_LF_UNBOUNDED ? " unbounded" : "",
                lf & TD_LF_DOMAIN ? " domain-edge" : "", lf & TD_LF_TIE ? " near-a-boundary" : "");
    return s;
}

/* The kernel's value of the lane and its verdict.  Returns TD_RUN_FINDING when it is one. */
static int explain_kernel_value(FILE *f, td_ctx *cx, const td_kernel *kern, const td_case *c, const image *im, size_t li,
                                td_sh s, double ref) {
    const td_olane *ol = &cx->ws.v[li];
    td_fmt of = c->r[ol->region].fmt;
    unsigned eb = td_fmt_get(of)->bytes;
    uint64_t b = lane_cell(im, c, ol);
    double got = of == TD_I64 ? (double)td_decode_i64(b) : td_decode(of, b);
    char g[64];
    if (of == TD_I64) snprintf(g, sizeof g, "%" PRId64, td_decode_i64(b));
    else td_format_value(of, b, g, sizeof g);
    td_case_result tmp;
    memset(&tmp, 0, sizeof tmp);
    char m[256];
    td_vclass v = judge_lane(cx, kern, c, ol, b, &tmp, 0, m, sizeof m);
    double ulps = (isfinite(ref) && isfinite(got)) ? (got - ref) / ulp_out(of, ref) : NAN;
    char et[64];
    td_errtol_str(s.ek > 0 ? fabs(got - ref) / s.ek : (got == ref ? 0 : INFINITY), ulps, et, sizeof et);
    fprintf(f, "  kernel      %s (0x%0*" PRIx64 ")  error %.6g = %.4g ulp(%s)  err/tol %s  -> %s\n", g, (int)eb * 2, b,
            fabs(got - ref), ulps, td_fmt_get(of)->name, et, td_vclass_name(v));
    td_result_free(&tmp);
    return td_vclass_is_finding(v) ? TD_RUN_FINDING : TD_RUN_OK;
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
    (void)wset_build(cx, &c); /* out of memory: the lanes built so far are explained */
    td_wset_sort(&cx->ws);
    image im[TD_MAX_REGIONS];
    memset(im, 0, sizeof im);
    int launched = images_prepare(cx, &c, im, 0, err, sizeof err) == 0 && launch(cx, kern, &c, im, err, sizeof err) == 0;
    explain_case(f, cx, kern, &c, launched, err);
    size_t li;
    int rc = TD_RUN_OK;
    if (cx->ws.n == 0) fprintf(f, "no lane to explain\n");
    else if ((rc = explain_pick_lane(cx, kern, &c, im, launched, lane, &li)) == TD_RUN_OK) {
        double ref;
        td_sh s = explain_bound(f, cx, &c, li, &ref);
        if (launched) rc = explain_kernel_value(f, cx, kern, &c, im, li, s, ref);
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

/* Case i of a contract's campaign: of a contract with a far hook, every TD_FAR_EVERY-th
 * case is of the far tier (offsets beyond 2^31: the magic, then case i's bytes); every
 * other case is td_case_bytes(seed, i), as for every other contract. */
void td_campaign_case_bytes_tier(const td_contract *k, uint64_t seed, uint64_t i, int large, uint8_t *out, size_t n) {
    if (!large || !k->large || i % TD_FAR_EVERY != TD_LARGE_AT || n <= TD_LARGE_MAGIC_LEN) {
        td_campaign_case_bytes(k, seed, i, out, n);
        return;
    }
    memcpy(out, TD_LARGE_MAGIC, TD_LARGE_MAGIC_LEN);
    td_case_bytes(seed, i, out + TD_LARGE_MAGIC_LEN, n - TD_LARGE_MAGIC_LEN);
}

void td_campaign_case_bytes(const td_contract *k, uint64_t seed, uint64_t i, uint8_t *out, size_t n) {
    if (!k->far || i % TD_FAR_EVERY != TD_FAR_EVERY - 1 || n <= TD_FAR_MAGIC_LEN) {
        td_case_bytes(seed, i, out, n);
        return;
    }
    memcpy(out, TD_FAR_MAGIC, TD_FAR_MAGIC_LEN);
    td_case_bytes(seed, i, out + TD_FAR_MAGIC_LEN, n - TD_FAR_MAGIC_LEN);
}
