/* bgmv_expand_slice mutants: the slice addressing and the no-adapter sentinel. */
#include "../host/tl.h"

enum { P_K, P_SPLIT, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_SLICE, P_BN, P_BK };
enum { R_IN, R_LORA, R_OUT, R_IDX };

enum { BUG_ADAPTER_AS_SLICE, BUG_SLICE_IGNORED, BUG_SENTINEL_AS_ZERO, BUG_OFFSET_INT32 };

#define PI(k) TL_I(L, (k) + o)

/* 1 when the program faults: BUG_OFFSET_INT32 forms cur_batch * xm_stride in int32
 * (Triton's default for an int32 program id and stride), which beyond 2^31 elements
 * wraps to an illegal address on a GPU (tl_fault) or to another row. */
static int program(const td_abi_launch *L, int o, int64_t s, int64_t b, int bug) {
    int64_t K = PI(P_K) < PI(P_BK) ? PI(P_K) : PI(P_BK), split = PI(P_SPLIT), lk = PI(P_LK), ln = PI(P_LN);
    int64_t cn = PI(P_CN), li = tl_load_int(L, R_IDX, b);
    if (li == -1 && bug != BUG_SENTINEL_AS_ZERO) return 0;
    int64_t xb = b * PI(P_XM);
    if (bug == BUG_OFFSET_INT32 && tl_fault(L, R_IN, xb = tl_i32(b * tl_i32(PI(P_XM))), K, PI(P_XK), (uint32_t)b))
        return 1;
    if (li == -1) li = 0; /* the sentinel read as a Nat (toNat (-1) = 0): adapter 0 applied */
    int64_t slice = bug == BUG_ADAPTER_AS_SLICE ? li : bug == BUG_SLICE_IGNORED ? 0 : PI(P_SLICE);
    int64_t b_base = PI(P_L0) * li + s * split * lk, c_base = b * PI(P_CM) + s * split + slice * cn;
    for (int64_t g = 0; g < split; g++) {
        float acc = 0.0f;
        for (int64_t k = 0; k < K; k++)
            acc += tl_load(L, R_IN, xb + k * PI(P_XK)) * tl_load(L, R_LORA, b_base + g * lk + k * ln);
        int64_t off = c_base + g * cn;
        if (off < (int64_t)TL_LEN(L, R_OUT)) tl_store(L, R_OUT, off, acc, tl_f32()); /* no write past out */
    }
    return 0;
}

static int run(const td_abi_launch *L, int o, int bug) {
    for (uint32_t b = 0; b < L->grid[1]; b++)
        for (uint32_t s = 0; s < L->grid[0]; s++)
            if (program(L, o, s, b, bug)) return 1;
    return 0;
}
/* slice_offset replaced by the adapter id: lora_index * cn_stride */
static int as_slice_io(const td_abi_launch *L) { return run(L, 0, BUG_ADAPTER_AS_SLICE); }
static int as_slice_sum(const td_abi_launch *L) { return run(L, 1, BUG_ADAPTER_AS_SLICE); }
/* slice_offset dropped: the expand writes the start of the whole output row, not its slice */
static int slice_ignored_io(const td_abi_launch *L) { return run(L, 0, BUG_SLICE_IGNORED); }
static int slice_ignored_sum(const td_abi_launch *L) { return run(L, 1, BUG_SLICE_IGNORED); }
/* the -1 guard missing: a row without adapter gets adapter 0's product */
static int sentinel_io(const td_abi_launch *L) { return run(L, 0, BUG_SENTINEL_AS_ZERO); }
/* cur_batch * xm_stride in int32 */
static int offset_int32_io(const td_abi_launch *L) { return run(L, 0, BUG_OFFSET_INT32); }
static int offset_int32_sum(const td_abi_launch *L) { return run(L, 1, BUG_OFFSET_INT32); }

#define BES "bgmv_expand_slice.bgmv_full_output_summary"
#define BEI "bgmv_expand_slice.bgmv_expand_slice_io_correctness"
#define F32S "store=fp32:rne:inf"
#define M_AS "adapter id used as the slice offset"
#define M_SI "slice_offset dropped: writes the start of the output row instead of its slice"
TD_KERNEL(td_m_bes_as) = {BES, "mut_adapter_as_slice", TD_ABI_HOST, NULL, NULL, M_AS, 13, 4, as_slice_sum, NULL};
TD_KERNEL(td_m_bes_si) = {BES, "mut_slice_ignored", TD_ABI_HOST, NULL, NULL, M_SI, 13, 4, slice_ignored_sum, NULL};
TD_KERNEL(td_m_bei_as) = {BEI, "mut_adapter_as_slice", TD_ABI_HOST, F32S, NULL, M_AS, 12, 4, as_slice_io, NULL};
TD_KERNEL(td_m_bei_si) = {BEI, "mut_slice_ignored", TD_ABI_HOST, F32S, NULL, M_SI, 12, 4, slice_ignored_io, NULL};
TD_KERNEL(td_m_bei_sent) = {BEI, "mut_no_adapter_applied", TD_ABI_HOST, F32S, NULL,
                            "lora_index == -1 not skipped (read as adapter 0)", 12, 4, sentinel_io, NULL};
#define M_I32 "cur_batch * xm_stride computed in int32 (wraps beyond 2^31 elements)"
TD_KERNEL(td_m_bes_i32) = {BES, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, M_I32, 13, 4, offset_int32_sum, NULL};
TD_KERNEL(td_m_bei_i32) = {BEI, "mut_offset_int32", TD_ABI_HOST, F32S, NULL, M_I32, 12, 4, offset_int32_io, NULL};
