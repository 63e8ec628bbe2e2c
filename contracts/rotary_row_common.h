/* Helpers shared by the flash-attn rotary contracts, rotary_transform and its duplicate
 * rotary_transform_ops (catalogue part 2: "identical"): the one-row slice of
 * `rotary_kernel` that both Lean files state (rotary_kernel_o0o1_row and the metadata
 * variant rotary_meta_row).
 *
 * The slice, per program (pid0 = row block, pid1 = batch, head = pid2 or HEAD_IDX):
 *   rm = pid0 * BLOCK_M (the first row of the block: the statements speak of it only),
 *   rm_cs = rm + SEQLEN_OFFSETS (the row of the cos/sin tables),
 *   lanes j < BLOCK_HALF (hHalfBound: BLOCK_HALF <= rotary_dim_half, so j < rdh always),
 *   cos, sin = COS/SIN[rm_cs * rdh + j] if rm_cs < seqlen_ro else 1.0, 0.0 (other=),
 *   x0 = X[xb + rm*sxs + j*sxd], x1 = X[xb + rm*sxs + (j + rdh)*sxd],
 *   OUT[ob + rm*sos + j*sod] = x0*cos - x1*sin, OUT[... (j + rdh)*sod] = x0*sin + x1*cos,
 *   everything masked by rm < seqlen (the sequence's length: cu_seqlens[b+1] -
 *   cu_seqlens[b] when IS_VARLEN, then xb = cu_seqlens[b]*sxs + head*sxh).
 *
 * Error model (both contracts; the spec is over the reals, the theorems are
 * Realizes_without_Rounding): x0, x1, cos and sin are exact binary32 inputs; each output
 * is two products and one addition.  The shadow knows each product's rounding error
 * exactly (exact operands) and charges the addition u|result| (gradual underflow: the
 * products carry the eta of a subnormal result).  A kernel that contracts either product
 * into an FMA (nvcc does, Triton does) skips one product's rounding, a smaller error, so
 * this bound holds for x0*c - x1*s, fma(x0, c, -(x1*s)), fma(-x1, s, x0*c) alike; there is
 * no reduction, so no order to choose.  Masked table rows give cos = 1, sin = 0: exact.
 *
 * Generator: rows of BLOCK_M in 1..8, BLOCK_HALF 1..32 with rotary_dim_half equal or
 * larger (lanes past BLOCK_HALF are untouched), headdim = 2*rdh or larger (the
 * pass-through part is untouched), token-major [b, s, h, d] or head-major [b, h, s, d] X
 * and OUT with padding, OUT in another layout than X; sequence lengths at BLOCK_M edges,
 * 0 and 1, surplus row blocks; SEQLEN_OFFSETS 0 or > 0, seqlen_ro exactly the last row
 * used (position extreme), shorter (rows past the table take cos = 1, sin = 0) or longer;
 * varlen batches from td_gen_ragged.  COS/SIN are cos/sin of real RoPE angles rounded to
 * binary32 (td_gen_rotary_table, row t at position t), or general values.
 */
#ifndef TD_ROTARY_ROW_COMMON_H
#define TD_ROTARY_ROW_COMMON_H

#include <math.h>

#include "gen.h"
#include "gen_meta.h"

/* Where a contract keeps the slice's parameters and regions.  The 14 row parameters
 * (SEQLEN_OFFSETS .. BLOCK_HALF) are consecutive from p0 in the catalogue's order. */
typedef struct rr_idx {
    int p0;     /* SEQLEN_OFFSETS; then seqlen, rdh, seqlen_ro, 4 out strides, 4 x strides, BLOCK_M, BLOCK_HALF */
    int p_head; /* HEAD_IDX, or -1: the head is pid2 */
    int p_varlen; /* IS_VARLEN, or -1 */
    int r_out, r_x, r_cos, r_sin;
    int r_cu;   /* CU_SEQLENS, or -1 */
} rr_idx;
enum { RR_SO, RR_SEQLEN, RR_RDH, RR_SRO, RR_SOB, RR_SOS, RR_SOH, RR_SOD, RR_SXB, RR_SXS, RR_SXH, RR_SXD, RR_BM, RR_BH };

#define RR_BOUND 0x1p60 /* |x|, |cos|, |sin| <= 2^60: products <= 2^120, sums finite */

static inline int64_t rr_p(const td_case *c, const rr_idx *ix, int k) { return c->p[ix->p0 + k].i; }
static inline int rr_varlen(const td_case *c, const rr_idx *ix) { return ix->p_varlen >= 0 && c->p[ix->p_varlen].i; }

/* The program's sequence: base offsets of X and OUT and its length. */
typedef struct rr_seq {
    int64_t xb, ob, len;
} rr_seq;
static inline rr_seq rr_seq_of(const td_case *c, const rr_idx *ix, uint32_t pid1, uint32_t pid2) {
    int64_t head = ix->p_head >= 0 ? c->p[ix->p_head].i : (int64_t)pid2;
    rr_seq s;
    if (rr_varlen(c, ix)) {
        int64_t s1 = td_geti(c, ix->r_cu, pid1), s2 = td_geti(c, ix->r_cu, pid1 + 1);
        s.xb = s1 * rr_p(c, ix, RR_SXS) + head * rr_p(c, ix, RR_SXH);
        s.ob = s1 * rr_p(c, ix, RR_SOS) + head * rr_p(c, ix, RR_SOH);
        s.len = s2 - s1;
    } else {
        s.xb = (int64_t)pid1 * rr_p(c, ix, RR_SXB) + head * rr_p(c, ix, RR_SXH);
        s.ob = (int64_t)pid1 * rr_p(c, ix, RR_SOB) + head * rr_p(c, ix, RR_SOH);
        s.len = rr_p(c, ix, RR_SEQLEN);
    }
    return s;
}

/* contracts/rotary_row_common.c: the generator, the preconditions and the write set */
void td_rr_gen(td_producer *p, td_case *c, const rr_idx *ix);
const char *td_rr_check(const td_case *c, const rr_idx *ix);
void td_rr_writes(const td_case *c, td_wset *ws, const rr_idx *ix);
/* Offsets beyond 2^31 (gen_far.h): X is the read-only region; program (pid0, b, head)
 * reads from b * stride_x_batch + head * stride_x_nheads, in the original an int32
 * product (program_id and the unannotated stride).  Up to TD_FAR_MAX_ROWS batches of X
 * move to a batch stride near 2^31 (OUT keeps its layout); a varlen case (X addressed by
 * cu_seqlens[b] * stride_x_seqlen, no batch stride) or a single batch is left as is. */
void td_rr_far(td_producer *p, td_case *c, const rr_idx *ix);
/* The intent (docs/intent.md): flash-attn's apply_rotary_emb (interleaved=False: the
 * GPT-NeoX half-split pairs (j, j + rotary_dim/2), j < rotary_dim/2; the dims past
 * rotary_dim passed through by the host's copy, not by the kernel), on EVERY row r <
 * seqlen at the position r + SEQLEN_OFFSETS.  Its lanes: pid0 = r / BLOCK_M, j = (r %
 * BLOCK_M) * rdh + column (the contract's lanes are its rows r = pid0 * BLOCK_M, j =
 * column), idx as the contract's. */
void td_rr_intent_writes(const td_case *c, td_wset *ws, const rr_idx *ix);
/* A row whose position has no row of the tables (r + SEQLEN_OFFSETS >= seqlen_ro): the
 * operation is not defined there (the kernel rotates by angle 0). */
const char *td_rr_intent_gap(const td_case *c, const rr_idx *ix);
#define RR_INTENT_DEF                                                                                           \
    "flash-attn apply_rotary_emb(x, cos, sin, interleaved=False, seqlen_offsets) (flash_attn/layers/rotary.py): "  \
    "GPT-NeoX rotary embedding (HF transformers apply_rotary_pos_emb with rotate_half) of the first rotary_dim "    \
    "dims of every row, exact"
#define RR_INTENT_OP                                                                                            \
    "rotary embedding of every row r < seqlen of X (position r + SEQLEN_OFFSETS): pairs (j, j + rotary_dim_half), " \
    "j < rotary_dim_half, into OUT"

/* the row parameters (catalogue order), the report texts */
#define RR_ROW_PARAMS                                                                                           \
    {"SEQLEN_OFFSETS", TD_P_INT}, {"seqlen", TD_P_INT}, {"rotary_dim_half", TD_P_INT}, {"seqlen_ro", TD_P_INT},   \
        {"stride_out_batch", TD_P_INT}, {"stride_out_seqlen", TD_P_INT}, {"stride_out_nheads", TD_P_INT},         \
        {"stride_out_headdim", TD_P_INT}, {"stride_x_batch", TD_P_INT}, {"stride_x_seqlen", TD_P_INT},            \
        {"stride_x_nheads", TD_P_INT}, {"stride_x_headdim", TD_P_INT}, {"BLOCK_M", TD_P_INT}, {"BLOCK_HALF", TD_P_INT}
#define RR_FORMULA                                                                                              \
    "OUT[.. rm*sos + j*sod] = x0*cos - x1*sin, OUT[.. (j+rdh)*sod] = x0*sin + x1*cos, rm = pid0*BLOCK_M < seqlen, " \
    "j < BLOCK_HALF; cos, sin = COS/SIN[(rm+SO)*rdh + j] if rm+SO < seqlen_ro else 1, 0"
#define RR_SV_NOTE "finite inputs, |x|, |cos|, |sin| <= 2^60: every product and sum finite"
#define RR_ERROR_MODEL                                                                                          \
    "two products of exact inputs (each rounding known exactly) and one add/sub, u|result|; an FMA-contracted " \
    "product only removes a rounding; masked table rows are exact (cos = 1, sin = 0)"

#define RR_CLASSES                                                                                              \
    (TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_EXACT_MULTIPLE) | \
     TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_MULTI_TILE) | \
     TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_POS_EXTREME) | TD_BC(TD_BC_META_EXTREME) | \
     TD_BC(TD_BC_OFFSET_2_31))
#define RR_CLASSES_VARLEN                                                                                      \
    (RR_CLASSES | TD_BC(TD_BC_SEQ_EMPTY) | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) |               \
     TD_BC(TD_BC_SEQ_ENDS_AT_END))

#endif
