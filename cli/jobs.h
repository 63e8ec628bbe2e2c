/* --jobs N: a command's independent tasks (certify's rows, selftest's kernels) run in
 * up to N child processes at once, and their results are taken in task order, so a
 * report does not depend on N (only its timings do). */
#ifndef TD_CLI_JOBS_H
#define TD_CLI_JOBS_H

#include <sys/types.h>

typedef struct td_jobs_ops {
    /* Starts task i: forks its process and returns the pid; 0 when the task needs no
     * process (its result is ready), -1 when the fork failed. */
    pid_t (*start)(void *ctx, int i);
    /* While task i runs: 1 when it must be killed (its deadline).  `oldest` is 1 for
     * the lowest-numbered running task (the one a progress line shows). */
    int (*overdue)(void *ctx, int i, int oldest);
    /* Task i ended: `status` from waitpid (-1 when start returned 0 or -1), `killed` 1
     * when overdue killed it, `seconds` from its start to its end.  Called in task
     * order, each task once. */
    void (*done)(void *ctx, int i, int status, int killed, double seconds);
} td_jobs_ops;

/* Runs tasks 0..n-1 with at most `jobs` processes at a time. */
void td_jobs_run(int n, int jobs, const td_jobs_ops *ops, void *ctx);
/* The default of --jobs: the online processors. */
int td_jobs_default(void);
/* Parses the value of --jobs (a positive integer); 0 or -1 with a message. */
int td_jobs_parse(const char *cmd, const char *v, int *jobs);

#endif
