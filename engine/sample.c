#include "sample.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: the sample depends on its seed only, not on a library's generator */
static uint64_t sm64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* uniform in [0, n): the modulo bias is below n / 2^64, far under anything a report states */
static uint64_t below(uint64_t *s, uint64_t n) { return n ? sm64(s) % n : 0; }

static uint64_t prog_of(const td_olane *l, const uint32_t g[3]) {
    return l->pid[0] + (uint64_t)g[0] * (l->pid[1] + (uint64_t)g[1] * l->pid[2]);
}

/* flag[p]: 1 checked in full (the first, the last, the random ones), 2 a partial tile */
static void mark_programs(const uint32_t *cnt, uint64_t np, const td_sample_opts *o, uint64_t *rng, uint8_t *flag,
                          td_sample_info *info) {
    uint32_t maxc = 0;
    uint64_t first = np, last = 0, writing = 0;
    for (uint64_t p = 0; p < np; p++) {
        if (!cnt[p]) continue;
        writing++;
        if (first == np) first = p;
        last = p;
        if (cnt[p] > maxc) maxc = cnt[p];
    }
    info->programs = writing;
    if (!writing) return;
    flag[first] = flag[last] = 1;
    for (int r = 0; r < o->random_programs; r++) { /* the k-th writing program, k uniform */
        uint64_t k = below(rng, writing), p = 0;
        for (;; p++)
            if (cnt[p] && k-- == 0) break;
        flag[p] = 1;
    }
    for (uint64_t p = 0; p < np; p++) {
        if (cnt[p] && cnt[p] < maxc && !flag[p]) flag[p] = 2;
        info->full_programs += flag[p] == 1;
        info->edge_programs += flag[p] == 2;
    }
}

int td_sample_pick(const td_olane *v, size_t n, const uint32_t grid[3], const td_sample_opts *o, uint8_t *pick,
                   td_sample_info *info) {
    memset(info, 0, sizeof *info);
    info->lanes = n;
    uint64_t np = (uint64_t)grid[0] * grid[1] * grid[2];
    if (np > ((uint64_t)1 << 32)) return -1;
    uint32_t *cnt = calloc(np ? np : 1, sizeof *cnt);
    uint8_t *flag = calloc(np ? np : 1, 1);
    if (!cnt || !flag) {
        free(cnt);
        free(flag);
        return -1;
    }
    uint64_t rng = o->seed ^ 0x5eed5a3b1e5ull;
    for (size_t i = 0; i < n; i++) {
        uint64_t p = prog_of(&v[i], grid);
        if (p < np) cnt[p]++;
    }
    mark_programs(cnt, np, o, &rng, flag, info);
    for (size_t i = 0; i < n; i++) {
        uint64_t p = prog_of(&v[i], grid);
        int f = p < np ? flag[p] : 0;
        pick[i] = f != 0;
        info->full_lanes += f == 1;
        info->edge_lanes += f == 2;
        info->rest += f == 0;
    }
    /* Knuth's selection sampling: exactly `need` of the other lanes, every subset of
     * that size equally likely */
    uint64_t need = o->interior < info->rest ? o->interior : info->rest, left = info->rest;
    info->interior = need;
    for (size_t i = 0; i < n && need; i++) {
        if (pick[i]) continue;
        if (below(&rng, left--) < need) pick[i] = 1, need--;
    }
    info->judged = info->full_lanes + info->edge_lanes + info->interior;
    free(cnt);
    free(flag);
    return 0;
}

void td_sample_info_add(td_sample_info *a, const td_sample_info *s) {
    a->lanes += s->lanes, a->programs += s->programs, a->full_programs += s->full_programs;
    a->full_lanes += s->full_lanes, a->edge_programs += s->edge_programs, a->edge_lanes += s->edge_lanes;
    a->rest += s->rest, a->interior += s->interior, a->judged += s->judged;
}

void td_sample_describe(const td_sample_info *s, const td_sample_opts *o, char *buf, size_t n) {
    int w = snprintf(buf, n,
                     "stratified lane sample: %llu of %llu lanes judged by the oracle: every lane of %llu programs "
                     "(the first, the last and %d drawn at random, duplicates counted once; %llu lanes), every lane "
                     "of %llu further programs "
                     "with a partial (masked) tile (%llu lanes), and %llu of the other %llu lanes drawn uniformly "
                     "(seed %llu). ",
                     (unsigned long long)s->judged, (unsigned long long)s->lanes, (unsigned long long)s->full_programs,
                     o->random_programs, (unsigned long long)s->full_lanes, (unsigned long long)s->edge_programs,
                     (unsigned long long)s->edge_lanes, (unsigned long long)s->interior,
                     (unsigned long long)s->rest, (unsigned long long)o->seed);
    if (w < 0 || (size_t)w >= n) return;
    uint64_t k = o->interior;
    if (s->interior == s->rest)
        snprintf(buf + w, n - (size_t)w, "Every lane was judged. ");
    else /* P(miss) <= (1 - f)^k per case; 95% confidence where (1 - f)^k <= 0.05 */
        snprintf(buf + w, n - (size_t)w,
                 "Guarantee, per case: a defect on a fraction f of those other lanes escapes the uniform draw with "
                 "probability at most (1-f)^%llu, so it is caught with probability >= 95%% when f >= %.3g%%. Not "
                 "guaranteed: a defect confined to fewer of them (one lane of one interior program) may be missed. ",
                 (unsigned long long)k, 100 * (1 - pow(0.05, 1.0 / (double)(k ? k : 1))));
    w = (int)strlen(buf);
    if ((size_t)w < n)
        snprintf(buf + w, n - (size_t)w,
                 "Guard zones, sentinels (unwritten lanes) and every cell outside the write set were checked in "
                 "full.");
}

/* The table of docs/production-shapes.md: change the two together. */
int td_shape_production(const td_contract *k, int cuda, td_shape *s, char *desc, size_t n) {
    memset(s, 0, sizeof *s);
    if (!strcmp(k->family, "matmul")) { /* M, N, K, BM = BN, BK, GROUP_M */
        const td_shape g = {{4096, 4096, 4096, 128, 64, 8}}, h = {{520, 520, 512, 64, 32, 8}};
        *s = cuda ? g : h;
    } else if (!strcmp(k->family, "attention")) { /* longest sequence, head dim, heads, BLOCK, sequences */
        const td_shape g = {{8192, 128, 8, 128, 2}}, h = {{1000, 128, 2, 64, 2}};
        *s = cuda ? g : h;
    } else
        return -1;
    td_shape_describe(k, s, desc, n);
    return 0;
}

void td_shape_describe(const td_contract *k, const td_shape *s, char *desc, size_t n) {
    long long d[6];
    for (int i = 0; i < 6; i++) d[i] = (long long)s->d[i];
    if (!strcmp(k->family, "matmul"))
        snprintf(desc, n, "M=%lld N=%lld K=%lld (BM=BN=%lld, BK=%lld, GROUP_M=%lld)", d[0], d[1], d[2], d[3], d[4], d[5]);
    else if (!strcmp(k->family, "attention"))
        snprintf(desc, n, "%lld sequences, the longest %lld tokens, head dim %lld, %lld heads, BLOCK %lld", d[4], d[0],
                 d[1], d[2], d[3]);
    else
        snprintf(desc, n, "%lld %lld %lld %lld %lld %lld", d[0], d[1], d[2], d[3], d[4], d[5]);
}
