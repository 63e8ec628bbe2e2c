/* The large tier's cost (large.h). */
#include "large.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gen_large.h"
#include "harness.h"

#define MIB ((uint64_t)1 << 20)

/* The harness's share of one case (engine/harness.c): per large region the case's own
 * sparse copy, its image and the image of a second run (taken when a lane equals the
 * first sentinel), all reserved; committed are the windows' pages of each, the page
 * tables of the stretches the kernel walks (8 bytes per 4 KiB page, image and second
 * image), and an output's shared 4 MiB buffer per image; plus the write set and the
 * oracle (64 MiB covers the windows' few thousand lanes many times over). */
static void need_of_case(const td_case *c, td_large_need *need) {
    long pg = sysconf(_SC_PAGESIZE);
    uint64_t page = pg > 0 ? (uint64_t)pg : 4096;
    need->reserve = 0, need->commit = 64 * MIB;
    for (int i = 0; i < c->k->nregions; i++) {
        if (!(c->large_regs >> i & 1)) continue;
        uint64_t eb = td_fmt_get(c->r[i].fmt)->bytes, bytes = c->r[i].len * eb, win = 0;
        for (int w = 0; w < c->nwin; w++) { /* (windows of row-blocks: in region i's own elements) */
            td_window e = td_case_window(c, i, w);
            win += ((e.hi - e.lo) * eb / page + 2) * page;
        }
        int out = (c->k->regions[i].role & (TD_R_OUT | TD_R_SCRATCH)) != 0;
        need->reserve += 3 * bytes + (out ? c->r[i].len : 0); /* + the write-set membership map */
        need->commit += 3 * win + 2 * (bytes / 512) + (out ? 2 * 4 * MIB : 0);
    }
}

int td_large_need_of(const td_contract *k, td_large_need *need) {
    if (!k->large) return -1;
    uint8_t b[64];
    td_campaign_case_bytes_tier(k, 1, TD_LARGE_AT, 1, b, sizeof b);
    td_case c;
    char err[512];
    int rc = td_decode_case(k, b, sizeof b, &c, err, sizeof err) == 0 && c.large_regs ? 0 : -1;
    if (!rc) need_of_case(&c, need);
    td_case_free(&c);
    return rc;
}

/* MemAvailable in bytes; 0 when unknown. */
static uint64_t mem_available(void) {
    const char *fake = getenv("TD_LARGE_MEMAVAIL_MIB");
    if (fake && *fake) return strtoull(fake, NULL, 10) * MIB;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
    fclose(f);
    return (uint64_t)kb * 1024;
}

int td_large_check(const td_large_need *need, char *why, size_t n) {
    char d[128];
    td_large_describe(need, d, sizeof d);
    void *p = mmap(NULL, need->reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        snprintf(why, n, "a large case %s, and this process cannot reserve that much address space (ulimit -v, or "
                 "vm.overcommit_memory=2)", d);
        return -1;
    }
    munmap(p, need->reserve);
    uint64_t avail = mem_available();
    if (avail && avail < need->commit) {
        snprintf(why, n, "a large case %s, and the machine has %.0f MiB available", d, (double)avail / (double)MIB);
        return -1;
    }
    return 0;
}

void td_large_describe(const td_large_need *need, char *buf, size_t n) {
    snprintf(buf, n, "reserves %.1f GiB of address space, commits about %.0f MiB",
             (double)need->reserve / (double)(1024 * MIB), (double)need->commit / (double)MIB);
}
