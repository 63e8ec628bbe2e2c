/* tilediff: differential testing and fuzzing of tiled GPU kernels against their contracts. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

typedef struct {
    const char *name;
    int (*fn)(int, char **);
    const char *usage;
} td_command;

static const td_command commands[] = {
    {"list", td_cmd_list, "list [--family F] [-v]                     contracts, kernel files, dtypes, backends"},
    {"run", td_cmd_run,
     "run CONTRACT|GLOB [--backend host|cuda] [--kernel VARIANT] [--kernels LIB.so] [--cases N] [--seed S] [--json]\n"
     "                  [--artifacts DIR] [--timeout S] [--all-variants] [--mpfr-all] [--lane-dump FILE]"},
    {"repro", td_cmd_repro, "repro FILE... [--contract C] [--kernel VARIANT] [--kernels LIB.so] [--backend B] [--json]"},
    {"certify", td_cmd_certify,
     "certify [--kernels LIB.so] [--backend host|cuda] [--contracts GLOB] [--budget SECONDS | --cases N] [--seed S]\n"
     "                  [--shard K/N] [--out DIR] [--timeout S] [--baseline DIR/report.json [--alpha A] [--min-growth G]]"},
    {"diff", td_cmd_diff,
     "diff --kernels OLD --kernels NEW [--old-kernel V] [--new-kernel V] [--backend host|cuda] [--contracts GLOB]\n"
     "                  [--budget SECONDS | --cases N] [--seed S] [--out DIR] [--alpha A] [--min-growth G]\n"
     "                                            two kernel versions on the same cases: changed lanes, regressions"},
    {"report", td_cmd_report, "report merge DIR... --out DIR                join certify shards into one report"},
    {"selftest", td_cmd_selftest,
     "selftest [--budget SECONDS] [--cases N] [--timeout S]  kill matrix of the mutants, false-alarm matrix\n"
     "                  of the correct kernels (ports and alternatives)"},
    {"minimize", td_cmd_minimize, "minimize FILE -o OUT [--contract C] [--kernel V] [--raw]  shrink a finding, same kind"},
    {"corpus-stats", td_cmd_corpus_stats, "corpus-stats DIR [--contract C]          boundary classes a corpus covers and misses"},
    {"corpus-seed", td_cmd_corpus_seed, "corpus-seed [--out corpus] [--contracts GLOB]  seed corpora, one input per boundary class"},
    {"corpus-regress", td_cmd_corpus_regress, "corpus-regress [--out corpus/regressions]  minimised inputs that kill each mutant"},
    {"digest", td_cmd_digest, "digest [--contracts GLOB] [--inputs N]       what fixed inputs decode to, hashed (builds must agree)"},
    {"regress", td_cmd_regress, "regress DIR                                 replay corpus/regressions; fail if a verdict changes"},
    {"explain", td_cmd_explain, "explain CONTRACT FILE [--lane L] [--kernel VARIANT] [--kernels LIB.so]"},
    {"cast", td_cmd_cast,
     "cast VALUE... --to FMT [--from f32|f64|mpfr|FMT] [--via FMT[:rnd:ovf]]... [--rounding rne|rtz]\n"
     "                  [--overflow inf|sat|nan|wrap] [--ftz] [--bits]     a value under any cast profile"},
};

static void usage(FILE *f) {
    fprintf(f, "usage: tilediff COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  tilediff %s\n", commands[i].usage);
    fprintf(f, "\nexit status: 0 all agreed, 1 disagreement found, 2 bad usage or input, 3 internal error\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return TD_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return TD_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "tilediff: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return TD_EXIT_USAGE;
}
