/* bmm_chunk_fwd, alternative: blocks of 8 products, tree inside, blocks last-first.
 *
 * alt_block8: out[b, c, h, m, n] = sum_{k < K} A[b, c*cs + m, h, k] * B[b, c*cs + n, h, k]
 * (K = BK * numKBlocks, m, n < chunk_size) for every program (pid_b = grid axis 1,
 * pid_c = axis-2 id // ngroups, pid_h = the rest).  Each cell sums its exact fp16
 * products in blocks of 8 by a pairwise tree, the block sums accumulated from the last
 * block down; the port sums a pairwise tree per BK step in increasing k.  Admissible:
 * an association order of the binary32 sum; the cells are the port's store mask
 * (m < chunk_size & n < chunk_size) at the same offsets.
 */
#include "alt_common.h"

enum { P_CS, P_G, P_SAB, P_SAS, P_SAH, P_SAK, P_SBB, P_SBS, P_SBH, P_SBK, P_SOB, P_SOC, P_SOH, P_SOM, P_SON,
       P_BM, P_BN, P_BK, P_NKB };
enum { R_A, R_B, R_OUT };

static int block8(const td_abi_launch *L) {
    int64_t cs = TL_I(L, P_CS), G = TL_I(L, P_G), K = TL_I(L, P_BK) * TL_I(L, P_NKB);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t b = 0; b < L->grid[1]; b++) {
            int64_t c = p2 / G, h = p2 % G;
            int64_t abase = b * TL_I(L, P_SAB) + c * cs * TL_I(L, P_SAS) + h * TL_I(L, P_SAH);
            int64_t bbase = b * TL_I(L, P_SBB) + c * cs * TL_I(L, P_SBS) + h * TL_I(L, P_SBH);
            int64_t obase = b * TL_I(L, P_SOB) + c * TL_I(L, P_SOC) + h * TL_I(L, P_SOH);
            for (int64_t m = 0; m < cs; m++)
                for (int64_t n = 0; n < cs; n++) {
                    alt_vec a = {R_A, abase + m * TL_I(L, P_SAS), TL_I(L, P_SAK)};
                    alt_vec bv = {R_B, bbase + n * TL_I(L, P_SBS), TL_I(L, P_SBK)};
                    tl_store(L, R_OUT, obase + m * TL_I(L, P_SOM) + n * TL_I(L, P_SON),
                             alt_dot(L, &a, &bv, K, 0.0f, ALT_DOT_BLOCK8), tl_f32());
                }
        }
    return 0;
}

TD_KERNEL(td_a_bmm_chunk_fwd_summary) = {"bmm_chunk_fwd.bmm_chunk_fwd_output_summary_general", "alt_block8",
                                         TD_ABI_HOST, NULL, NULL, NULL, 19, 3, block8, NULL};
TD_KERNEL(td_a_bmm_chunk_fwd_io) = {"bmm_chunk_fwd.bmm_chunk_fwd_io_correctness", "alt_block8", TD_ABI_HOST, NULL,
                                    NULL, NULL, 19, 3, block8, NULL};
