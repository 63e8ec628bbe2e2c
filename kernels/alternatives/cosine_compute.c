/* cosine_compute, alternative: cos evaluated in binary64, rounded once.
 *
 * alt_f64: b = (float)cos((double)a): within half an ulp (plus 2^-29 ulp) of the real
 * cosine, inside every budget a cos may have (libm cosf, CUDA cosf 2 ulp).  Same lanes
 * (offset < n_elements).
 */
#include "alt_common.h"

enum { P_N, P_BLOCK };
enum { R_A, R_B };

static int cos_f64(const td_abi_launch *L) {
    for (int64_t i = 0; i < TL_I(L, P_N); i++) tl_store(L, R_B, i, (float)cos((double)tl_load(L, R_A, i)), tl_f32());
    return 0;
}

TD_KERNEL(td_a_cosine_f64) = {"cosine_compute.cos_func_correctness", "alt_f64", TD_ABI_HOST, NULL, NULL, NULL, 2, 2,
                              cos_f64, NULL};
