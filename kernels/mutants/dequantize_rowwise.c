/* dequantize_rowwise mutants: the bugs rowwise dequantization kernels ship. */
#include "../host/tl.h"

enum { P_INV, P_N, P_BLOCK, P_P2 };
enum { R_X, R_STATE, R_OUT };

/* per_column: the scale indexed by the column (state_x + offsets % BLOCK_SIZE, a
 * per-channel scale vector read as if it were per row) instead of by the row.
 * uint8: the int8 codes loaded as unsigned (a uint8 pointer type), so -1 reads 255. */
static int dq_variant(const td_abi_launch *L, int per_column, int as_uint8) {
    int64_t B = TL_I(L, P_BLOCK), P2 = TL_I(L, P_P2);
    float inv_127 = TL_R(L, P_INV);
    td_profile store = {TD_F16, TD_RNE, TD_OVF_INF, false};
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < P2 && j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            float max_val = tl_load(L, R_STATE, per_column ? j % (int64_t)L->grid[0] : pid);
            int64_t q = tl_load_int(L, R_X, off);
            float x = (float)(as_uint8 ? (q & 0xff) : q);
            tl_store(L, R_OUT, off, max_val * x * inv_127, store);
        }
    return 0;
}
static int dq_per_column(const td_abi_launch *L) { return dq_variant(L, 1, 0); }
static int dq_uint8(const td_abi_launch *L) { return dq_variant(L, 0, 1); }

/* block_start = pid * BLOCK_SIZE formed in int32, as Triton types a program id: past
 * 2^31 elements a row's offsets wrap negative and, the mask being arange < BLOCK_SIZE
 * only, its load of x is an illegal address (tl_fault).  Only the large tier
 * (`--large`) reaches it: ordinary cases have at most 4096 elements. */
static int dq_offset_int32(const td_abi_launch *L) {
    int64_t B = TL_I(L, P_BLOCK), P2 = TL_I(L, P_P2), n = P2 < B ? P2 : B;
    float inv_127 = TL_R(L, P_INV);
    td_profile store = {TD_F16, TD_RNE, TD_OVF_INF, false};
    if (tl_fault_rows_i32(L, R_X, B, n)) return 1;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = tl_i32((int64_t)pid * B);
        float max_val = tl_load(L, R_STATE, pid);
        for (int64_t j = 0; j < n; j++) {
            int64_t off = tl_i32(base + j);
            tl_store(L, R_OUT, off, max_val * (float)tl_load_int(L, R_X, off) * inv_127, store);
        }
    }
    return 0;
}

TD_KERNEL(td_m_dq_per_column) = {"dequantize_rowwise.dequantize_rowwise_correctness", "mut_scale_per_column",
                                 TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                 "the scale indexed by the column instead of the row", 4, 3, dq_per_column, NULL};
TD_KERNEL(td_m_dq_uint8) = {"dequantize_rowwise.dequantize_rowwise_correctness", "mut_codes_unsigned", TD_ABI_HOST,
                            "store=fp16:rne:inf", NULL, "the int8 codes read as uint8 (no sign)", 4, 3, dq_uint8,
                            NULL};
TD_KERNEL(td_m_dq_i32) = {"dequantize_rowwise.dequantize_rowwise_correctness", "mut_large_offset_int32", TD_ABI_HOST,
                          "store=fp16:rne:inf", NULL,
                          "pid * BLOCK_SIZE + arange formed in int32 (wraps beyond 2^31 elements)", 4, 3,
                          dq_offset_int32, NULL};
