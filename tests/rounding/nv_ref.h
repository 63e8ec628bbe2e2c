/* NVIDIA's host-side conversions from the CUDA toolkit headers (cuda_fp16.h,
 * cuda_bf16.h, cuda_fp8.h), wrapped for the C tests: an independent reference for the
 * fast path.  Built only when the headers are found (TD_HAVE_NV_REF). */
#ifndef TD_TEST_NV_REF_H
#define TD_TEST_NV_REF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void td_nv_f16(const float *x, uint16_t *out, size_t n);  /* __float2half_rn */
void td_nv_bf16(const float *x, uint16_t *out, size_t n); /* __float2bfloat16_rn */
/* __nv_cvt_float_to_fp8(x, satfinite ? __NV_SATFINITE : __NV_NOSAT, e5m2 ? __NV_E5M2 : __NV_E4M3) */
void td_nv_fp8(const float *x, uint8_t *out, size_t n, int e5m2, int satfinite);

#ifdef __cplusplus
}
#endif
#endif
