/* Log-space gates of the gated linear attention contracts (chunk_gla_simple,
 * chunk_gla_fwd, chunk_gated_attention): what their callers pass as g, drawn from the
 * real ranges (GLA: g = cumsum of log-sigmoid decays, Yang et al. 2024, sec. 4) and
 * the boundaries of the family.  One kind per case (TD_BC_VALUES_SPECIAL for the
 * decay-at-1 and near-0 kinds):
 *   GLA_G_CUM     a cumulative sum along time of per-step log decays log sigmoid(z),
 *                 z in [-2, 6] (decays 0.12 .. 0.998), from the sequence start;
 *   GLA_G_CHUNK   the same restarted at every chunk start (chunk-local cumsum, what
 *                 fla's chunk kernels pass to the output stage);
 *   GLA_G_ONE     every g = 0: every decay exactly 1 (plain linear attention);
 *   GLA_G_STEEP   per-step log decays in [-30, -5]: the cumulative decay underflows
 *                 binary32 within a few steps (decays near 0);
 *   GLA_G_FREE    g uniform in [-4, 4], not monotone (the catalogue's spec is over any
 *                 real g; the original test draws randn): exp(g_i - g_j) up to e^8.
 * The cumulative sums are formed in binary64 and each element rounded once to binary32
 * (the region holds binary32 values; the spec reads them exactly). */
#ifndef TD_GLA_GATES_H
#define TD_GLA_GATES_H

#include <math.h>

#include "gen.h"

enum { GLA_G_CUM, GLA_G_CHUNK, GLA_G_ONE, GLA_G_STEEP, GLA_G_FREE, GLA_G_KINDS };

/* one per-step log decay (GLA_G_CUM, GLA_G_CHUNK, GLA_G_STEEP) */
static inline double gla_log_decay(td_rng *r, int kind) {
    double z = td_rng_unit(r);
    if (kind == GLA_G_STEEP) return -5 - 25 * z;
    return -log1p(exp(-(8 * z - 2))); /* log sigmoid(8z - 2) */
}

/* Fills n = T steps of one sequence's gate column: g[base + t * stride], t < T;
 * `chunk` restarts the sum (GLA_G_CHUNK). */
static inline void gla_fill_gates(td_case *c, int reg, size_t base, size_t stride, int64_t T, int64_t chunk,
                                  td_rng *r, int kind) {
    double acc = 0;
    for (int64_t t = 0; t < T; t++) {
        double x = 0;
        if (kind == GLA_G_FREE) {
            x = -4 + 8 * td_rng_unit(r);
        } else if (kind != GLA_G_ONE) {
            if (kind == GLA_G_CHUNK && chunk > 0 && t % chunk == 0) acc = 0;
            double d = gla_log_decay(r, kind);
            acc += d;
            x = acc;
        }
        td_set(c, reg, base + (size_t)t * stride, (double)(float)x);
    }
}

#endif
