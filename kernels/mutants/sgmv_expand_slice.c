/* sgmv_expand_slice mutants: the slice addressing and the ragged batch's start locations.
 * One dot product per active lane (the order is not what they get wrong). */
#include "../host/tl.h"

enum { P_N, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_SLICE, P_BM, P_BN, P_BK, P_NKB };
enum { R_IN, R_LORA, R_OUT, R_START, R_LEN, R_IDX };

enum { BUG_SLICE_IGNORED, BUG_ADAPTER_AS_SLICE, BUG_NEXT_START, BUG_ROW_INT32 };

/* 1 when the program faults: BUG_ROW_INT32 forms ram * xm_stride in int32 (ram =
 * pid_m * BLOCK_M + arange is an int32 tensor, xm_stride an int32 scalar: Triton's
 * default; the loaded int64 start keeps cur_seq_start * xm_stride in int64), which
 * beyond 2^31 elements wraps to an illegal address on a GPU (tl_fault) or another row. */
static int program(const td_abi_launch *L, int64_t pid_m, int64_t pid_n, int64_t b, int bug) {
    int64_t bm = TL_I(L, P_BM), bn = TL_I(L, P_BN), N = TL_I(L, P_N), K = TL_I(L, P_BK) * TL_I(L, P_NKB);
    int64_t M = tl_load_int(L, R_LEN, b), li = tl_load_int(L, R_IDX, b), start = tl_load_int(L, R_START, b);
    if (pid_m * bm > M || li == -1) return 0;
    /* the store's row from b_seq_start_loc[cur_batch + 1] (the last batch: where it would be) */
    int64_t cstart = bug != BUG_NEXT_START ? start
                     : b + 1 < (int64_t)L->grid[2] ? tl_load_int(L, R_START, b + 1)
                                                    : start + M;
    int64_t slice = bug == BUG_SLICE_IGNORED ? 0 : bug == BUG_ADAPTER_AS_SLICE ? li : TL_I(L, P_SLICE);
    for (int64_t i = 0; i < bm; i++)
        for (int64_t j = 0; j < bn; j++) {
            int64_t m = pid_m * bm + i, n = pid_n * bn + j;
            if (m >= M || n >= N) continue;
            int64_t xb = (start + m) * TL_I(L, P_XM);
            if (bug == BUG_ROW_INT32) {
                xb = start * TL_I(L, P_XM) + tl_i32(m * tl_i32(TL_I(L, P_XM)));
                if (tl_fault(L, R_IN, xb, K, TL_I(L, P_XK), (uint32_t)pid_m)) return 1;
            }
            float acc = 0.0f;
            for (int64_t k = 0; k < K; k++)
                acc += tl_load(L, R_IN, xb + k * TL_I(L, P_XK)) *
                       tl_load(L, R_LORA, TL_I(L, P_L0) * li + k * TL_I(L, P_LN) + n * TL_I(L, P_LK));
            int64_t off = (cstart + m) * TL_I(L, P_CM) + (n + slice) * TL_I(L, P_CN);
            if (off < (int64_t)TL_LEN(L, R_OUT)) tl_store(L, R_OUT, off, acc, tl_f32()); /* no write past out */
        }
    return 0;
}

static int run(const td_abi_launch *L, int bug) {
    for (uint32_t b = 0; b < L->grid[2]; b++)
        for (uint32_t n = 0; n < L->grid[1]; n++)
            for (uint32_t m = 0; m < L->grid[0]; m++)
                if (program(L, m, n, b, bug)) return 1;
    return 0;
}
/* slice_offset dropped: the expand writes the start of the whole output row, not its slice */
static int slice_ignored(const td_abi_launch *L) { return run(L, BUG_SLICE_IGNORED); }
/* slice_offset replaced by the adapter id */
static int adapter_as_slice(const td_abi_launch *L) { return run(L, BUG_ADAPTER_AS_SLICE); }
/* start location of sequence b taken from b + 1 for the store */
static int next_start(const td_abi_launch *L) { return run(L, BUG_NEXT_START); }
/* ram * xm_stride in int32 */
static int row_int32(const td_abi_launch *L) { return run(L, BUG_ROW_INT32); }

#define SGS "sgmv_expand_slice.sgmv_expand_slice_one_row_block_output_summary"
#define SGI "sgmv_expand_slice.sgmv_expand_slice_io_correctness"
#define F32S "store=fp32:rne:inf"
#define M_SI "slice_offset dropped: writes the start of the output row instead of its slice"
#define M_AS "adapter id used as the slice offset"
#define M_NS "store row from b_seq_start_loc[cur_batch + 1]: sequence b written over sequence b + 1"
TD_KERNEL(td_m_sgs_si) = {SGS, "mut_slice_ignored", TD_ABI_HOST, NULL, NULL, M_SI, 13, 6, slice_ignored, NULL};
TD_KERNEL(td_m_sgs_as) = {SGS, "mut_adapter_as_slice", TD_ABI_HOST, NULL, NULL, M_AS, 13, 6, adapter_as_slice, NULL};
TD_KERNEL(td_m_sgs_ns) = {SGS, "mut_next_seq_start", TD_ABI_HOST, NULL, NULL, M_NS, 13, 6, next_start, NULL};
TD_KERNEL(td_m_sgi_si) = {SGI, "mut_slice_ignored", TD_ABI_HOST, F32S, NULL, M_SI, 13, 6, slice_ignored, NULL};
TD_KERNEL(td_m_sgi_as) = {SGI, "mut_adapter_as_slice", TD_ABI_HOST, F32S, NULL, M_AS, 13, 6, adapter_as_slice, NULL};
TD_KERNEL(td_m_sgi_ns) = {SGI, "mut_next_seq_start", TD_ABI_HOST, F32S, NULL, M_NS, 13, 6, next_start, NULL};
#define M_I32 "ram * xm_stride computed in int32 (wraps beyond 2^31 elements)"
TD_KERNEL(td_m_sgs_i32) = {SGS, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, M_I32, 13, 6, row_int32, NULL};
TD_KERNEL(td_m_sgi_i32) = {SGI, "mut_offset_int32", TD_ABI_HOST, F32S, NULL, M_I32, 13, 6, row_int32, NULL};
