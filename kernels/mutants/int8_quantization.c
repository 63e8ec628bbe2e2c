/* int8_quantization mutants: the rounding bugs int8 quantizers ship. */
#include "../host/tl.h"

enum { P_L, P_C, P_BLK, P_SSTRIDE, P_PRESCALE };
enum { R_X, R_SPRE, R_XI8, R_SCALE };

/* How v = preScale * x / scale becomes an int8 (HALF_AWAY: the original's, for the
 * int32-offset mutant): */
enum { HALF_EVEN, HALF_UP, HALF_AWAY };

static int pbi_variant(const td_abi_launch *L, int how) {
    int64_t Ln = TL_I(L, P_L), C = TL_I(L, P_C), BLK = TL_I(L, P_BLK), ss = TL_I(L, P_SSTRIDE);
    float pre = TL_R(L, P_PRESCALE);
    td_profile rtz = {TD_I8, TD_RTZ, TD_OVF_SAT, false}, rne = {TD_I8, TD_RNE, TD_OVF_SAT, false};
    for (uint32_t b = 0; b < L->grid[1]; b++)
        for (uint32_t k = 0; k < L->grid[0]; k++) {
            float scale = tl_load(L, R_SPRE, (int64_t)b * ss + k);
            for (int64_t off = (int64_t)b * Ln * C + (int64_t)k * BLK * C, m = 0; m < BLK && k * BLK + m < Ln; m++)
                for (int64_t kk = 0; kk < C; kk++) {
                    int64_t o = off + m * C + kk;
                    float v = (pre * tl_load(L, R_X, o)) / scale;
                    if (how == HALF_EVEN) tl_store(L, R_XI8, o, v, rne);     /* rint / cvt.rni: ties to even */
                    else if (how == HALF_UP) tl_store(L, R_XI8, o, v + 0.5f, rtz); /* +0.5 whatever the sign */
                    else tl_store(L, R_XI8, o, v + 0.5f * (v >= 0 ? 1.0f : -1.0f), rtz);
                }
            tl_store(L, R_SCALE, (int64_t)b * ss + k, scale, tl_f32());
        }
    return 0;
}
static int pbi_half_even(const td_abi_launch *L) { return pbi_variant(L, HALF_EVEN); }
static int pbi_half_up(const td_abi_launch *L) { return pbi_variant(L, HALF_UP); }

TD_KERNEL(td_m_pbi_half_even) = {"int8_quantization.per_block_int8_correctness", "mut_round_half_even",
                                 TD_ABI_HOST, "store=int8:rtz:sat", NULL,
                                 "rounded half to even (rint) where the kernel rounds half away from zero", 5, 4,
                                 pbi_half_even, NULL};
TD_KERNEL(td_m_pbi_half_up) = {"int8_quantization.per_block_int8_correctness", "mut_bias_unsigned", TD_ABI_HOST,
                               "store=int8:rtz:sat", NULL,
                               "the 0.5 bias added without the sign (negative values truncate the wrong way)", 5, 4,
                               pbi_half_up, NULL};

/* The original's x_offset + offs_m * C + offs_k = off_b*L*C + (off_blk*BLK + i)*C + k in
 * int32 (program ids and L int32, BLK and C constexprs: Triton types all int32): past
 * 2^31 elements of a batch the block base off_blk*BLK*C wraps negative and the load is an
 * illegal address (tl_fault_rows_i32).  Only the large tier (`--large`, td_rows_large)
 * has a batch of more than 2^31 elements: ordinary cases hold at most 2^14, where it is
 * the port. */
static int pbi_off_i32(const td_abi_launch *L) {
    if (tl_fault_rows_i32(L, R_X, TL_I(L, P_BLK) * TL_I(L, P_C), 1)) return 1;
    return pbi_variant(L, HALF_AWAY);
}
TD_KERNEL(td_m_pbi_i32) = {"int8_quantization.per_block_int8_correctness", "mut_large_offset_int32", TD_ABI_HOST,
                           "store=int8:rtz:sat", NULL,
                           "x_offset + offs_m * C + offs_k in int32: the block base wraps past 2^31", 5, 4, pbi_off_i32,
                           NULL};
