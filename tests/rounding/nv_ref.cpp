// The NVIDIA host conversions, used as they ship: the headers are included from the
// CUDA toolkit (never copied) and compiled for the host by the C++ compiler.
#include "nv_ref.h"

#include <cstring>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

extern "C" void td_nv_f16(const float *x, uint16_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        __half h = __float2half_rn(x[i]);
        std::memcpy(&out[i], &h, sizeof out[i]);
    }
}

extern "C" void td_nv_bf16(const float *x, uint16_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        __nv_bfloat16 h = __float2bfloat16_rn(x[i]);
        std::memcpy(&out[i], &h, sizeof out[i]);
    }
}

extern "C" void td_nv_fp8(const float *x, uint8_t *out, size_t n, int e5m2, int satfinite) {
    const __nv_saturation_t sat = satfinite ? __NV_SATFINITE : __NV_NOSAT;
    const __nv_fp8_interpretation_t kind = e5m2 ? __NV_E5M2 : __NV_E4M3;
    for (size_t i = 0; i < n; i++)
        out[i] = __nv_cvt_float_to_fp8(x[i], sat, kind);
}
