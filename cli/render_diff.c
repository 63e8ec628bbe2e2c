/* The "changes" section of the diff report and of certify --baseline: terminal table,
 * Markdown, and HTML with a paired quantile plot (OLD and NEW err/tol at the median,
 * p99 and max, on a log scale with the tolerance marked) per contract that changed. */
#include <math.h>
#include <string.h>

#include "certify.h"
#include "diff.h"

static void num(char *b, size_t n, double x) {
    if (isnan(x)) snprintf(b, n, "-");
    else if (isinf(x)) snprintf(b, n, "inf");
    else if (x == 0) snprintf(b, n, "0");
    else snprintf(b, n, "%.3g", x);
}

static void cnt(char *b, size_t n, double x) {
    if (isnan(x)) snprintf(b, n, "-");
    else snprintf(b, n, "%.0f", x);
}

static double q_of(const td_json *c, const char *side, const char *q) {
    const td_json *s = td_json_get(c, side);
    return s && s->t == TD_JOBJ ? td_json_num(s, q, NAN) : NAN;
}

static const char *verdict(const td_json *c, const char *side) {
    const td_json *s = td_json_get(c, side);
    return s && s->t == TD_JOBJ ? td_json_str(s, "status", "?") : "-";
}

/* "a -> b" of a quantile */
static void pair_str(char *b, size_t n, const td_json *c, const char *q) {
    char x[32], y[32];
    num(x, sizeof x, q_of(c, "old", q));
    num(y, sizeof y, q_of(c, "new", q));
    snprintf(b, n, "%.16s -> %.16s", x, y);
}

static int changed(const td_json *c) { return strcmp(td_json_str(c, "change", "unchanged"), "unchanged") != 0; }

void td_render_changes_table(FILE *f, const td_json *cs) {
    if (!cs || cs->t != TD_JARR) return;
    fprintf(f, "%-52s %-15s %-17s %9s %8s %8s %-20s %-20s %9s %7s\n", "CONTRACT", "CHANGE", "VERDICT OLD->NEW",
            "CHANGED", "CLOSER", "FARTHER", "ERR/TOL MEDIAN", "ERR/TOL P99", "P", "GROWTH");
    for (size_t i = 0; i < cs->n; i++) {
        const td_json *c = &cs->kids[i];
        const td_json *p = td_json_get(c, "paired");
        char v[40], med[48], p99[48], pv[32], gr[32], ch[32], cl[32], fa[32];
        snprintf(v, sizeof v, "%s->%s", verdict(c, "old"), verdict(c, "new"));
        pair_str(med, sizeof med, c, "median");
        pair_str(p99, sizeof p99, c, "p99");
        num(pv, sizeof pv, p ? td_json_num(p, "p", NAN) : NAN);
        num(gr, sizeof gr, p ? td_json_num(p, "growth", NAN) : NAN);
        cnt(ch, sizeof ch, td_json_num(c, "lanes_changed", NAN));
        cnt(cl, sizeof cl, td_json_num(c, "closer", NAN));
        cnt(fa, sizeof fa, td_json_num(c, "farther", NAN));
        fprintf(f, "%-52s %-15s %-17s %9s %8s %8s %-20s %-20s %9s %7s\n", td_json_str(c, "id", "?"),
                td_json_str(c, "change", "?"), v, ch, cl, fa, med, p99, pv, gr);
        const td_json *nf = td_json_get(c, "new_findings");
        for (size_t k = 0; nf && k < nf->n; k++) {
            const td_json *x = &nf->kids[k];
            fprintf(f, "    new finding: %s in %s (%s), %.0f cases; OLD on its reproducer: %s\n",
                    td_json_str(x, "class", "?"), td_json_str(x, "region", "-"), td_json_str(x, "lane_class", "?"),
                    td_json_num(x, "count", 0), td_json_str(x, "old_on_reproducer", "-"));
            fprintf(f, "      replay on NEW: %s\n", td_json_str(x, "repro_new", ""));
            if (td_json_str(x, "repro_old", NULL)) fprintf(f, "      replay on OLD: %s\n", td_json_str(x, "repro_old", ""));
        }
        const char *m = td_json_str(c, "message", "");
        if (m[0]) fprintf(f, "    %s\n", m);
    }
}

static void paired_md(FILE *f, const td_json *p) {
    if (!p) return;
    char pv[32], gr[32];
    num(pv, sizeof pv, td_json_num(p, "p", NAN));
    num(gr, sizeof gr, td_json_num(p, "growth", NAN));
    fprintf(f, "\nPaired test (Wilcoxon signed-rank, one-sided, unit: the case; score: %s): %.0f cases where the "
               "score moved, NEW worse in %.0f, better in %.0f; p = %s (%s), median growth %s. Rule: p < %g and growth "
               ">= %g: **%s**.\n",
            td_json_str(p, "score", "?"), td_json_num(p, "used", 0), td_json_num(p, "worse", 0),
            td_json_num(p, "better", 0), pv, td_json_num(p, "exact", 0) ? "exact" : "normal approximation", gr,
            td_json_num(p, "alpha", NAN), td_json_num(p, "min_growth", NAN),
            td_json_num(p, "regression", 0) ? "ACCURACY REGRESSION" : "no regression");
}

static void findings_md(FILE *f, const td_json *nf) {
    for (size_t k = 0; nf && k < nf->n; k++) {
        const td_json *x = &nf->kids[k];
        fprintf(f, "- new finding **%s** in %s (%s), %.0f cases, first case %.0f; NEW on the reproducer: %s; OLD: %s  \n"
                   "  replay on NEW: `%s`  \n  replay on OLD: `%s`\n",
                td_json_str(x, "class", "?"), td_json_str(x, "region", "-"), td_json_str(x, "lane_class", "?"),
                td_json_num(x, "count", 0), td_json_num(x, "first_case", 0), td_json_str(x, "new_on_reproducer", "-"),
                td_json_str(x, "old_on_reproducer", "-"), td_json_str(x, "repro_new", ""),
                td_json_str(x, "repro_old", ""));
    }
}

static void contract_md(FILE *f, const td_json *c) {
    fprintf(f, "\n### %s: %s\n\n| | OLD | NEW |\n|---|---|---|\n", td_json_str(c, "id", "?"),
            td_json_str(c, "change", "?"));
    fprintf(f, "| verdict | %s | %s |\n", verdict(c, "old"), verdict(c, "new"));
    static const char *qs[] = {"median", "p99", "max"};
    for (int i = 0; i < 3; i++) {
        char x[32], y[32];
        num(x, sizeof x, q_of(c, "old", qs[i]));
        num(y, sizeof y, q_of(c, "new", qs[i]));
        fprintf(f, "| err/tol %s | %s | %s |\n", qs[i], x, y);
    }
    fprintf(f, "| cases with a finding | %.0f | %.0f |\n", q_of(c, "old", "disagreements"),
            q_of(c, "new", "disagreements"));
    if (td_json_get(c, "lanes_changed") && td_json_get(c, "lanes_changed")->t == TD_JNUM)
        fprintf(f, "\nLanes changed bit for bit: %.0f of %.0f; of those NEW is closer to the reference on %.0f, "
                   "farther on %.0f, equally close on %.0f%s.\n",
                td_json_num(c, "lanes_changed", 0), td_json_num(c, "lanes_compared", 0), td_json_num(c, "closer", 0),
                td_json_num(c, "farther", 0), td_json_num(c, "equally_close", 0),
                td_json_num(c, "same_reference", 1) ? "" : " (the versions' cast profiles differ: each error is "
                                                           "measured against its own reference)");
    paired_md(f, td_json_get(c, "paired"));
    fputc('\n', f);
    findings_md(f, td_json_get(c, "new_findings"));
    const char *m = td_json_str(c, "message", "");
    if (m[0]) fprintf(f, "\n%s\n", m);
}

void td_render_changes_md(FILE *f, const td_json *cs, const char *title) {
    if (!cs || cs->t != TD_JARR) return;
    fprintf(f, "\n## %s\n\n| contract | change | verdict OLD -> NEW | lanes changed | closer / farther | err/tol "
               "median | err/tol p99 | p | growth |\n|---|---|---|---|---|---|---|---|---|\n",
            title);
    int any = 0;
    for (size_t i = 0; i < cs->n; i++) {
        const td_json *c = &cs->kids[i], *p = td_json_get(c, "paired");
        char med[48], p99[48], pv[32], gr[32], chg[32], cl[32], fa[32];
        pair_str(med, sizeof med, c, "median");
        pair_str(p99, sizeof p99, c, "p99");
        num(pv, sizeof pv, p ? td_json_num(p, "p", NAN) : NAN);
        num(gr, sizeof gr, p ? td_json_num(p, "growth", NAN) : NAN);
        cnt(chg, sizeof chg, td_json_num(c, "lanes_changed", NAN));
        cnt(cl, sizeof cl, td_json_num(c, "closer", NAN));
        cnt(fa, sizeof fa, td_json_num(c, "farther", NAN));
        fprintf(f, "| `%s` | %s | %s -> %s | %s | %s / %s | %s | %s | %s | %s |\n", td_json_str(c, "id", "?"),
                td_json_str(c, "change", "?"), verdict(c, "old"), verdict(c, "new"), chg, cl, fa, med, p99, pv, gr);
        any |= changed(c);
    }
    if (!any) fputs("\nNo contract changed.\n", f);
    for (size_t i = 0; i < cs->n; i++)
        if (changed(&cs->kids[i])) contract_md(f, &cs->kids[i]);
}

void td_html_text(FILE *f, const char *s) {
    for (; s && *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else fputc(*s, f);
    }
}

/* y position of an err/tol value on the plot's log axis [1e-9, 1e3] */
static double ypos(double x, double H) {
    double l = x > 0 ? log10(x) : -9;
    if (l < -9 || !isfinite(l)) l = l > 0 ? 3 : -9;
    if (l > 3) l = 3;
    return H - (l + 9) / 12 * H;
}

/* OLD (grey) and NEW (blue) bars at the median, p99 and max; the red line is err/tol = 1. */
static void svg_paired(FILE *f, const td_json *c) {
    const int W = 240, H = 120, top = 6;
    static const char *qs[] = {"median", "p99", "max"};
    fprintf(f, "<svg width=\"%d\" height=\"%d\" role=\"img\"><line x1=\"0\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
               "stroke=\"#d1242f\" stroke-dasharray=\"3\"/>",
            W, H + top + 16, W, top + ypos(1, H), top + ypos(1, H));
    for (int i = 0; i < 3; i++)
        for (int s = 0; s < 2; s++) {
            double v = q_of(c, s ? "new" : "old", qs[i]);
            if (isnan(v)) continue;
            double y = top + ypos(v, H);
            fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"28\" height=\"%.1f\" fill=\"%s\"><title>%s %s %.3g</title></rect>",
                    20 + 75 * i + 30 * s, y, top + H - y, s ? "#0969da" : "#8c959f", s ? "NEW" : "OLD", qs[i], v);
        }
    for (int i = 0; i < 3; i++)
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>", 30 + 75 * i, H + top + 13, qs[i]);
    fputs("</svg>", f);
}

void td_render_changes_html(FILE *f, const td_json *cs, const char *title) {
    if (!cs || cs->t != TD_JARR) return;
    fprintf(f, "<h2>%s</h2>\n<p>Bars: err/tol of OLD (grey) and NEW (blue) at the median, p99 and max, log scale "
               "1e-9 .. 1e3; the dashed line is the tolerance.</p>\n<table><tr><th>contract</th><th>change</th>"
               "<th>verdict OLD &rarr; NEW</th><th>lanes changed (closer / farther)</th><th>paired test</th>"
               "<th>err/tol quantiles</th></tr>\n",
            title);
    for (size_t i = 0; i < cs->n; i++) {
        const td_json *c = &cs->kids[i], *p = td_json_get(c, "paired");
        if (!changed(c)) continue;
        const char *ch = td_json_str(c, "change", "?");
        int bad = !strcmp(ch, "verdict-change") || !strcmp(ch, "regression") || !strcmp(ch, "new-findings");
        fprintf(f, "<tr class=\"%s\"><td><code>", bad ? "bad" : "ok");
        td_html_text(f, td_json_str(c, "id", "?"));
        fprintf(f, "</code></td><td>%s</td><td>%s &rarr; %s</td><td>%.0f (%.0f / %.0f)</td><td>", ch, verdict(c, "old"),
                verdict(c, "new"), td_json_num(c, "lanes_changed", NAN), td_json_num(c, "closer", NAN),
                td_json_num(c, "farther", NAN));
        if (p)
            fprintf(f, "%.0f cases moved, worse in %.0f; p = %.3g, growth %.3g: %s", td_json_num(p, "used", 0),
                    td_json_num(p, "worse", 0), td_json_num(p, "p", NAN), td_json_num(p, "growth", NAN),
                    td_json_num(p, "regression", 0) ? "<b>accuracy regression</b>" : "no regression");
        const td_json *nf = td_json_get(c, "new_findings");
        for (size_t k = 0; nf && k < nf->n; k++) {
            fprintf(f, "<br>new finding: %s in ", td_json_str(&nf->kids[k], "class", "?"));
            td_html_text(f, td_json_str(&nf->kids[k], "region", "-"));
            fputs(" &mdash; <code>", f);
            td_html_text(f, td_json_str(&nf->kids[k], "repro_new", ""));
            fputs("</code>", f);
        }
        fputs("</td><td>", f);
        svg_paired(f, c);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    int any = 0;
    for (size_t i = 0; i < cs->n; i++) any |= changed(&cs->kids[i]);
    if (!any) fputs("<p>No contract changed.</p>\n", f);
}
