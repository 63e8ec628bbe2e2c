/* kcache_copy_triton (n_tokens = 1): program (b, h) loads the x-split SPLIT_X of token
 * b's key head h and stores it at the last slot of sequence b's paged cache:
 * position seq_lengths[b] - 1, block BLOCK_TABLES[b, pos / block_size], slot
 * pos % block_size. */
#include "tl.h"

enum { P_SPLIT, P_SKT, P_SKH, P_SKD, P_SKCB, P_SKCH, P_SKCX, P_SKCS, P_SBTS, P_SBTB, P_BS, P_X };
enum { R_K, R_KC, R_BT, R_LEN };

static int kcache_copy(const td_abi_launch *L) {
    int64_t X = TL_I(L, P_X), split = TL_I(L, P_SPLIT), bs = TL_I(L, P_BS);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t tok = b / 1, shift = (int64_t)b - 1 * (tok + 1); /* n_tokens = 1: shift = -1 */
            int64_t past = tl_load_int(L, R_LEN, tok) + shift;
            int64_t blk = tl_load_int(L, R_BT, tok * TL_I(L, P_SBTS) + (past / bs) * TL_I(L, P_SBTB));
            int64_t base = blk * TL_I(L, P_SKCB) + h * TL_I(L, P_SKCH) + split * TL_I(L, P_SKCX) + (past % bs) * TL_I(L, P_SKCS);
            for (int64_t j = 0; j < X; j++)
                tl_store(L, R_KC, base + j,
                         tl_load(L, R_K, b * TL_I(L, P_SKT) + h * TL_I(L, P_SKH) + (split * X + j) * TL_I(L, P_SKD)),
                         tl_f32());
        }
    return 0;
}

TD_KERNEL(td_k_kcache_copy_n1) = {"kcache_copy_triton.copy_to_kcache_seqlen_n1_correctness", "triton", TD_ABI_HOST, NULL,
                                  NULL, NULL, 12, 4, kcache_copy, NULL};
