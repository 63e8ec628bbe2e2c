/* The KV-cache copy contracts' metadata preconditions (contracts/kvcopy_common.h and the
 * contracts that use it) are real checks: a generated case passes its checker, and the
 * same case with one metadata rule broken -- two tokens sent to one cache slot, a
 * context length of 0, a segment longer than the block, overlapping write windows, a
 * cumsum that decreases, two programs sharing a block -- is refused with the rule's
 * name.  A checker that stops looking at the metadata fails here. */
#include "breakers.h"

static void dup_first_meta(td_case *c, int reg) { td_seti(c, reg, 1, td_geti(c, reg, 0)); }
static void dest_dup_3(td_case *c) { dup_first_meta(c, 1); }    /* destindex_copy_kv1/2: Dest_loc */
static void dest_dup_mla(td_case *c) { dup_first_meta(c, 2); }  /* destindex_copy: Dest_loc */
static void len_zero(td_case *c) { td_seti(c, 1, 0, 0); }       /* var_len_copy: old_a_len[0] = 0 */
static void len_past_block(td_case *c) { td_seti(c, 1, 0, c->p[0].i + 1); }
static void windows_overlap(td_case *c) { dup_first_meta(c, 3); } /* new_a_start[1] = new_a_start[0] */
static void cumsum_down(td_case *c) { td_seti(c, 2, 0, td_geti(c, 2, 1) + 1); }
static void no_cumsum(td_case *c) { c->p[4].i = 0; }             /* prefill: N_ELEMENTS = 0 */
static void ctx_len_zero_kc(td_case *c) { td_seti(c, 3, 0, 0); } /* kcache_copy_triton: seq_lengths[0] */
static void ctx_len_zero_kv(td_case *c) { td_seti(c, 5, 0, 0); } /* kv_cache_copy: context_lengths[0] */
/* kv_cache_copy: sequence 1 ends in sequence 0's last slot (its length and table cell) */
static void same_slot_kv(td_case *c) {
    int64_t bts = c->p[15].i, btb = c->p[16].i, bs = c->p[17].i, m0 = td_geti(c, 5, 0);
    int64_t k0 = (m0 - 1) / bs;
    td_seti(c, 5, 1, m0);
    td_seti(c, 4, (size_t)(bts + k0 * btb), td_geti(c, 4, (size_t)(k0 * btb)));
}
static void same_block_fill(td_case *c) { /* kv_cache_filling: program 1 reads program 0's block */
    int64_t boff = c->p[20].i, kvb = c->p[2].i;
    td_seti(c, 7, (size_t)(boff + kvb), td_geti(c, 7, (size_t)kvb));
}

/* The cases a rule needs: one program, or two; var_len_copy's overlapping windows also
 * lengths of programs 0 and 1 > 0, the prefill's decreasing cumsum two cumsum cells. */
static int one_program(const td_case *c) { return c->grid[0] >= 1; }
static int two_programs(const td_case *c) { return c->grid[0] >= 2; }
static int two_windows(const td_case *c) { return two_programs(c) && td_geti(c, 1, 0) > 0 && td_geti(c, 1, 1) > 0; }
static int two_cumsum_cells(const td_case *c) { return one_program(c) && c->r[2].len >= 2; }

static const breaker breakers[] = {
    {"destindex_copy_kv1.fwd_kernel_destindex_copy_kv_correctness", "injective", two_programs, dest_dup_3},
    {"destindex_copy_kv2.fwd_kernel_destindex_copy_kv_correctness", "injective", two_programs, dest_dup_3},
    {"destindex_copy.destindex_copy_correctness", "injective", two_programs, dest_dup_mla},
    {"var_len_copy.var_len_copy_kernel_triton_small_length_output_summary", "hLenPos", one_program, len_zero},
    {"var_len_copy.var_len_copy_kernel_triton_small_length_output_summary", "hLen:", one_program, len_past_block},
    {"var_len_copy.var_len_copy_one_chunk_io_correctness", "disjoint", two_windows, windows_overlap},
    {"cache_transform_triton.prefill_cache_correctness", "nondecreasing", two_cumsum_cells, cumsum_down},
    {"cache_transform_triton.prefill_cache_correctness", "hN", one_program, no_cumsum},
    {"kcache_copy_triton.copy_to_kcache_seqlen_n1_correctness", "context lengths >= 1", one_program, ctx_len_zero_kc},
    {"kv_cache_copy.kv_cache_copy_correctness", "context lengths >= 1", one_program, ctx_len_zero_kv},
    {"kv_cache_copy.kv_cache_copy_correctness", "share a cache slot", two_programs, same_slot_kv},
    {"kv_cache_filling.fill_kv_cache_output_summary_general", "distinct", two_programs, same_block_fill},
};

static void broken_metadata_is_refused(void **st) {
    (void)st;
    breakers_refused(breakers, sizeof breakers / sizeof breakers[0], 23);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(broken_metadata_is_refused)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
