/* lora_expand_gemv mutants: the LoRA bugs of the slice and adapter addressing. */
#include "../host/tl.h"

enum { P_K, P_SPLIT, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_BN, P_BK };
enum { R_IN, R_LORA, R_OUT, R_IDX };

enum { BUG_ADAPTER_AS_SLICE, BUG_NO_SLICE_OFFSET, BUG_FIRST_ADAPTER, BUG_OFFSET_INT32 };

/* 1 when the program faults: BUG_OFFSET_INT32 forms cur_batch * xm_stride in int32
 * (Triton's default for an int32 program id and stride), which beyond 2^31 elements
 * wraps to an illegal address on a GPU (tl_fault) or to another row. */
static int program(const td_abi_launch *L, int64_t s, int64_t b, int bug) {
    int64_t K = TL_I(L, P_K), split = TL_I(L, P_SPLIT), lk = TL_I(L, P_LK), ln = TL_I(L, P_LN), cn = TL_I(L, P_CN);
    int64_t li = tl_load_int(L, R_IDX, bug == BUG_FIRST_ADAPTER ? 0 : b);
    int64_t slice = bug == BUG_ADAPTER_AS_SLICE ? li : bug == BUG_NO_SLICE_OFFSET ? 0 : s;
    int64_t b_base = TL_I(L, P_L0) * li + s * split * lk, c_base = b * TL_I(L, P_CM) + slice * split;
    int64_t xb = bug == BUG_OFFSET_INT32 ? tl_i32(b * tl_i32(TL_I(L, P_XM))) : b * TL_I(L, P_XM);
    if (bug == BUG_OFFSET_INT32 && tl_fault(L, R_IN, xb, K, TL_I(L, P_XK), (uint32_t)b)) return 1;
    for (int64_t m = 0; m < split; m++) {
        float acc = 0.0f;
        for (int64_t k = 0; k < K; k++)
            acc += tl_load(L, R_IN, xb + k * TL_I(L, P_XK)) * tl_load(L, R_LORA, b_base + m * lk + k * ln);
        int64_t o = c_base + m * cn;
        if (o < (int64_t)TL_LEN(L, R_OUT)) tl_store(L, R_OUT, o, acc, tl_f32()); /* no write past out */
    }
    return 0;
}

static int run(const td_abi_launch *L, int bug) {
    for (uint32_t b = 0; b < L->grid[1]; b++)
        for (uint32_t s = 0; s < L->grid[0]; s++)
            if (program(L, s, b, bug)) return 1;
    return 0;
}
/* the adapter id used as the output slice offset (lora_index * split_n_length) */
static int adapter_as_slice(const td_abi_launch *L) { return run(L, BUG_ADAPTER_AS_SLICE); }
/* c_ptr without pid_sn * split_n_length: every program writes the first slice */
static int no_slice_offset(const td_abi_launch *L) { return run(L, BUG_NO_SLICE_OFFSET); }
/* lora_indices[0] for every batch row (the adapter broadcast) */
static int first_adapter(const td_abi_launch *L) { return run(L, BUG_FIRST_ADAPTER); }
/* cur_batch * xm_stride in int32 */
static int offset_int32(const td_abi_launch *L) { return run(L, BUG_OFFSET_INT32); }

#define LGS "lora_expand_gemv.gemv_full_output_summary"
#define LGI "lora_expand_gemv.gemv_full_io_correctness"
#define F32S "store=fp32:rne:inf"
#define M_AS "adapter id used as the output slice offset"
#define M_NS "output slice offset pid_sn*split_n_length dropped"
#define M_FA "the first row's adapter used for every batch row"
TD_KERNEL(td_m_lgs_as) = {LGS, "mut_adapter_as_slice", TD_ABI_HOST, NULL, NULL, M_AS, 11, 4, adapter_as_slice, NULL};
TD_KERNEL(td_m_lgs_ns) = {LGS, "mut_no_slice_offset", TD_ABI_HOST, NULL, NULL, M_NS, 11, 4, no_slice_offset, NULL};
TD_KERNEL(td_m_lgs_fa) = {LGS, "mut_first_adapter", TD_ABI_HOST, NULL, NULL, M_FA, 11, 4, first_adapter, NULL};
TD_KERNEL(td_m_lgi_as) = {LGI, "mut_adapter_as_slice", TD_ABI_HOST, F32S, NULL, M_AS, 11, 4, adapter_as_slice, NULL};
TD_KERNEL(td_m_lgi_ns) = {LGI, "mut_no_slice_offset", TD_ABI_HOST, F32S, NULL, M_NS, 11, 4, no_slice_offset, NULL};
TD_KERNEL(td_m_lgi_fa) = {LGI, "mut_first_adapter", TD_ABI_HOST, F32S, NULL, M_FA, 11, 4, first_adapter, NULL};
#define M_I32 "cur_batch * xm_stride computed in int32 (wraps beyond 2^31 elements)"
TD_KERNEL(td_m_lgs_i32) = {LGS, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, M_I32, 11, 4, offset_int32, NULL};
TD_KERNEL(td_m_lgi_i32) = {LGI, "mut_offset_int32", TD_ABI_HOST, F32S, NULL, M_I32, 11, 4, offset_int32, NULL};
