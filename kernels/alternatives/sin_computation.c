/* sin_computation, alternative: sin by Cody-Waite reduction and the binary64 kernel.
 *
 * alt_reduce_f64: x reduced by k = round(x * 2/pi) to r = x - k*pi/2 in binary64 (pi/2
 * split in two parts; |k| < 2^10 keeps k*P1 exact and the dropped tail of pi/2
 * (~1e-21 k) far below binary32's resolution of r; beyond, sin(x) in binary64), then sin or cos of r by quadrant, in binary64, rounded once to
 * binary32.  Error below half an ulp of binary32 plus 2^-25 ulp: within every sin budget.
 * What a hand-written sine with an explicit quadrant reduction does.
 */
#include "alt_common.h"

enum { P_N, P_BLOCK };
enum { R_IN, R_OUT };

static float sin_reduced(float xf) {
    double x = xf;
    double k = nearbyint(x * 0.63661977236758134308); /* 2/pi */
    if (!(fabs(k) < 0x1p10)) return (float)sin(x);
    /* pi/2 = P1 + P2 with P1 holding 33 bits: k*P1 is exact */
    const double P1 = 1.5707963267341256141662598, P2 = 6.077100506506192601e-11;
    double r = (x - k * P1) - k * P2;
    switch ((long)k & 3) {
    case 0: return (float)sin(r);
    case 1: return (float)cos(r);
    case 2: return (float)-sin(r);
    default: return (float)-cos(r);
    }
}

static int sin_reduce(const td_abi_launch *L) {
    for (int64_t i = 0; i < TL_I(L, P_N); i++) tl_store(L, R_OUT, i, sin_reduced(tl_load(L, R_IN, i)), tl_f32());
    return 0;
}

TD_KERNEL(td_a_sin_computation_reduce) = {"sin_computation.sin_kernel_correctness", "alt_reduce_f64", TD_ABI_HOST,
                                          NULL, NULL, NULL, 2, 2, sin_reduce, NULL};
