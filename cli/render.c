/* Certification reports: Markdown, self-contained HTML (SVG plots, no network), JUnit
 * XML and the terminal table, all rendered from report.json so that `certify` and
 * `report merge` produce the same files. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "certify.h"
#include "diff.h"

void td_json_escape(FILE *f, const char *s) {
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void xml_escape(FILE *f, const char *s) {
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t') fputc(*s, f);
        }
    }
}

static const td_json *contracts_of(const td_json *r) {
    const td_json *c = td_json_get(r, "contracts");
    return c && c->t == TD_JARR ? c : NULL;
}

static void fmt_num(char *b, size_t n, double x) {
    if (isnan(x)) snprintf(b, n, "-");
    else if (isinf(x)) snprintf(b, n, "inf");
    else if (x == 0) snprintf(b, n, "0");
    else snprintf(b, n, "%.3g", x);
}

static const char *status_of(const td_json *c) { return td_json_str(c, "status", "?"); }

/* err/tol for a table cell: a number, or "tol=0" for a nonzero error against a zero
 * tolerance (infinite err/tol; the ulps column beside it says by how much). */
static void fmt_eot(char *b, size_t n, double x) {
    if (isinf(x)) snprintf(b, n, "tol=0");
    else fmt_num(b, n, x);
}

/* The width of the widest string `key` of the rows, at least `min`. */
static int col_width(const td_json *cs, const char *key, int min) {
    int w = min;
    for (size_t i = 0; i < cs->n; i++) {
        int l = (int)strlen(td_json_str(&cs->kids[i], key, ""));
        if (l > w) w = l;
    }
    return w;
}

/* Every finding with its case and the command that replays it. */
static void table_findings(FILE *f, const td_json *cs) {
    int any = 0;
    for (size_t i = 0; i < cs->n; i++) {
        const td_json *c = &cs->kids[i], *fs = td_json_get(c, "findings");
        for (size_t k = 0; fs && k < fs->n; k++) {
            const td_json *x = &fs->kids[k];
            if (!any) fprintf(f, "\nfindings (one per root cause: contract, class, region, first bad lane in the tile):\n");
            any = 1;
            fprintf(f, "  %s [%s]: %s\n    %.0f case%s, first case %.0f; repro: %s\n", td_json_str(c, "id", "?"),
                    td_json_str(c, "kernel", "-"), td_json_str(x, "summary", ""), td_json_num(x, "count", 0),
                    td_json_num(x, "count", 0) == 1 ? "" : "s", td_json_num(x, "first_case", 0),
                    td_json_str(x, "repro", "-"));
        }
    }
}

void td_render_table(FILE *f, const td_json *r) {
    const td_json *cs = contracts_of(r);
    if (!cs) return;
    /* columns as wide as their longest entry, so long ids do not shift the rest */
    int wi = col_width(cs, "id", 8), wk = col_width(cs, "kernel", 6);
    fprintf(f, "%-*s  %-*s  %-12s %7s %10s %6s %6s %8s %10s %9s %8s\n", wi, "CONTRACT", wk, "KERNEL", "STATUS", "CASES",
            "LANES", "DISAGR", "WARNS", "UNBOUND", "ERR/TOL", "ULPS", "SECONDS");
    for (size_t i = 0; i < cs->n; i++) {
        const td_json *c = &cs->kids[i];
        char e[32], u[32];
        fmt_eot(e, sizeof e, td_json_num(c, "worst_err_over_tol", NAN));
        fmt_num(u, sizeof u, td_json_num(c, "worst_ulps", NAN));
        fprintf(f, "%-*s  %-*s  %-12s %7.0f %10.0f %6.0f %6.0f %8.0f %10s %9s %8.2f\n", wi, td_json_str(c, "id", "?"), wk,
                td_json_str(c, "kernel", "-"), status_of(c), td_json_num(c, "cases", 0), td_json_num(c, "lanes", 0),
                td_json_num(c, "disagreements", 0), td_json_num(c, "warns", 0), td_json_num(c, "lanes_unbounded", 0), e, u,
                td_json_num(c, "seconds", 0));
        if (td_json_str(c, "reason", NULL))
            fprintf(f, "    %s%s\n", strcmp(status_of(c), "not-covered") ? "not checked: " : "", td_json_str(c, "reason", ""));
        if (td_json_str(c, "shape", NULL)) /* certify --shape production */
            fprintf(f, "    production shape %s; %s\n", td_json_str(c, "shape", ""),
                    td_json_str(td_json_get(c, "sampling"), "text", ""));
    }
    table_findings(f, cs);
    const td_json *s = td_json_get(r, "summary");
    double nck = td_json_num(s, "not_checked", 0); /* why, only where some are: "0 not checked: mostly ..." misled */
    fprintf(f, "\n%.0f contracts: %.0f covered (%.0f kernels: %.0f passed, %.0f failed, %.0f not checked%s), %.0f not "
               "covered; %.0f cases, %.0f lanes in %.1fs\n",
            td_json_num(s, "contracts", 0), td_json_num(s, "covered", 0), td_json_num(s, "kernels", 0),
            td_json_num(s, "passed", 0), td_json_num(s, "failed", 0), nck, nck > 0 ? ": mostly unbounded lanes" : "",
            td_json_num(s, "not_covered", 0), td_json_num(s, "cases", 0), td_json_num(s, "lanes", 0),
            td_json_num(r, "seconds", 0));
}

static void classes_str(const td_json *c, char *b, size_t n) {
    const td_json *cov = td_json_get(c, "classes_covered"), *mis = td_json_get(c, "classes_missed");
    snprintf(b, n, "%zu/%zu", cov ? cov->n : 0, (cov ? cov->n : 0) + (mis ? mis->n : 0));
}

int td_render_md(FILE *f, const td_json *r) {
    const td_json *cs = contracts_of(r), *s = td_json_get(r, "summary");
    fprintf(f, "# tilediff certification report\n\n");
    fprintf(f, "- kernels: %s (%s backend)\n- tilediff: %s, seed %.0f, %s\n- started %s, %.1f s\n\n",
            td_json_str(r, "library", "?"), td_json_str(r, "backend", "?"), td_json_str(r, "tool", "?"),
            td_json_num(r, "seed", 0), td_json_str(r, "budget", "?"), td_json_str(r, "started", "?"),
            td_json_num(r, "seconds", 0));
    fprintf(f, "**%s**: %.0f contracts, %.0f covered, %.0f passed, %.0f failed, %.0f not checked, %.0f not covered.\n\n",
            td_json_num(s, "failed", 0) > 0 ? "FAILED" : "PASSED", td_json_num(s, "contracts", 0),
            td_json_num(s, "covered", 0), td_json_num(s, "passed", 0), td_json_num(s, "failed", 0),
            td_json_num(s, "not_checked", 0), td_json_num(s, "not_covered", 0));
    fprintf(f, "Unbounded lanes had no finite error bound and were not checked; a contract whose lanes are mostly "
               "unbounded is \"not-checked\".\n\n");
    fprintf(f, "| contract | kernel | status | cases | lanes | disagreements | warns | unbounded | worst err/tol | worst ulps "
               "| classes | s |\n");
    fprintf(f, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; cs && i < cs->n; i++) {
        const td_json *c = &cs->kids[i];
        char e[32], u[32], cl[32];
        fmt_eot(e, sizeof e, td_json_num(c, "worst_err_over_tol", NAN));
        fmt_num(u, sizeof u, td_json_num(c, "worst_ulps", NAN));
        classes_str(c, cl, sizeof cl);
        fprintf(f, "| `%s` | `%s` | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %s | %s | %s | %.2f |\n",
                td_json_str(c, "id", "?"), td_json_str(c, "kernel", "-"), status_of(c), td_json_num(c, "cases", 0),
                td_json_num(c, "lanes", 0), td_json_num(c, "disagreements", 0), td_json_num(c, "warns", 0),
                td_json_num(c, "lanes_unbounded", 0), e, u, cl, td_json_num(c, "seconds", 0));
    }
    for (size_t i = 0; cs && i < cs->n; i++) /* certify --shape production */
        if (td_json_str(&cs->kids[i], "shape", NULL))
            fprintf(f, "\n`%s` `%s` at production shape %s: %s\n", td_json_str(&cs->kids[i], "id", "?"),
                    td_json_str(&cs->kids[i], "kernel", "-"), td_json_str(&cs->kids[i], "shape", ""),
                    td_json_str(td_json_get(&cs->kids[i], "sampling"), "text", ""));
    int any = 0;
    for (size_t i = 0; cs && i < cs->n; i++) {
        const td_json *fs = td_json_get(&cs->kids[i], "findings");
        for (size_t k = 0; fs && k < fs->n; k++) {
            if (!any) fprintf(f, "\n## Findings\n\n");
            any = 1;
            const td_json *x = &fs->kids[k];
            fprintf(f, "- `%s`: %s (%.0f cases)\n  - reproducer `%s`\n  - `%s`\n", td_json_str(&cs->kids[i], "id", "?"),
                    td_json_str(x, "summary", ""), td_json_num(x, "count", 0), td_json_str(x, "reproducer", "-"),
                    td_json_str(x, "repro", "-"));
        }
    }
    const td_json *bl = td_json_get(r, "baseline"); /* certify --baseline (cli/baseline.c) */
    if (bl) td_render_changes_md(f, td_json_get(bl, "changes"), "Changes since baseline");
    return ferror(f) ? -1 : 0;
}

/* An SVG bar chart of one contract's err/tol histogram (lanes per decade, log height). */
static void svg_hist(FILE *f, const td_json *c) {
    static const char *labels[9] = {"0", "<1e-6", "1e-6", "1e-5", "1e-4", "1e-3", "1e-2", "0.1-1", ">1"};
    const td_json *h = td_json_get(c, "hist");
    double v[9] = {0}, mx = 0;
    for (int i = 0; i < 9 && h && (size_t)i < h->n; i++) {
        v[i] = h->kids[i].num;
        if (v[i] > mx) mx = v[i];
    }
    const int W = 270, H = 60, bw = 28;
    fprintf(f, "<svg class=\"hist\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">", W, H + 14, W, H + 14);
    for (int i = 0; i < 9; i++) {
        double hh = v[i] > 0 ? (log10(v[i] + 1) / log10(mx + 1)) * H : 0;
        const char *col = i == 8 ? "#c62828" : (i == 0 ? "#7e8c9a" : "#2e7d32");
        fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s: %.0f lanes</title></rect>",
                i * (bw + 2), H - hh, bw, hh, col, labels[i], v[i]);
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"7\" text-anchor=\"middle\">%s</text>", i * (bw + 2) + bw / 2,
                H + 10, labels[i]);
    }
    fprintf(f, "</svg>");
}

/* The page head, the title line and the summary cards. */
static void html_head(FILE *f, const td_json *r, const td_json *s, int failed) {
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>tilediff certification</title>\n");
    fprintf(f, "<style>body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1f24}"
               "h1{font-size:22px}h2{font-size:17px;margin-top:28px}"
               ".cards{display:flex;gap:12px;flex-wrap:wrap}.card{border:1px solid #d0d7de;border-radius:6px;padding:10px 14px;min-width:110px}"
               ".card b{display:block;font-size:20px}.pass{color:#1a7f37}.fail{color:#cf222e}.nc{color:#6e7781}"
               "table{border-collapse:collapse;margin-top:10px}td,th{border-bottom:1px solid #d8dee4;padding:4px 8px;text-align:right;vertical-align:middle}"
               "th{background:#f6f8fa}td.l,th.l{text-align:left}td.s{white-space:nowrap}code{font:12px ui-monospace,monospace}td.l code{word-break:break-all}"
               ".verdict{font-size:18px;font-weight:600;padding:8px 12px;border-radius:6px;display:inline-block}"
               ".vp{background:#dafbe1}.vf{background:#ffebe9}svg.hist{display:block}</style></head><body>\n");
    fprintf(f, "<h1>tilediff certification report</h1>\n<p>Kernels <b>");
    xml_escape(f, td_json_str(r, "library", "?"));
    fprintf(f, "</b> on the <b>");
    xml_escape(f, td_json_str(r, "backend", "?"));
    fprintf(f, "</b> backend &middot; ");
    xml_escape(f, td_json_str(r, "tool", "?"));
    fprintf(f, " &middot; seed %.0f &middot; ", td_json_num(r, "seed", 0));
    xml_escape(f, td_json_str(r, "budget", ""));
    fprintf(f, " &middot; started ");
    xml_escape(f, td_json_str(r, "started", "?"));
    fprintf(f, "</p>\n<p class=\"verdict %s\">%s</p>\n", failed ? "vf" : "vp",
            failed ? "FAILED: at least one covered contract disagrees" : "PASSED: every covered contract agrees");
    fprintf(f, "<div class=\"cards\">");
    const char *keys[] = {"contracts", "covered", "passed", "failed", "not_covered", "cases", "lanes", "warns"};
    const char *names[] = {"contracts", "covered", "passed", "failed", "not covered", "cases", "lanes", "warns"};
    for (int i = 0; i < 8; i++)
        fprintf(f, "<div class=\"card\"><b class=\"%s\">%.0f</b>%s</div>",
                i == 3 && td_json_num(s, keys[i], 0) > 0 ? "fail" : (i == 2 ? "pass" : ""), td_json_num(s, keys[i], 0),
                names[i]);
    fprintf(f, "<div class=\"card\"><b>%.1f s</b>time</div></div>\n", td_json_num(r, "seconds", 0));
}

/* One row per contract, with its err/tol histogram. */
static void html_contracts(FILE *f, const td_json *cs) {
    fprintf(f, "<h2>Contracts</h2>\n<p>err/tol is the lane's error divided by its derived worst-case bound (above 1 is a "
               "disagreement). The histogram counts lanes per decade of err/tol.</p>\n");
    fprintf(f, "<table><tr><th class=\"l\">contract</th><th class=\"l\">status</th><th>cases</th><th>lanes</th>"
               "<th>disagreements</th><th>warns</th><th>worst err/tol</th><th>worst ulps</th><th>classes</th><th>s</th>"
               "<th class=\"l\">err/tol histogram</th></tr>\n");
    for (size_t i = 0; cs && i < cs->n; i++) {
        const td_json *c = &cs->kids[i];
        const char *st = status_of(c);
        char e[32], u[32], cl[32];
        fmt_eot(e, sizeof e, td_json_num(c, "worst_err_over_tol", NAN));
        fmt_num(u, sizeof u, td_json_num(c, "worst_ulps", NAN));
        classes_str(c, cl, sizeof cl);
        fprintf(f, "<tr><td class=\"l\"><code>");
        xml_escape(f, td_json_str(c, "id", "?"));
        fprintf(f, "</code><br><small>");
        xml_escape(f, td_json_str(c, "family", ""));
        fprintf(f, " &middot; kernel ");
        xml_escape(f, td_json_str(c, "kernel", "-"));
        fprintf(f, "</small></td><td class=\"l s %s\">%s</td>",
                !strcmp(st, "passed") ? "pass" : !strcmp(st, "not-covered") || !strcmp(st, "not-checked") ? "nc" : "fail", st);
        fprintf(f, "<td>%.0f</td><td>%.0f</td><td>%.0f</td><td>%.0f</td><td>%s</td><td>%s</td><td>%s</td><td>%.2f</td><td class=\"l\">",
                td_json_num(c, "cases", 0), td_json_num(c, "lanes", 0), td_json_num(c, "disagreements", 0),
                td_json_num(c, "warns", 0), e, u, cl, td_json_num(c, "seconds", 0));
        if (td_json_num(c, "lanes", 0) > 0) svg_hist(f, c);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table>\n");
}

static void html_findings(FILE *f, const td_json *cs) {
    int any = 0;
    for (size_t i = 0; cs && i < cs->n; i++) {
        const td_json *fs = td_json_get(&cs->kids[i], "findings");
        for (size_t k = 0; fs && k < fs->n; k++) {
            if (!any) fprintf(f, "<h2>Findings</h2>\n<table><tr><th class=\"l\">contract</th><th class=\"l\">finding</th>"
                                 "<th>cases</th><th class=\"l\">reproduce</th></tr>\n");
            any = 1;
            const td_json *x = &fs->kids[k];
            fprintf(f, "<tr><td class=\"l\"><code>");
            xml_escape(f, td_json_str(&cs->kids[i], "id", "?"));
            fprintf(f, "</code></td><td class=\"l\">");
            xml_escape(f, td_json_str(x, "summary", ""));
            fprintf(f, "</td><td>%.0f</td><td class=\"l\"><code>", td_json_num(x, "count", 0));
            xml_escape(f, td_json_str(x, "repro", "-"));
            fprintf(f, "</code></td></tr>\n");
        }
    }
    if (any) fprintf(f, "</table>\n");
}

/* The three largest err/tol lanes of each contract. */
static void html_worst(FILE *f, const td_json *cs) {
    fprintf(f, "<h2>Worst lanes</h2>\n<p>The lanes with the largest err/tol of each contract, with the exact reference "
               "(MPFR) and the bound they were judged against.</p>\n<table><tr><th class=\"l\">contract</th><th>lane</th>"
               "<th class=\"l\">got</th><th class=\"l\">expected</th><th>bound</th><th>err/tol</th><th>ulps</th></tr>\n");
    for (size_t i = 0; cs && i < cs->n; i++) {
        const td_json *w = td_json_get(&cs->kids[i], "worst_lanes");
        for (size_t k = 0; w && k < w->n && k < 3; k++) {
            const td_json *x = &w->kids[k];
            char b[32], e[32], u[32];
            fmt_num(b, sizeof b, td_json_num(x, "tolerance", NAN));
            fmt_eot(e, sizeof e, td_json_num(x, "err_over_tol", NAN));
            fmt_num(u, sizeof u, td_json_num(x, "error_ulps", NAN));
            fprintf(f, "<tr><td class=\"l\"><code>");
            xml_escape(f, td_json_str(&cs->kids[i], "id", "?"));
            fprintf(f, "</code></td><td>");
            xml_escape(f, td_json_str(x, "where", ""));
            fprintf(f, "</td><td class=\"l\"><code>");
            xml_escape(f, td_json_str(x, "got", ""));
            fprintf(f, "</code></td><td class=\"l\"><code>");
            xml_escape(f, td_json_str(x, "expected", ""));
            fprintf(f, "</code></td><td>%s</td><td>%s</td><td>%s</td></tr>\n", b, e, u);
        }
    }
    fputs("</table>\n", f);
}

int td_render_html(FILE *f, const td_json *r) {
    const td_json *cs = contracts_of(r), *s = td_json_get(r, "summary");
    int failed = td_json_num(s, "failed", 0) > 0;
    html_head(f, r, s, failed);
    html_contracts(f, cs);
    html_findings(f, cs);
    html_worst(f, cs);
    const td_json *bl = td_json_get(r, "baseline"); /* certify --baseline (cli/baseline.c) */
    if (bl) td_render_changes_html(f, td_json_get(bl, "changes"), "Changes since baseline");
    fprintf(f, "<p><small>Generated by tilediff; schema %s v%d.</small></p>\n</body></html>\n",
            TD_REPORT_SCHEMA, TD_REPORT_VERSION);
    return ferror(f) ? -1 : 0;
}

int td_render_junit(FILE *f, const td_json *r) {
    const td_json *cs = contracts_of(r), *s = td_json_get(r, "summary");
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites><testsuite name=\"tilediff certify\" tests=\"%.0f\" failures=\"%.0f\" skipped=\"%.0f\" time=\"%.3f\">\n",
            td_json_num(s, "contracts", 0), td_json_num(s, "failed", 0), td_json_num(s, "not_covered", 0),
            td_json_num(r, "seconds", 0));
    for (size_t i = 0; cs && i < cs->n; i++) {
        const td_json *c = &cs->kids[i];
        const char *st = status_of(c);
        fprintf(f, "  <testcase classname=\"");
        xml_escape(f, td_json_str(c, "family", "tilediff"));
        fprintf(f, "\" name=\"");
        xml_escape(f, td_json_str(c, "id", "?"));
        if (td_json_str(c, "kernel", NULL)) { /* one test case per kernel: a contract may have several */
            fprintf(f, " [");
            xml_escape(f, td_json_str(c, "kernel", ""));
            fprintf(f, "]");
        }
        fprintf(f, "\" time=\"%.3f\">", td_json_num(c, "seconds", 0));
        if (!strcmp(st, "not-covered")) fprintf(f, "<skipped message=\"not implemented by the kernel library\"/>");
        else if (!strcmp(st, "not-checked")) {
            fprintf(f, "<skipped message=\"not checked: ");
            xml_escape(f, td_json_str(c, "reason", ""));
            fprintf(f, "\"/>");
        }
        else if (strcmp(st, "passed")) {
            fprintf(f, "<failure message=\"");
            xml_escape(f, st);
            fprintf(f, ": %.0f disagreeing cases\">", td_json_num(c, "disagreements", 0));
            const td_json *fs = td_json_get(c, "findings");
            for (size_t k = 0; fs && k < fs->n; k++) {
                xml_escape(f, td_json_str(&fs->kids[k], "summary", ""));
                fputs("\n", f);
                xml_escape(f, td_json_str(&fs->kids[k], "repro", ""));
                fputs("\n", f);
            }
            xml_escape(f, td_json_str(c, "message", ""));
            fprintf(f, "</failure>");
        }
        fprintf(f, "</testcase>\n");
    }
    fprintf(f, "</testsuite></testsuites>\n");
    return ferror(f) ? -1 : 0;
}

/* Writes one file atomically from a renderer. */
static int write_atomic(const char *dir, const char *name, int (*render)(FILE *, const td_json *), const td_json *r,
                        const char *text, char *err, size_t errlen) {
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        return -1;
    }
    int bad = render ? render(f, r) : (fputs(text, f) < 0);
    bad |= fflush(f) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        snprintf(err, errlen, "writing %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int td_write_reports(const char *dir, const char *text, char *err, size_t errlen) {
    td_json *r = td_json_parse(text, err, errlen);
    if (!r) return -1;
    int rc = write_atomic(dir, "report.json", NULL, NULL, text, err, errlen);
    if (!rc) rc = write_atomic(dir, "report.md", td_render_md, r, NULL, err, errlen);
    if (!rc) rc = write_atomic(dir, "report.html", td_render_html, r, NULL, err, errlen);
    if (!rc) rc = write_atomic(dir, "junit.xml", td_render_junit, r, NULL, err, errlen);
    td_json_free(r);
    return rc;
}
