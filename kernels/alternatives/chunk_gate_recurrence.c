/* chunk_gate_recurrence, alternatives.
 *
 * alt_chunk8 (summary): the same outputs (O, DI, DG, DL) per program, but both scans
 * evaluated as chunk-parallel implementations do, cell by cell: the NB - 1 steps cut
 * into groups of 8; at a group's start the carried state h_c is kept, the group's
 * gates accumulated as a running product A and its own inputs scanned from 0 (loc =
 * fmaf(d, loc, x)), and the state at each step h = fmaf(A, h_c, loc).  The reverse
 * carries are kept per chunk in a scratch array and DG summed from the last lane
 * down with FMA.  Admissible: lrec.h's chunked-with-carry form and any FMA / order.
 *
 * alt_rows (forward store): the tile copied a whole row of DV at a time, the heads in
 * reverse order: one program per (offset_bh, offset_d) covering every offset_s (a
 * launch that merges the V axis, as a host with BLOCK_MODEL_V = D_MODEL_V would run
 * it), rows copied with memcpy.  Admissible: the theorem fixes only what lands where.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"

enum { P_HAS_LAST_KV, P_TREL, P_NUM_HEAD, P_NB, P_NUM_K, P_NUM_V, P_DK, P_DV, P_BMK, P_BMV };
enum { R_ACCPREV, R_S, R_D, R_O, R_LASTKV, R_DACCPREV, R_DACCTAIL, R_DS, R_DI, R_DG, R_DL };
#define G8 8

/* one grouped scan of a cell: h after each of n steps h = x_i + d_i h, from h0 */
typedef struct g8 {
    float hc, A, loc, h;
    int64_t n;
} g8;
static void g8_step(g8 *g, float d, float x) {
    if (g->n % G8 == 0) g->hc = g->h, g->A = 1.0f, g->loc = 0.0f;
    g->A *= d;
    g->loc = fmaf(d, g->loc, x);
    g->h = fmaf(g->A, g->hc, g->loc);
    g->n++;
}

/* one program's lanes: both scans per cell, the reverse carries kept in dacc */
static void lanes(const td_abi_launch *L, int64_t bh, int64_t pd, int64_t ps, float *dacc) {
    int64_t NB = TL_I(L, P_NB), DK = TL_I(L, P_DK), DV = TL_I(L, P_DV), BMK = TL_I(L, P_BMK), BMV = TL_I(L, P_BMV);
    for (int64_t k = 0; k < BMK; k++)
        for (int64_t v = 0; v < BMV; v++) {
            int64_t in = pd * DV * BMK + k * DV + ps * BMV + v, base = bh * NB * DK * DV + in;
            g8 f = {.h = TL_I(L, P_HAS_LAST_KV) ? tl_load(L, R_LASTKV, bh * DK * DV + in) : 0.0f};
            tl_store(L, R_O, base, f.h, tl_f32());
            for (int64_t i = 0; i < NB - 1; i++) {
                g8_step(&f, tl_load(L, R_D, bh * NB + i), tl_load(L, R_S, base + i * DK * DV));
                tl_store(L, R_O, base + (i + 1) * DK * DV, f.h, tl_f32());
            }
            g8 b = {.h = 0.0f};
            for (int64_t a = NB - 1; a >= 0; a--) {
                g8_step(&b, tl_load(L, R_D, bh * NB + a), tl_load(L, R_DS, base + a * DK * DV));
                if (a == 0) break;
                dacc[(a - 1) * BMK * BMV + k * BMV + v] = b.h;
                tl_store(L, R_DI, base + (a - 1) * DK * DV, b.h, tl_f32());
            }
            tl_store(L, R_DL, bh * DK * DV + in, b.h, tl_f32());
        }
}

static int alt_chunk8(const td_abi_launch *L) {
    int64_t NB = TL_I(L, P_NB), DK = TL_I(L, P_DK), DV = TL_I(L, P_DV), BMK = TL_I(L, P_BMK), BMV = TL_I(L, P_BMV);
    int64_t NK = DK / BMK, NV = DV / BMV;
    float *dacc = malloc((size_t)(NB * BMK * BMV) * sizeof(float)); /* [chunk][lane]: bwdClosed(c+1) */
    if (!dacc) return 1;
    for (uint32_t bh = 0; bh < L->grid[0]; bh++)
        for (uint32_t pd = 0; pd < L->grid[1]; pd++)
            for (uint32_t ps = 0; ps < L->grid[2]; ps++) {
                lanes(L, bh, pd, ps, dacc);
                for (int64_t c = 0; c < NB - 1; c++) { /* DG: from the last lane down, FMA */
                    float sum = 0.0f;
                    for (int64_t l = BMK * BMV - 1; l >= 0; l--) {
                        int64_t in = pd * DV * BMK + (l / BMV) * DV + ps * BMV + l % BMV;
                        sum = fmaf(dacc[c * BMK * BMV + l], tl_load(L, R_S, (bh * NB + c) * DK * DV + in), sum);
                    }
                    tl_store(L, R_DG, ((bh * NB + c) * NK + pd) * NV + ps, sum, tl_f32());
                }
            }
    free(dacc);
    return 0;
}

enum { PS_NB, PS_DK, PS_DV, PS_BMK, PS_BMV };

static int alt_rows(const td_abi_launch *L) {
    int64_t NB = TL_I(L, PS_NB), DK = TL_I(L, PS_DK), DV = TL_I(L, PS_DV), BMK = TL_I(L, PS_BMK), BMV = TL_I(L, PS_BMV);
    int64_t w = (int64_t)L->grid[2] * BMV; /* the columns the launch covers */
    const float *acc = (const float *)L->regions[0].base;
    float *o = (float *)L->regions[1].base;
    for (int64_t bh = (int64_t)L->grid[0] - 1; bh >= 0; bh--)
        for (int64_t row = 0; row < (int64_t)L->grid[1] * BMK; row++)
            memcpy(o + bh * NB * DK * DV + row * DV, acc + bh * DK * DV + row * DV, (size_t)w * sizeof(float));
    return 0;
}

TD_KERNEL(td_a_cgr_summary) = {"chunk_gate_recurrence.chunk_gate_recurrence_output_summary_general", "alt_chunk8",
                               TD_ABI_HOST, NULL, NULL, NULL, 10, 11, alt_chunk8, NULL};
TD_KERNEL(td_a_cgr_store) = {"chunk_gate_recurrence.chunk_gate_recurrence_forward_store_io_correctness", "alt_rows",
                             TD_ABI_HOST, NULL, NULL, NULL, 5, 2, alt_rows, NULL};
TD_KERNEL(td_a_cgr_store_r) = {"chunk_gate_recurrence.chunk_gate_recurrence_forward_store_io_correctnessR", "alt_rows",
                               TD_ABI_HOST, NULL, NULL, NULL, 5, 2, alt_rows, NULL};
