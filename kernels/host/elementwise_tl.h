/* Helpers shared by the elementwise host kernels. */
#ifndef TD_ELEMENTWISE_TL_H
#define TD_ELEMENTWISE_TL_H

#include "tl.h"

/* tl.sigmoid(x): Triton defines it as 1 / (1 + exp(-x)), evaluated in binary32. */
static inline float ew_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

#endif
