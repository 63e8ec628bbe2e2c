/* Finding reports (text and JSON), artifacts, and the explain view. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "spec.h"

uint64_t td_fnv1a(const uint8_t *data, size_t size) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++) {
        h ^= data[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static const char *backend_name(int b) { return b == TD_ABI_CUDA ? "cuda" : "host"; }

static void flags_str(uint32_t f, char *buf, size_t n) {
    snprintf(buf, n, "%s%s%s%s", f & TD_LF_MAYOVF ? " may-overflow" : "", f & TD_LF_UNBOUNDED ? " unbounded" : "",
             f & TD_LF_DOMAIN ? " domain-edge" : "", f & TD_LF_TIE ? " comparison-or-cast-near-a-boundary" : "");
}

static void got_str(td_fmt f, uint64_t bits, char *buf, size_t n) {
    if (f == TD_I64) snprintf(buf, n, "%" PRId64, td_decode_i64(bits));
    else td_format_value(f, bits, buf, n);
}

static void summary_head(FILE *f, const char *in, int nsteps, const td_term_kind *k, int nk, const char *how);
static void summary_total(FILE *f, const char *in, double local_sum, double bound_last);

void td_report_text(FILE *f, const td_kernel *kern, const td_case_result *r) {
    const td_contract *k = kern->k;
    if (!r->finding && !r->nrep) return;
    fprintf(f, "%s %s [kernel %s, %s backend, library %s]\n", r->finding ? "FINDING" : "WARN", k->id,
            kern->abi->variant, backend_name((int)kern->abi->backend), kern->library);
    fprintf(f, "  case: %s\n", r->desc);
    fprintf(f, "  spec: %s\n", k->formula);
    fprintf(f, "  policy: %s; %s\n", k->sv == TD_SV_IEEE ? "ieee" : "real", k->sv_note ? k->sv_note : "");
    fprintf(f, "  math model: %s; %s%s\n", kern->math->name, kern->decl.text[0] ? "certified assuming " : "",
            kern->decl.text[0] ? kern->decl.text : "nothing declared (any summation order, a/b or a*(1/b))");
    for (int i = 0; i < k->ncasts; i++) {
        char p[64];
        td_profile_str(kern->casts[i], p, sizeof p);
        fprintf(f, "  cast %s: %s (%s)\n", k->casts[i].slot, p, k->casts[i].where);
    }
    if (r->msg[0]) fprintf(f, "  %s\n", r->msg);
    fprintf(f, "  lanes checked %" PRIu64 ", bad %" PRIu64 " (", r->st.lanes, r->nbad);
    int first = 1;
    for (int v = 1; v < TD_VC_COUNT; v++) {
        uint64_t cnt = v == TD_VC_WARN ? r->st.lanes_warn : v == TD_VC_UNBOUNDED ? r->st.lanes_unbounded : r->st.findings[v];
        if (cnt) fprintf(f, "%s%s %" PRIu64, first ? "" : ", ", td_vclass_name((td_vclass)v), cnt), first = 0;
    }
    fprintf(f, ")%s\n", r->nbad > (uint64_t)r->nrep ? "; the worst are detailed" : "");
    for (int i = 0; i < r->nrep; i++) {
        const td_lane_report *l = &r->rep[i];
        const char *rname = k->regions[l->region].name;
        td_fmt of = k->regions[l->region].fmt;
        if (!l->has_lane) {
            fprintf(f, "  %s: region %s offset %" PRIu64 " (0x%" PRIx64 "): %s\n", td_vclass_name(l->cls), rname,
                    l->off, l->got_bits, l->note);
            continue;
        }
        fprintf(f, "  lane pid=(%u,%u,%u) j=%" PRIu64 " out%u -> %s[%" PRIu64 "]", l->lane.pid[0], l->lane.pid[1],
                l->lane.pid[2], l->lane.j, l->lane.o + 1, rname, l->off);
        if (l->lane.t) fprintf(f, " step %u", l->lane.t);
        fprintf(f, ": %s\n", td_vclass_name(l->cls));
        char g[64];
        got_str(of, l->got_bits, g, sizeof g);
        fprintf(f, "    got       %s (0x%0*" PRIx64 " %s)\n", g, (int)td_fmt_get(of)->bytes * 2, l->got_bits,
                td_fmt_get(of)->name);
        if (l->cls == TD_VC_UNWRITTEN) {
            fprintf(f, "    %s\n", l->note);
            continue;
        }
        if (l->ref_precast[0]) fprintf(f, "    expected  %s exact before the cast, %s after it\n", l->ref_precast, l->ref_exact);
        else fprintf(f, "    expected  %s (exact)\n", l->ref_exact[0] ? l->ref_exact : "?");
        fprintf(f, "    tolerance %.6g worst case, %.6g probabilistic\n", l->tol, l->tol_p);
        int sum = l->nterms < l->nsteps; /* the report keeps some of the steps: say what the rest hold */
        if (sum) summary_head(f, "      ", l->nsteps, l->kinds, l->nkinds, "tilediff explain --full");
        for (int t = 0; t < l->nterms; t++) {
            const td_term *tm = &l->terms[t];
            if (tm->n) fprintf(f, "      %-18s n=%-6d propagated %.3g + local %.3g -> %.3g\n", tm->op, tm->n, tm->prop, tm->local, tm->ek);
            else fprintf(f, "      %-18s propagated %.3g + local %.3g -> %.3g\n", tm->op, tm->prop, tm->local, tm->ek);
        }
        if (sum) summary_total(f, "      ", l->local_sum, l->bound_last);
        char fl[160];
        flags_str(l->lane_flags, fl, sizeof fl);
        char et[64];
        td_errtol_str(l->err_over_tol, l->err_ulps, et, sizeof et);
        fprintf(f, "    error     %.6g = %.6g ulp(%s), err/tol %s%s%s\n", l->err, l->err_ulps, td_fmt_get(of)->name, et,
                fl[0] ? "; lane:" : "", fl);
    }
}

static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double x) {
    if (isnan(x)) fputs("null", f);
    else if (isinf(x)) fputs(x > 0 ? "\"inf\"" : "\"-inf\"", f);
    else fprintf(f, "%.17g", x);
}

void td_report_json(FILE *f, const td_kernel *kern, const td_case_result *r, const char *artifact) {
    const td_contract *k = kern->k;
    fprintf(f, "{\"contract\":");
    json_str(f, k->id);
    fprintf(f, ",\"kernel\":");
    json_str(f, kern->abi->variant);
    fprintf(f, ",\"backend\":\"%s\",\"library\":", backend_name((int)kern->abi->backend));
    json_str(f, kern->library);
    fprintf(f, ",\"finding\":%s,\"worst\":\"%s\",\"case\":", r->finding ? "true" : "false", td_vclass_name(r->worst));
    json_str(f, r->desc);
    fprintf(f, ",\"policy\":\"%s\",\"math_model\":\"%s\",\"declares\":", k->sv == TD_SV_IEEE ? "ieee" : "real",
            kern->math->name);
    json_str(f, kern->decl.text);
    fprintf(f, ",\"message\":");
    json_str(f, r->msg);
    fprintf(f, ",\"artifact\":");
    if (artifact) json_str(f, artifact);
    else fputs("null", f);
    fprintf(f, ",\"lanes\":%" PRIu64 ",\"bad\":%" PRIu64 ",\"counts\":{", r->st.lanes, r->nbad);
    int first = 1;
    for (int v = 1; v < TD_VC_COUNT; v++) {
        uint64_t cnt = v == TD_VC_WARN ? r->st.lanes_warn : v == TD_VC_UNBOUNDED ? r->st.lanes_unbounded : r->st.findings[v];
        if (!cnt) continue;
        fprintf(f, "%s\"%s\":%" PRIu64, first ? "" : ",", td_vclass_name((td_vclass)v), cnt);
        first = 0;
    }
    fprintf(f, "},\"reports\":[");
    for (int i = 0; i < r->nrep; i++) {
        const td_lane_report *l = &r->rep[i];
        td_fmt of = k->regions[l->region].fmt;
        fprintf(f, "%s{\"class\":\"%s\",\"region\":", i ? "," : "", td_vclass_name(l->cls));
        json_str(f, k->regions[l->region].name);
        fprintf(f, ",\"offset\":%" PRIu64 ",\"got_bits\":\"0x%0*" PRIx64 "\"", l->off, (int)td_fmt_get(of)->bytes * 2,
                l->got_bits);
        if (l->has_lane) {
            char g[64];
            got_str(of, l->got_bits, g, sizeof g);
            fprintf(f, ",\"pid\":[%u,%u,%u],\"lane\":%" PRIu64 ",\"output\":%u,\"step\":%u,\"got\":", l->lane.pid[0],
                    l->lane.pid[1], l->lane.pid[2], l->lane.j, l->lane.o + 1, l->lane.t);
            json_str(f, g);
            fprintf(f, ",\"expected\":");
            json_str(f, l->ref_exact);
            fprintf(f, ",\"expected_before_cast\":");
            if (l->ref_precast[0]) json_str(f, l->ref_precast);
            else fputs("null", f);
            fprintf(f, ",\"tolerance\":");
            json_num(f, l->tol);
            fprintf(f, ",\"tolerance_probabilistic\":");
            json_num(f, l->tol_p);
            fprintf(f, ",\"error\":");
            json_num(f, l->err);
            fprintf(f, ",\"error_ulps\":");
            json_num(f, l->err_ulps);
            fprintf(f, ",\"err_over_tol\":");
            json_num(f, l->err_over_tol);
            fprintf(f, ",\"terms\":[");
            for (int t = 0; t < l->nterms; t++) {
                fprintf(f, "%s{\"op\":", t ? "," : "");
                json_str(f, l->terms[t].op);
                fprintf(f, ",\"propagated\":");
                json_num(f, l->terms[t].prop);
                fprintf(f, ",\"local\":");
                json_num(f, l->terms[t].local);
                fprintf(f, ",\"bound\":");
                json_num(f, l->terms[t].ek);
                if (l->terms[t].n) fprintf(f, ",\"n\":%d", l->terms[t].n);
                fputc('}', f);
            }
            fputc(']', f);
            if (l->nterms < l->nsteps) { /* the summary of the steps the terms leave out */
                fprintf(f, ",\"steps\":%d,\"local_sum\":", l->nsteps);
                json_num(f, l->local_sum);
                fprintf(f, ",\"kinds\":[");
                for (int t = 0; t < l->nkinds; t++) {
                    fprintf(f, "%s{\"op\":", t ? "," : "");
                    json_str(f, l->kinds[t].op);
                    fprintf(f, ",\"steps\":%d,\"local_sum\":", l->kinds[t].n);
                    json_num(f, l->kinds[t].sum);
                    fprintf(f, ",\"largest\":");
                    json_num(f, l->kinds[t].max);
                    fputc('}', f);
                }
                fputc(']', f);
            }
        } else {
            fprintf(f, ",\"note\":");
            json_str(f, l->note);
        }
        fputc('}', f);
    }
    fprintf(f, "]}\n");
}

/* ---- artifacts ---- */
int td_artifact_write(const char *dir, const td_kernel *kern, const uint8_t *data, size_t size, char *path,
                      size_t pathlen) {
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) return -1;
    uint64_t h = td_fnv1a(data, size);
    snprintf(path, pathlen, "%s/%s.%s.%016" PRIx64 ".tdf", dir, kern->k->id, kern->abi->variant, h);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) return -1;
    fprintf(f, "TDFZ1 %s %s %s\n", kern->k->id, kern->abi->variant, backend_name((int)kern->abi->backend));
    size_t w = size ? fwrite(data, 1, size, f) : 0;
    int bad = w != size;
    bad |= fflush(f) != 0;
    bad |= fsync(fileno(f)) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

int td_artifact_read(const char *path, uint8_t **data, size_t *size, char *contract, size_t clen, char *variant,
                     size_t vlen, int *backend, char *err, size_t errlen) {
    *data = NULL;
    *size = 0;
    if (clen) contract[0] = 0;
    if (vlen) variant[0] = 0;
    if (backend) *backend = TD_ABI_HOST;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (;;) {
        if (n == cap) {
            if (cap >= ((size_t)1 << 30)) {
                free(buf);
                fclose(f);
                snprintf(err, errlen, "%s: larger than 1 GiB, not a fuzz input", path);
                return -1;
            }
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fclose(f);
                snprintf(err, errlen, "%s: out of memory", path);
                return -1;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    int ioerr = ferror(f);
    fclose(f);
    if (ioerr) {
        free(buf);
        snprintf(err, errlen, "%s: read error", path);
        return -1;
    }
    size_t start = 0;
    if (n >= 6 && !memcmp(buf, "TDFZ1 ", 6)) {
        uint8_t *nl = memchr(buf, '\n', n < 1024 ? n : 1024);
        if (!nl) {
            free(buf);
            snprintf(err, errlen, "%s: truncated artifact header (no end of line)", path);
            return -1;
        }
        char hdr[1024];
        size_t hl = (size_t)(nl - buf);
        memcpy(hdr, buf, hl);
        hdr[hl] = 0;
        char c[512], v[256], b[32];
        if (sscanf(hdr, "TDFZ1 %511s %255s %31s", c, v, b) != 3) {
            free(buf);
            snprintf(err, errlen, "%s: malformed artifact header '%s'", path, hdr);
            return -1;
        }
        snprintf(contract, clen, "%s", c);
        snprintf(variant, vlen, "%s", v);
        if (backend) *backend = !strcmp(b, "cuda") ? TD_ABI_CUDA : TD_ABI_HOST;
        start = hl + 1;
    }
    memmove(buf, buf + start, n - start);
    *data = buf;
    *size = n - start;
    return 0;
}


/* ---- err/tol in words ---- */
void td_errtol_str(double err_over_tol, double err_ulps, char *buf, size_t n) {
    if (isnan(err_over_tol)) snprintf(buf, n, "-");
    else if (isinf(err_over_tol) && isfinite(err_ulps))
        snprintf(buf, n, "%.3g ulp over a zero tolerance", fabs(err_ulps));
    else if (isinf(err_over_tol)) snprintf(buf, n, "nonzero error over a zero tolerance");
    else snprintf(buf, n, "%.4g", err_over_tol);
}

/* ---- the terms of a lane's bound, as explain prints them ---- */
#define TD_TRACE_FULL_MAX 40 /* a trace this short is printed whole */
#define TD_TRACE_TOP 6       /* the largest local terms of a summary */
#define TD_TRACE_TAIL 4      /* the last steps of a summary (the final operations and casts) */

static void trace_step_line(FILE *f, const td_trace_step *t, int i) {
    fprintf(f, "    %2d %-18s value %-14.8g propagated %-10.3g + local %-10.3g = %-10.3g (prob. %.3g)", i + 1, t->op, t->v,
            t->prop, t->local, t->ek, t->ep);
    if (t->n) fprintf(f, " n=%d", t->n);
    if (t->note) fprintf(f, "  [%s]", t->note);
    fputc('\n', f);
}

int td_trace_kinds(const td_trace *tr, td_term_kind *out, int max) {
    int nk = 0;
    for (int i = 0; i < tr->n; i++) {
        int at = 0;
        while (at < nk && strncmp(out[at].op, tr->steps[i].op, sizeof out[at].op - 1)) at++;
        if (at == nk) {
            if (nk == max) continue; /* more kinds than a summary keeps */
            memset(&out[nk], 0, sizeof out[nk]);
            snprintf(out[nk].op, sizeof out[nk].op, "%s", tr->steps[i].op);
            nk++;
        }
        out[at].n++;
        out[at].sum += tr->steps[i].local;
        if (tr->steps[i].local > out[at].max) out[at].max = tr->steps[i].local;
    }
    return nk;
}

/* The lines a summary prints before and after its terms, shared by explain and by the
 * finding reports (repro, run), so both say the same. */
static void summary_head(FILE *f, const char *in, int nsteps, const td_term_kind *k, int nk, const char *how) {
    fprintf(f, "%s%d steps (summarised; %s prints every one)\n%sby kind:\n", in, nsteps, how, in);
    for (int i = 0; i < nk; i++)
        fprintf(f, "%s  %-18s %7d steps, local errors sum %-10.3g largest %.3g\n", in, k[i].op, k[i].n, k[i].sum,
                k[i].max);
    fprintf(f, "%sthe %d largest local terms and the last %d steps:\n", in, TD_TRACE_TOP, TD_TRACE_TAIL);
}
static void summary_total(FILE *f, const char *in, double local_sum, double bound_last) {
    fprintf(f, "%stotal: local errors sum %.6g; bound after the last step %.6g\n", in, local_sum, bound_last);
}

/* The indices of the TD_TRACE_TOP largest local terms, largest first. */
static int trace_top(const td_trace *tr, int top[TD_TRACE_TOP]) {
    int nt = 0;
    for (int i = 0; i < tr->n; i++) {
        double v = tr->steps[i].local;
        int at = nt;
        while (at > 0 && tr->steps[top[at - 1]].local < v) at--;
        if (at >= TD_TRACE_TOP) continue;
        for (int j = (nt < TD_TRACE_TOP ? nt : TD_TRACE_TOP - 1); j > at; j--) top[j] = top[j - 1];
        top[at] = i;
        if (nt < TD_TRACE_TOP) nt++;
    }
    return nt;
}

/* The steps a summary shows, in evaluation order: the largest local terms and the
 * last steps, each once.  Returns how many. */
static int trace_picks(const td_trace *tr, int picks[TD_TRACE_TOP + TD_TRACE_TAIL]) {
    int top[TD_TRACE_TOP], nt = trace_top(tr, top), np = 0;
    for (int i = 0; i < tr->n; i++) {
        int want = i >= tr->n - TD_TRACE_TAIL;
        for (int k = 0; k < nt && !want; k++) want = top[k] == i;
        if (want) picks[np++] = i;
    }
    return np;
}

void td_trace_print(FILE *f, const td_trace *tr, int full) {
    fprintf(f, "  terms (in evaluation order: error propagated from the operands + error added by the step = bound "
               "after it):\n");
    if (full || tr->n <= TD_TRACE_FULL_MAX) {
        for (int i = 0; i < tr->n; i++) trace_step_line(f, &tr->steps[i], i);
        return;
    }
    /* a long reduction: a summary a reader can take in, and the way to see it all */
    double total = 0;
    for (int i = 0; i < tr->n; i++) total += tr->steps[i].local;
    td_term_kind k[TD_MAX_TERM_KINDS];
    int nk = td_trace_kinds(tr, k, TD_MAX_TERM_KINDS);
    summary_head(f, "  ", tr->n, k, nk, "--full");
    int picks[TD_TRACE_TOP + TD_TRACE_TAIL], np = trace_picks(tr, picks);
    for (int i = 0; i < np; i++) trace_step_line(f, &tr->steps[picks[i]], picks[i]);
    summary_total(f, "  ", total, tr->steps[tr->n - 1].ek);
}

static void term_of(td_term *t, const td_trace_step *s, int step, int numbered) {
    if (numbered) snprintf(t->op, sizeof t->op, "#%d %s", step + 1, s->op); /* its step, as explain numbers it */
    else snprintf(t->op, sizeof t->op, "%s", s->op);
    t->prop = s->prop;
    t->local = s->local;
    t->ek = s->ek;
    t->n = s->n;
}

int td_trace_terms(const td_trace *tr, td_term *out, int max) {
    if (tr->n <= TD_TRACE_FULL_MAX && tr->n <= max) {
        for (int i = 0; i < tr->n; i++) term_of(&out[i], &tr->steps[i], i, 0);
        return tr->n;
    }
    int picks[TD_TRACE_TOP + TD_TRACE_TAIL], np = trace_picks(tr, picks), n = 0;
    for (int k = 0; k < np && n < max; k++, n++) term_of(&out[n], &tr->steps[picks[k]], picks[k], 1);
    return n;
}
