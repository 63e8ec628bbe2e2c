/* mixed_sparse_attention, alternatives.
 *
 * Epilogue, alt_reciprocal: acc * (1 / l) with the reciprocal formed once per row (what a
 * compiler makes of `acc /= l_i[:, None]` under fast-math, and what hand-written epilogues
 * do), lanes visited column by column and programs in reverse.  Admissible: the
 * contract's division is any division an implementation may make; the reciprocal-multiply
 * is within 2u + u^2 of the quotient (oracle/shadow.c div_local). */
#include "alt_common.h"

enum { ME_H, ME_SQZ, ME_SQH, ME_SOM, ME_SOK, ME_BM, ME_BD };
enum { ME_ACC, ME_L, ME_SEQ, ME_OUT };

static int reciprocal(const td_abi_launch *L) {
    int64_t h = TL_I(L, ME_H), bm = TL_I(L, ME_BM), bd = TL_I(L, ME_BD);
    for (int64_t p1 = (int64_t)L->grid[1] - 1; p1 >= 0; p1--) {
        int64_t seqlen = tl_load_int(L, ME_SEQ, p1 / h);
        int64_t qo = p1 / h * TL_I(L, ME_SQZ) + p1 % h * TL_I(L, ME_SQH);
        int64_t rows = (int64_t)L->grid[0] * bm;
        for (int64_t d = 0; d < bd; d++)
            for (int64_t m = 0; m < rows && m < seqlen; m++) {
                float rcp = 1.0f / tl_load(L, ME_L, m);
                int64_t o = qo + m * TL_I(L, ME_SOM) + d * TL_I(L, ME_SOK);
                if (tl_fault(L, ME_ACC, o, 1, 1, 0) || tl_fault(L, ME_OUT, o, 1, 1, 0)) return 1;
                tl_store(L, ME_OUT, o, tl_load(L, ME_ACC, o) * rcp, tl_f32());
            }
    }
    return 0;
}

TD_KERNEL(td_a_msa_epilogue) = {"mixed_sparse_attention.mixed_sparse_attention_epilogue_io_correctness",
                                "alt_reciprocal", TD_ABI_HOST, NULL, NULL, NULL, 7, 4, reciprocal, NULL};
