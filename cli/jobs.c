#include "jobs.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

int td_jobs_default(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 && n < 4096 ? (int)n : 1;
}

int td_jobs_parse(const char *cmd, const char *v, int *jobs) {
    uint64_t n;
    if (td_parse_u64(v, &n) || n < 1 || n > 4096) {
        fprintf(stderr, "tilediff %s: --jobs needs a number of processes from 1 to 4096, not '%s'\n", cmd, v);
        return -1;
    }
    *jobs = (int)n;
    return 0;
}

typedef struct job {
    pid_t pid;     /* > 0 while running */
    int state;     /* 0 not started, 1 running, 2 ended */
    int status, killed;
    double t0, seconds;
} job;

/* Reaps or kills running task i; returns 1 when it ended. */
static int check(const td_jobs_ops *ops, void *ctx, job *j, int i, int oldest) {
    int st = 0;
    pid_t r = waitpid(j->pid, &st, WNOHANG);
    if (r == 0 && ops->overdue(ctx, i, oldest)) {
        kill(j->pid, SIGKILL);
        while ((r = waitpid(j->pid, &st, 0)) < 0 && errno == EINTR) {}
        j->killed = 1;
    }
    if (r == 0) return 0;
    j->status = r == j->pid ? st : -1;
    j->state = 2;
    j->seconds = td_cli_now() - j->t0;
    return 1;
}

/* Starts task i in j. */
static void launch(const td_jobs_ops *ops, void *ctx, job *j, int i) {
    fflush(NULL); /* a child must not write its parent's buffered output again */
    j->t0 = td_cli_now();
    j->pid = ops->start(ctx, i);
    j->state = j->pid > 0 ? 1 : 2;
    j->status = -1;
}

/* Without memory for the table: one task at a time. */
static void run_serial(int n, const td_jobs_ops *ops, void *ctx) {
    for (int i = 0; i < n; i++) {
        job j = {0};
        launch(ops, ctx, &j, i);
        while (j.state == 1 && !check(ops, ctx, &j, i, 1)) usleep(10000);
        ops->done(ctx, i, j.status, j.killed, j.seconds);
    }
}

void td_jobs_run(int n, int jobs, const td_jobs_ops *ops, void *ctx) {
    job *js = calloc(n > 0 ? (size_t)n : 1, sizeof *js);
    if (!js) {
        run_serial(n, ops, ctx);
        return;
    }
    int next = 0, emit = 0, running = 0;
    while (emit < n) {
        for (; next < n && running < jobs; next++) {
            launch(ops, ctx, &js[next], next);
            running += js[next].state == 1;
        }
        int changed = 0;
        for (int i = emit, oldest = 1; i < next; i++) {
            if (js[i].state != 1) continue;
            if (check(ops, ctx, &js[i], i, oldest)) running--, changed = 1;
            oldest = 0;
        }
        /* results in task order: a task that ended early waits for those before it */
        for (; emit < next && js[emit].state == 2; emit++, changed = 1)
            ops->done(ctx, emit, js[emit].status, js[emit].killed, js[emit].seconds);
        if (!changed) usleep(10000);
    }
    free(js);
}
