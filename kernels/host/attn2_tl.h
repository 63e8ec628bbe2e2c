/* Host-kernel helpers shared by the attention kernels of part 2.
 *
 * Triton's `x.to(tl.float16)` and a store into an fp16 / bf16 tensor round to nearest
 * even with IEEE overflow (cvt.rn.f16.f32 / cvt.rn.bf16.f32); fp16 x fp16 arithmetic is
 * done on fp16 operands and rounded to fp16.  tl.dot on fp16 tiles multiplies exactly
 * (an fp16 product fits binary32) and accumulates in binary32, here in the order of
 * the reduction axis (the host kernels' model of tl.dot: a sequential loop). */
#ifndef TD_ATTN2_TL_H
#define TD_ATTN2_TL_H

#include "tl.h"

static inline td_profile attn2_prof(td_fmt f) {
    td_profile p = {f, TD_RNE, TD_OVF_INF, false};
    return p;
}

/* RN to binary16 of a binary32 value, back in binary32 (exact there) */
static inline float attn2_rn16(float x) { return (float)td_decode(TD_F16, td_encode_f32(attn2_prof(TD_F16), x)); }

/* the store profile of an output region: the region's format, RNE, IEEE overflow */
static inline td_profile attn2_store_prof(const td_abi_launch *L, int reg) { return attn2_prof(TL_FMT(L, reg)); }

/* fp16 arithmetic: the binary32 result of two fp16 operands rounded to fp16.  For a
 * product the binary32 step is exact; for a sum RN16(RN32(a + b)) = RN16(a + b)
 * (24 >= 2*11 + 2: double rounding is innocuous). */
static inline float attn2_hadd(float a, float b) { return attn2_rn16(a + b); }
static inline float attn2_hmul(float a, float b) { return attn2_rn16(a * b); }

/* The q tile of a context attention with the shared layout (rs, hs, 1) (context_attn_nopad
 * / _mistral): q[i, d] = Q[(start + block_start + i)*rs + h*hs + d] for rows below seqlen,
 * 0 past it.  int32 (their mut_offset_int32): the offset as Triton's int32 arithmetic
 * leaves it (rows, head and strides int32, tl_i32), which past 2^31 elements wraps; an
 * offset outside the region fails the launch (tl_fault: returns 1, the message in L->err). */
static inline int attn2_ctx_load_q(const td_abi_launch *L, int reg, float *q, int64_t BM, int64_t D, int64_t start,
                                   int64_t block_start, int64_t seqlen, int64_t rs, int64_t h, int64_t hs,
                                   int int32, uint32_t pid) {
    for (int64_t i = 0; i < BM; i++)
        for (int64_t d = 0; d < D; d++) {
            int64_t row = start + block_start + i, off = row * rs + h * hs + d;
            if (block_start + i >= seqlen) {
                q[i * D + d] = 0.0f;
                continue;
            }
            if (int32 && tl_fault(L, reg, off = tl_i32(row * tl_i32(rs) + h * tl_i32(hs) + d), 1, 1, pid)) return 1;
            q[i * D + d] = tl_load(L, reg, off);
        }
    return 0;
}

#endif
