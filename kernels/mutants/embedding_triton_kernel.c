/* embedding_triton_kernel mutants: the vocabulary window, the masks and the strides. */
#include "../host/tl.h"

enum { P_VSTART, P_VEND, P_SW, P_SO, P_NCTX, P_HIDDEN, P_BD, P_BN, P_BNN, P_START_NN };
enum { R_WEIGHT, R_IDS, R_OUT };

enum { BUG_OOV_SKIPPED, BUG_LAST_ROW, BUG_OUT_STRIDE, BUG_WEIGHT_STRIDE, BUG_BELOW_SHARD, BUG_ROW_INT32 };

/* 1 when a row faults: BUG_ROW_INT32 forms (token_id - vob_start_id) * stride_weight_seq
 * in int32 (an int32 id loaded from input_ids, an int32 stride: Triton's default; a
 * vocabulary of 150k rows of 16k passes 2^31), which wraps to an illegal address on a
 * GPU (tl_fault) or to another row. */
static int rows(const td_abi_launch *L, uint32_t pid, int64_t first, int64_t count, int bug) {
    int64_t vs = TL_I(L, P_VSTART), ve = TL_I(L, P_VEND), sw = TL_I(L, P_SW), so = TL_I(L, P_SO);
    int64_t n = TL_I(L, P_NCTX), hidden = TL_I(L, P_HIDDEN), bd = TL_I(L, P_BD), bn = TL_I(L, P_BN);
    if (bug == BUG_OUT_STRIDE) so = hidden;    /* out assumed contiguous */
    if (bug == BUG_WEIGHT_STRIDE) sw = hidden; /* weight assumed contiguous */
    for (int64_t i = 0; i < count; i++) {
        int64_t seq = (int64_t)pid * bn + first + i;
        if (seq >= n - (bug == BUG_LAST_ROW)) continue;
        int64_t id = tl_load_int(L, R_IDS, seq);
        int in_shard = id < ve && (id >= vs || bug == BUG_BELOW_SHARD);
        if (bug == BUG_OOV_SKIPPED && !in_shard) continue;
        for (int64_t d = 0; d < bd && d < hidden; d++) {
            /* an id below the shard read through a clamped row 0 (no out-of-bounds access) */
            int64_t row = id >= vs ? id - vs : 0, wb = row * sw;
            if (bug == BUG_ROW_INT32 && in_shard) {
                wb = tl_i32(row * tl_i32(sw));
                if (tl_fault(L, R_WEIGHT, wb, 1, 1, pid)) return 1;
            }
            float v = in_shard ? tl_load(L, R_WEIGHT, wb + d) : 0.0f;
            tl_store(L, R_OUT, seq * so + d, v, tl_f32());
        }
    }
    return 0;
}

static int run(const td_abi_launch *L, int bug, int body) {
    int64_t first = body ? TL_I(L, P_START_NN) : 0, count = body ? TL_I(L, P_BNN) : TL_I(L, P_BN);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        if (rows(L, pid, first, count, bug)) return 1;
    return 0;
}

/* store masked with the id mask too: out-of-shard rows left unwritten instead of zeroed */
static int oov_skipped_w(const td_abi_launch *L) { return run(L, BUG_OOV_SKIPPED, 0); }
static int oov_skipped_b(const td_abi_launch *L) { return run(L, BUG_OOV_SKIPPED, 1); }
/* n_ctx mask off by one: the last token's row never stored */
static int last_row_w(const td_abi_launch *L) { return run(L, BUG_LAST_ROW, 0); }
static int last_row_b(const td_abi_launch *L) { return run(L, BUG_LAST_ROW, 1); }
/* hiden_size used as the row stride of out (a padded / sliced output written densely) */
static int out_stride_w(const td_abi_launch *L) { return run(L, BUG_OUT_STRIDE, 0); }
static int out_stride_b(const td_abi_launch *L) { return run(L, BUG_OUT_STRIDE, 1); }
/* hiden_size used as the row stride of weight */
static int weight_stride_w(const td_abi_launch *L) { return run(L, BUG_WEIGHT_STRIDE, 0); }
/* lower vocabulary bound dropped: ids below this shard read (a row of) weight instead of 0 */
static int below_shard_w(const td_abi_launch *L) { return run(L, BUG_BELOW_SHARD, 0); }
static int below_shard_b(const td_abi_launch *L) { return run(L, BUG_BELOW_SHARD, 1); }
/* (token_id - vob_start_id) * stride_weight_seq in int32 */
static int row_int32_w(const td_abi_launch *L) { return run(L, BUG_ROW_INT32, 0); }
static int row_int32_b(const td_abi_launch *L) { return run(L, BUG_ROW_INT32, 1); }

#define EMB_S "embedding_triton_kernel.embedding_kernel_output_summary"
#define EMB_B "embedding_triton_kernel.embedding_body_io_correctness"
#define EMB_BR "embedding_triton_kernel.embedding_body_io_correctnessR"
#define EMB_WR "embedding_triton_kernel.embedding_kernel_whole_io_correctnessR"
#define F32S "store=fp32:rne:inf"
#define M_OOV "out-of-shard rows not stored (store mask & id mask) instead of zeros"
#define M_LAST "n_ctx mask off by one: last token row not stored"
#define M_OSTR "hiden_size used as out's row stride"
#define M_WSTR "hiden_size used as weight's row stride"
#define M_BELOW "id >= vob_start_id test dropped: ids below the shard read weight"
TD_KERNEL(td_m_emb_s_oov) = {EMB_S, "mut_oov_not_zeroed", TD_ABI_HOST, NULL, NULL, M_OOV, 9, 3, oov_skipped_w, NULL};
TD_KERNEL(td_m_emb_s_last) = {EMB_S, "mut_last_row", TD_ABI_HOST, NULL, NULL, M_LAST, 9, 3, last_row_w, NULL};
TD_KERNEL(td_m_emb_s_ostr) = {EMB_S, "mut_out_stride", TD_ABI_HOST, NULL, NULL, M_OSTR, 9, 3, out_stride_w, NULL};
TD_KERNEL(td_m_emb_s_wstr) = {EMB_S, "mut_weight_stride", TD_ABI_HOST, NULL, NULL, M_WSTR, 9, 3, weight_stride_w, NULL};
TD_KERNEL(td_m_emb_s_below) = {EMB_S, "mut_below_shard", TD_ABI_HOST, NULL, NULL, M_BELOW, 9, 3, below_shard_w, NULL};
TD_KERNEL(td_m_emb_b_oov) = {EMB_B, "mut_oov_not_zeroed", TD_ABI_HOST, NULL, NULL, M_OOV, 10, 3, oov_skipped_b, NULL};
TD_KERNEL(td_m_emb_b_last) = {EMB_B, "mut_last_row", TD_ABI_HOST, NULL, NULL, M_LAST, 10, 3, last_row_b, NULL};
TD_KERNEL(td_m_emb_b_ostr) = {EMB_B, "mut_out_stride", TD_ABI_HOST, NULL, NULL, M_OSTR, 10, 3, out_stride_b, NULL};
TD_KERNEL(td_m_emb_br_oov) = {EMB_BR, "mut_oov_not_zeroed", TD_ABI_HOST, F32S, NULL, M_OOV, 10, 3, oov_skipped_b, NULL};
TD_KERNEL(td_m_emb_br_below) = {EMB_BR, "mut_below_shard", TD_ABI_HOST, F32S, NULL, M_BELOW, 10, 3, below_shard_b,
                                NULL};
TD_KERNEL(td_m_emb_wr_oov) = {EMB_WR, "mut_oov_not_zeroed", TD_ABI_HOST, F32S, NULL, M_OOV, 8, 3, oov_skipped_w, NULL};
TD_KERNEL(td_m_emb_wr_last) = {EMB_WR, "mut_last_row", TD_ABI_HOST, F32S, NULL, M_LAST, 8, 3, last_row_w, NULL};
TD_KERNEL(td_m_emb_wr_wstr) = {EMB_WR, "mut_weight_stride", TD_ABI_HOST, F32S, NULL, M_WSTR, 8, 3, weight_stride_w,
                               NULL};
#define M_I32 "(token_id - vob_start_id) * stride_weight_seq computed in int32 (wraps beyond 2^31 elements)"
TD_KERNEL(td_m_emb_s_i32) = {EMB_S, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, M_I32, 9, 3, row_int32_w, NULL};
TD_KERNEL(td_m_emb_b_i32) = {EMB_B, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, M_I32, 10, 3, row_int32_b, NULL};
TD_KERNEL(td_m_emb_br_i32) = {EMB_BR, "mut_offset_int32", TD_ABI_HOST, F32S, NULL, M_I32, 10, 3, row_int32_b, NULL};
TD_KERNEL(td_m_emb_wr_i32) = {EMB_WR, "mut_offset_int32", TD_ABI_HOST, F32S, NULL, M_I32, 8, 3, row_int32_w, NULL};
