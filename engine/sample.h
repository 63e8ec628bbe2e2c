/* Production shapes (certify --shape production): a launch at the sizes real models
 * use, whose lanes are too many for the oracle, judged on a stratified sample.  The
 * guard zones, the sentinels (unwritten lanes) and the cells outside the write set are
 * still checked everywhere; only the oracle's value judgement is sampled. */
#ifndef TD_SAMPLE_H
#define TD_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "contract.h"

typedef struct td_sample_opts {
    uint64_t seed;
    int random_programs; /* programs checked in full besides the first and the last */
    uint64_t interior;   /* lanes drawn uniformly from the others */
} td_sample_opts;
#define TD_SAMPLE_RANDOM_PROGRAMS 3
#define TD_SAMPLE_INTERIOR 4096

/* What a sample checked (per case, or summed over a campaign's cases). */
typedef struct td_sample_info {
    uint64_t lanes;          /* lanes of the write set */
    uint64_t programs;       /* programs that write a lane */
    uint64_t full_programs;  /* checked in full: the first, the last and the random ones */
    uint64_t full_lanes;     /* their lanes */
    uint64_t edge_programs;  /* programs with a partial (masked) tile, checked in full */
    uint64_t edge_lanes;     /* their lanes (not already counted in full_lanes) */
    uint64_t rest;           /* lanes in none of those programs */
    uint64_t interior;       /* of them, judged (drawn uniformly) */
    uint64_t judged;         /* full_lanes + edge_lanes + interior */
} td_sample_info;

/* Marks pick[i] = 1 for the lanes v[0..n) the oracle judges: every lane of the first
 * and the last program that write a lane and of o->random_programs others drawn
 * uniformly, every lane of a program whose tile is partial (it writes fewer lanes than
 * the fullest program: a masked edge), and o->interior of the remaining lanes drawn
 * uniformly without replacement.  Deterministic in (the lanes, grid, o).  Returns 0,
 * or -1 when out of memory. */
int td_sample_pick(const td_olane *v, size_t n, const uint32_t grid[3], const td_sample_opts *o, uint8_t *pick,
                   td_sample_info *info);
void td_sample_info_add(td_sample_info *into, const td_sample_info *s);
/* One paragraph for a report: what the sample checked, what it guarantees and what
 * it does not. */
void td_sample_describe(const td_sample_info *s, const td_sample_opts *o, char *buf, size_t n);

/* The production shape of contract k's family on a backend (0 host, 1 CUDA): 0 and
 * the shape with its description, or -1 when the family has none. */
int td_shape_production(const td_contract *k, int cuda, td_shape *s, char *desc, size_t n);
/* The description of shape s for k's family ("M=520 N=520 K=512 ..."). */
void td_shape_describe(const td_contract *k, const td_shape *s, char *desc, size_t n);

#endif
