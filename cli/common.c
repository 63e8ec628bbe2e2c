#include "common.h"
#include "audit.h"
#include "large.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int td_parse_u64(const char *s, uint64_t *out) {
    if (!s || !*s || *s == '-') return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

int td_parse_double(const char *s, double *out) {
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

int td_match(const char *pattern, const char *id) {
    if (!strcmp(pattern, "all")) return 1;
    return fnmatch(pattern, id, 0) == 0;
}

int td_cli_backend(td_cli *c, const char *v) {
    if (v && !strcmp(v, "host")) c->backend = TD_ABI_HOST;
    else if (v && !strcmp(v, "cuda")) c->backend = TD_ABI_CUDA;
    else {
        fprintf(stderr, "tilediff %s: unknown backend '%s' (host or cuda)\n", c->cmd, v ? v : "");
        return -1;
    }
    return 0;
}

int td_cli_open(td_cli *c) {
    char err[1024];
    if (c->backend == TD_ABI_CUDA) {
        if (td_backend_cuda_open(&c->dev, err, sizeof err) != 0) {
            fprintf(stderr, "tilediff %s: %s\n", c->cmd, err);
            return TD_EXIT_USAGE;
        }
        c->have_dev = 1;
    }
    char path[4096];
    const char *lib = c->kernels;
    if (!lib) {
        if (td_builtin_library_path(c->backend, path, sizeof path) != 0) {
            fprintf(stderr, "tilediff %s: the built-in %s kernel library was not found (looked for %s)\n", c->cmd,
                    c->backend == TD_ABI_CUDA ? "CUDA" : "host", path);
            return TD_EXIT_USAGE;
        }
        lib = path;
    } else if (access(lib, R_OK) != 0) {
        fprintf(stderr, "tilediff %s: kernel library %s: %s\n", c->cmd, lib, strerror(errno));
        return TD_EXIT_USAGE;
    }
    if (td_kernels_open_for(lib, c->backend, &c->set, err, sizeof err) != TD_LOAD_OK) {
        fprintf(stderr, "tilediff %s: %s\n", c->cmd, err);
        return TD_EXIT_USAGE;
    }
    c->have_set = 1;
    return 0;
}

void td_cli_close(td_cli *c) {
    if (c->have_set) td_kernels_close(&c->set);
    if (c->have_dev) td_backend_cuda_close(&c->dev);
    c->have_set = c->have_dev = 0;
}

td_ctx *td_cli_ctx(td_cli *c, const td_ctx_opts *o) {
    char err[256];
    td_ctx_opts opts = *o;
    opts.backend = c->backend;
    td_ctx *cx = td_ctx_new(&opts, err, sizeof err);
    if (!cx) {
        fprintf(stderr, "tilediff %s: %s\n", c->cmd, err);
        return NULL;
    }
    if (c->have_dev) td_ctx_set_backend(cx, &c->dev);
    return cx;
}

int td_cli_against(td_cli *c, const char *v) {
    if (strcmp(v, "intent") && strcmp(v, "contract")) {
        fprintf(stderr, "tilediff %s: --against takes intent or contract, not '%s'\n", c->cmd, v);
        return -1;
    }
    c->against_intent = !strcmp(v, "intent");
    return 0;
}

const td_kernel *td_cli_as(td_cli *c, const td_kernel *kern, int quiet) {
    if (!kern || !c->against_intent) return kern;
    td_kernel *mk = &c->set.kernels[kern - c->set.kernels]; /* the set's own, writable copy */
    const td_contract *base = td_contract_find(kern->k->id), *in = td_intent_contract(base);
    if (!in) {
        if (!quiet)
            fprintf(stderr, "tilediff %s: %s has no intent spec (tilediff audit -v lists those that have one)\n",
                    c->cmd, kern->k->id);
        return NULL;
    }
    mk->k = in;
    return mk;
}

const td_kernel *td_cli_kernel(td_cli *c, const td_contract *k, int quiet) {
    const td_kernel *kern = td_kernels_find(&c->set, k->id, c->variant, c->backend);
    if (!kern && !quiet) {
        if (c->variant)
            fprintf(stderr, "tilediff %s: the kernel library has no %s kernel '%s' for %s\n", c->cmd,
                    c->backend == TD_ABI_CUDA ? "cuda" : "host", c->variant, k->id);
        else
            fprintf(stderr, "tilediff %s: the kernel library implements no %s kernel for %s\n", c->cmd,
                    c->backend == TD_ABI_CUDA ? "cuda" : "host", k->id);
    }
    return td_cli_as(c, kern, quiet);
}

void td_cli_repro_cmd(const td_cli *c, const char *path, char *out, size_t n) {
    snprintf(out, n, "tilediff repro%s%s%s%s %s", c->kernels ? " --kernels " : "", c->kernels ? c->kernels : "",
             c->backend == TD_ABI_CUDA ? " --backend cuda" : "", c->against_intent ? " --against intent" : "", path);
}

/* ---- watchdog (the CLI owns this process-wide state) ---- */
static char wd_path[4096], wd_tmp[4200], wd_header[1024], wd_msg[1200];
static const uint8_t *wd_data;
static size_t wd_size, wd_header_len, wd_msg_len;
static int wd_have_dir;
static volatile sig_atomic_t wd_quiet;
static volatile uint64_t *wd_beats; /* progress (td_watchdog_progress), or NULL */
static uint64_t wd_seen;            /* its value when the alarm was last set */
static unsigned wd_seconds;

void td_watchdog_quiet(int on) { wd_quiet = on; }
void td_watchdog_progress(volatile uint64_t *beats) { wd_beats = beats; }

static void wd_write_all(int fd, const void *p, size_t n) {
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w <= 0) return;
        c += w;
        n -= (size_t)w;
    }
}

static void wd_handler(int sig) {
    (void)sig;
    if (wd_beats && *wd_beats != wd_seen) { /* progress since the alarm was set: not a hang */
        wd_seen = *wd_beats;
        alarm(wd_seconds);
        return;
    }
    if (wd_quiet) _exit(TD_WATCHDOG_EXIT); /* a run worker: the parent reports the case */
    if (wd_have_dir) {
        int fd = open(wd_tmp, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd >= 0) {
            wd_write_all(fd, wd_header, wd_header_len);
            wd_write_all(fd, wd_data, wd_size);
            close(fd);
            rename(wd_tmp, wd_path);
        }
    }
    wd_write_all(2, wd_msg, wd_msg_len);
    _exit(TD_EXIT_FINDING);
}

void td_watchdog_arm(unsigned seconds, const char *artifact_dir, const td_kernel *kern, const uint8_t *data,
                     size_t size) {
    if (!seconds) return;
    wd_seconds = seconds;
    wd_seen = wd_beats ? *wd_beats : 0;
    wd_data = data;
    wd_size = size;
    wd_have_dir = 0;
    if (artifact_dir) {
        mkdir(artifact_dir, 0777);
        snprintf(wd_path, sizeof wd_path, "%s/%s.%s.%016" PRIx64 ".tdf", artifact_dir, kern->k->id,
                 kern->abi->variant, td_fnv1a(data, size));
        snprintf(wd_tmp, sizeof wd_tmp, "%s.tmp", wd_path);
        wd_header_len = (size_t)snprintf(wd_header, sizeof wd_header, "TDFZ1 %s %s %s\n", kern->k->id,
                                         kern->abi->variant, kern->abi->backend == TD_ABI_CUDA ? "cuda" : "host");
        wd_have_dir = 1;
    }
    wd_msg_len = (size_t)snprintf(wd_msg, sizeof wd_msg,
                                  "FINDING %s [kernel %s]: hang: the kernel made no progress for %us%s%s\n",
                                  kern->k->id, kern->abi->variant, seconds, wd_have_dir ? "; reproducer " : "",
                                  wd_have_dir ? wd_path : "");
    if (wd_msg_len >= sizeof wd_msg) wd_msg_len = sizeof wd_msg - 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = wd_handler;
    sigaction(SIGALRM, &sa, NULL);
    alarm(seconds);
}

void td_watchdog_disarm(void) { alarm(0); }

double td_cli_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int td_cli_large_statement(const td_cli *c, const char *pattern) {
    td_large_need most = {0, 0};
    int n = 0;
    const char *first = NULL;
    for (int i = 0; i < td_contract_count(); i++) {
        const td_contract *k = td_contract_at(i);
        td_large_need need;
        if (!td_match(pattern, k->id) || td_large_need_of(k, &need) != 0) continue;
        if (!n++) first = k->id;
        if (need.reserve > most.reserve) most.reserve = need.reserve;
        if (need.commit > most.commit) most.commit = need.commit;
    }
    if (!n) {
        fprintf(stderr, "tilediff %s: --large: no contract matching '%s' has a large tier (flat launches or dense rows of more than "
                        "2^31 elements; tilediff list -v says which)\n", c->cmd, pattern);
        return TD_EXIT_USAGE;
    }
    char d[128], why[512];
    td_large_describe(&most, d, sizeof d);
    printf("large tier: %d contract%s (%s%s), case i %% %d == %d of each; a large case %s%s\n", n, n > 1 ? "s" : "", first,
           n > 1 ? ", ..." : "", TD_FAR_EVERY, TD_LARGE_AT, d,
           c->backend == TD_ABI_CUDA ? "; host backend only: not covered on cuda" : "");
    fflush(stdout);
    if (td_large_check(&most, why, sizeof why) != 0) {
        fprintf(stderr, "tilediff %s: --large: %s\n", c->cmd, why);
        return TD_EXIT_USAGE;
    }
    return 0;
}
