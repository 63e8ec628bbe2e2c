/* swiglu_triton mutants. */
#include "../host/elementwise_tl.h"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_A, R_B, R_C };
enum { R_DC = 0, R_BA = 1, R_BB = 2 };

/* Every mutant runs the kernel's lanes (ew_row_lanes) with one lane function; i32: the
 * row offset pid * stride in int32. */
static int rows(const td_abi_launch *L, int i32, ew_lane_fn *lane, int arg) {
    return ew_row_lanes(L, TL_I(L, P_STRIDE), TL_I(L, P_NCOLS), TL_I(L, P_BLOCK), i32, R_DC, lane, arg);
}

/* The gate on the wrong operand: c = silu(b) * a. */
static void fwd_gate_swapped_lane(const td_abi_launch *L, int64_t o, int arg) {
    (void)arg;
    float a = tl_load(L, R_A, o), b = tl_load(L, R_B, o);
    tl_store(L, R_C, o, b * ew_sigmoid(b) * a, tl_f32());
}
static int swiglu_fwd_gate_swapped(const td_abi_launch *L) { return rows(L, 0, fwd_gate_swapped_lane, 0); }

/* The backward's bugs: BUG_NONE the kernel's lane (the int32 mutant's), BUG_RAW the
 * in-place read-after-write (da stored into A first, db then computed from a re-load of
 * A, which holds da), BUG_NO_SIG the derivative without its sigmoid term (da = dc * silu
 * * (1 - sig) * b). */
enum { BUG_NONE, BUG_RAW, BUG_NO_SIG };
static void bwd_lane(const td_abi_launch *L, int64_t o, int bug) {
    float dc = tl_load(L, R_DC, o), a = tl_load(L, R_BA, o), b = tl_load(L, R_BB, o);
    float sig = ew_sigmoid(a), silu = a * sig;
    float d = bug == BUG_NO_SIG ? silu * (1.0f - sig) : silu * (1.0f - sig) + sig;
    tl_store(L, R_BA, o, dc * d * b, tl_f32());
    if (bug == BUG_RAW) {
        float a2 = tl_load(L, R_BA, o);
        silu = a2 * ew_sigmoid(a2);
    }
    tl_store(L, R_BB, o, dc * silu, tl_f32());
}
static int swiglu_bwd_read_after_write(const td_abi_launch *L) { return rows(L, 0, bwd_lane, BUG_RAW); }
static int swiglu_bwd_missing_sig_term(const td_abi_launch *L) { return rows(L, 0, bwd_lane, BUG_NO_SIG); }

/* The backward without the original's `tl.program_id(0).to(tl.int64)`: pid * stride is
 * an int32 product, which wraps past 2^31 elements, and the row's loads are an illegal
 * address (tl_fault).  Only the large tier (`--large`) reaches it: ordinary cases have
 * at most 2^14 lanes. */
static int swiglu_bwd_offset_int32(const td_abi_launch *L) { return rows(L, 1, bwd_lane, BUG_NONE); }

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
