#include "campaign.h"
#include "gen_large.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *td_lclass_name(td_lclass c) {
    static const char *n[TD_LC_COUNT] = {"region", "interior", "first-program", "last-program", "single-program"};
    return (unsigned)c < TD_LC_COUNT ? n[c] : "?";
}

td_lclass td_lane_class(const td_case_result *r, const td_lane_report *l, const uint32_t grid[3]) {
    (void)r;
    if (!l->has_lane) return TD_LC_REGION;
    uint64_t programs = (uint64_t)grid[0] * grid[1] * grid[2];
    if (programs <= 1) return TD_LC_SINGLE;
    int first = 1, last = 0;
    for (int a = 0; a < 3; a++) {
        if (l->lane.pid[a] != 0) first = 0;
        if (grid[a] > 1 && l->lane.pid[a] == grid[a] - 1) last = 1;
    }
    return first ? TD_LC_FIRST : last ? TD_LC_LAST : TD_LC_INTERIOR;
}

int td_finding_key(const td_kernel *kern, const uint8_t *data, size_t size, const td_case_result *r, td_fkey *key) {
    (void)kern, (void)data, (void)size;
    if (!r->finding || r->nrep == 0) return -1;
    const td_lane_report *l = &r->rep[0];
    key->cls = l->cls;
    key->region = l->region;
    key->lc = td_lane_class(r, l, r->grid);
    key->rel = -1;
    for (int i = 0; i < r->nrep; i++) {
        const td_lane_report *x = &r->rep[i];
        if (x->has_lane && x->cls == l->cls && x->region == l->region && (key->rel < 0 || (int64_t)x->lane.j < key->rel))
            key->rel = (int64_t)x->lane.j;
    }
    return 0;
}

int td_same_root(const td_fkey *a, const td_fkey *b) {
    return a->cls == b->cls && a->region == b->region && a->rel == b->rel;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The finding key of `data`, or -1 (no finding / harness error). */
static int key_of(td_ctx *cx, const td_kernel *kern, const uint8_t *data, size_t size, td_fkey *key) {
    td_case_result r;
    int rc = td_run_bytes(cx, kern, data, size, &r);
    int ok = rc == TD_RUN_FINDING ? td_finding_key(kern, data, size, &r, key) : -1;
    td_result_free(&r);
    return ok;
}

static int same_key(td_fkey a, td_fkey b) { return a.cls == b.cls && a.region == b.region && a.lc == b.lc; }

int td_minimize(td_ctx *cx, const td_kernel *kern, const uint8_t *data, size_t size, uint8_t **out, size_t *outn,
                int max_runs) {
    td_fkey want;
    if (key_of(cx, kern, data, size, &want) != 0) return -1;
    uint8_t *cur = malloc(size ? size : 1), *tmp = malloc(size ? size : 1);
    if (!cur || !tmp) {
        free(cur);
        free(tmp);
        return -1;
    }
    memcpy(cur, data, size);
    size_t n = size;
    int runs = 0;
    /* 1. delete chunks (halving the chunk size), front to back */
    for (size_t chunk = n / 2 ? n / 2 : 1; chunk >= 1 && runs < max_runs; chunk /= 2) {
        for (size_t at = 0; at + chunk <= n && runs < max_runs;) {
            memcpy(tmp, cur, at);
            memcpy(tmp + at, cur + at + chunk, n - at - chunk);
            td_fkey k;
            runs++;
            if (key_of(cx, kern, tmp, n - chunk, &k) == 0 && same_key(k, want)) {
                memcpy(cur, tmp, n - chunk);
                n -= chunk;
            } else
                at += chunk;
        }
        if (chunk == 1) break;
    }
    /* 2. simplify bytes: 0, then halve (smaller choices mean smaller shapes and values) */
    for (size_t i = 0; i < n && runs < max_runs; i++) {
        uint8_t orig = cur[i];
        const uint8_t tries[3] = {0, (uint8_t)(orig / 2), (uint8_t)(orig - 1)};
        for (int t = 0; t < 3 && runs < max_runs && cur[i]; t++) {
            if (tries[t] >= cur[i]) continue;
            uint8_t keep = cur[i];
            cur[i] = tries[t];
            td_fkey k;
            runs++;
            if (key_of(cx, kern, cur, n, &k) == 0 && same_key(k, want)) break;
            cur[i] = keep;
        }
    }
    free(tmp);
    *out = cur;
    *outn = n;
    return 0;
}

static void keep_worst(td_campaign *c, const td_lane_report *l) {
    if (!l->has_lane) return;
    int n = c->nworst;
    if (n == 8 && !(l->err_over_tol > c->worst[7].err_over_tol)) return;
    int i = n < 8 ? n : 7;
    while (i > 0 && c->worst[i - 1].err_over_tol < l->err_over_tol) {
        if (i < 8) c->worst[i] = c->worst[i - 1];
        i--;
    }
    c->worst[i] = *l;
    if (n < 8) c->nworst++;
}

/* "fail in out_ptr (lane 3 of the tile, first seen in the last-program), first in
 * case 17; minimised: <the case>" ("case: <the case>" where it was not minimised) */
static void finding_summary(td_finding *f, const td_kernel *kern, const char *desc, int minimised) {
    char where[96] = "";
    if (f->key.rel >= 0)
        snprintf(where, sizeof where, " (lane %lld of the tile, first seen in the %s)", (long long)f->key.rel,
                 td_lclass_name(f->key.lc));
    snprintf(f->summary, sizeof f->summary, "%s in %s%s, first in case %llu; %s: %.360s",
             td_vclass_name(f->key.cls), kern->k->regions[f->key.region].name, where,
             (unsigned long long)f->first_case, minimised ? "minimised" : "case", desc);
}

typedef struct case_acc {
    td_qsketch *q;
    double sum;
    uint64_t n;
} case_acc;

static void observe(void *user, const td_lane_obs *o) {
    case_acc *a = user;
    if (!o->checked || !isfinite(o->err_over_tol)) return;
    td_qs_add(a->q, o->err_over_tol);
    a->sum += o->err_over_tol;
    a->n++;
}

/* FNV-1a step over a case digest: the campaign's digest depends on every case and its order */
static uint64_t fold_digest(uint64_t h, uint64_t d) {
    for (int i = 0; i < 8; i++) h = (h ^ ((d >> (8 * i)) & 0xff)) * 0x100000001b3ull;
    return h;
}

/* A finding of a new root cause at case i (bytes b, result r): its reproducer,
 * minimised when the campaign asks (not a large case: each of the minimiser's runs
 * would take seconds), and its worst lane from the reproducer's run (of a large case,
 * this run's: it is not run again). */
static void new_finding(td_ctx *cx, const td_kernel *kern, const td_campaign_opts *o, td_finding *f, const td_fkey *key,
                        uint64_t i, const uint8_t *b, size_t n, const td_case_result *r) {
    memset(f, 0, sizeof *f);
    f->key = *key;
    f->count = 1;
    f->first_case = i;
    uint8_t *m = NULL;
    size_t mn = 0;
    int large = td_large_tier(b, n);
    int minimised = o->minimize && !large && td_minimize(cx, kern, b, n, &m, &mn, 400) == 0;
    if (!minimised) {
        m = malloc(n);
        if (m) memcpy(m, b, n);
        mn = m ? n : 0;
    }
    f->bytes = m;
    f->size = mn;
    td_case_result rm;
    int again = m && !large;
    if (large && r->nrep) {
        f->worst = r->rep[0];
        f->has_worst = 1;
        finding_summary(f, kern, r->desc, 0);
    } else if (again && td_run_bytes(cx, kern, m, mn, &rm) == TD_RUN_FINDING && rm.nrep) {
        f->worst = rm.rep[0];
        f->has_worst = 1;
        finding_summary(f, kern, rm.desc, minimised);
    } else {
        finding_summary(f, kern, r->desc, minimised);
    }
    if (again) td_result_free(&rm);
}

int td_campaign_run(td_ctx *cx, const td_kernel *kern, const td_campaign_opts *o, td_campaign *c) {
    memset(c, 0, sizeof *c);
    c->kern = kern;
    c->cases_digest = 0xcbf29ce484222325ull;
    double t0 = now();
    int rc = TD_RUN_OK;
    for (uint64_t i = 0;; i++) {
        if (o->max_cases && i >= o->max_cases) break;
        if (o->seconds > 0 && i > 0 && i >= o->min_cases && now() - t0 >= o->seconds) break;
        if (o->progress) *o->progress = i;
        uint8_t b[64];
        td_campaign_case_bytes_tier(kern->k, o->seed, i, o->large, b, sizeof b);
        td_case_result r;
        case_acc acc = {&c->eot, 0, 0};
        td_ctx_set_lane_observer(cx, observe, &acc); /* this case only: not the minimiser's runs */
        int x = td_run_bytes(cx, kern, b, sizeof b, &r);
        td_ctx_set_lane_observer(cx, NULL, NULL);
        td_scores_push(&c->case_eot, acc.n ? acc.sum / (double)acc.n : NAN);
        c->cases_digest = fold_digest(c->cases_digest, r.case_digest);
        c->cases++;
        td_stats_merge(&c->st, &r.st);
        if (r.st.cases_not_covered && !c->not_covered_msg[0])
            snprintf(c->not_covered_msg, sizeof c->not_covered_msg, "%.500s", r.msg);
        if (x == TD_RUN_HARNESS_ERROR) {
            c->harness_error = 1;
            snprintf(c->harness_msg, sizeof c->harness_msg, "case %llu: %.450s", (unsigned long long)i, r.msg);
            td_result_free(&r);
            rc = TD_RUN_HARNESS_ERROR;
            break;
        }
        if (r.has_top) keep_worst(c, &r.top);
        for (int k = 0; k < r.nrep; k++) keep_worst(c, &r.rep[k]);
        if (x == TD_RUN_FINDING) {
            rc = TD_RUN_FINDING;
            td_fkey key;
            td_finding_key(kern, b, sizeof b, &r, &key);
            int at = -1;
            for (int k = 0; k < c->nf; k++)
                if (td_same_root(&c->f[k].key, &key)) at = k;
            if (at >= 0) {
                c->f[at].count++;
            } else {
                if (c->nf == c->capf) {
                    int cap = c->capf ? 2 * c->capf : 4;
                    td_finding *nf = realloc(c->f, (size_t)cap * sizeof *nf);
                    if (!nf) {
                        td_result_free(&r);
                        break;
                    }
                    c->f = nf;
                    c->capf = cap;
                }
                new_finding(cx, kern, o, &c->f[c->nf++], &key, i, b, sizeof b, &r);
            }
            if (o->stop_at_first) {
                td_result_free(&r);
                break;
            }
        }
        td_result_free(&r);
    }
    c->seconds = now() - t0;
    return rc;
}

void td_campaign_free(td_campaign *c) {
    for (int i = 0; i < c->nf; i++) free(c->f[i].bytes);
    free(c->f);
    td_scores_free(&c->case_eot);
    memset(c, 0, sizeof *c);
}
