/* Alternatives for flash_decode2_llama (the stage-2 decode slices).
 *
 * flash_decode2_llama_normalization_output_summary_general (the stage-2 normalization
 * store O[b,h,:] = Acc[b,h,:] / SumExp[b,h]):
 *
 *   alt_rcp       one reciprocal per (b, h), then O = Acc * (1/SumExp) (what fast-math
 *                 code and hand-written decode kernels do), the heads walked last to first.
 *                 Admissible: a/b as a*(1/b); the programs' order.
 *
 * flash_decode2_llama_running_max_output_summary_general (NewMaxLogic[b,h] =
 * max(Mid_O_LogExpSum[b,h,block_seq_n], MaxLogic[b,h]), exact: tolerance 0).  The port
 * takes fmaxf (tl.maximum); a max of two floats has no rounding, but kernels spell it
 * differently:
 *   alt_cmp_select   the comparison-and-select of the contract's own statement (tlogic >
 *                    max_logic ? tlogic : max_logic), the heads walked last to first.
 *   alt_int_order    both floats mapped to order-preserving unsigned keys (sign bit set:
 *                    all bits flipped; else the sign bit set), the integer max mapped back:
 *                    the atomicMax-on-float idiom of split-K decoders; batches last to first.
 * Parameters and regions as kernels/host/flash_decode2_llama.c (the normalization and the
 * running-max layouts). */
#include <string.h>

#include "tl.h"

enum { N_MID_OB, N_MID_OH, N_MID_OS, N_MID_OD, N_E_B, N_E_H, N_E_S, N_OBS, N_OH, N_OD, N_BSEQ, N_BD,
       N_ACC_B, N_ACC_H, N_ACC_D, N_SUM_B, N_SUM_H, N_NP };
enum { NR_SEQLEN, NR_MID, NR_E, NR_ACC, NR_SUM, NR_O, NR_N };

static int fdl_norm_rcp(const td_abi_launch *L) {
    int64_t BD = TL_I(L, N_BD);
    td_profile st = {TL_FMT(L, NR_O), TD_RNE, TD_OVF_INF, false};
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (int64_t h = (int64_t)L->grid[1] - 1; h >= 0; h--) {
            float r = 1.0f / tl_load(L, NR_SUM, b * TL_I(L, N_SUM_B) + h * TL_I(L, N_SUM_H));
            for (int64_t d = 0; d < BD; d++) {
                float acc = tl_load(L, NR_ACC, b * TL_I(L, N_ACC_B) + h * TL_I(L, N_ACC_H) + d * TL_I(L, N_ACC_D));
                tl_store(L, NR_O, b * TL_I(L, N_OBS) + h * TL_I(L, N_OH) + d * TL_I(L, N_OD), acc * r, st);
            }
        }
    return 0;
}

TD_KERNEL(td_a_fd2_llama_norm_rcp) = {"flash_decode2_llama.flash_decode2_llama_normalization_output_summary_general",
                                      "alt_rcp", TD_ABI_HOST, NULL, NULL, NULL, N_NP, NR_N, fdl_norm_rcp, NULL};

/* running max */
enum { M_MID_OB, M_MID_OH, M_MID_OS, M_MID_OD, M_E_B1, M_E_H1, M_E_S, M_OBS, M_OH, M_OD, M_BSEQ, M_BD, M_K,
       M_E_B, M_E_H, M_LOGIC_B, M_LOGIC_H, M_NP };
enum { MR_SEQLEN, MR_MID, MR_E, MR_MAX, MR_NEWMAX, MR_O, MR_N };

static float fdl_select(float t, float m) { return t > m ? t : m; }
static uint32_t fdl_key(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u >> 31 ? ~u : u | 0x80000000u;
}
static float fdl_unkey(uint32_t k) {
    uint32_t u = k >> 31 ? k & 0x7FFFFFFFu : ~k;
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}
static float fdl_intmax(float t, float m) {
    uint32_t a = fdl_key(t), b = fdl_key(m);
    return fdl_unkey(a > b ? a : b);
}

/* program (b, h) of the running-max step */
static void fdl_max_one(const td_abi_launch *L, int64_t b, int64_t h, float (*mx)(float, float)) {
    float t = tl_load(L, MR_E, b * TL_I(L, M_E_B) + h * TL_I(L, M_E_H) + TL_I(L, M_K));
    int64_t off = b * TL_I(L, M_LOGIC_B) + h * TL_I(L, M_LOGIC_H);
    tl_store(L, MR_NEWMAX, off, mx(t, tl_load(L, MR_MAX, off)), tl_f32());
}
static int fdl_max_cmp(const td_abi_launch *L) {
    for (int64_t b = 0; b < (int64_t)L->grid[0]; b++)
        for (int64_t h = (int64_t)L->grid[1] - 1; h >= 0; h--) fdl_max_one(L, b, h, fdl_select);
    return 0;
}
static int fdl_max_int(const td_abi_launch *L) {
    for (int64_t b = (int64_t)L->grid[0] - 1; b >= 0; b--)
        for (int64_t h = 0; h < (int64_t)L->grid[1]; h++) fdl_max_one(L, b, h, fdl_intmax);
    return 0;
}

#define FDL_MAX "flash_decode2_llama.flash_decode2_llama_running_max_output_summary_general"
TD_KERNEL(td_a_fd2_llama_max_cmp) = {FDL_MAX, "alt_cmp_select", TD_ABI_HOST, NULL, NULL, NULL, M_NP, MR_N,
                                     fdl_max_cmp, NULL};
TD_KERNEL(td_a_fd2_llama_max_int) = {FDL_MAX, "alt_int_order", TD_ABI_HOST, NULL, NULL, NULL, M_NP, MR_N,
                                     fdl_max_int, NULL};
