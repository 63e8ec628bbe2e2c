/* The shadow pass's per-case memo (see td_sh_memo_get in shadow.h), beside the MPFR
 * pass's (td_mp_memo_get in mp.c).  It lives in the shadow context, so the contracts
 * that call it link against the oracle alone. */
#include <stdlib.h>
#include <string.h>

#include "memo_hash.h"
#include "shadow.h"
#include "nocov.h"

/* the oracle: no fuzzing coverage instrumentation (nocov.h) */
TD_NOCOV_BEGIN

/* Entries of an earlier generation (an earlier case) count as empty: clearing the memo
 * is one increment of the generation, not a pass over the table. */
static size_t memo_slot(const td_sh_memo_ent *m, size_t cap, uint32_t gen, uint64_t key) {
    size_t h = td_memo_hash(key, cap);
    while (m[h].gen == gen && m[h].key != key) h = (h + 1) & (cap - 1);
    return h;
}

int td_sh_memo_get(td_shcx *cx, uint64_t key, td_sh *out) {
    /* While a lane is traced (explain, finding reports) every step must be replayed into
     * the trace, so a memoised value, whose steps were not recorded, is not handed out. */
    if (cx->trace || !cx->memo_n) return 0;
    const td_sh_memo_ent *e = &cx->memo[memo_slot(cx->memo, cx->memo_cap, cx->memo_gen, key)];
    if (e->gen != cx->memo_gen) return 0;
    *out = e->v;
    cx->lane_flags |= e->flags; /* the conditions met computing it hold for this lane too */
    return 1;
}

static int memo_grow(td_shcx *cx) {
    size_t ncap = cx->memo_cap ? 2 * cx->memo_cap : 1024;
    td_sh_memo_ent *nm = calloc(ncap, sizeof *nm);
    if (!nm) return -1;
    if (!cx->memo_gen) cx->memo_gen = 1; /* calloc's entries (generation 0) are empty */
    for (size_t i = 0; i < cx->memo_cap; i++)
        if (cx->memo[i].gen == cx->memo_gen) nm[memo_slot(nm, ncap, cx->memo_gen, cx->memo[i].key)] = cx->memo[i];
    free(cx->memo);
    cx->memo = nm;
    cx->memo_cap = ncap;
    return 0;
}

void td_sh_memo_put(td_shcx *cx, uint64_t key, td_sh v) {
    if (cx->trace) return; /* the traced replay recomputes; the memo keeps the untraced value */
    if (2 * (cx->memo_n + 1) > cx->memo_cap && memo_grow(cx) != 0) return; /* the memo is an optimisation only */
    td_sh_memo_ent *e = &cx->memo[memo_slot(cx->memo, cx->memo_cap, cx->memo_gen, key)];
    if (e->gen != cx->memo_gen) cx->memo_n++;
    e->gen = cx->memo_gen;
    e->key = key;
    e->v = v;
    e->flags = cx->lane_flags;
}

void td_shcx_memo_clear(td_shcx *cx) {
    /* Called for every case.  Clearing is a new generation, whatever the table's size;
     * only a table grown past 2^20 entries (48 MiB) by one large case is released once
     * mostly empty, so that memory follows what cases use (the memo only saves work:
     * its size changes no value). */
    if (!cx->memo_n) return;
    if (cx->memo_cap > (1u << 20) && cx->memo_n * 16 < cx->memo_cap) {
        td_shcx_memo_free(cx);
        return;
    }
    cx->memo_n = 0;
    if (++cx->memo_gen == 0) {
        /* after 2^32 - 1 cases the generation wraps: the table is cleared for real */
        memset(cx->memo, 0, cx->memo_cap * sizeof *cx->memo);
        cx->memo_gen = 1;
    }
}

void td_shcx_memo_free(td_shcx *cx) {
    free(cx->memo);
    cx->memo = NULL;
    cx->memo_cap = cx->memo_n = 0;
}

TD_NOCOV_END
