/* The quantization casts of numfmt.h over an array (rounding/intq.c).  Its own header,
 * not numfmt.h: a declaration added there would change every translation unit that
 * includes it (every contract and kernel), for a function only the rounding tests and
 * bulk users need. */
#ifndef TD_INTQ_ARRAY_H
#define TD_INTQ_ARRAY_H

#include "numfmt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = td_q_encode_f32(x[i], f, r, o) for i < n: the same code, vectorised (what the
 * exhaustive sweep, tests/rounding/test_sweep_int.c, runs) */
void td_q_encode_f32_array(td_qfmt f, td_qrnd r, td_qovf o, const float *x, uint8_t *out, size_t n);

#ifdef __cplusplus
}
#endif
#endif
