/* tilediff: differential testing and fuzzing of tiled GPU kernels against their contracts. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

typedef struct {
    const char *name;
    int (*fn)(int, char **);
    const char *usage;   /* one line (or two) for `tilediff --help` */
    const char *options; /* the options, one a line, for `tilediff COMMAND --help` */
} td_command;

#define KERNEL_OPTS                                                                                                  \
    "  --kernels LIB.so      a kernel library (default: the built-in one of the backend)\n"                          \
    "  --backend host|cuda   where the kernels run (default host)\n"

#define REGRESS_OPTS                                                                                                 \
    "  --alpha A             significance level of the paired accuracy test (default 1e-4)\n"                        \
    "  --min-growth G        smallest median err/tol growth flagged as a regression (default 1.25)\n"

/* cli/common.h's td_cli_against */
#define AGAINST_OPT                                                                                                  \
    "  --against intent      judge by the operation the contract is read as (tilediff audit), not the contract\n"

/* the memory far cases need (contracts/gen_far.h) */
#define FAR_NOTE                                                                                               \
    "far cases: of a contract whose strides can pass 2^31 elements (tilediff list -v says which), every 16th\n"   \
    "  case puts its rows 2^31 elements or more apart over a sparse mapping: up to 24 GiB of address space\n"    \
    "  reserved per region (MAP_NORESERVE: needs vm.overcommit_memory 0 or 1), a few MiB committed\n"

/* the large tier (contracts/gen_large.h) */
#define LARGE_OPT                                                                                              \
    "  --large               also cases of more than 2^31 elements (flat launches, dense rows; every 16th\n"   \
    "                        case, at i % 16 == 7): the kernel runs over every element (seconds per case), the\n" \
    "                        oracle judges the first, last and 2^31-boundary programs (or row-blocks) and a\n" \
    "                        few sampled ones; tens of GiB of address space reserved, a few hundred MiB\n"    \
    "                        committed (stated before the run; exit 2 when the machine lacks it); host\n"     \
    "                        backend only\n"

static const td_command commands[] = {
    {"list", td_cmd_list, "list [--family F] [-v]                     contracts, kernel files, dtypes, backends",
     "  --family F            only the contracts of family F\n"
     "  -v, --verbose         also each contract's io class, spec, parameters, regions, casts and error model\n"},
    {"run", td_cmd_run,
     "run CONTRACT|GLOB [--backend host|cuda] [--kernel VARIANT] [--kernels LIB.so] [--cases N] [--seed S] [--json]\n"
     "                  [--artifacts DIR] [--timeout S] [--all-variants] [--mpfr-all] [--strict] [--lane-dump FILE]\n"
     "                  [--jobs N] [--against intent|contract] [--large]",
     KERNEL_OPTS AGAINST_OPT "  --kernel VARIANT      the variant to run (default: the one that claims to meet the contract)\n"
                 "  --all-variants        run every variant, mutants included\n"
                 "  --cases N             random contract-valid cases (default 200)\n"
                 "  --seed S              the campaign seed; case i of seed S is always the same case (default 1)\n"
                 "  --json                one JSON object per finding and a summary object\n"
                 "  --artifacts DIR       where reproducers go (default tilediff-artifacts)\n"
                 "  --no-artifacts        write no reproducers\n"
                 "  --timeout S           a case that makes no progress for S seconds is a hang finding (progress: a\n"
                 "                        launch returned; a Triton program instance began)\n"
                 "  --mpfr-all            decide every lane with MPFR too (slow; checks the fast path)\n"
                 "  --quiet               print findings only, not warnings\n"
                 "  --strict              a WARN (error above the probabilistic bound, within the rigorous\n"
                 "                        one) counts as a disagreement: exit 1\n"
                 "  --lane-dump FILE      err/tol and tolerance of every checked lane (bench/tightness.sh)\n"
                 "  --jobs N              cases run in N processes at once (default: every core; 1 with --lane-dump);\n"
                 "                        the output is the same for any N\n"
                 LARGE_OPT FAR_NOTE},
    {"repro", td_cmd_repro,
     "repro FILE... [--contract C] [--kernel VARIANT] [--kernels LIB.so] [--backend B] [--json] [--emit-python S.py]",
     KERNEL_OPTS "  --contract C          the contract of a raw fuzz input (artifacts name theirs)\n"
                 "  --kernel VARIANT      replay on this variant (default: the artifact's)\n"
                 "  --json                one JSON object per file\n"
                 "  --mpfr-all            decide every lane with MPFR too\n"
                 "  --emit-python S.py    write a standalone numpy script that replays the case on the kernel\n"},
    {"certify", td_cmd_certify,
     "certify [--kernels LIB.so] [--backend host|cuda] [--contracts GLOB] [--kernel VARIANT|GLOB]...\n"
     "                  [--budget SECONDS | --cases N] [--seed S] [--shard K/N] [--out DIR] [--timeout S] [--strict]\n"
     "                  [--jobs N] [--shape production [--shape-dims D,...] [--sample-lanes N] [--sample-programs N]]\n"
     "                  [--against intent|contract] [--baseline DIR/report.json [--alpha A] [--min-growth G]] [--large]",
     KERNEL_OPTS AGAINST_OPT LARGE_OPT
     "  --contracts GLOB      the contracts to certify (default all)\n"
     "  --kernel VARIANT|GLOB certify these variants (repeatable; mutants too); default: every variant that\n"
     "                        claims to meet its contract, each on its own row\n"
     "  --budget SECONDS      total time, split evenly between covered contracts, then between their\n"
     "                        kernels (default 60); each kernel runs at least 8 cases\n"
     "  --cases N             N cases per kernel instead of a time budget\n"
     "  --seed S              campaign seed (default 1)\n"
     "  --shard K/N           the K-th of N slices of the contracts (join them with `report merge`)\n"
     "  --out DIR             report.json, report.md, report.html, junit.xml, artifacts/ (default tilediff-certify)\n"
     "  --timeout S           a kernel's campaign that makes no progress (a case finished, a Triton program\n"
     "                        instance began) for S seconds is a timeout (default 3x its share + 30 s)\n"
     "  --strict              a WARN (above the probabilistic bound, within the rigorous one) fails its row\n"
     "  --jobs N              rows (kernels) certified at once, each in its own process (default: every\n"
     "                        core); the reports are the same for any N but for their timings\n"
     "  --shape production    launch at the sizes real models use (docs/production-shapes.md; smaller on the\n"
     "                        host backend), the oracle on a stratified lane sample stated in the report;\n"
     "                        guard zones, sentinels and cells outside the write set are checked everywhere\n"
     "  --shape-dims D,D,...  that production shape instead of the table's (implies --shape production)\n"
     "  --sample-lanes N      lanes drawn uniformly besides the full programs and edges (default 4096)\n"
     "  --sample-programs N   programs checked in full besides the first and the last (default 3)\n"
     REGRESS_OPTS
     "  --baseline FILE       a stored report.json: rerun its cases (its seed) and report what changed\n"
     "exit status 2 also when the library covers none of the selected contracts\n" FAR_NOTE},
    {"diff", td_cmd_diff,
     "diff --kernels OLD --kernels NEW [--old-kernel V] [--new-kernel V] [--backend host|cuda] [--contracts GLOB]\n"
     "                  [--budget SECONDS | --cases N] [--seed S] [--out DIR] [--alpha A] [--min-growth G]\n"
     "                                            two kernel versions on the same cases: changed lanes, regressions",
     "  --kernels OLD --kernels NEW  the two kernel libraries (the same one twice to compare two variants)\n"
     "  --old-kernel V, --new-kernel V  the variants to compare (default: the claimed-correct one)\n"
     "  --backend host|cuda   where the kernels run (default host)\n"
     "  --contracts GLOB      the contracts to compare (default all)\n"
     "  --budget SECONDS | --cases N  how long / how many cases per contract\n"
     "  --seed S              campaign seed (default 1)\n"
     "  --out DIR             the diff report\n" REGRESS_OPTS},
    {"audit", td_cmd_audit,
     "audit [GLOB] [--cases N] [--seed S] [--markdown] [-v]  each contract's spec against the operation it is read as",
     "  GLOB                  the contracts to audit (default all)\n"
     "  --cases N             generated contract-valid cases per contract (default 200)\n"
     "  --seed S              campaign seed (default 1); case i of seed S is always the same case\n"
     "  --markdown            a table of the contracts that differ (docs/intent.md)\n"
     "  -v, --verbose         also list the contracts without an intent spec\n"
     "A contract differs where the operation's exact value, rounded once to the output, fails the contract's\n"
     "own tolerance, where the operation needs inputs the launch does not read, or where the write sets differ.\n"
     "exit status 1 when a contract differs from its intent\n"},
    {"report", td_cmd_report, "report merge DIR... --out DIR                join certify shards into one report",
     "  --out DIR             where the merged reports go\n"},
    {"selftest", td_cmd_selftest,
     "selftest [--budget SECONDS] [--cases N] [--timeout S] [--jobs N]  kill matrix of the mutants, false-alarm matrix\n"
     "                  of the correct kernels (ports and alternatives)",
     KERNEL_OPTS "  --budget SECONDS      total time (default 120): 60% hunts the mutants, 40% looks for false alarms\n"
                 "  --cases N             at most N cases per mutant (default 2000)\n"
                 "  --seed S              campaign seed (default 1)\n"
                 "  --timeout S           a case that runs longer is a hang\n"
                 "  --contracts GLOB      only these contracts\n"
                 "  --only KINDS          only these rows: mutants, ports, alternatives (comma-separated; default all)\n"
                 "  --jobs N              kernels tested at once (default: every core); the same rows for any N\n"},
    {"minimize", td_cmd_minimize, "minimize FILE -o OUT [--contract C] [--kernel V] [--raw]  shrink a finding, same kind",
     "  -o, --out OUT         the shrunk reproducer\n"
     "  --contract C          the contract of a raw fuzz input\n"
     "  --kernel VARIANT      the variant that shows the finding (default: the artifact's)\n"
     "  --kernels LIB.so      a kernel library\n"
     "  --raw                 write raw bytes, not an artifact with a header\n"
     "  --max-runs N          at most N replays (default 2000)\n"},
    {"corpus-stats", td_cmd_corpus_stats, "corpus-stats DIR [--contract C]          boundary classes a corpus covers and misses",
     "  --contract C          the contract (default: from the folder name)\n"},
    {"corpus-seed", td_cmd_corpus_seed, "corpus-seed [--out corpus] [--contracts GLOB]  seed corpora, one input per boundary class",
     "  --out DIR             the corpus root (default corpus)\n"
     "  --contracts GLOB      only these contracts\n"
     "  --tries N             inputs tried per contract (default 20000)\n"},
    {"corpus-regress", td_cmd_corpus_regress, "corpus-regress [--out corpus/regressions]  minimised inputs that kill each mutant",
     "  --out DIR             where they go (default corpus/regressions)\n"
     "  --contracts GLOB      only these contracts\n"},
    {"digest", td_cmd_digest, "digest [--contracts GLOB] [--inputs N]       what fixed inputs decode to, hashed (builds must agree)",
     "  --contracts GLOB      only these contracts\n"
     "  --inputs N            inputs per contract (default 200)\n"},
    {"regress", td_cmd_regress, "regress DIR                                 replay corpus/regressions; fail if a verdict changes",
     "  (no options)\n"},
    {"explain", td_cmd_explain, "explain CONTRACT FILE [--lane L] [--full] [--kernel VARIANT] [--kernels LIB.so]",
     KERNEL_OPTS "  --lane L              the lane (index into the write set; default: the first bad one, else 0)\n"
                 "  --kernel VARIANT      the variant (default: the artifact's)\n"
                 "  --full                every term of a long reduction, not a summary\n"},
    {"cast", td_cmd_cast,
     "cast VALUE... --to FMT [--from f32|f64|mpfr|FMT] [--via FMT[:rnd:ovf]]... [--rounding rne|rtz]\n"
     "                  [--overflow inf|sat|nan|wrap] [--ftz] [--bits]     a value under any cast profile",
     NULL /* cast prints its own, longer help */},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f) {
    fprintf(f, "usage: tilediff COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++) fprintf(f, "  tilediff %s\n", commands[i].usage);
    fprintf(f, "\n`tilediff COMMAND --help` shows a command's options.\n");
    fprintf(f, "exit status: 0 all agreed, 1 disagreement found, 2 bad usage or input, 3 internal error\n");
}

static int command_help(const td_command *c) {
    printf("usage: tilediff %s\n\noptions:\n%s", c->usage, c->options);
    printf("\nexit status: 0 all agreed, 1 disagreement found, 2 bad usage or input, 3 internal error\n");
    return TD_EXIT_OK;
}

static int asks_help(int argc, char **argv) {
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return 1;
    return 0;
}

static const td_command *find_command(const char *name) {
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(name, commands[i].name)) return &commands[i];
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return TD_EXIT_USAGE;
    }
    int help = !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help");
    if (help && argc == 2) {
        usage(stdout);
        return TD_EXIT_OK;
    }
    const td_command *c = find_command(argv[help ? 2 : 1]);
    if (!c) {
        fprintf(stderr, "tilediff: unknown command '%s'\n", argv[help ? 2 : 1]);
        usage(stderr);
        return TD_EXIT_USAGE;
    }
    if (c->options && (help || asks_help(argc, argv))) return command_help(c);
    if (help) {
        char *a[] = {argv[2], "--help", NULL};
        return c->fn(2, a);
    }
    return c->fn(argc - 1, argv + 1);
}
