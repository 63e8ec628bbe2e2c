/* The sparse-attention contracts' preconditions (contracts/block_sparse_attn.c,
 * contracts/mixed_sparse_attention.c) are real checks: a generated case passes its
 * checker, and the same case with one rule broken -- an empty CSR row for a program
 * (hN), a row pointer that decreases (hsle), a selected block past the tile's first
 * query row (hVis0 / hstep), KV heads that do not divide the query heads, the two D
 * blocks of an output row overlapping (hdisj), LPre = 0 on a stored row, a sequence
 * longer than the tensors; for the mixed-sparse closed form a first block iteration with
 * no kept key for the tile's first row, column_count > BLOCK_N, a column index past
 * N_CTX, an inactive program, BLOCK_N < 16, V's batch stride apart from K's -- is refused with the rule's name.  A checker that stops
 * looking at the layout or the metadata fails here. */
#include "breakers.h"

#define CF "block_sparse_attn.block_sparse_attn_output_closed_form_summary_general"
#define ST "block_sparse_attn.block_sparse_attn_output_stores_io_correctness"
#define EP "mixed_sparse_attention.mixed_sparse_attention_epilogue_io_correctness"
#define MC "mixed_sparse_attention.mixed_sparse_attention_output_closed_form_summary_general"
/* the closed form's parameters and regions used here (contracts/block_sparse_attn.c) */
enum { F_BM = 0, F_BD = 1, F_BN = 2, F_NH = 3, F_NKV = 4, F_SEQ = 6, F_CSH = 8, F_SOM = 20 };
enum { F_R = 4, F_C = 5 };
enum { S_BD = 10, S_SOM = 8 };
enum { E_L = 1, E_SEQ = 2, E_BM = 5 };
/* the mixed-sparse closed form's (contracts/mixed_sparse_attention.c) */
enum { M_BN = 1, M_NCTX = 3, M_SKZ = 13, M_SVZ = 17 };
enum { M_SEQ = 3, M_BCNT = 4, M_BOFF = 5, M_CCNT = 6, M_COLS = 7 };

static int any(const td_case *c) { return c != NULL; }
/* program (0, 0) reads layout head 0, row 0: R[0], R[1] */
static void row_empty(td_case *c) { td_seti(c, F_R, 1, td_geti(c, F_R, 0)); }
static void row_decreasing(td_case *c) { td_seti(c, F_R, 1, td_geti(c, F_R, 0) - 1); }
static int two_key_blocks(const td_case *c) { return c->p[F_SEQ].i > c->p[F_BN].i; }
static void block_past_row(td_case *c) { td_seti(c, F_C, (size_t)td_geti(c, F_R, 0), 1); }
static void kv_not_dividing(td_case *c) { c->p[F_NKV].i = c->p[F_NH].i + 1; }
static void d_blocks_overlap(td_case *c) { c->p[F_SOM].i = 2 * c->p[F_BD].i - 1; }
static void st_d_blocks_overlap(td_case *c) { c->p[S_SOM].i = 2 * c->p[S_BD].i - 1; }
static int first_seq_stored(const td_case *c) { return td_geti(c, E_SEQ, 0) > 0; }
static void l_zero(td_case *c) { td_set(c, E_L, 0, 0.0); }
static void seq_too_long(td_case *c) {
    td_seti(c, E_SEQ, 0, (int64_t)c->grid[0] * c->p[E_BM].i + 1);
}

/* program (0, 0): block_count[0], block_offset[0..], column_count[0], column_index[0..] */
static int two_keys(const td_case *c) { return c->p[M_NCTX].i > 1; }
static void m_first_block_late(td_case *c) {
    td_seti(c, M_BCNT, 0, 1);
    td_seti(c, M_BOFF, 0, 1); /* start 1 > the tile's first row 0: row 0 has no kept key in iteration 0 */
}
static void m_cols_over(td_case *c) { td_seti(c, M_CCNT, 0, 17); }
static void m_col_past(td_case *c) {
    td_seti(c, M_CCNT, 0, 1);
    td_seti(c, M_COLS, 0, c->p[M_NCTX].i);
}
static void m_inactive(td_case *c) { td_seti(c, M_SEQ, 0, 0); }
static void m_bn_small(td_case *c) { c->p[M_BN].i = 8; }
static void m_v_stride(td_case *c) { c->p[M_SVZ].i = c->p[M_SKZ].i + 1; }

static const breaker breakers[] = {
    {MC, "the first block iteration", two_keys, m_first_block_late},
    {MC, "hNCBN", any, m_cols_over},
    {MC, "hundef", any, m_col_past},
    {MC, "hactive", any, m_inactive},
    {MC, "hBN16", any, m_bn_small},
    {MC, "hvz", any, m_v_stride},
    {CF, "hN:", any, row_empty},
    {CF, "hsle", any, row_decreasing},
    {CF, "hVis0", two_key_blocks, block_past_row},
    {CF, "num_kv_heads | num_heads", any, kv_not_dividing},
    {CF, "hdisj", any, d_blocks_overlap},
    {ST, "stride_om >= 2 * BLOCK_D", any, st_d_blocks_overlap},
    {EP, "LPre nonzero", first_seq_stored, l_zero},
    {EP, "Seqlens[b] in", any, seq_too_long},
};

static void broken_rule_is_refused(void **st) {
    (void)st;
    breakers_refused(breakers, sizeof breakers / sizeof breakers[0], 29);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(broken_rule_is_refused)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
