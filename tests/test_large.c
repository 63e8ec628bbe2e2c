/* The large tier (contracts/gen_large.h): flat launches and launches of dense row-blocks
 * of more than 2^31 elements.
 *
 * `test_large` (unit, cheap): large inputs decode to 2^31+ elements over sparse
 * regions, their windows are where gen_large.h says (row-blocks: in each region's own
 * row length), the write set keeps only the windows' lanes (the rest counted), an input
 * of the tier is refused without --large, and the int32-offset mutants survive the
 * default tier.
 * `test_large --run` (label "large", out of the default CI: each case runs a kernel over
 * 2^31+ elements, seconds each): the ports pass large cases (out of place and in
 * place, and a launch of row-blocks: mean_reduction), the int32-offset mutants
 * (add_example's, kldiv_compute's, mean_reduction's and those of I32_MUT) die on them by an
 * illegal address, a skipped last
 * program is seen in the last window, and the process commits little memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_large.h"
#include "harness.h"
#include "large.h"

const td_abi_table *td_builtin_host_table(void);

#define TWO31 ((uint64_t)1 << 31)
#define ADD "add_example.add_kernel_correctness"
#define MUL2_INPLACE "triton_mul2.mul2_inplace_kernel_correctness"
#define KL "kldiv_compute.kldivergence_kernel_correctness"
#define DQ "dequantize_rowwise.dequantize_rowwise_correctness"
#define GEGLU_BWD "geglu_tanh_triton.geglu_tanh_backward_kernel_correctness"
#define SWIGLU_BWD "swiglu_triton.swiglu_backward_kernel_correctness"
typedef struct large_contract {
    const char *id;
    int p_n, p_block; /* its count and block parameters (p_n < 0: none, grid * BLOCK elements) */
    unsigned regs;    /* the regions the tier moves (bit r: region r) */
} large_contract;
static const large_contract LARGE[] = {
    {ADD, 0, 1, 7u},
    {"triton_mul2.mul2_kernel_correctness", 0, 1, 3u},
    {MUL2_INPLACE, 0, 1, 1u},
    {"add_value.puzzle1_kernel_correctness", 0, 1, 3u},
    {"adam_update_triton.update_fn_kernel_correctness", 4, 5, 7u},
    {"dropout_triton.dropout_kernel_correctness", 0, 2, 7u},
    {KL, 0, 1, 7u},
    {"f8_conversion_utils.f16_to_f8_io_correctness", 0, 1, 3u},
    {"f8_conversion_utils.f8_to_f16_io_correctness", 0, 1, 3u},
    {"masked_add_cuda.masked_add_kernel_correctness", 0, 2, 7u},
    {"fused_activation.fused_add_mul_activation_kernel_correctness", 1, 2, 5u},
    {"quantize_global.quantize_global_correctness", 0, 1, 5u},
};
#define NLARGE (sizeof LARGE / sizeof LARGE[0])
/* More contracts of the tier, decoded from 2 inputs each (the test's time stays small) */
static const large_contract LARGE_FEW[] = {
    {"relu_triton_kernel.relu_kernel_correctness", 0, 1, 3u},
    {"mul_exponent_compensator.mul_kernel_correctness", -1, 0, 3u}, /* no count: grid * BLOCK elements */
    {DQ, -1, 2, 5u},                                                  /* x, output (state_x: per program) */
    {GEGLU_BWD, -1, 2, 7u},                                           /* rows of n_cols = stride = BLOCK */
    {SWIGLU_BWD, -1, 2, 7u},
};
#define NLARGE_FEW (sizeof LARGE_FEW / sizeof LARGE_FEW[0])
/* Contracts whose mut_large_offset_int32 survives ordinary cases and dies on large case
 * `i` (add_example's and kldiv_compute's are checked in more detail below); `port`: the
 * port is run on it too (a port's large case takes 30 s to minutes: one such run keeps
 * the --run test's time within a third more; `tilediff run ID --large` runs the others). */
static const struct {
    const char *id;
    uint64_t i;
    int port;
} I32_MUT[] = {
    {"relu_triton_kernel.relu_kernel_correctness", 1, 0},
    {"mul_exponent_compensator.mul_kernel_correctness", 2, 1},
    {DQ, 3, 0},
    {GEGLU_BWD, 4, 0},
    {SWIGLU_BWD, 5, 0},
    {"rowwise_quantization_triton.quantize_rowwise_correctness", 6, 0}, /* row-blocks (td_rows_large) */
    {"softmax_optimize.softmax_kernel_online_v2_output_summary", 6, 0},
    /* select_mask and prefix_sum: sparse metadata regions (engine/harness.c, image_alloc) */
    {"masked_select.masked_select_kernel_correctness", 6, 0},
    /* rows of time steps: every program's offsets t * batch * dim + col cross 2^31 */
    {"diag_ssm_triton.diag_ssm_forward_io_correctness", 7, 0},
    {"diag_ssm_triton.diag_ssm_backward_io_correctness", 7, 0},
    {"fused_recurrent_retention.fused_recurrent_retention_seed_io_correctness", 7, 0}, /* heads on grid axis 2 */
    /* blocks of BLK rows and their scales (td_rows_large) */
    {"int8_quantization.per_block_int8_correctness", 7, 0},
    /* tiles of BLOCK_M x D_HEAD, rows repeated where narrower than 64 (td_rows_large) */
    {"triton_attention.triton_attention_bwd_preprocess_genuine_output_summary_general", 7, 0},
    {"chunk_gate_recurrence.chunk_gate_recurrence_output_summary_general", 6, 0}, /* heads (td_rows_large) */
    {"lightning_attention.lightning_attention_output_summary_general", 6, 0},
    /* blocks of queries: queryIndex b*queries*qk + q*qk + h (test_sdpa_rows) */
    {"seed_sdpa.scaled_dot_product_f32", 7, 0},
};
#define NI32_MUT (sizeof I32_MUT / sizeof I32_MUT[0])

static void large_bytes(uint64_t i, uint8_t *b, size_t n, int large) {
    memcpy(b, large ? TD_LARGE_MAGIC : "notbig!!", TD_LARGE_MAGIC_LEN);
    td_case_bytes(11, i, b + TD_LARGE_MAGIC_LEN, n - TD_LARGE_MAGIC_LEN);
}

/* Input i decoded twice: as an ordinary case (o) and as the large tier's (c). */
static void decode_pair(const td_contract *k, uint64_t i, td_case *o, td_case *c) {
    uint8_t b[64];
    char err[512];
    large_bytes(i, b, sizeof b, 0);
    assert_int_equal(td_decode_case(k, b, sizeof b, o, err, sizeof err), 0);
    large_bytes(i, b, sizeof b, 1);
    assert_int_equal(td_decode_case(k, b, sizeof b, c, err, sizeof err), 0);
}

/* 1 when [lo, hi) lies inside one of the case's windows */
static int covered(const td_case *c, uint64_t lo, uint64_t hi) {
    for (int w = 0; w < c->nwin; w++)
        if (c->win[w].lo <= lo && hi <= c->win[w].hi) return 1;
    return 0;
}

/* Large inputs: n > 2^31 over sparse regions, windows over the first, last and
 * 2^31-boundary programs; the same bytes without the magic decode to an ordinary case. */
static void test_large_cases_decode(void **st) {
    (void)st;
    for (size_t t = 0; t < NLARGE + NLARGE_FEW; t++) {
        const large_contract *L = t < NLARGE ? &LARGE[t] : &LARGE_FEW[t - NLARGE];
        const td_contract *k = td_contract_find(L->id);
        assert_non_null(k);
        assert_non_null(k->large);
        for (uint64_t i = 0; i < (t < NLARGE ? 8u : 2u); i++) {
            uint8_t b[64];
            char err[512];
            td_case c;
            large_bytes(i, b, sizeof b, 0);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            assert_int_equal(c.large_regs, 0);
            td_case_free(&c);
            large_bytes(i, b, sizeof b, 1);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            uint64_t B = (uint64_t)c.p[L->p_block].i, G = c.grid[0];
            uint64_t n = L->p_n >= 0 ? (uint64_t)c.p[L->p_n].i : G * B;
            /* (p_n < 0, unmasked: n = G * B, so the regions' len >= n below fails unless d is a multiple of B) */
            int r0 = __builtin_ctz(L->regs); /* a region the tier moves */
            assert_true(n > TWO31 && n <= TWO31 + (1u << 20));
            assert_true(B >= 64 && B <= 1024 && G == (n + B - 1) / B);
            assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31));
            assert_true(c.nwin >= 2 && c.nwin <= TD_MAX_WINDOWS);
            for (int w = 1; w < c.nwin; w++) assert_true(c.win[w - 1].hi < c.win[w].lo); /* sorted, disjoint */
            assert_true(covered(&c, 0, B));                           /* the first program */
            uint64_t len = c.r[r0].len; /* (windows end at the region's end: n = 2^31 + 1, no slack) */
            assert_true(covered(&c, TWO31 - B, TWO31 + B < len ? TWO31 + B : len)); /* either side of 2^31 */
            assert_true(covered(&c, (G - 1) * B, c.r[r0].len)); /* the last program and the slack */
            assert_int_equal(c.large_regs, L->regs);
            for (int r = 0; r < k->nregions; r++)
                if (L->regs >> r & 1) assert_true(c.r[r].mapped > 0 && c.r[r].len >= n);
            td_case_free(&c);
        }
    }
}

/* The write set of a large case: the windows' lanes only, in order; every other lane
 * of [0, n) counted as dropped. */
static void test_large_write_set(void **st) {
    (void)st;
    const td_contract *k = td_contract_find(ADD);
    for (uint64_t i = 0; i < 8; i++) {
        uint8_t b[64];
        char err[512];
        td_case c;
        large_bytes(i, b, sizeof b, 1);
        assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
        td_wset ws = {.win_regs = c.large_regs, .nwin = c.nwin, .win = c.win};
        k->writes(&c, &ws);
        uint64_t n = (uint64_t)c.p[0].i, inwin = 0;
        for (int w = 0; w < c.nwin; w++) inwin += (c.win[w].hi < n ? c.win[w].hi : n) - c.win[w].lo;
        assert_int_equal(ws.n, inwin);
        assert_int_equal(ws.n + ws.dropped, n);
        for (size_t l = 0; l < ws.n; l++) {
            assert_true(covered(&c, ws.v[l].off, ws.v[l].off + 1));
            if (l) assert_true(ws.v[l - 1].off < ws.v[l].off);
        }
        /* the generic filter (td_wset_add) keeps the same lanes as td_flat_writes */
        td_wset all = {.win_regs = c.large_regs, .nwin = c.nwin, .win = c.win};
        for (int w = 0; w < c.nwin; w++) {
            td_olane in = {.region = 2, .off = c.win[w].lo}, out = {.region = 2, .off = c.win[w].hi};
            td_wset_add(&all, &in);
            td_wset_add(&all, &out); /* hi is outside (windows are disjoint, not touching) */
        }
        assert_int_equal(all.n, (size_t)c.nwin);
        assert_int_equal(all.dropped, (uint64_t)c.nwin);
        free(all.v);
        free(ws.v);
        td_case_free(&c);
    }
}

/* td_large_next: every element of an ordinary case or of a region not moved; of a
 * large region exactly the elements of its windows, in order (the scan a precondition
 * check makes). */
static void test_large_next(void **st) {
    (void)st;
    td_case plain = {0};
    for (uint64_t i = 0; i < 100; i += 7) assert_int_equal(td_large_next(&plain, 0, i), i);
    const td_contract *k = td_contract_find(ADD);
    uint8_t b[64];
    char err[512];
    td_case c;
    large_bytes(3, b, sizeof b, 1);
    assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
    uint64_t n = (uint64_t)c.p[0].i, seen = 0, inwin = 0, last = 0;
    for (int w = 0; w < c.nwin; w++) inwin += (c.win[w].hi < n ? c.win[w].hi : n) - c.win[w].lo;
    for (uint64_t i = 0; i < 100; i += 7) assert_int_equal(td_large_next(&c, 5, i), i); /* a region not moved */
    for (uint64_t i = td_large_next(&c, 0, 0); i < n; i = td_large_next(&c, 0, i + 1)) {
        assert_true(covered(&c, i, i + 1));
        assert_true(!seen || i > last);
        last = i, seen++;
    }
    assert_int_equal(seen, inwin);
    assert_int_equal(td_large_next(&c, 2, c.win[c.nwin - 1].hi), UINT64_MAX);
    td_case_free(&c);
}

/* td_large_per_program (dequantize_rowwise's state_x, one entry per row): G entries plus
 * the old slack, entry r of every row a window touches holding the ordinary case's
 * entry r mod g0, the others zero (a sparse mapping: nothing committed for them). */
static void test_large_per_program(void **st) {
    (void)st;
    const td_contract *k = td_contract_find(DQ);
    for (uint64_t i = 0; i < 8; i++) {
        td_case o, c;
        decode_pair(k, i, &o, &c);
        uint64_t g0 = o.grid[0], G = c.grid[0], B = (uint64_t)c.p[2].i, hit = 0;
        assert_true(G > g0 && c.r[1].mapped > 0 && !(c.large_regs >> 1 & 1));
        assert_int_equal(c.r[1].len, G + (o.r[1].len - g0));
        /* no count, no row mask (p_n < 0): x and output hold every row of the grid */
        assert_true(c.r[0].len >= G * B && c.r[2].len >= G * B && G * B > TWO31);
        /* the rows of the windows and two on either side, then every 4093rd row */
        for (int pass = 0; pass < 2; pass++)
            for (int v = 0; v < (pass ? 1 : c.nwin); v++) {
                uint64_t lo = pass ? 0 : c.win[v].lo / B, hi = pass ? G : c.win[v].hi / B + 3;
                for (uint64_t r = lo < 2 ? 0 : lo - 2; r < hi && r < G; r += pass ? 4093 : 1) {
                    int in = 0;
                    for (int w = 0; w < c.nwin; w++) in |= r * B < c.win[w].hi && (r + 1) * B > c.win[w].lo;
                    double want = in ? td_get(&o, 1, (size_t)(r % g0)) : 0.0;
                    assert_true(td_get(&c, 1, (size_t)r) == want);
                    hit += (uint64_t)(in && !pass);
                }
            }
        assert_true(hit >= 3); /* rows 0, 2^31 / B - 1 and 2^31 / B (= G - 1 when d <= B) at least */
        for (size_t e = (size_t)G; e < c.r[1].len; e++) assert_true(td_get(&c, 1, e) == 0.0);
        td_case_free(&o);
        td_case_free(&c);
    }
}

/* ---- launches of row-blocks (td_rows_large) ---- */
#define LSE "logsumexp_fwd.logsumexp_fwd_kernel_correctness"
#define MEAN "mean_reduction.mean_dim_kernel_output_summary"
#define I8Q "int8_quantization.per_block_int8_correctness"
#define TA_PRE "triton_attention.triton_attention_bwd_preprocess_genuine_output_summary_general"
typedef struct rows_contract {
    const char *id;
    int axis;       /* the grid axis of the row-blocks */
    int p_rows;     /* the parameter holding their count; -1: grid[axis] (one program each) */
    int wide;       /* the region whose row-blocks are the widest (it passes 2^31) */
    unsigned regs;  /* the regions the tier moves */
    int p_len;      /* the parameter holding the wide region's row length (an input's) */
} rows_contract;
static const rows_contract ROWS[] = {
    {LSE, 0, -1, 0, 3u, 0},
    {MEAN, 0, 0, 0, 3u, 1},
    {"mean_reduction.mean_dim_kernel_io_correctness", 0, 0, 0, 3u, 1},
    {"chunk_cumsum_kernel.chunk_cumsum_scalar_output_summary_general", 0, -1, 0, 3u, 0},
    {"chunk_cumsum_kernel.chunk_cumsum_scalar_io_correctness", 0, -1, 0, 3u, 0},
    {"reversed_cumsum_scalar.reversed_cumsum_scalar_output_summary_general", 0, -1, 0, 3u, 0},
    {"reversed_cumsum_scalar.reversed_cumsum_scalar_vec_store_io_correctness", 0, -1, 0, 3u, 0},
    {"reversed_cumsum_scalar.reversed_cumsum_scalar_vec_store_io_correctnessR", 0, -1, 0, 3u, 0},
    {"fused_recurrent_hgrn.fused_recurrent_hgrn_output_summary_general", 1, -1, 0, 0x3ffu, 3},
    {"fused_recurrent_hgrn.fused_recurrent_hgrn_bwd_dx_io_correctness", 1, -1, 0, 7u, 1},
    {"fused_layernorm_triton.fused_layernorm_triton_output_summary_general", 0, 0, 1, 0x33u, 1},
    {"fused_layernorm_triton.fused_layernorm_triton_normalize_io_correctness", 0, -1, 2, 0x27u, 0},
    {"layer_norm_welfold.layer_norm_welfold_output_summary_general", 0, 0, 2, 0x27u, 1},
    {"layer_norm_welfold.layer_norm_welfold_normalize_io_correctness", 0, -1, 2, 0x27u, 0},
    {"batched_vecmat_mult.batched_vecmat_closed_form_correct", 0, -1, 1, 7u, 5},
    {"batched_vecmat_mult.batched_vecmat_io_correctness", 0, -1, 1, 7u, 5},
    /* rows of BLOCK_SIZE: x and output, one max each (x, output, output_maxs) */
    {"rowwise_quantization_triton.quantize_rowwise_correctness", 0, -1, 0, 0xdu, 1},
    {"softmax_optimize.softmax_kernel_online_v2_output_summary", 0, 0, 1, 3u, 1}, /* rows of N: in, out */
    /* rows of time steps, not programs (length of them, rows of batch*dim): x and y;
     * the backward's y, grad_x and grad_y */
    {"diag_ssm_triton.diag_ssm_forward_kernel_output_summary", 0, 0, 1, 0xau, 1},
    {"diag_ssm_triton.diag_ssm_forward_io_correctness", 0, 0, 1, 0xau, 1},
    {"diag_ssm_triton.diag_ssm_backward_io_correctness", 0, 0, 2, 0x54u, 1},
    /* the heads (grid axis 2) of DK*DV: initial_state and HSeed */
    {"fused_recurrent_retention.fused_recurrent_retention_seed_io_correctness", 2, -1, 0, 3u, 0},
    {"fused_recurrent_retention.fused_recurrent_retention_seed_io_correctnessR", 2, -1, 0, 3u, 0},
    /* blocks of BLK*C: X, ScalePre, XInt8, Scale; the blocks are re-formed (full blocks only, L
     * cut again), so the repeat check is skipped (p_len = L, which always changes):
     * test_int8_blocks checks them */
    {I8Q, 0, -1, 0, 0xfu, 0},
    /* tiles of BLOCK_M x D_HEAD: Out, DO, L, NewDO, Delta (BLOCK_M, widened by repeated rows) */
    {TA_PRE, 0, -1, 0, 0x1fu, 0},
    /* heads of [NB, DK, DV] (S, DS, O, DI), [NB] (d), [NB, NK, NV] (DG), [DK, DV] (LastKv, DL) */
    {"chunk_gate_recurrence.chunk_gate_recurrence_output_summary_general", 0, -1, 1, 0x79eu, 3},
    /* heads of [n, d] (Q, K), [n, e] (V, Out) and NE staged tiles (KVPrev .. OInter) */
    {"lightning_attention.lightning_attention_output_summary_general", 0, -1, 2, 0x1f0fu, 2},
};
#define NROWS (sizeof ROWS / sizeof ROWS[0])

/* 1 when row-block r lies in one of the case's windows */
static int row_covered(const td_case *c, uint64_t r) { return covered(c, r, r + 1); }

/* Large inputs of a row-block launch: R row-blocks, the last starting at or past element
 * 2^31 of the widest region (and at most 2^20 / L + 2 more than needed) over sparse regions, each region's windows in its own row length, windows over
 * the first, last and 2^31-straddling row-blocks, their contents the ordinary case's
 * rows repeated; the same bytes without the magic decode to an ordinary case. */
static void test_rows_cases_decode(void **st) {
    (void)st;
    for (size_t f = 0; f < NROWS; f++) {
        const td_contract *k = td_contract_find(ROWS[f].id);
        assert_non_null(k);
        assert_non_null(k->large);
        for (uint64_t i = 0; i < 4; i++) {
            uint8_t b[64];
            char err[512];
            td_case c, o;
            large_bytes(i, b, sizeof b, 0);
            assert_int_equal(td_decode_case(k, b, sizeof b, &o, err, sizeof err), 0);
            assert_int_equal(o.large_regs, 0);
            large_bytes(i, b, sizeof b, 1);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            int pr = ROWS[f].p_rows, ax = ROWS[f].axis;
            uint64_t R = pr < 0 ? c.grid[ax] : (uint64_t)c.p[pr].i, R0 = pr < 0 ? o.grid[ax] : (uint64_t)o.p[pr].i;
            uint64_t L = c.win_unit[ROWS[f].wide];
            assert_int_equal(c.large_regs, ROWS[f].regs);
            assert_true(L >= TD_ROWS_LARGE_MIN_LEN && (R - 1) * L >= TWO31 && (R - 2) * L < TWO31 + (1u << 20) + L);
            assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31));
            assert_true(c.nwin >= 2 && c.nwin <= TD_MAX_WINDOWS);
            for (int w = 1; w < c.nwin; w++) assert_true(c.win[w - 1].hi < c.win[w].lo); /* sorted, disjoint */
            assert_true(row_covered(&c, 0) && row_covered(&c, R - 1));
            assert_true(row_covered(&c, (TWO31 - 1) / L) && row_covered(&c, TWO31 / L) &&
                        row_covered(&c, (TWO31 + L - 1) / L));
            assert_true(c.win[c.nwin - 1].hi == R);
            for (int r = 0; r < k->nregions; r++) {
                if (!(ROWS[f].regs >> r & 1)) continue;
                uint64_t u = c.win_unit[r];
                assert_true(u > 0 && u <= L && c.r[r].mapped > 0 && c.r[r].len == R * u);
                td_window e = td_case_window(&c, r, c.nwin - 1);
                assert_true(e.lo == c.win[c.nwin - 1].lo * u && e.hi == R * u);
                /* the wide input's window rows repeat the ordinary case's rows (row r <- r mod R0)
                 * where the row kept its width */
                if (r != ROWS[f].wide || c.p[ROWS[f].p_len].i != o.p[ROWS[f].p_len].i) continue;
                for (int w = 0; w < c.nwin; w++)
                    for (uint64_t row = c.win[w].lo; row < c.win[w].hi; row++)
                        for (uint64_t x = 0; x < u; x++)
                            assert_true(td_get(&c, r, (size_t)(row * u + x)) == td_get(&o, r, (size_t)(row % R0 * u + x)));
            }
            td_case_free(&o);
            td_case_free(&c);
        }
    }
}

/* int8_quantization's blocks (its ROWS row skips the repeat check): one batch, window block r
 * of X holds the drawn case's full block r mod R0 (its first 2^floor(log2 L) rows when it has
 * none) and zero rows after it, its ScalePre that block's; the tail block's masked rows are
 * never repeated (they hold other rows' values, outside the block's scale); L ends inside
 * the last block, scale_stride is the block count. */
static void test_int8_blocks(void **st) {
    (void)st;
    const td_contract *k = td_contract_find(I8Q);
    enum { L_, C_, BLK_, SS_ }; /* its parameters, regions X 0 and ScalePre 1 */
    for (uint64_t i = 0; i < 8; i++) {
        td_case o, c;
        decode_pair(k, i, &o, &c);
        int64_t C = o.p[C_].i, B0 = o.p[BLK_].i, L0 = o.p[L_].i, R0 = L0 / B0;
        if (R0 == 0)
            for (B0 = 1, R0 = 1; 2 * B0 <= L0;) B0 *= 2;
        uint64_t R = c.grid[0], B = (uint64_t)c.p[BLK_].i, u = B * (uint64_t)C;
        assert_true(c.grid[1] == 1 && c.p[C_].i == C && (uint64_t)c.p[SS_].i == R && c.win_unit[0] == u);
        assert_true((uint64_t)c.p[L_].i > (R - 1) * B && (uint64_t)c.p[L_].i <= R * B);
        for (int w = 0; w < c.nwin; w++)
            for (uint64_t r = c.win[w].lo; r < c.win[w].hi; r++) {
                size_t from = (size_t)(r % (uint64_t)R0) * (size_t)(B0 * C);
                for (uint64_t x = 0; x < u; x++) {
                    double want = x < (uint64_t)(B0 * C) ? td_get(&o, 0, from + x) : 0.0;
                    assert_true(td_get(&c, 0, (size_t)(r * u + x)) == want);
                }
                assert_true(td_get(&c, 1, (size_t)r) == td_get(&o, 1, (size_t)(r % (uint64_t)R0)));
            }
        td_case_free(&o);
        td_case_free(&c);
    }
}

/* The windows of a row-block launch in each region's own elements: td_large_next walks
 * a region's window rows element by element, td_large_row_next the rows, td_wset_add
 * keeps a lane by its row in its region (not by its element offset), and the write
 * set counts every other row's lanes as dropped. */
static void test_rows_windows(void **st) {
    (void)st;
    const td_contract *k = td_contract_find(LSE);
    uint8_t b[64];
    char err[512];
    td_case c;
    for (uint64_t i = 0;; i++) { /* a case whose two regions' rows differ: x of D, z of cdiv(D, B) < D */
        assert_true(i < 64);
        large_bytes(i, b, sizeof b, 1);
        assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
        if (c.win_unit[1] < c.win_unit[0]) break;
        td_case_free(&c);
    }
    uint64_t R = c.grid[0], D = (uint64_t)c.p[0].i, ND = c.win_unit[1], rows = 0, seen = 0;
    assert_int_equal(c.win_unit[0], D);
    for (int w = 0; w < c.nwin; w++) rows += c.win[w].hi - c.win[w].lo;
    for (uint64_t i = td_large_next(&c, 0, 0); i < c.r[0].len; i = td_large_next(&c, 0, i + 1), seen++)
        assert_true(row_covered(&c, i / D));
    assert_int_equal(seen, rows * D);
    seen = 0;
    for (uint64_t r = td_large_row_next(&c, 0); r < R; r = td_large_row_next(&c, r + 1), seen++) assert_true(row_covered(&c, r));
    assert_int_equal(seen, rows);
    td_wset ws = {.win_regs = c.large_regs, .nwin = c.nwin, .win = c.win, .win_unit = c.win_unit};
    k->writes(&c, &ws);
    assert_int_equal(ws.n, rows * ND);
    assert_int_equal(ws.n + ws.dropped, R * ND);
    /* the generic filter: z's element r * ND of a window row is kept, x's element r * ND
     * (row r * ND / D) only when that row is a window's */
    td_wset all = {.win_regs = c.large_regs, .nwin = c.nwin, .win = c.win, .win_unit = c.win_unit};
    uint64_t r = c.win[c.nwin - 1].lo; /* a window row */
    td_olane z = {.region = 1, .off = r * ND + ND - 1}, zo = {.region = 1, .off = (r - 1) * ND};
    td_wset_add(&all, &z);
    assert_int_equal(all.n, 1);
    if (!row_covered(&c, r - 1)) {
        td_wset_add(&all, &zo);
        assert_int_equal(all.dropped, 1);
    }
    free(all.v);
    free(ws.v);
    td_case_free(&c);
}

/* seed_sdpa's blocks of queries (its row-blocks are on no grid axis: not a ROWS row): batch 1,
 * value 1 (value column 0 kept), at most 2 keys, qk as drawn; R blocks of G >= the drawn
 * query count (query G * qk >= 64 elements, dst G) with one starting at or past element
 * 2^31 of query; window block r of query holds the drawn queries then zero rows; the
 * write set keeps the windows' queries and counts the rest. */
#define SDPA "seed_sdpa.scaled_dot_product_f32"
static void test_sdpa_rows(void **st) {
    (void)st;
    const td_contract *k = td_contract_find(SDPA);
    enum { B_, Q_, K_, H_, V_, TX_, TY_, TZ_ }; /* its parameters; regions dst 0, query 1, key 2, value 3 */
    assert_non_null(k->large);
    for (uint64_t i = 0; i < 4; i++) {
        td_case o, c;
        decode_pair(k, i, &o, &c);
        int64_t H = o.p[H_].i, Q0 = o.p[Q_].i, V0 = o.p[V_].i, K = o.p[K_].i < 2 ? o.p[K_].i : 2;
        uint64_t G = c.win_unit[0], L = c.win_unit[1], Q = (uint64_t)c.p[Q_].i, R = Q / G;
        assert_true(c.p[B_].i == 1 && c.p[V_].i == 1 && c.p[K_].i == K && c.p[H_].i == H);
        assert_true(c.large_regs == 3u && L == G * (uint64_t)H && G >= (uint64_t)Q0 && L >= TD_ROWS_LARGE_MIN_LEN);
        assert_true(Q % G == 0 && (R - 1) * L >= TWO31 && (R - 2) * L < TWO31 + (1u << 20) + L);
        assert_true(c.grid[0] == 1 && c.grid[2] == 1 && c.grid[1] == (Q + (uint64_t)c.p[TY_].i - 1) / (uint64_t)c.p[TY_].i);
        assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31));
        assert_true(row_covered(&c, 0) && row_covered(&c, R - 1) && row_covered(&c, TWO31 / L));
        for (int w = 0; w < c.nwin; w++)
            for (uint64_t r = c.win[w].lo; r < c.win[w].hi; r++)
                for (uint64_t x = 0; x < L; x++) {
                    double want = x < (uint64_t)(Q0 * H) ? td_get(&o, 1, (size_t)x) : 0.0;
                    assert_true(td_get(&c, 1, (size_t)(r * L + x)) == want);
                }
        for (int64_t j = 0; j < K * H; j++) assert_true(td_get(&c, 2, (size_t)j) == td_get(&o, 2, (size_t)j));
        for (int64_t j = 0; j < K; j++) assert_true(td_get(&c, 3, (size_t)j) == td_get(&o, 3, (size_t)(j * V0)));
        uint64_t rows = 0;
        for (int w = 0; w < c.nwin; w++) rows += c.win[w].hi - c.win[w].lo;
        td_wset ws = {.win_regs = c.large_regs, .nwin = c.nwin, .win = c.win, .win_unit = c.win_unit};
        k->writes(&c, &ws);
        assert_int_equal(ws.n, rows * G);
        assert_int_equal(ws.n + ws.dropped, Q);
        free(ws.v);
        td_case_free(&o);
        td_case_free(&c);
    }
}

/* td_rows_large refuses, leaving the case as it was: rows narrower than
 * TD_ROWS_LARGE_MIN_LEN, no rows, a region shorter than R0 row-blocks. */
static void test_rows_refused(void **st) {
    (void)st;
    const td_contract *k = td_contract_find(LSE);
    uint8_t b[64];
    char err[512];
    td_case c;
    large_bytes(1, b, sizeof b, 0);
    assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
    td_producer p;
    td_prod_init(&p, b, sizeof b);
    void *x = c.r[0].data;
    uint64_t R = 0, R0 = c.grid[0];
    td_rows_region narrow[1] = {{0, TD_ROWS_LARGE_MIN_LEN - 1, 0}};
    assert_int_equal(td_rows_large(&p, &c, R0, narrow, 1, &R), -1);
    td_rows_region ok[1] = {{0, TD_ROWS_LARGE_MIN_LEN, 0}};
    assert_int_equal(td_rows_large(&p, &c, 0, ok, 1, &R), -1);
    td_rows_region short_[1] = {{0, TD_ROWS_LARGE_MIN_LEN, c.r[0].len + 1}};
    assert_int_equal(td_rows_large(&p, &c, R0, short_, 1, &R), -1);
    assert_true(c.r[0].data == x && c.large_regs == 0 && c.nwin == 0 && c.win_unit[0] == 0 && R == 0);
    td_case_free(&c);
}

/* Without --large (td_ctx_opts.large) an input of the tier is refused, not run. */
static void test_large_needs_the_option(void **st) {
    (void)st;
    td_kernel_set set;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    const td_kernel *port = td_kernels_find(&set, ADD, NULL, TD_ABI_HOST);
    uint8_t b[64];
    large_bytes(0, b, sizeof b, 1);
    td_case_result r;
    assert_int_equal(td_run_bytes(cx, port, b, sizeof b, &r), TD_RUN_USAGE);
    assert_non_null(strstr(r.msg, "--large"));
    td_result_free(&r);
    /* the campaign's case 7 is large only with the option, and only for a contract with the tier */
    uint8_t a[64];
    td_campaign_case_bytes_tier(port->k, 1, TD_LARGE_AT, 1, a, sizeof a);
    assert_true(td_large_tier(a, sizeof a));
    td_campaign_case_bytes_tier(port->k, 1, TD_LARGE_AT, 0, a, sizeof a);
    assert_false(td_large_tier(a, sizeof a));
    td_campaign_case_bytes_tier(port->k, 1, TD_LARGE_AT + 1, 1, a, sizeof a);
    assert_false(td_large_tier(a, sizeof a));
    td_campaign_case_bytes_tier(td_contract_find("softmax_triton1.softmax_kernel_correctness"), 1, TD_LARGE_AT, 1, a,
                                sizeof a);
    assert_false(td_large_tier(a, sizeof a));
    td_ctx_free(cx);
    td_kernels_close(&set);
}

/* The int32-offset mutant is the large tier's: it passes every ordinary case (n <= 2^14)
 * and is marked so (selftest and corpus-regress leave it to `run --large`). */
static void test_mutant_survives_the_default_tier(void **st) {
    (void)st;
    td_kernel_set set;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    assert_false(td_kernel_large_only(td_kernels_find(&set, ADD, "mut_mask_off_by_one", TD_ABI_HOST)));
    /* (the row-block launches' mutants and I32_MUT's: fewer cases, keeping the unit run cheap) */
    static const char *const ids[] = {ADD, KL, LSE, MEAN};
    const size_t nids = sizeof ids / sizeof ids[0];
    for (size_t m = 0; m < nids + NI32_MUT; m++) {
        const char *id = m < nids ? ids[m] : I32_MUT[m - nids].id;
        const td_kernel *mut = td_kernels_find(&set, id, "mut_large_offset_int32", TD_ABI_HOST);
        assert_non_null(mut);
        assert_true(td_kernel_large_only(mut));
        for (uint64_t i = 0; i < (m < 2 ? 200u : m < nids ? 64u : 16u); i++) {
            uint8_t b[64];
            td_campaign_case_bytes(mut->k, 1, i, b, sizeof b);
            td_case_result r;
            assert_int_equal(td_run_bytes(cx, mut, b, sizeof b, &r), TD_RUN_OK);
            td_result_free(&r);
        }
    }
    td_ctx_free(cx);
    td_kernels_close(&set);
}

/* What a large case needs is stated, and a machine that lacks it is refused. */
static void test_large_need(void **st) {
    (void)st;
    td_large_need need;
    char why[512];
    assert_int_equal(td_large_need_of(td_contract_find(ADD), &need), 0);
    assert_true(need.reserve > 3 * 4 * TWO31);               /* x, y and out, 8 GiB each, 3 times over */
    assert_true(need.commit > 64u << 20 && need.commit < (1ull << 30)); /* a few hundred MiB at most */
    assert_int_equal(td_large_need_of(td_contract_find("softmax_triton1.softmax_kernel_correctness"), &need), -1);
    /* a launch of row-blocks: x's 8 GiB three times over, z's windows are rows of its own */
    assert_int_equal(td_large_need_of(td_contract_find(LSE), &need), 0);
    assert_true(need.reserve > 3 * 4 * TWO31);
    assert_true(need.commit > 64u << 20 && need.commit < (1ull << 30));
    assert_int_equal(td_large_need_of(td_contract_find(ADD), &need), 0);
    setenv("TD_LARGE_MEMAVAIL_MIB", "16", 1);
    assert_int_equal(td_large_check(&need, why, sizeof why), -1);
    assert_non_null(strstr(why, "16 MiB available"));
    unsetenv("TD_LARGE_MEMAVAIL_MIB");
}

/* ---- --run: the kernels over 2^31+ elements ---- */
/* The process's proportional set size (Pss, /proc/self/smaps_rollup) in MiB, -1 when
 * unknown.  Not the RSS: an output's unjudged stretches map one shared 4 MiB buffer
 * thousands of times, which the RSS counts once per mapping (8 GiB) and the Pss once. */
static long pss_mib(void) {
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    if (!f) return -1;
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Pss: %ld kB", &kb) == 1) break;
    fclose(f);
    return kb < 0 ? -1 : kb / 1024;
}

/* The port, measuring the process's Pss right after the launch (every image mapped,
 * every output element written). */
static const td_kernel *g_port;
static long g_pss;
static int measured_launch(const td_abi_launch *L) {
    int rc = g_port->abi->launch(L);
    long p = pss_mib();
    if (p > g_pss) g_pss = p;
    return rc;
}
static const td_abi_kernel K_MEASURED = {ADD, "measured", TD_ABI_HOST, NULL, NULL, NULL, 2, 3, measured_launch, NULL};
static const td_abi_kernel *const MEASURED[] = {&K_MEASURED};
static const td_abi_table MEASURED_TABLE = {TD_KERNEL_ABI_VERSION, 1, MEASURED, "test_large"};

/* Runs variant v of contract id on large case i; the return code and the result. */
static int run_large(td_ctx *cx, const td_kernel_set *set, const char *id, const char *v, uint64_t i, td_case_result *r) {
    const td_kernel *k = td_kernels_find(set, id, v, TD_ABI_HOST);
    assert_non_null(k);
    uint8_t b[64];
    large_bytes(i, b, sizeof b, 1);
    return td_run_bytes(cx, k, b, sizeof b, r);
}

static void test_large_kills(void **st) {
    (void)st;
    td_kernel_set set;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    td_kernel_set meas;
    assert_int_equal(td_kernels_bind(&MEASURED_TABLE, "test_large", &meas, err, sizeof err), TD_LOAD_OK);
    g_port = td_kernels_find(&set, ADD, NULL, TD_ABI_HOST);
    td_ctx_opts o = {.large = 1};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    td_case_result r;
    /* the port passes: every window lane judged, the rest counted; during the launch the
     * process holds a few hundred MiB (3 regions of 8 GiB each reserved) */
    assert_int_equal(run_large(cx, &meas, ADD, "measured", 0, &r), TD_RUN_OK);
    assert_true(r.st.lanes > 0 && r.st.lanes_sampled_out > TWO31 - (1u << 20));
    assert_true(r.st.classes & TD_BC(TD_BC_OFFSET_2_31));
    assert_true(g_pss > 0 && g_pss < 1024);
    td_result_free(&r);
    /* the int32-offset mutant: the program past 2^31 addresses a negative offset */
    assert_int_equal(run_large(cx, &set, ADD, "mut_large_offset_int32", 0, &r), TD_RUN_FINDING);
    assert_int_equal(r.worst, TD_VC_LAUNCH);
    assert_non_null(strstr(r.msg, "illegal memory access"));
    td_result_free(&r);
    /* kldiv's: the port passes a large case, the int32-offset mutant dies on it */
    assert_int_equal(run_large(cx, &set, KL, NULL, 3, &r), TD_RUN_OK);
    td_result_free(&r);
    assert_int_equal(run_large(cx, &set, KL, "mut_large_offset_int32", 3, &r), TD_RUN_FINDING);
    assert_int_equal(r.worst, TD_VC_LAUNCH);
    td_result_free(&r);
    /* a skipped last program: its lanes in the last window still hold the sentinel */
    assert_int_equal(run_large(cx, &set, ADD, "mut_last_program_skipped", 2, &r), TD_RUN_FINDING);
    td_result_free(&r);
    /* a launch of row-blocks (X rows of N, Mean rows of one cell: each region's windows in
     * its own elements): the port passes, every window row judged, the other rows counted;
     * the int32-offset mutant dies on the rows past 2^31 / N */
    assert_int_equal(run_large(cx, &set, MEAN, NULL, 0, &r), TD_RUN_OK);
    assert_true(r.st.lanes > 0 && r.st.lanes_sampled_out > 0);
    assert_true(r.st.classes & TD_BC(TD_BC_OFFSET_2_31));
    td_result_free(&r);
    assert_int_equal(run_large(cx, &set, MEAN, "mut_large_offset_int32", 0, &r), TD_RUN_FINDING);
    assert_int_equal(r.worst, TD_VC_LAUNCH);
    assert_non_null(strstr(r.msg, "illegal memory access"));
    td_result_free(&r);
    /* in place: the windows hold the initial contents, the kernel doubles them */
    assert_int_equal(run_large(cx, &set, MUL2_INPLACE, NULL, 1, &r), TD_RUN_OK);
    assert_true(r.st.lanes > 0);
    td_result_free(&r);
    td_ctx_free(cx);
    td_kernels_close(&meas);
    td_kernels_close(&set);
}

/* Each of I32_MUT: the int32-offset mutant dies on its large case by an illegal
 * address; the port (where `port`) passes it, window lanes judged. */
static void test_large_kills_i32(void **st) {
    (void)st;
    td_kernel_set set;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    td_ctx_opts o = {.large = 1};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    td_case_result r;
    for (size_t m = 0; m < NI32_MUT; m++) {
        if (I32_MUT[m].port) {
            assert_int_equal(run_large(cx, &set, I32_MUT[m].id, NULL, I32_MUT[m].i, &r), TD_RUN_OK);
            assert_true(r.st.lanes > 0 && r.st.lanes_sampled_out > TWO31 - (1u << 20));
            td_result_free(&r);
        }
        assert_int_equal(run_large(cx, &set, I32_MUT[m].id, "mut_large_offset_int32", I32_MUT[m].i, &r),
                         TD_RUN_FINDING);
        assert_int_equal(r.worst, TD_VC_LAUNCH);
        assert_non_null(strstr(r.msg, "illegal memory access"));
        td_result_free(&r);
    }
    td_ctx_free(cx);
    td_kernels_close(&set);
}

/* ---- diag_ssm_triton: rows of time steps whose gaps the spec crosses in one step ----
 * Two kernels that walk only the windows' steps (the test hands them the windows of
 * the case it decoded; the harness decodes the same bytes to the same case): one takes
 * each gap of k zero-input steps exactly (h *= lambda^k, in binary64) and passes; one
 * keeps h across the gap (lambda^k dropped) and must fail wherever a decay below 1 meets
 * a nonzero state -- so a gap charge loosened towards the state's magnitude
 * (dssm_gap's ((1+u)^3k - 1) |lambda|^k M) is caught. */
#define DSSM_FWD "diag_ssm_triton.diag_ssm_forward_io_correctness"
static td_window g_win[TD_MAX_WINDOWS];
static int g_nwin;
static int dssm_windows(const td_abi_launch *L, int keep) {
    int64_t T = L->params[0].i, dim = L->params[2].i, n = L->params[1].i * dim;
    const float *s = L->regions[0].base, *x = L->regions[1].base, *lam = L->regions[2].base;
    float *y = L->regions[3].base;
    for (int64_t col = 0; col < n; col++) {
        double h = s[col], a = lam[col % dim];
        int64_t t = 0;
        for (int w = 0; w < g_nwin; w++) {
            if ((int64_t)g_win[w].lo > t && !keep) h *= pow(a, (double)((int64_t)g_win[w].lo - t));
            for (t = (int64_t)g_win[w].lo; t < (int64_t)g_win[w].hi && t < T; t++) {
                h = a * h + x[t * n + col];
                y[t * n + col] = (float)h;
            }
        }
    }
    return 0;
}
static int dssm_exact_gaps(const td_abi_launch *L) { return dssm_windows(L, 0); }
static int dssm_kept_gaps(const td_abi_launch *L) { return dssm_windows(L, 1); }
static const td_abi_kernel K_DSSM_EXACT = {DSSM_FWD, "exact_gaps", TD_ABI_HOST, NULL, NULL, NULL, 4, 4, dssm_exact_gaps, NULL};
static const td_abi_kernel K_DSSM_KEPT = {DSSM_FWD, "kept_gaps", TD_ABI_HOST, NULL, NULL, NULL, 4, 4, dssm_kept_gaps, NULL};
static const td_abi_kernel *const DSSM_K[] = {&K_DSSM_EXACT, &K_DSSM_KEPT};
static const td_abi_table DSSM_TABLE = {TD_KERNEL_ABI_VERSION, 2, DSSM_K, "test_large_dssm"};

static void test_dssm_gaps(void **st) {
    (void)st;
    td_kernel_set set;
    char err[512];
    assert_int_equal(td_kernels_bind(&DSSM_TABLE, "test_large", &set, err, sizeof err), TD_LOAD_OK);
    td_ctx_opts o = {.large = 1};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    const td_contract *k = td_contract_find(DSSM_FWD);
    int killed = 0;
    for (uint64_t i = 0; i < 8; i++) {
        uint8_t b[64];
        td_case c;
        td_case_result r;
        large_bytes(i, b, sizeof b, 1);
        assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
        assert_true(c.nwin >= 2 && c.p[0].i * c.p[1].i * c.p[2].i > (int64_t)TWO31);
        g_nwin = c.nwin;
        memcpy(g_win, c.win, sizeof g_win);
        td_case_free(&c);
        assert_int_equal(td_run_bytes(cx, td_kernels_find(&set, DSSM_FWD, "exact_gaps", TD_ABI_HOST), b, sizeof b, &r),
                         TD_RUN_OK);
        assert_true(r.st.lanes > 0);
        td_result_free(&r);
        int rc = td_run_bytes(cx, td_kernels_find(&set, DSSM_FWD, "kept_gaps", TD_ABI_HOST), b, sizeof b, &r);
        assert_true(rc == TD_RUN_OK || rc == TD_RUN_FINDING);
        killed += rc == TD_RUN_FINDING;
        td_result_free(&r);
    }
    assert_true(killed >= 2);
    td_ctx_free(cx);
    td_kernels_close(&set);
}

int main(int argc, char **argv) {
    const struct CMUnitTest unit[] = {
        cmocka_unit_test(test_large_cases_decode),       cmocka_unit_test(test_large_write_set),
        cmocka_unit_test(test_large_next),              cmocka_unit_test(test_large_per_program),
        cmocka_unit_test(test_rows_cases_decode),        cmocka_unit_test(test_rows_windows),
        cmocka_unit_test(test_int8_blocks),              cmocka_unit_test(test_sdpa_rows),
        cmocka_unit_test(test_rows_refused),
        cmocka_unit_test(test_large_needs_the_option),   cmocka_unit_test(test_mutant_survives_the_default_tier),
        cmocka_unit_test(test_large_need),              cmocka_unit_test(test_dssm_gaps),
    };
    const struct CMUnitTest run[] = {cmocka_unit_test(test_large_kills), cmocka_unit_test(test_large_kills_i32)};
    if (argc > 1 && !strcmp(argv[1], "--run")) return cmocka_run_group_tests(run, NULL, NULL);
    return cmocka_run_group_tests(unit, NULL, NULL);
}
