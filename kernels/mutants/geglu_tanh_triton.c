/* geglu_tanh_triton mutants. */
#include "../host/tl.h"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_A, R_B, R_C };
enum { R_DC = 0, R_BA = 1, R_BB = 2 };

static const float k0 = (float)0.7978845608028654, k1 = (float)0.044715, k3 = (float)(3 * 0.044715);

/* a_cubed = a * a: the cubic term of the tanh approximation lost a factor. */
static int geglu_fwd_square_not_cube(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n_cols = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B && j < n_cols; j++) {
            int64_t o = (int64_t)pid * stride + j;
            float a = tl_load(L, R_A, o), b = tl_load(L, R_B, o);
            float t = tanhf(k0 * (a + k1 * (a * a)));
            tl_store(L, R_C, o, 0.5f * a * (1.0f + t) * b, tl_f32());
        }
    return 0;
}

static void geglu_bwd_lane(float dc, float a, float b, float *da, float *db, int tanh_not_squared) {
    float t = tanhf(k0 * (a + k1 * (a * a * a)));
    *db = dc * (0.5f * a * (1.0f + t));
    float tsq = tanh_not_squared ? t : t * t;
    float term2 = 0.5f * a * (1.0f - tsq) * (k0 * (1.0f + k3 * a * a));
    *da = dc * b * (0.5f * (1.0f + t) + term2);
}

/* In-place read-after-write: da is stored into A, then db is computed from a re-load
 * of A (now da). */
static int geglu_bwd_read_after_write(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n_cols = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B && j < n_cols; j++) {
            int64_t o = (int64_t)pid * stride + j;
            float dc = tl_load(L, R_DC, o), a = tl_load(L, R_BA, o), b = tl_load(L, R_BB, o), da, db;
            geglu_bwd_lane(dc, a, b, &da, &db, 0);
            tl_store(L, R_BA, o, da, tl_f32());
            geglu_bwd_lane(dc, tl_load(L, R_BA, o), b, &da, &db, 0);
            tl_store(L, R_BB, o, db, tl_f32());
        }
    return 0;
}

/* The derivative of tanh taken as 1 - tanh instead of 1 - tanh^2. */
static int geglu_bwd_tanh_derivative(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n_cols = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B && j < n_cols; j++) {
            int64_t o = (int64_t)pid * stride + j;
            float dc = tl_load(L, R_DC, o), a = tl_load(L, R_BA, o), b = tl_load(L, R_BB, o), da, db;
            geglu_bwd_lane(dc, a, b, &da, &db, 1);
            tl_store(L, R_BA, o, da, tl_f32());
            tl_store(L, R_BB, o, db, tl_f32());
        }
    return 0;
}

/* The backward without the original's `tl.program_id(0).to(tl.int64)`: pid * stride is
 * an int32 product, which wraps past 2^31 elements, and the row's loads are an illegal
 * address (tl_fault).  Only the large tier (`--large`) reaches it: ordinary cases have
 * at most 2^14 lanes. */
static int geglu_bwd_offset_int32(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n_cols = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    int64_t active = n_cols < B ? n_cols : B;
    if (tl_fault_rows_i32(L, R_DC, stride, active)) return 1;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t row = tl_i32((int64_t)pid * stride);
        for (int64_t j = 0; j < active; j++) {
            int64_t o = tl_i32(row + j);
            float dc = tl_load(L, R_DC, o), a = tl_load(L, R_BA, o), b = tl_load(L, R_BB, o), da, db;
            geglu_bwd_lane(dc, a, b, &da, &db, 0);
            tl_store(L, R_BA, o, da, tl_f32());
            tl_store(L, R_BB, o, db, tl_f32());
        }
    }
    return 0;
}

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
