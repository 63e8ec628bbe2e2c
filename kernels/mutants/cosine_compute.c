/* cosine_compute mutants. */
#include "../host/tl.h"

enum { P_N, P_BLOCK };
enum { R_A, R_B };

/* cos(x) computed as sin(x + pi/2) in binary32: x + pi/2 is rounded, which destroys
 * the result near the zeros of cos and for large |x|. */
static int cos_via_shifted_sin(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    const float half_pi = 1.57079637f;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < n) tl_store(L, R_B, off, sinf(tl_load(L, R_A, off) + half_pi), tl_f32());
        }
    return 0;
}

/* The "fast math" cosine: the argument is reduced with a binary32 2*pi and the
 * remainder fed to an even Taylor polynomial of degree 8.  Fine near 0, wrong by many
 * ulps once |x| grows or near +-pi. */
static float poly_cosf(float x) {
    const float two_pi = 6.28318548f;
    float r = x - rintf(x / two_pi) * two_pi;
    float r2 = r * r;
    return 1.0f - r2 / 2.0f * (1.0f - r2 / 12.0f * (1.0f - r2 / 30.0f * (1.0f - r2 / 56.0f)));
}
static int cos_fast_poly(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < n) tl_store(L, R_B, off, poly_cosf(tl_load(L, R_A, off)), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_m_cosine_compute_sin) = {"cosine_compute.cos_func_correctness", "mut_cos_via_shifted_sin", TD_ABI_HOST,
                                      NULL, "libm", "cos(x) = sin(x + (float)(pi/2))", 2, 2, cos_via_shifted_sin, NULL};
TD_KERNEL(td_m_cosine_compute_poly) = {"cosine_compute.cos_func_correctness", "mut_fast_poly_cos", TD_ABI_HOST, NULL,
                                       "libm", "cos by a binary32 2*pi reduction and a degree-8 Taylor polynomial", 2,
                                       2, cos_fast_poly, NULL};
