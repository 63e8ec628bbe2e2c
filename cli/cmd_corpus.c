/* tilediff minimize | corpus-stats | corpus-seed | corpus-regress | regress */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign.h"
#include "common.h"
#include "gen_far.h"

static int mkdir_p(const char *dir) {
    char b[4096];
    snprintf(b, sizeof b, "%s", dir);
    for (char *p = b + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(b, 0777) && errno != EEXIST) return -1;
            *p = '/';
        }
    return (mkdir(b, 0777) && errno != EEXIST) ? -1 : 0;
}

static int write_file(const char *path, const char *header, const uint8_t *d, size_t n) {
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) return -1;
    int bad = header && fputs(header, f) < 0;
    bad |= n && fwrite(d, 1, n, f) != n;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path)) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

static const char *key_str(const td_kernel *kern, const td_fkey *k, char *b, size_t n) {
    snprintf(b, n, "%s %s %s", td_vclass_name(k->cls), kern->k->regions[k->region].name, td_lclass_name(k->lc));
    return b;
}

typedef struct {
    const char *in, *out, *contract;
    int raw;
    uint64_t max_runs;
} min_args;

/* 0, or TD_EXIT_USAGE (reported) */
static int minimize_args(int argc, char **argv, td_cli *cli, min_args *o) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
            NEED_ARG();
            o->out = argv[++i];
        } else if (!strcmp(a, "--contract")) {
            NEED_ARG();
            o->contract = argv[++i];
        } else if (!strcmp(a, "--kernel")) {
            NEED_ARG();
            cli->variant = argv[++i];
        } else if (!strcmp(a, "--kernels")) {
            NEED_ARG();
            cli->kernels = argv[++i];
        } else if (!strcmp(a, "--max-runs")) {
            NEED_ARG();
            if (td_parse_u64(argv[++i], &o->max_runs) || !o->max_runs || o->max_runs > 1000000) {
                fprintf(stderr, "tilediff minimize: --max-runs needs a positive integer, not '%s'\n", argv[i]);
                return TD_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--raw"))
            o->raw = 1;
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "tilediff minimize: unknown option '%s'\n", a);
            return TD_EXIT_USAGE;
        } else if (!o->in)
            o->in = a;
        else {
            fprintf(stderr, "tilediff minimize: one input file only ('%s' is extra)\n", a);
            return TD_EXIT_USAGE;
        }
    }
    if (!o->in || !o->out) {
        fprintf(stderr, "usage: tilediff minimize FILE -o OUT [--contract C] [--kernel VARIANT] [--kernels LIB.so] "
                        "[--raw] [--max-runs N]\n");
        return TD_EXIT_USAGE;
    }
    return 0;
}

/* Minimises data (size bytes) to the same finding and writes it to o->out; TD_EXIT_FINDING
 * when written, TD_EXIT_USAGE when the input is not a finding or cannot be written. */
static int minimize_write(td_ctx *cx, const td_kernel *kern, const min_args *o, const uint8_t *data, size_t size) {
    const td_contract *k = kern->k;
    uint8_t *m;
    size_t mn;
    td_case_result r;
    int status = TD_EXIT_USAGE;
    if (td_minimize(cx, kern, data, size, &m, &mn, (int)o->max_runs) != 0) {
        fprintf(stderr, "tilediff minimize: %s is not a finding of %s [%s]: nothing to keep\n", o->in, k->id,
                kern->abi->variant);
        return status;
    }
    if (td_run_bytes(cx, kern, m, mn, &r) == TD_RUN_FINDING) {
        td_fkey key;
        char ks[256], hdr[1024];
        td_finding_key(kern, m, mn, &r, &key);
        snprintf(hdr, sizeof hdr, "TDFZ1 %s %s %s\n", k->id, kern->abi->variant,
                 kern->abi->backend == TD_ABI_CUDA ? "cuda" : "host");
        if (write_file(o->out, o->raw ? NULL : hdr, m, mn) != 0) {
            fprintf(stderr, "tilediff minimize: cannot write %s: %s\n", o->out, strerror(errno));
        } else {
            printf("%s: %zu -> %zu bytes, same finding: %s\n  case: %s\n  repro: tilediff repro %s%s%s%s%s\n",
                   o->out, size, mn, key_str(kern, &key, ks, sizeof ks), r.desc, o->raw ? "--contract " : "",
                   o->raw ? k->id : "", o->raw ? " --kernel " : "", o->raw ? kern->abi->variant : "",
                   o->raw ? " " : "");
            printf("         %s\n", o->out);
            status = TD_EXIT_FINDING;
        }
    } else {
        fprintf(stderr, "tilediff minimize: the minimised input of %s does not replay to a finding (a flaky kernel?)\n",
                o->in);
    }
    td_result_free(&r);
    free(m);
    return status;
}

int td_cmd_minimize(int argc, char **argv) {
    td_cli cli = {.cmd = "minimize", .backend = TD_ABI_HOST};
    min_args o = {.max_runs = 2000};
    if (minimize_args(argc, argv, &cli, &o)) return TD_EXIT_USAGE;
    uint8_t *data;
    size_t size;
    char hc[512], hv[256], err[1024];
    int hb;
    if (td_artifact_read(o.in, &data, &size, hc, sizeof hc, hv, sizeof hv, &hb, err, sizeof err) != 0) {
        fprintf(stderr, "tilediff minimize: %s\n", err);
        return TD_EXIT_USAGE;
    }
    const char *cid = o.contract ? o.contract : (hc[0] ? hc : NULL);
    const td_contract *k = cid ? td_contract_find(cid) : NULL;
    if (!k) {
        fprintf(stderr, "tilediff minimize: %s: %s\n", o.in,
                cid ? "unknown contract" : "a raw fuzz input names no contract: pass --contract C");
        free(data);
        return TD_EXIT_USAGE;
    }
    if (!cli.variant && hv[0] && !o.contract) cli.variant = hv;
    int rc = td_cli_open(&cli);
    if (rc) {
        free(data);
        return rc;
    }
    const td_kernel *kern = td_cli_kernel(&cli, k, 0);
    td_ctx_opts co = {.max_reports = 2};
    td_ctx *cx = kern ? td_cli_ctx(&cli, &co) : NULL;
    int status = TD_EXIT_USAGE;
    if (cx) {
        status = minimize_write(cx, kern, &o, data, size);
        td_ctx_free(cx);
    }
    free(data);
    td_cli_close(&cli);
    return status;
}

/* the contract a corpus directory belongs to: --contract, the directory's name, or an artifact header */
static const td_contract *dir_contract(const char *dir, const char *given) {
    if (given) return td_contract_find(given);
    char b[4096];
    snprintf(b, sizeof b, "%s", dir);
    size_t l = strlen(b);
    while (l > 1 && b[l - 1] == '/') b[--l] = 0;
    const char *base = strrchr(b, '/');
    return td_contract_find(base ? base + 1 : b);
}

/* Adds the boundary classes of the input at path p to hits; *k is the directory's contract,
 * set from the first artifact header when no contract was named.  -1 (reported) when the
 * file cannot be read or decoded. */
static int stats_file(const char *p, const td_contract **k, uint64_t hits[TD_BC_COUNT]) {
    uint8_t *data;
    size_t size;
    char hc[512], hv[256], err[1024];
    int hb;
    if (td_artifact_read(p, &data, &size, hc, sizeof hc, hv, sizeof hv, &hb, err, sizeof err)) {
        fprintf(stderr, "tilediff corpus-stats: %s\n", err);
        return -1;
    }
    const td_contract *kk = *k ? *k : (hc[0] ? td_contract_find(hc) : NULL);
    if (!kk) {
        fprintf(stderr, "tilediff corpus-stats: %s: which contract? (name the directory after it or pass --contract)\n", p);
        free(data);
        return -1;
    }
    if (!*k) *k = kk;
    td_case c;
    int rc = td_decode_case(kk, data, size, &c, err, sizeof err);
    if (rc == 0) {
        for (int b = 0; b < TD_BC_COUNT; b++)
            if (c.classes & (1ull << b)) hits[b]++;
    } else {
        fprintf(stderr, "tilediff corpus-stats: %s\n", err);
    }
    td_case_free(&c);
    free(data);
    return rc == 0 ? 0 : -1;
}

int td_cmd_corpus_stats(int argc, char **argv) {
    const char *dir = NULL, *contract = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--contract")) {
            NEED_ARG();
            contract = argv[++i];
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "tilediff corpus-stats: unknown option '%s'\n", argv[i]);
            return TD_EXIT_USAGE;
        } else
            dir = argv[i];
    }
    if (!dir) {
        fprintf(stderr, "usage: tilediff corpus-stats DIR [--contract C]\n");
        return TD_EXIT_USAGE;
    }
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "tilediff corpus-stats: %s: %s\n", dir, strerror(errno));
        return TD_EXIT_USAGE;
    }
    const td_contract *k = dir_contract(dir, contract);
    uint64_t hits[TD_BC_COUNT] = {0}, files = 0, bad = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(p, &sb) || !S_ISREG(sb.st_mode)) continue;
        if (stats_file(p, &k, hits)) bad++;
        else files++;
    }
    closedir(d);
    if (!k) {
        fprintf(stderr, "tilediff corpus-stats: %s: no contract (empty directory, or pass --contract)\n", dir);
        return TD_EXIT_USAGE;
    }
    printf("%s: %" PRIu64 " inputs\ncovered:", k->id, files);
    int missed = 0;
    for (int b = 0; b < TD_BC_COUNT; b++)
        if (hits[b]) printf(" %s(%" PRIu64 ")", td_bclass_name(b), hits[b]);
    printf("\nmissed: ");
    for (int b = 0; b < TD_BC_COUNT; b++)
        if ((k->classes & (1ull << b)) && !hits[b]) printf(" %s", td_bclass_name(b)), missed++;
    printf("%s\n", missed ? "" : " none");
    return bad ? TD_EXIT_USAGE : TD_EXIT_OK;
}

/* The seed of class offset-2^31: a far-tier input (contracts/gen_far.h), the magic then
 * the bytes of try i (n bytes in all), when its case reaches the class.  0, or an exit
 * status. */
static int far_seed(const td_contract *k, uint64_t i, size_t n, const char *dir, uint64_t *have) {
    uint8_t b[256];
    if (n <= TD_FAR_MAGIC_LEN || n > sizeof b) return 0;
    memcpy(b, TD_FAR_MAGIC, TD_FAR_MAGIC_LEN);
    td_case_bytes(7, i, b + TD_FAR_MAGIC_LEN, n - TD_FAR_MAGIC_LEN);
    td_case c;
    char err[1024];
    if (td_decode_case(k, b, n, &c, err, sizeof err)) {
        fprintf(stderr, "tilediff corpus-seed: %s\n", err);
        td_case_free(&c);
        return TD_EXIT_INTERNAL;
    }
    int hit = (c.classes & TD_BC(TD_BC_OFFSET_2_31)) != 0;
    td_case_free(&c);
    if (!hit) return 0;
    char p[4400];
    snprintf(p, sizeof p, "%s/%s", dir, td_bclass_name(TD_BC_OFFSET_2_31));
    if (write_file(p, NULL, b, n)) {
        fprintf(stderr, "tilediff corpus-seed: cannot write %s\n", p);
        return TD_EXIT_USAGE;
    }
    *have |= TD_BC(TD_BC_OFFSET_2_31);
    return 0;
}

/* Seed corpora: for each contract and each boundary class its generator can hit, the
 * first of the seed's cases that hits it, as corpus/<contract>/<class>, plus a
 * libFuzzer options file corpus/<contract>.options. */
/* Writes input b (n bytes) as the seed of each boundary class in fresh; adds them to *have. */
static int write_seeds(const char *dir, uint64_t fresh, const uint8_t *b, size_t n, uint64_t *have) {
    for (int bit = 0; bit < TD_BC_COUNT; bit++) {
        if (!(fresh & (1ull << bit))) continue;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", dir, td_bclass_name(bit));
        if (write_file(p, NULL, b, n)) {
            fprintf(stderr, "tilediff corpus-seed: cannot write %s\n", p);
            return TD_EXIT_USAGE;
        }
        *have |= 1ull << bit;
    }
    return TD_EXIT_OK;
}

/* Seeds dir with one input per declared boundary class of k; returns the classes found
 * in *have, or a nonzero exit status on an error. */
static int seed_classes(const td_contract *k, const char *dir, uint64_t tries, uint64_t *have) {
    uint64_t want = k->classes;
    for (uint64_t i = 0; i < tries && (want & ~*have); i++) {
        /* short inputs first (small, readable seeds); in the second half of the
         * tries, inputs up to 256 bytes, since a class may hang on a choice drawn
         * late in the generator (a short input's missing bytes read as zeros) */
        uint8_t b[256];
        size_t n = i < tries / 2 ? 8 + (size_t)(i % 57) : 64 + (size_t)(i % 193);
        td_case_bytes(7, i, b, n);
        td_case c;
        char err[1024];
        if (td_decode_case(k, b, n, &c, err, sizeof err)) {
            fprintf(stderr, "tilediff corpus-seed: %s\n", err);
            td_case_free(&c);
            return TD_EXIT_INTERNAL;
        }
        uint64_t fresh = c.classes & want & ~*have;
        td_case_free(&c);
        int rc = write_seeds(dir, fresh, b, n, have);
        if (!rc && k->far && (want & ~*have & TD_BC(TD_BC_OFFSET_2_31))) rc = far_seed(k, i, n, dir, have);
        if (rc) return rc;
    }
    return TD_EXIT_OK;
}

/* The seeds and the .options file of one contract; TD_EXIT_FINDING when a declared class
 * was not reached. */
static int seed_contract(const td_contract *k, const char *out, uint64_t tries) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", out, k->id);
    if (mkdir_p(dir)) {
        fprintf(stderr, "tilediff corpus-seed: cannot create %s: %s\n", dir, strerror(errno));
        return TD_EXIT_USAGE;
    }
    uint64_t have = 0;
    int rc = seed_classes(k, dir, tries, &have);
    if (rc) return rc;
    char opt[4400];
    snprintf(opt, sizeof opt, "%s/%s.options", out, k->id);
    const char *o = "[libfuzzer]\n# case sizes are chosen by the bytes; 256 bytes reach every choice\nmax_len = 256\ntimeout = 10\n";
    write_file(opt, NULL, (const uint8_t *)o, strlen(o));
    uint64_t missing = k->classes & ~have;
    printf("%s: %d seeds%s\n", k->id, __builtin_popcountll(have), missing ? " (some declared classes not reached)" : "");
    if (!missing) return TD_EXIT_OK;
    printf("  not reached:");
    for (int bit = 0; bit < TD_BC_COUNT; bit++)
        if (missing & (1ull << bit)) printf(" %s", td_bclass_name(bit));
    printf("\n");
    return TD_EXIT_FINDING;
}

int td_cmd_corpus_seed(int argc, char **argv) {
    const char *out = "corpus", *pattern = "all";
    uint64_t tries = 20000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out")) {
            NEED_ARG();
            out = argv[++i];
        } else if (!strcmp(argv[i], "--contracts")) {
            NEED_ARG();
            pattern = argv[++i];
        } else if (!strcmp(argv[i], "--tries")) {
            NEED_ARG();
            if (td_parse_u64(argv[++i], &tries)) return TD_EXIT_USAGE;
        } else {
            fprintf(stderr, "tilediff corpus-seed: unknown argument '%s'\n", argv[i]);
            return TD_EXIT_USAGE;
        }
    }
    int status = TD_EXIT_OK;
    for (int ci = 0; ci < td_contract_count(); ci++) {
        const td_contract *k = td_contract_at(ci);
        if (!td_match(pattern, k->id)) continue;
        int rc = seed_contract(k, out, tries);
        if (rc == TD_EXIT_FINDING) status = rc;
        else if (rc) return rc;
    }
    return status;
}

/* corpus/regressions/<contract>/: for every mutant, its first killing case minimised,
 * with what each kernel must do with it (<file>.expect: "<variant> <verdict>" lines;
 * the correct kernel must pass it). */
int td_cmd_corpus_regress(int argc, char **argv) {
    td_cli cli = {.cmd = "corpus-regress", .backend = TD_ABI_HOST};
    const char *out = "corpus/regressions", *pattern = "all";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out")) {
            NEED_ARG();
            out = argv[++i];
        } else if (!strcmp(argv[i], "--contracts")) {
            NEED_ARG();
            pattern = argv[++i];
        } else {
            fprintf(stderr, "tilediff corpus-regress: unknown argument '%s'\n", argv[i]);
            return TD_EXIT_USAGE;
        }
    }
    int rc = td_cli_open(&cli);
    if (rc) return rc;
    td_ctx_opts o = {.max_reports = 2};
    td_ctx *cx = td_cli_ctx(&cli, &o);
    int status = TD_EXIT_OK;
    for (int i = 0; cx && i < cli.set.n; i++) {
        const td_kernel *m = &cli.set.kernels[i];
        if (!m->abi->mutant || (int)m->abi->backend != cli.backend || !td_match(pattern, m->k->id)) continue;
        if (td_kernel_large_only(m)) continue; /* its killing input is gigabytes: no regression file */
        const td_kernel *good = td_kernels_find(&cli.set, m->k->id, NULL, cli.backend);
        td_campaign c;
        td_campaign_opts co = {.seed = 1, .max_cases = 2000, .minimize = 1, .stop_at_first = 1};
        td_campaign_run(cx, m, &co, &c);
        if (!c.nf || !c.f[0].bytes) {
            fprintf(stderr, "tilediff corpus-regress: %s [%s] survived 2000 cases\n", m->k->id, m->abi->variant);
            status = TD_EXIT_FINDING;
            td_campaign_free(&c);
            continue;
        }
        char dir[4096], base[4400], p[4500], hdr[1024], ks[256], ex[1024];
        snprintf(dir, sizeof dir, "%s/%s", out, m->k->id);
        mkdir_p(dir);
        snprintf(base, sizeof base, "%s/%s.%016" PRIx64, dir, m->abi->variant, td_fnv1a(c.f[0].bytes, c.f[0].size));
        snprintf(p, sizeof p, "%s.tdf", base);
        snprintf(hdr, sizeof hdr, "TDFZ1 %s %s host\n", m->k->id, m->abi->variant);
        write_file(p, hdr, c.f[0].bytes, c.f[0].size);
        snprintf(ex, sizeof ex, "%s %s\n%s pass\n", m->abi->variant, key_str(m, &c.f[0].key, ks, sizeof ks),
                 good ? good->abi->variant : "triton");
        snprintf(p, sizeof p, "%s.expect", base);
        write_file(p, NULL, (const uint8_t *)ex, strlen(ex));
        printf("%s.tdf: %s", base, ex);
        td_campaign_free(&c);
    }
    td_ctx_free(cx);
    td_cli_close(&cli);
    return status;
}

/* Replays every reproducer under DIR (recursively) with each kernel its .expect file
 * names, and fails if a verdict differs. */
typedef struct {
    td_cli *cli;
    td_ctx *cx;
    uint64_t n, changed;
} regress_run;

/* One "VARIANT VERDICT" line of an .expect file against the input data of path p;
 * -1 (reported) when no such kernel exists. */
static int regress_line(regress_run *R, const td_contract *k, const char *p, const char *line, const uint8_t *data,
                        size_t size) {
    char variant[256], want[512];
    if (sscanf(line, "%255s %511[^\n]", variant, want) != 2) return 0;
    const td_kernel *kern = td_kernels_find(&R->cli->set, k->id, variant, R->cli->backend);
    if (!kern) {
        fprintf(stderr, "tilediff regress: %s: no kernel %s for %s\n", p, variant, k->id);
        return -1;
    }
    td_case_result r;
    int x = td_run_bytes(R->cx, kern, data, size, &r);
    char got[512] = "pass";
    td_fkey key;
    if (x == TD_RUN_FINDING && td_finding_key(kern, data, size, &r, &key) == 0) key_str(kern, &key, got, sizeof got);
    else if (x == TD_RUN_HARNESS_ERROR) snprintf(got, sizeof got, "harness-error: %.400s", r.msg);
    R->n++;
    if (strcmp(got, want)) {
        printf("CHANGED %s [%s]: expected '%s', now '%s'\n", p, variant, want, got);
        R->changed++;
    }
    td_result_free(&r);
    return 0;
}

/* A regression input p (.tdf) against every verdict of its .expect file; -1 (reported)
 * when either file is unreadable or names what does not exist. */
static int regress_file(regress_run *R, const char *p) {
    size_t l = strlen(p);
    char exp[4400], err[1024], hc[512], hv[256];
    snprintf(exp, sizeof exp, "%.*s.expect", (int)(l - 4), p);
    FILE *f = fopen(exp, "r");
    if (!f) {
        fprintf(stderr, "tilediff regress: %s has no %s\n", p, exp);
        return -1;
    }
    uint8_t *data;
    size_t size;
    int hb;
    if (td_artifact_read(p, &data, &size, hc, sizeof hc, hv, sizeof hv, &hb, err, sizeof err)) {
        fprintf(stderr, "tilediff regress: %s\n", err);
        fclose(f);
        return -1;
    }
    const td_contract *k = td_contract_find(hc);
    int bad = 0;
    char line[1024];
    while (k && fgets(line, sizeof line, f)) bad |= regress_line(R, k, p, line, data, size) != 0;
    if (!k) {
        fprintf(stderr, "tilediff regress: %s names unknown contract '%s'\n", p, hc);
        bad = 1;
    }
    free(data);
    fclose(f);
    return bad ? -1 : 0;
}

/* Every .tdf below dir, recursively. */
static int regress_dir(regress_run *R, const char *dir) {
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "tilediff regress: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    struct dirent *e;
    int bad = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(p, &sb)) continue;
        size_t l = strlen(p);
        if (S_ISDIR(sb.st_mode)) bad |= regress_dir(R, p) != 0;
        else if (l >= 5 && !strcmp(p + l - 4, ".tdf")) bad |= regress_file(R, p) != 0;
    }
    closedir(d);
    return bad ? -1 : 0;
}

int td_cmd_regress(int argc, char **argv) {
    td_cli cli = {.cmd = "regress", .backend = TD_ABI_HOST};
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: tilediff regress DIR   (replays corpus/regressions: every verdict must be unchanged)\n");
        return TD_EXIT_USAGE;
    }
    int rc = td_cli_open(&cli);
    if (rc) return rc;
    td_ctx_opts o = {.max_reports = 2};
    td_ctx *cx = td_cli_ctx(&cli, &o);
    regress_run R = {.cli = &cli, .cx = cx};
    int bad = !cx || regress_dir(&R, argv[1]) != 0;
    td_ctx_free(cx);
    td_cli_close(&cli);
    printf("%" PRIu64 " replays, %" PRIu64 " verdicts changed\n", R.n, R.changed);
    return bad ? TD_EXIT_USAGE : R.changed ? TD_EXIT_FINDING : TD_EXIT_OK;
}

/* Decode digests: for every contract, a hash of the cases that N fixed byte strings
 * decode to (parameters, grid, every region's size and contents).  A reproducer is
 * only a reproducer if it decodes to the same case on every build: the generators
 * must not depend on the compiler (C leaves the order in which a call's arguments, or
 * the operands of +, are evaluated unspecified, and two draws from the producer in one
 * expression then give gcc and clang different cases).  tests/decode_digest_test.sh
 * compares every build's digests with the committed ones. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

int td_cmd_digest(int argc, char **argv) {
    const char *pattern = "all";
    uint64_t inputs = 200;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--contracts")) {
            NEED_ARG();
            pattern = argv[++i];
        } else if (!strcmp(argv[i], "--inputs")) {
            NEED_ARG();
            if (td_parse_u64(argv[++i], &inputs)) return TD_EXIT_USAGE;
        } else {
            fprintf(stderr, "tilediff digest: unknown argument '%s'\n", argv[i]);
            return TD_EXIT_USAGE;
        }
    }
    for (int ci = 0; ci < td_contract_count(); ci++) {
        const td_contract *k = td_contract_at(ci);
        if (!td_match(pattern, k->id)) continue;
        uint64_t h = 0xcbf29ce484222325ull;
        for (uint64_t i = 0; i < inputs; i++) {
            uint8_t b[256];
            size_t n = 8 + (size_t)(i * 37 % 249);
            td_case_bytes(11, i, b, n);
            td_case c;
            char err[1024];
            if (td_decode_case(k, b, n, &c, err, sizeof err)) {
                fprintf(stderr, "tilediff digest: %s\n", err);
                td_case_free(&c);
                return TD_EXIT_INTERNAL;
            }
            char d[8192];
            td_case_describe(&c, d, sizeof d);
            h = fnv(h, d, strlen(d));
            h = fnv(h, &c.classes, sizeof c.classes);
            for (int r = 0; r < k->nregions; r++)
                for (size_t e = 0; e < c.r[r].len; e++) {
                    double v = td_get(&c, r, e);
                    if (v != v) v = NAN; /* one NaN */
                    h = fnv(h, &v, sizeof v);
                }
            td_case_free(&c);
        }
        printf("%s %016" PRIx64 "\n", k->id, h);
    }
    return TD_EXIT_OK;
}
