/* The fuzz targets, one per contract, are names of this one program: CMake builds it
 * once (fuzz/tdfuzz) and makes fuzz/tdfuzz_<file>__<theorem> a link to it for every
 * contract; the name the program was started by chooses the contract.  (One target
 * binary per contract was 307 compiles and 307 links of ~32 MB each under the
 * sanitizers: about a third of CI's sanitizer build.)  OSS-Fuzz's build script copies
 * each name into $OUT, which keeps the name.  Three ways to build it:
 *   - libFuzzer: clang -fsanitize=fuzzer,address,undefined   (TD_FUZZ_LIBFUZZER)
 *   - AFL++:     afl-clang-fast, persistent mode               (TD_FUZZ_AFL)
 *   - replay:    any compiler, no engine: replays files and directories given on
 *                the command line (TD_FUZZ_REPLAY)
 *
 * The kernel under test is the built-in host kernel of the contract, or another
 * variant of it named by TILEDIFF_FUZZ_KERNEL (e.g. a mutant, to demonstrate that a
 * campaign finds a planted bug), or a kernel from the library TILEDIFF_FUZZ_LIBRARY.
 *
 * A kernel finding prints one line starting "TILEDIFF-FINDING" and the full lane
 * report on stderr, then aborts, so the engine saves the input.  A harness bug
 * (a generated case that fails a precondition, an internal error) prints a line
 * starting "TILEDIFF-HARNESS-BUG (not a kernel finding)" and aborts too: it is a bug
 * of tilediff to fix, never to be confused with the kernel's.  A case that does not
 * return within TILEDIFF_FUZZ_TIMEOUT seconds (default 10; the engines' own -timeout /
 * -t do the same) is reported as a hang finding.
 * TILEDIFF_FUZZ_CLASSES=1 prints the boundary classes each input hits;
 * TILEDIFF_FUZZ_PROFILE=1 prints, at exit, where the time went (bench/fuzz_throughput.sh). */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

const td_abi_table *td_builtin_host_table(void);

/* The contract this run fuzzes (chosen by the program's name) and the line a hang
 * prints, formed before any signal can arrive. */
static const char *contract_id = "?";
static char hang_msg[512];

/* argv[0] -> the contract whose target name (tdfuzz_ + its id, '.' as "__") it ends
 * with; a clear message and exit 2 for any other name (the bare fuzz/tdfuzz). */
static void select_contract(const char *argv0) {
    const char *base = strrchr(argv0, '/');
    base = base ? base + 1 : argv0;
    for (int i = 0; i < td_contract_count(); i++) {
        const char *id = td_contract_at(i)->id;
        char name[512];
        size_t n = (size_t)snprintf(name, sizeof name, "tdfuzz_");
        for (const char *q = id; *q && n + 3 < sizeof name; q++)
            if (*q == '.') name[n++] = '_', name[n++] = '_';
            else name[n++] = *q;
        name[n] = 0;
        if (!strcmp(base, name)) {
            contract_id = id;
            snprintf(hang_msg, sizeof hang_msg, "TILEDIFF-FINDING hang %s: the kernel did not return in time\n", id);
            return;
        }
    }
    fprintf(stderr, "%s: not the name of a fuzz target: run it as fuzz/tdfuzz_<file>__<theorem> (the names CMake "
                    "links to this program; fuzz/targets.txt lists them)\n", argv0);
    exit(2);
}

typedef struct fuzz_state {
    td_kernel_set set;
    const td_kernel *kern;
    td_ctx *cx;
    unsigned timeout;
    int classes;
    td_stats st;
} fuzz_state;

static void print_profile(void);

static fuzz_state *state(void) {
    static fuzz_state s;
    static int ready;
    if (ready) return &s;
    char err[1024];
    const char *lib = getenv("TILEDIFF_FUZZ_LIBRARY");
    int rc = lib && *lib ? td_kernels_open(lib, &s.set, err, sizeof err)
                         : td_kernels_bind(td_builtin_host_table(), "built-in", &s.set, err, sizeof err);
    if (rc != TD_LOAD_OK) {
        fprintf(stderr, "TILEDIFF-HARNESS-BUG (not a kernel finding): %s\n", err);
        abort();
    }
    const char *variant = getenv("TILEDIFF_FUZZ_KERNEL");
    s.kern = td_kernels_find(&s.set, contract_id, variant && *variant ? variant : NULL, TD_ABI_HOST);
    if (!s.kern) {
        fprintf(stderr, "TILEDIFF-HARNESS-BUG (not a kernel finding): no host kernel %s for %s\n",
                variant ? variant : "(correct)", contract_id);
        abort();
    }
    td_ctx_opts o = {.max_reports = 8, .top_details_findings_only = 1};
    s.cx = td_ctx_new(&o, err, sizeof err);
    if (!s.cx) {
        fprintf(stderr, "TILEDIFF-HARNESS-BUG (not a kernel finding): %s\n", err);
        abort();
    }
    const char *t = getenv("TILEDIFF_FUZZ_TIMEOUT");
    s.timeout = t && *t ? (unsigned)strtoul(t, NULL, 10) : 10;
    const char *cl = getenv("TILEDIFF_FUZZ_CLASSES");
    s.classes = cl && *cl == '1';
    const char *pr = getenv("TILEDIFF_FUZZ_PROFILE");
    if (pr && *pr == '1') atexit(print_profile);
    ready = 1;
    return &s;
}

static void print_profile(void) {
    fuzz_state *s = state();
    double t = s->st.t_decode + s->st.t_kernel + s->st.t_compare + s->st.t_oracle;
    fprintf(stderr, "tilediff-profile %s cases %llu lanes %llu decode %.4f kernel %.4f compare %.4f oracle %.4f seconds %.4f\n",
            contract_id, (unsigned long long)s->st.cases, (unsigned long long)s->st.lanes, s->st.t_decode,
            s->st.t_kernel, s->st.t_compare, s->st.t_oracle, t);
}

static void on_alarm(int sig) {
    (void)sig;
    if (write(2, hang_msg, strlen(hang_msg)) < 0) { /* nothing more to do in a handler */
    }
    abort();
}

/* Runs one input; returns 0 (agreed) and aborts on a finding or a harness bug. */
static int run_one(const uint8_t *data, size_t size) {
    fuzz_state *s = state();
    if (s->timeout) {
        signal(SIGALRM, on_alarm);
        alarm(s->timeout);
    }
    td_case_result r;
    int rc = td_run_bytes(s->cx, s->kern, data, size, &r);
    if (s->timeout) alarm(0);
    td_stats_merge(&s->st, &r.st);
    if (s->classes) {
        fprintf(stderr, "classes:");
        for (int b = 0; b < TD_BC_COUNT; b++)
            if (r.st.classes & (1ull << b)) fprintf(stderr, " %s", td_bclass_name(b));
        fprintf(stderr, "\n");
    }
    if (rc == TD_RUN_HARNESS_ERROR) {
        fprintf(stderr, "TILEDIFF-HARNESS-BUG (not a kernel finding): %s: %s\n", contract_id, r.msg);
        td_result_free(&r);
        abort();
    }
    if (rc == TD_RUN_FINDING) {
        const td_lane_report *l = r.nrep ? &r.rep[0] : NULL;
        fprintf(stderr, "TILEDIFF-FINDING %s [%s] %s in %s: %llu bad lanes/regions; case %s\n", contract_id,
                s->kern->abi->variant, td_vclass_name(r.worst), l ? s->kern->k->regions[l->region].name : "?",
                (unsigned long long)r.nbad, r.desc);
        td_report_text(stderr, s->kern, &r);
        td_result_free(&r);
        abort();
    }
    td_result_free(&r);
    return 0;
}

#if defined(TD_FUZZ_LIBFUZZER)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    select_contract((*argv)[0]);
    return 0;
}
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return run_one(data, size); }

#elif defined(TD_FUZZ_AFL)

__AFL_FUZZ_INIT();

int main(int argc, char **argv) {
    (void)argc;
    select_contract(argv[0]);
    state();
#ifdef __AFL_HAVE_MANUAL_CONTROL
    __AFL_INIT();
#endif
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(10000)) run_one(buf, (size_t)__AFL_FUZZ_TESTCASE_LEN);
    return 0;
}

#else /* the plain replay driver */

#include <dirent.h>
#include <sys/stat.h>

static int replay_file(const char *path) {
    uint8_t *data;
    size_t size;
    char c[512], v[256], err[1024];
    int b;
    if (td_artifact_read(path, &data, &size, c, sizeof c, v, sizeof v, &b, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    if (c[0] && strcmp(c, contract_id)) {
        fprintf(stderr, "%s: a reproducer of %s, not of %s: skipped\n", path, c, contract_id);
        free(data);
        return 2;
    }
    run_one(data, size);
    free(data);
    return 0;
}

int main(int argc, char **argv) {
    int bad = 0, n = 0;
    select_contract(argv[0]);
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...   (replays fuzz inputs of %s; aborts on a finding)\n", argv[0],
                contract_id);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            fprintf(stderr, "%s: no such file or directory\n", argv[i]);
            bad = 1;
            continue;
        }
        if (!S_ISDIR(sb.st_mode)) {
            bad |= replay_file(argv[i]) != 0;
            n++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
            if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
                bad |= replay_file(p) != 0;
                n++;
            }
        }
        if (d) closedir(d);
    }
    fuzz_state *s = state();
    double t = s->st.t_decode + s->st.t_kernel + s->st.t_compare + s->st.t_oracle;
    fprintf(stderr, "%s: %d inputs replayed, no finding; time: decode %.0f%%, kernel %.0f%%, compare %.0f%%, oracle %.0f%%\n",
            contract_id, n, t > 0 ? 100 * s->st.t_decode / t : 0, t > 0 ? 100 * s->st.t_kernel / t : 0,
            t > 0 ? 100 * s->st.t_compare / t : 0, t > 0 ? 100 * s->st.t_oracle / t : 0);
    return bad ? 2 : 0;
}

#endif
