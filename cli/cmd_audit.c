/* tilediff audit: each contract's spec against its intent (engine/audit.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "common.h"

typedef struct audit_cli {
    const char *glob;
    td_audit_opts o;
    int markdown, verbose;
} audit_cli;

static int audit_args(int argc, char **argv, audit_cli *a) {
    memset(a, 0, sizeof *a);
    a->glob = "all";
    a->o.cases = 200;
    a->o.seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cases") || !strcmp(argv[i], "--seed")) {
            NEED_ARG();
            uint64_t *dst = argv[i][2] == 'c' ? &a->o.cases : &a->o.seed;
            if (td_parse_u64(argv[++i], dst) != 0) {
                fprintf(stderr, "tilediff audit: %s needs a non-negative integer, not '%s'\n", argv[i - 1], argv[i]);
                return TD_EXIT_USAGE;
            }
        } else if (!strcmp(argv[i], "--markdown")) {
            a->markdown = 1;
        } else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
            a->verbose = 1;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "tilediff audit: unknown option '%s' (see tilediff audit --help)\n", argv[i]);
            return TD_EXIT_USAGE;
        } else {
            a->glob = argv[i];
        }
    }
    return 0;
}

/* One contract's verdict line, then (when it differs) what differs and where. */
static void print_text(FILE *f, const td_audit_result *r, uint64_t seed) {
    const td_intent *in = r->k->intent;
    if (!r->cases_differ) {
        if (r->cases)
            fprintf(f, "%-52s agrees with intent   %" PRIu64 " cases, %" PRIu64 " lanes, worst err/tol %.3g\n", r->k->id,
                    r->cases, r->lanes, r->worst_eot);
        else
            fprintf(f, "%-52s not compared         no case states the operation's own values\n", r->k->id);
        if (r->cases_partial)
            fprintf(f, "    %" PRIu64 " cases not compared (partials): %s\n", r->cases_partial, r->partial);
        return;
    }
    fprintf(f, "%-52s DIFFERS from intent  in %" PRIu64 " of %" PRIu64 " cases\n", r->k->id, r->cases_differ, r->cases);
    fprintf(f, "    intent:    %s\n    defined:   %s\n", in->operation, in->definition);
    if (r->condition[0])
        fprintf(f, "    condition: %s  (in all %" PRIu64 " differing cases; in %" PRIu64 " of %" PRIu64 " agreeing ones)\n",
                r->condition, r->cases_differ, r->cond_agree, r->agree);
    else
        fprintf(f, "    condition: none of the simple predicates over the integer parameters separates the cases\n");
    if (r->cases_partial)
        fprintf(f, "    %" PRIu64 " more cases not compared (partials): %s\n", r->cases_partial, r->partial);
    if (r->cases_gap)
        fprintf(f, "    %" PRIu64 " cases where the operation needs what the launch does not read: %s\n", r->cases_gap, r->gap);
    if (r->lanes_differ)
        fprintf(f, "    %" PRIu64 " of %" PRIu64 " lanes: the operation's exact value, rounded to the output, fails the contract "
                   "(worst err/tol %.3g)\n", r->lanes_differ, r->lanes, r->worst_eot);
    if (r->lanes_intent_only || r->lanes_contract_only)
        fprintf(f, "    lanes written by the operation only: %" PRIu64 ", by the contract only: %" PRIu64 "\n",
                r->lanes_intent_only, r->lanes_contract_only);
    fprintf(f, "    smallest:  case %" PRId64 " of seed %" PRIu64 " (%" PRIu64 " elements): %s\n", r->smallest, seed,
            r->smallest_size, r->smallest_desc);
    const td_lane_report *l = &r->lane;
    if (l->has_lane)
        fprintf(f, "    lane [%" PRId64 ",%" PRId64 "] of output %u: operation %.9g, contract %s (%.9g), tolerance %.3g\n",
                l->lane.idx[0], l->lane.idx[1], l->lane.o + 1, l->got, l->ref_exact, l->ref, l->tol);
}

static void print_markdown(FILE *f, const td_audit_result *r) {
    if (!r->cases_differ) return;
    fprintf(f, "| `%s` | %s | %" PRIu64 "/%" PRIu64 " | %s | ", r->k->id, r->k->intent->operation, r->cases_differ,
            r->cases, r->condition[0] ? r->condition : "(none named)");
    const char *sep = "";
    if (r->lanes_differ)
        fprintf(f, "the operation's value fails the contract on %" PRIu64 " of %" PRIu64 " lanes", r->lanes_differ,
                r->lanes), sep = "; ";
    if (r->cases_gap) fprintf(f, "%s%s", sep, r->gap), sep = "; ";
    if (r->lanes_intent_only || r->lanes_contract_only) fprintf(f, "%sthe write sets differ", sep);
    fprintf(f, " |\n");
}

int td_cmd_audit(int argc, char **argv) {
    audit_cli a;
    int rc = audit_args(argc, argv, &a);
    if (rc) return rc;
    char err[256];
    td_ctx_opts co = {0};
    td_ctx *cx = td_ctx_new(&co, err, sizeof err);
    if (!cx) return fprintf(stderr, "tilediff audit: %s\n", err), TD_EXIT_INTERNAL;
    int matched = 0, differ = 0, none = 0;
    if (a.markdown)
        printf("| contract | intent | cases differing | condition | how |\n|---|---|---|---|---|\n");
    for (int i = 0; i < td_contract_count() && rc == 0; i++) {
        const td_contract *k = td_contract_at(i);
        if (!td_match(a.glob, k->id)) continue;
        matched++;
        if (!k->intent) {
            none++;
            if (a.verbose && !a.markdown) printf("%-52s no intent spec (family %s)\n", k->id, k->family);
            continue;
        }
        td_audit_result r;
        if (td_audit_contract(cx, k, &a.o, &r) != 0) {
            fprintf(stderr, "tilediff audit: %s: %s\n", k->id, r.msg);
            rc = TD_EXIT_INTERNAL;
            break;
        }
        differ += r.cases_differ > 0;
        if (a.markdown) print_markdown(stdout, &r);
        else print_text(stdout, &r, a.o.seed);
    }
    td_ctx_free(cx);
    if (rc) return rc;
    if (!matched) return fprintf(stderr, "tilediff audit: no contract matches '%s'\n", a.glob), TD_EXIT_USAGE;
    if (!a.markdown)
        printf("\n%d contracts: %d with an intent spec (%d differ from it), %d without one%s\n", matched, matched - none,
               differ, none, a.verbose ? "" : " (listed with -v)");
    return differ ? TD_EXIT_FINDING : TD_EXIT_OK;
}
