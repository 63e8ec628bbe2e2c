/* sin_kernel mutants. */
#include "../host/tl.h"

enum { P_N, P_BLOCK };
enum { R_X, R_OUT };

/* A "fast" sin: reduction by a binary32 2*pi (a Cody-Waite-less reduction) followed
 * by a degree-7 Taylor polynomial.  Fine near 0, wrong by many ulps once the
 * reduction's rounding error grows with |x| and near the ends of [-pi, pi]. */
static float fast_sinf(float x) {
    const float two_pi = 6.28318548f, pi = 3.14159274f;
    float k = rintf(x / two_pi);
    float r = x - k * two_pi;
    if (r > pi) r -= two_pi;
    if (r < -pi) r += two_pi;
    float r2 = r * r;
    return r * (1.0f - r2 / 6.0f * (1.0f - r2 / 20.0f * (1.0f - r2 / 42.0f)));
}

static int sin_fast_math(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < n) tl_store(L, R_OUT, off, fast_sinf(tl_load(L, R_X, off)), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_m_sin_fast) = {"sin_kernel.kernel_function_correctness", "mut_fast_math_sin", TD_ABI_HOST, NULL, "libm",
                            "sin by naive range reduction and a Taylor polynomial", 2, 2, sin_fast_math, NULL};
