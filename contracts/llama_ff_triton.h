/* The shared declarations of contracts/llama_ff_triton.c and its spec file. */
#ifndef TD_LLAMA_FF_TRITON_H
#define TD_LLAMA_FF_TRITON_H

#include <math.h>

#include "attn2_common.h" /* attn2_kround: a kernel-side rounding to fp16 */
#include "gen.h"
#include "spec.h"

/* parameters in the statement's order: M N sam sak sw1k sw1n sw3k sw3n soutm soutn srms BM BN BK numKBlocks K EPS */
enum {
    FF_M, FF_N, FF_SAM, FF_SAK, FF_SW1K, FF_SW1N, FF_SW3K, FF_SW3N, FF_SOUTM, FF_SOUTN, FF_SRMS, FF_BM, FF_BN, FF_BK,
    FF_NKB, FF_K, FF_EPS, FF_NP
};
enum { FF_A, FF_W1, FF_W3, FF_OUT, FF_RMS, FF_NR }; /* (A W1 W3 OUT RMS : RegionName) */
enum { FF_C_STORE };

#define FF_BOUND_A 0x1p10
#define FF_BOUND_W 1.0

#endif
