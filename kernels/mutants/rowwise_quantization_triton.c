/* rowwise_quantization_triton mutants: the bugs rowwise quantizers ship. */
#include "../host/tl.h"

enum { P_N, P_BLOCK, P_P2 };
enum { R_X, R_INERT, R_OUT, R_MAXS };

/* padded: the absmax taken over the whole P2-wide block, the padding lanes loaded
 * without the row mask (they read the next row's values); trunc: the value cast with
 * `.to(tl.int8)` (truncation toward zero) instead of llrint. */
static int qr_variant(const td_abi_launch *L, int padded, int trunc) {
    int64_t B = TL_I(L, P_BLOCK), P2 = TL_I(L, P_P2);
    td_profile store = {TD_I8, trunc ? TD_RTZ : TD_RNE, trunc ? TD_OVF_SAT : TD_OVF_WRAP, false};
    td_profile maxs = {TD_F16, TD_RNE, TD_OVF_INF, false};
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        float m = 0.0f;
        for (int64_t j = 0; j < P2; j++)
            if (j < B || padded) m = fmaxf(m, fabsf(tl_load(L, R_X, (int64_t)pid * B + j)));
        for (int64_t j = 0; j < P2 && j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            tl_store(L, R_OUT, off, 127.0f * (tl_load(L, R_X, off) / m), store);
        }
        tl_store(L, R_MAXS, pid, m, maxs);
    }
    return 0;
}
static int qr_padded(const td_abi_launch *L) { return qr_variant(L, 1, 0); }
static int qr_trunc(const td_abi_launch *L) { return qr_variant(L, 0, 1); }

TD_KERNEL(td_m_qr_padded) = {"rowwise_quantization_triton.quantize_rowwise_correctness", "mut_absmax_padded_block",
                             TD_ABI_HOST, "store=int8:rne:wrap;maxs=fp16:rne:inf", NULL,
                             "the absmax over the whole P2 block, padding lanes loaded unmasked", 3, 4, qr_padded, NULL};
TD_KERNEL(td_m_qr_trunc) = {"rowwise_quantization_triton.quantize_rowwise_correctness", "mut_store_truncates",
                            TD_ABI_HOST, "store=int8:rne:wrap;maxs=fp16:rne:inf", NULL,
                            "the value truncated to int8 (.to(tl.int8)) instead of llrint", 3, 4, qr_trunc, NULL};

/* The original's offsets = pid * BLOCK_SIZE + arange in int32 (pid = tl.program_id and
 * BLOCK_SIZE a constexpr: Triton types both int32): past 2^31 elements the row offset
 * wraps negative and the load is an illegal address (tl_fault).  Only the large tier
 * (`--large`, td_rows_large) has rows * BLOCK_SIZE > 2^31: ordinary cases hold at most
 * 2^12 elements, where it is the port. */
static int qr_off_i32(const td_abi_launch *L) {
    int64_t B = TL_I(L, P_BLOCK), P2 = TL_I(L, P_P2), n = B < P2 ? B : P2;
    if (tl_fault_rows_i32(L, R_X, B, n)) return 1;
    return qr_variant(L, 0, 0);
}
TD_KERNEL(td_m_qr_i32) = {"rowwise_quantization_triton.quantize_rowwise_correctness", "mut_large_offset_int32",
                          TD_ABI_HOST, "store=int8:rne:wrap;maxs=fp16:rne:inf", NULL,
                          "offsets = pid * BLOCK_SIZE + arange in int32: the row offset wraps past 2^31", 3, 4,
                          qr_off_i32, NULL};
