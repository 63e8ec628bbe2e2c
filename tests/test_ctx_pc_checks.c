/* The prompt-cache prefill attentions' preconditions (contracts/ctx_pc_common.h:
 * context_attn_llama, _fwd, _bloom) are real checks: a generated case passes its checker,
 * and the same case with one rule broken -- a prompt longer than the sequence, a batch
 * cache shorter than its sequence, a token-table slot past K, an output tile whose
 * offsets collide, a grid that misses query rows -- is refused with the rule's name.  A
 * checker that stops looking at one of them fails here. */
#include "breakers.h"

#define FWD "context_attn_fwd.context_attn_fwd_surface_compute_correct_general"
#define BLOOM "context_attn_bloom.context_attn_bloom_io_correctness"
#define LLAMA "context_attn_llama.context_attn_llama_surface_compute_correct_general"

/* regions Q, K, V, Out, B_Start_Loc, B_Seqlen, then (fwd) plen or (table) Req_to_tokens,
 * B_req_idx, plen; parameters sm_scale, 14 strides, H / head_dim, BD, BM, BN[, NT] */
static int any(const td_case *c) { return c->grid[0] > 0; }
static int seq0(const td_case *c) { return td_geti(c, 5, 0) > 0; }
static int out_wide(const td_case *c) { return c->p[16].i > 1 && c->p[17].i > 1; }
static void plen_long_fwd(td_case *c) { td_seti(c, 6, 0, td_geti(c, 5, 0) + 1); }
static void plen_long_llama(td_case *c) { td_seti(c, 8, 0, td_geti(c, 5, 0) + 1); }
static void cache_short(td_case *c) { /* 1000 more cached positions than the cache holds */
    td_seti(c, 5, 0, td_geti(c, 5, 0) + 1000), td_seti(c, 6, 0, td_geti(c, 6, 0) + 1000);
}
static void slot_past_k(td_case *c) {                    /* the batch's first table cell names a slot past K */
    td_seti(c, 6, (size_t)(td_geti(c, 7, 0) * c->p[4].i), (int64_t)c->r[1].len);
}
static void out_collide(td_case *c) { c->p[12].i = 1, c->p[14].i = 1; } /* stride_obs = stride_od = 1 */
static void grid_short(td_case *c) { /* bloom: grid (batch, head, query blocks) */
    c->grid[2] = 1, c->p[17].i = 1;  /* one block of BLOCK_M = 1 row */
    td_seti(c, 8, 0, 0), td_seti(c, 5, 0, 2), c->p[19].i = 100; /* NT: the stream covers the rows */
}

static const breaker breakers[] = {
    {FWD, "b_prompt_cache_len <= B_Seqlen", any, plen_long_fwd},
    {LLAMA, "b_prompt_cache_len <= B_Seqlen", any, plen_long_llama},
    {FWD, "K and V hold every position", seq0, cache_short},
    {BLOOM, "every token slot of the table", seq0, slot_past_k},
    {BLOOM, "hOInj", out_wide, out_collide},
    {BLOOM, "the grid covers every query row", any, grid_short},
};

static void broken_preconditions_are_refused(void **st) {
    (void)st;
    breakers_refused(breakers, sizeof breakers / sizeof breakers[0], 29);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(broken_preconditions_are_refused)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
