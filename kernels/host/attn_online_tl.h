/* Host helpers shared by the online-softmax attention ports (flash_attn,
 * attention_llama, attn_fwd_causal, attn_fwd_triton, attention_forward_triton,
 * attention_fwd_triton2, attention_fwd_triton3) and their mutants.
 *
 * Each port walks the grid program by program and keeps Triton's tiles as plain
 * binary32 arrays: q [BLOCK_M x D], the score tile [BLOCK_M x BLOCK_N], acc
 * [BLOCK_M x D].  tl.dot is a loop over the reduction lanes in binary32 (the
 * products of binary16 / bfloat16 operands are exact in binary32), tl.max / tl.sum
 * over a row of the score tile are tl_max / tl_sum (pairwise trees), and every
 * .to(fp16) / .to(bf16) / store goes through rounding/ with the profile the kernel
 * declares.
 *
 * A port's mutants are switches of the port itself (bit 0 = the faithful program):
 * kernels/mutants/<file>.c names each switch and registers the mutant. */
#ifndef TD_ATTN_ONLINE_TL_H
#define TD_ATTN_ONLINE_TL_H

#include "tl.h"

static inline td_profile at_prof(td_fmt f) {
    td_profile p = {f, TD_RNE, TD_OVF_INF, false};
    return p;
}

/* x.to(fmt) as a binary32 value (RNE; IEEE overflow) */
static inline float at_cvt(td_fmt f, float x) { return (float)td_decode(f, td_encode_f32(at_prof(f), x)); }

/* a float tile of n elements, freed by at_free */
#define AT_TILE(L, ptr, n) TL_ALLOC(L, ptr, n)

/* ceil(a / b) for the positive operands of the launch arithmetic */
static inline int64_t at_cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* ---- flash_attn ---- */
/* parameter layouts: genuine_{output,l} (IS_CAUSAL a parameter), python_case{1,2}, io */
enum { FA_LAY_GENUINE, FA_LAY_CASE1, FA_LAY_CASE2, FA_LAY_IO };
#define FA_MUT_CAUSAL_GT 0x1u     /* causal mask off_m > start_n + off_n: the diagonal key dropped */
#define FA_MUT_ROWSUM_P16 0x2u    /* the row sum adds the fp16-cast P (the cast applied to both uses) */
#define FA_MUT_NO_RESCALE_L 0x4u  /* denom += rowsum(p): running max moved, l not rescaled */
#define FA_MUT_SCALE_TWICE 0x8u   /* qk_scale applied to q and again to the scores */
#define FA_MUT_SKIP_LAST 0x10u    /* the K loop stops one BLOCK_N early (the last KV block dropped) */
#define FA_MUT_L_NATLOG 0x20u     /* L = m + log(l): natural log where the base-2 statistic is due */
int td_hk_flash_attn(const td_abi_launch *L, int layout, unsigned mut);

#endif
