/* swiglu_triton mutants. */
#include "../host/elementwise_tl.h"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_A, R_B, R_C };
enum { R_DC = 0, R_BA = 1, R_BB = 2 };

/* The gate on the wrong operand: c = silu(b) * a. */
static int swiglu_fwd_gate_swapped(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n_cols = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B && j < n_cols; j++) {
            int64_t o = (int64_t)pid * stride + j;
            float a = tl_load(L, R_A, o), b = tl_load(L, R_B, o);
            tl_store(L, R_C, o, b * ew_sigmoid(b) * a, tl_f32());
        }
    return 0;
}

/* In-place read-after-write: da is stored into A first and db is then computed from a
 * re-load of A, which now holds da. */
static int swiglu_bwd_read_after_write(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n_cols = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B && j < n_cols; j++) {
            int64_t o = (int64_t)pid * stride + j;
            float dc = tl_load(L, R_DC, o), a = tl_load(L, R_BA, o), b = tl_load(L, R_BB, o);
            float sig = ew_sigmoid(a), silu = a * sig;
            tl_store(L, R_BA, o, dc * (silu * (1.0f - sig) + sig) * b, tl_f32());
            float a2 = tl_load(L, R_BA, o);
            tl_store(L, R_BB, o, dc * (a2 * ew_sigmoid(a2)), tl_f32());
        }
    return 0;
}

/* The derivative without its sigmoid term: da = dc * silu * (1 - sig) * b. */
static int swiglu_bwd_missing_sig_term(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n_cols = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B && j < n_cols; j++) {
            int64_t o = (int64_t)pid * stride + j;
            float dc = tl_load(L, R_DC, o), a = tl_load(L, R_BA, o), b = tl_load(L, R_BB, o);
            float sig = ew_sigmoid(a), silu = a * sig;
            tl_store(L, R_BA, o, dc * (silu * (1.0f - sig)) * b, tl_f32());
            tl_store(L, R_BB, o, dc * silu, tl_f32());
        }
    return 0;
}

/* The backward without the original's `tl.program_id(0).to(tl.int64)`: pid * stride is
 * an int32 product, which wraps past 2^31 elements, and the row's loads are an illegal
 * address (tl_fault).  Only the large tier (`--large`) reaches it: ordinary cases have
 * at most 2^14 lanes. */
static int swiglu_bwd_offset_int32(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n_cols = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    int64_t active = n_cols < B ? n_cols : B;
    if (tl_fault_rows_i32(L, R_DC, stride, active)) return 1;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t row = tl_i32((int64_t)pid * stride);
        for (int64_t j = 0; j < active; j++) {
            int64_t o = tl_i32(row + j);
            float dc = tl_load(L, R_DC, o), a = tl_load(L, R_BA, o), b = tl_load(L, R_BB, o);
            float sig = ew_sigmoid(a), silu = a * sig;
            tl_store(L, R_BA, o, dc * (silu * (1.0f - sig) + sig) * b, tl_f32());
            tl_store(L, R_BB, o, dc * silu, tl_f32());
        }
    }
    return 0;
}

TD_KERNEL(td_m_swiglu_triton_gate) = {"swiglu_triton.swiglu_forward_kernel_correctness", "mut_gate_swapped",
                                      TD_ABI_HOST, NULL, "libm", "c = silu(b) * a: the gate on the wrong operand", 3,
                                      3, swiglu_fwd_gate_swapped, NULL};
TD_KERNEL(td_m_swiglu_triton_raw) = {"swiglu_triton.swiglu_backward_kernel_correctness", "mut_read_after_write",
                                     TD_ABI_HOST, NULL, "libm", "db computed from A after da was stored into it", 3, 3,
                                     swiglu_bwd_read_after_write, NULL};
TD_KERNEL(td_m_swiglu_triton_dsig) = {"swiglu_triton.swiglu_backward_kernel_correctness", "mut_missing_sigmoid_term",
                                      TD_ABI_HOST, NULL, "libm", "da = dc * silu * (1 - sig) * b (the + sig dropped)",
                                      3, 3, swiglu_bwd_missing_sig_term, NULL};
TD_KERNEL(td_m_swiglu_bwd_i32) = {"swiglu_triton.swiglu_backward_kernel_correctness", "mut_large_offset_int32",
                                  TD_ABI_HOST, NULL, "libm",
                                  "program_id not widened to int64: pid * stride wraps beyond 2^31 elements", 3, 3,
                                  swiglu_bwd_offset_int32, NULL};
