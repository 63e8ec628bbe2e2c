/* tilediff audit: a contract's spec against its intent (see audit.h). */
#include "audit.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rounding.h"

/* The "kernel" audit judges: a textbook implementation of the intent.  It declares
 * nothing (the contract's admissible bound applies), uses the default casts and the
 * union math model, and is never launched. */
static int never_launched(const td_abi_launch *L) {
    (void)L;
    return TD_ABI_NOT_COVERED;
}

static int textbook_kernel(const td_contract *k, td_abi_kernel *abi, td_kernel *kern, char *err, size_t errlen) {
    memset(abi, 0, sizeof *abi);
    abi->contract_id = k->id;
    abi->variant = "intent";
    abi->backend = TD_ABI_HOST;
    abi->nparams = (uint32_t)k->nparams;
    abi->nregions = (uint32_t)k->nregions;
    abi->launch = never_launched;
    const td_abi_kernel *list[1] = {abi};
    td_abi_table t = {TD_KERNEL_ABI_VERSION, 1, list, "audit"};
    td_kernel_set set;
    if (td_kernels_bind(&t, "audit", &set, err, errlen) != TD_LOAD_OK || set.n != 1) return -1;
    *kern = set.kernels[0];
    kern->k = k; /* the contract audited, which need not be the registry's (tests audit copies) */
    free(set.kernels);
    return 0;
}

/* ---- the intent's values, in the output's format ---- */
typedef struct intent_src {
    const td_intent *in;
    td_mpcx mp;   /* its own MPFR context: the intent's memo keys never meet the contract's */
    td_shcx sh;   /* its own shadow context: the fast path of its values (intent_fast) */
    td_wset iws;  /* the intent's write set, sorted (when it has its own) */
    uint64_t contract_only, intent_only;
    int64_t p[TD_MAX_PARAMS]; /* the case's integer parameters (the condition's inputs) */
    const char *gap;          /* why the operation is not defined on this case, or NULL */
    const char *partial;      /* why the contract's lanes are partials here (not compared), or NULL */
    uint64_t size;            /* the case's elements, all regions (what "smallest" means) */
} intent_src;

static int cmp_lane(const void *a, const void *b) {
    const td_olane *x = a, *y = b;
    if (x->region != y->region) return x->region < y->region ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

static int in_wset(const td_wset *ws, const td_olane *l) {
    return ws->n && bsearch(l, ws->v, ws->n, sizeof *ws->v, cmp_lane) != NULL;
}

/* The write sets compared: lanes only one of them has. */
static int src_begin(void *user, const td_case *c, const td_wset *ws) {
    intent_src *s = user;
    td_mpcx_memo_clear(&s->mp);
    td_shcx_memo_clear(&s->sh);
    for (int p = 0; p < c->k->nparams; p++) s->p[p] = c->k->params[p].kind == TD_P_INT ? c->p[p].i : 0;
    s->partial = s->in->partial ? s->in->partial(c) : NULL;
    s->gap = s->in->gap && !s->partial ? s->in->gap(c) : NULL;
    s->size = 0;
    for (int i = 0; i < c->k->nregions; i++) s->size += c->r[i].len;
    if (s->gap || s->partial) return 1; /* nothing to judge: the operation needs inputs the case lacks, or
                                         * the contract states partials the operation does not name */
    if (!s->in->writes) return 0;
    s->iws.n = 0;
    s->iws.oom = 0;
    s->in->writes(c, &s->iws);
    if (s->iws.oom) return -1;
    if (s->iws.n > 1) qsort(s->iws.v, s->iws.n, sizeof *s->iws.v, cmp_lane);
    for (size_t i = 0; i < ws->n; i++) s->contract_only += !in_wset(&s->iws, &ws->v[i]);
    for (size_t i = 0; i < s->iws.n; i++) s->intent_only += !in_wset(ws, &s->iws.v[i]);
    return 0;
}

/* The exact value, rounded once to the region's format (integers: to nearest). */
static uint64_t round_to(td_fmt f, mpfr_srcptr x) {
    const td_fmt_info *fi = td_fmt_get(f);
    if (fi->is_float) {
        td_profile p = td_profile_default(f);
        p.rnd = TD_RNE;
        return td_encode_mpfr(p, x);
    }
    long v = mpfr_number_p(x) ? mpfr_get_si(x, MPFR_RNDN) : 0;
    return fi->bits >= 64 ? (uint64_t)(int64_t)v : (uint64_t)(int64_t)v & ((1ull << fi->bits) - 1);
}

/* The fast path: the shadow's value v with its own error bound es (|v - x*| <= es, see
 * oracle/shadow.h) decides the rounding of the exact value x* when both ends of
 * [v - es, v + es] round to the same output value (rounding is monotone).  Otherwise,
 * and for special values and integer outputs, MPFR decides.  This keeps the audit's cost
 * near the contract's own judging: an MPFR evaluation of every lane at 640 bits is
 * several times the rest where the operation has a transcendental function. */
static int intent_fast(intent_src *s, const td_case *c, const td_olane *ol, uint64_t *bits) {
    const td_fmt f = c->r[ol->region].fmt;
    if (!td_fmt_get(f)->is_float) return 0;
    s->sh.lane_flags = 0;
    td_sh v = s->in->spec_sh(&s->sh, c, ol);
    if (!isfinite(v.v) || !isfinite(v.es)) return 0;
    double lo = nextafter(v.v - v.es, -INFINITY), hi = nextafter(v.v + v.es, INFINITY);
    if (!isfinite(lo) || !isfinite(hi)) return 0;
    mpfr_t x;
    mpfr_init2(x, 64);
    mpfr_set_d(x, lo, MPFR_RNDN); /* exact: 64 >= 53 bits */
    uint64_t blo = round_to(f, x);
    mpfr_set_d(x, hi, MPFR_RNDN);
    uint64_t bhi = round_to(f, x);
    mpfr_clear(x);
    if (blo != bhi) return 0;
    *bits = blo;
    return 1;
}

static int src_value(void *user, const td_case *c, const td_olane *ol, uint64_t *bits) {
    intent_src *s = user;
    if (s->in->writes && !in_wset(&s->iws, ol)) return 1;
    if (intent_fast(s, c, ol, bits)) return 0;
    td_mpcx_reset(&s->mp);
    td_mp v = s->in->spec_mp(&s->mp, c, ol);
    *bits = round_to(c->r[ol->region].fmt, v->x);
    return 0;
}

/* ---- the condition: a predicate over the integer parameters that separates the cases ---- */
enum { MAX_RECS = 4096 };
typedef struct case_rec {
    int64_t p[TD_MAX_PARAMS];
    int differ;
} case_rec;

/* Predicates, simplest first: p_a OP p_b (b < 0: against the constant 1). */
enum { OP_LT, OP_GT, OP_NE, OP_NOT_MULT, OP_COUNT };
static const char *op_fmt[OP_COUNT] = {"%s < %s", "%s > %s", "%s != %s", "%s is not a multiple of %s"};

static int holds(const case_rec *r, int a, int b, int op) {
    int64_t x = r->p[a], y = b >= 0 ? r->p[b] : 1;
    switch (op) {
    case OP_LT: return x < y;
    case OP_GT: return x > y;
    case OP_NE: return x != y;
    default: return y > 0 && x % y != 0;
    }
}

/* One candidate predicate and the cases it holds in (a bitset over the records). */
enum { WORDS = MAX_RECS / 64 };
typedef struct pred {
    int a, b, op;
    uint64_t bits[WORDS];
} pred;

static int enum_preds(const td_contract *k, const case_rec *recs, uint64_t n, pred **out) {
    int cap = 0, np = 0;
    *out = NULL;
    for (int a = 0; a < k->nparams; a++)
        for (int b = -1; b < k->nparams; b++)
            for (int op = 0; op < OP_COUNT; op++) {
                if (k->params[a].kind != TD_P_INT || b == a || (b >= 0 && k->params[b].kind != TD_P_INT)) continue;
                if (np == cap) {
                    pred *v = realloc(*out, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *v);
                    if (!v) return np;
                    *out = v;
                }
                pred *p = &(*out)[np++];
                *p = (pred){a, b, op, {0}};
                for (uint64_t i = 0; i < n; i++)
                    if (holds(&recs[i], a, b, op)) p->bits[i / 64] |= 1ull << (i % 64);
            }
    return np;
}

/* cases of `bits` among the differing (d) and agreeing ones */
static void count(const uint64_t *bits, const uint64_t *d, uint64_t *hd, uint64_t *ha) {
    *hd = *ha = 0;
    for (int w = 0; w < WORDS; w++) {
        *hd += (uint64_t)__builtin_popcountll(bits[w] & d[w]);
        *ha += (uint64_t)__builtin_popcountll(bits[w] & ~d[w]);
    }
}

static int pred_str(const td_contract *k, const pred *p, char *buf, size_t n) {
    return snprintf(buf, n, op_fmt[p->op], k->params[p->a].name, p->b >= 0 ? k->params[p->b].name : "1");
}

/* The predicate (or the disjunction of two, when no single one does) that holds in every
 * differing case and in the fewest agreeing ones, simplest first; named only when it
 * rules out at least half of the agreeing cases. */
static void name_condition(const td_contract *k, const case_rec *recs, uint64_t n, td_audit_result *out) {
    uint64_t d[WORDS] = {0}, ndiff = 0, best = UINT64_MAX, hd, ha;
    for (uint64_t i = 0; i < n; i++)
        if (recs[i].differ) d[i / 64] |= 1ull << (i % 64), ndiff++;
    out->agree = n - ndiff;
    pred *ps;
    int np = enum_preds(k, recs, n, &ps), bi = -1, bj = -1;
    for (int i = 0; i < np; i++) {
        count(ps[i].bits, d, &hd, &ha);
        if (hd == ndiff && ha < best) best = ha, bi = i;
    }
    for (int i = 0; best > 0 && i < np; i++) /* a disjunction only where it does better */
        for (int j = i + 1; j < np; j++) {
            uint64_t u[WORDS];
            for (int w = 0; w < WORDS; w++) u[w] = ps[i].bits[w] | ps[j].bits[w];
            count(u, d, &hd, &ha);
            if (hd == ndiff && ha < best) best = ha, bi = i, bj = j;
        }
    out->condition[0] = 0;
    if (bi >= 0 && 2 * best <= out->agree) {
        int w = pred_str(k, &ps[bi], out->condition, sizeof out->condition);
        if (bj >= 0 && w > 0 && (size_t)w < sizeof out->condition) {
            snprintf(out->condition + w, sizeof out->condition - (size_t)w, " or ");
            pred_str(k, &ps[bj], out->condition + w + 4, sizeof out->condition - (size_t)w - 4);
        }
        out->cond_differ = ndiff, out->cond_agree = best;
    }
    free(ps);
}

/* ---- the audit ---- */
static void note_case(td_audit_result *out, const td_case_result *r, uint64_t idx, uint64_t size, int differ) {
    out->lanes += r->st.lanes;
    uint64_t bad = r->st.findings[TD_VC_FAIL] + r->st.findings[TD_VC_NONFINITE];
    out->lanes_differ += bad;
    if (r->has_top && r->top.err_over_tol > out->worst_eot) out->worst_eot = r->top.err_over_tol;
    if (!differ || (out->smallest >= 0 && size >= out->smallest_size)) return;
    out->smallest = (int64_t)idx;
    out->smallest_size = size;
    snprintf(out->smallest_desc, sizeof out->smallest_desc, "%s", r->desc);
    memset(&out->lane, 0, sizeof out->lane);
    if (r->nrep) out->lane = r->rep[0];
}

static void audit_init(td_audit_result *out, const td_contract *k) {
    memset(out, 0, sizeof *out);
    out->k = k;
    out->smallest = -1;
}

/* The intent's shadow context: binary32 evaluation as the harness sets it up for the
 * textbook kernel (engine/harness.c setup_sh); only its es, the shadow's own error
 * bound, is used here. */
static void intent_sh_setup(td_shcx *s, const td_kernel *kern) {
    memset(s, 0, sizeof *s);
    s->efmt = TD_F32;
    s->u = 0x1p-24;
    s->eta = 0x1p-150;
    s->ulp_min = 0x1p-149;
    s->ovf = 0x1.ffffffp127;
    s->lambda_n = 64;
    s->math = kern->math;
    s->order = kern->decl.order;
    s->block = kern->decl.block;
    s->div_ieee = kern->decl.div_ieee != 0;
    s->casts = kern->casts;
    s->ncasts = kern->k->ncasts;
}

int td_audit_contract(td_ctx *cx, const td_contract *k, const td_audit_opts *o, td_audit_result *out) {
    audit_init(out, k);
    if (!k->intent) return 0;
    td_abi_kernel abi;
    td_kernel kern;
    if (textbook_kernel(k, &abi, &kern, out->msg, sizeof out->msg) != 0) return -1;
    intent_src s = {.in = k->intent};
    td_mpcx_init(&s.mp, o->mpfr_prec ? o->mpfr_prec : 640);
    s.mp.casts = kern.casts; /* the contract's default profiles: an intent may round its output */
    s.mp.ncasts = k->ncasts;
    intent_sh_setup(&s.sh, &kern);
    td_value_source src = {&s, src_begin, src_value};
    case_rec *recs = calloc(MAX_RECS, sizeof *recs);
    int rc = recs ? 0 : -1;
    for (uint64_t i = 0; rc == 0 && i < o->cases; i++) {
        uint8_t b[64];
        td_case_bytes(o->seed, i, b, sizeof b);
        td_case_result r;
        uint64_t co = s.contract_only, io = s.intent_only;
        if (td_judge_bytes(cx, &kern, b, sizeof b, &src, &r) == TD_RUN_HARNESS_ERROR) {
            snprintf(out->msg, sizeof out->msg, "case %" PRIu64 ": %.460s", i, r.msg);
            rc = -1;
        } else if (s.partial) {
            if (!out->partial[0]) snprintf(out->partial, sizeof out->partial, "%s", s.partial);
            out->cases_partial++; /* neither agreement nor difference: kept out of the condition too */
        } else {
            int differ = r.finding || s.contract_only > co || s.intent_only > io || s.gap;
            if (s.gap && !out->gap[0]) snprintf(out->gap, sizeof out->gap, "%s", s.gap);
            out->cases_gap += s.gap != NULL;
            note_case(out, &r, i, s.size, differ);
            out->cases++;
            out->cases_differ += differ;
            if (out->cases <= MAX_RECS) {
                case_rec *cr = &recs[out->cases - 1];
                memcpy(cr->p, s.p, sizeof cr->p);
                cr->differ = differ;
            }
        }
        td_result_free(&r);
    }
    out->lanes_contract_only = s.contract_only;
    out->lanes_intent_only = s.intent_only;
    if (rc == 0 && out->cases_differ) name_condition(k, recs, out->cases < MAX_RECS ? out->cases : MAX_RECS, out);
    free(recs);
    free(s.iws.v);
    td_mpcx_free(&s.mp);
    td_shcx_memo_free(&s.sh);
    return rc;
}

/* ---- certify --against intent ---- */
typedef struct intent_copy {
    const td_contract *from;
    td_contract as;
    struct intent_copy *next;
} intent_copy;

const td_contract *td_intent_contract(const td_contract *k) {
    static intent_copy *copies; /* a list: the pointers handed out never move */
    if (!k || !k->intent) return NULL;
    for (intent_copy *c = copies; c; c = c->next)
        if (c->from == k) return &c->as;
    intent_copy *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->from = k;
    c->as = *k;
    c->as.spec_sh = k->intent->spec_sh;
    c->as.spec_mp = k->intent->spec_mp;
    c->as.spec_sh_run = NULL; /* the contract's run entry evaluates the contract's spec, not the intent's */
    if (k->intent->writes) c->as.writes = k->intent->writes;
    c->as.formula = k->intent->operation;
    c->as.by_intent = true;
    c->as.error_model = "the intent's: the operation in any admissible evaluation order, rounded to the output";
    c->next = copies;
    copies = c;
    return &c->as;
}
