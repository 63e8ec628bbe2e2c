/* geglu_tanh_triton mutants. */
#include "../host/elementwise_tl.h"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_A, R_B, R_C };
enum { R_DC = 0, R_BA = 1, R_BB = 2 };

static const float k0 = (float)0.7978845608028654, k1 = (float)0.044715, k3 = (float)(3 * 0.044715);

/* Every mutant runs the kernel's lanes (ew_row_lanes) with one lane function; i32: the
 * row offset pid * stride in int32. */
static int rows(const td_abi_launch *L, int i32, ew_lane_fn *lane, int arg) {
    return ew_row_lanes(L, TL_I(L, P_STRIDE), TL_I(L, P_NCOLS), TL_I(L, P_BLOCK), i32, R_DC, lane, arg);
}

/* a_cubed = a * a: the cubic term of the tanh approximation lost a factor. */
static void fwd_square_lane(const td_abi_launch *L, int64_t o, int arg) {
    (void)arg;
    float a = tl_load(L, R_A, o), b = tl_load(L, R_B, o);
    float t = tanhf(k0 * (a + k1 * (a * a)));
    tl_store(L, R_C, o, 0.5f * a * (1.0f + t) * b, tl_f32());
}
static int geglu_fwd_square_not_cube(const td_abi_launch *L) { return rows(L, 0, fwd_square_lane, 0); }

static void geglu_bwd_lane(float dc, float a, float b, float *da, float *db, int tanh_not_squared) {
    float t = tanhf(k0 * (a + k1 * (a * a * a)));
    *db = dc * (0.5f * a * (1.0f + t));
    float tsq = tanh_not_squared ? t : t * t;
    float term2 = 0.5f * a * (1.0f - tsq) * (k0 * (1.0f + k3 * a * a));
    *da = dc * b * (0.5f * (1.0f + t) + term2);
}

/* The backward's bugs: BUG_NONE the kernel's lane (the int32 mutant's), BUG_RAW the
 * in-place read-after-write (da stored into A, then db computed from a re-load of A,
 * now da), BUG_DTANH the derivative of tanh taken as 1 - tanh instead of 1 - tanh^2. */
enum { BUG_NONE, BUG_RAW, BUG_DTANH };
static void bwd_lane(const td_abi_launch *L, int64_t o, int bug) {
    float dc = tl_load(L, R_DC, o), a = tl_load(L, R_BA, o), b = tl_load(L, R_BB, o), da, db;
    geglu_bwd_lane(dc, a, b, &da, &db, bug == BUG_DTANH);
    tl_store(L, R_BA, o, da, tl_f32());
    if (bug == BUG_RAW) geglu_bwd_lane(dc, tl_load(L, R_BA, o), b, &da, &db, 0);
    tl_store(L, R_BB, o, db, tl_f32());
}
static int geglu_bwd_read_after_write(const td_abi_launch *L) { return rows(L, 0, bwd_lane, BUG_RAW); }
static int geglu_bwd_tanh_derivative(const td_abi_launch *L) { return rows(L, 0, bwd_lane, BUG_DTANH); }

/* The backward without the original's `tl.program_id(0).to(tl.int64)`: pid * stride is
 * an int32 product, which wraps past 2^31 elements, and the row's loads are an illegal
 * address (tl_fault).  Only the large tier (`--large`) reaches it: ordinary cases have
 * at most 2^14 lanes. */
static int geglu_bwd_offset_int32(const td_abi_launch *L) { return rows(L, 1, bwd_lane, BUG_NONE); }

TD_KERNEL(td_m_geglu_fwd_cube) = {"geglu_tanh_triton.geglu_tanh_forward_kernel_correctness", "mut_square_not_cube",
                                  TD_ABI_HOST, NULL, "libm", "a_cubed = a * a in the tanh argument", 3, 3,
                                  geglu_fwd_square_not_cube, NULL};
TD_KERNEL(td_m_geglu_bwd_raw) = {"geglu_tanh_triton.geglu_tanh_backward_kernel_correctness", "mut_read_after_write",
                                 TD_ABI_HOST, NULL, "libm", "db computed from A after da was stored into it", 3, 3,
                                 geglu_bwd_read_after_write, NULL};
TD_KERNEL(td_m_geglu_bwd_dtanh) = {"geglu_tanh_triton.geglu_tanh_backward_kernel_correctness",
                                   "mut_tanh_derivative_wrong", TD_ABI_HOST, NULL, "libm",
                                   "term2 uses 1 - tanh instead of 1 - tanh^2", 3, 3, geglu_bwd_tanh_derivative, NULL};
TD_KERNEL(td_m_geglu_bwd_i32) = {"geglu_tanh_triton.geglu_tanh_backward_kernel_correctness", "mut_large_offset_int32",
                                 TD_ABI_HOST, NULL, "libm",
                                 "program_id not widened to int64: pid * stride wraps beyond 2^31 elements", 3, 3,
                                 geglu_bwd_offset_int32, NULL};
