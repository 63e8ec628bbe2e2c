/* mixed_sparse_attention on the host.
 *
 * The epilogue slice: program (start_m, off_hz) loads seqlen = Seqlens[off_hz // H], its
 * [BLOCK_M, BLOCK_DMODEL] accumulator tile from AccPre at o_ptrs (unmasked) and its row
 * sums LPre[start_m*BLOCK_M + r], divides (acc / l_i[:, None], binary32) and stores with
 * m_mask = offs_m < seqlen.
 * Parameters: H stride_qz stride_qh stride_om stride_ok BLOCK_M BLOCK_DMODEL.
 * Regions: AccPre, LPre (binary32), Seqlens (int32), Out (binary32). */
#include "mixed_sparse_attention_tl.h"

int td_msa_epilogue(const td_abi_launch *L, const msa_epi_bugs *bug) {
    int64_t h = TL_I(L, ME_H), bm = TL_I(L, ME_BM), bd = TL_I(L, ME_BD);
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
            int64_t sidx = bug->seqlen_by_head ? p1 % h : p1 / h;
            if (tl_fault(L, ME_SEQ, sidx, 1, 1, p0)) return 1;
            int64_t seqlen = tl_load_int(L, ME_SEQ, sidx);
            int64_t qo = p1 / h * TL_I(L, ME_SQZ) + p1 % h * TL_I(L, ME_SQH);
            for (int64_t r = 0; r < bm; r++) {
                int64_t m = (int64_t)p0 * bm + r;
                if (tl_fault(L, ME_L, m, 1, 1, p0)) return 1;
                float l = tl_load(L, ME_L, m);
                for (int64_t d = 0; d < bd; d++) {
                    int64_t o = qo + m * TL_I(L, ME_SOM) + d * TL_I(L, ME_SOK);
                    if (tl_fault(L, ME_ACC, o, 1, 1, p0) || tl_fault(L, ME_OUT, o, 1, 1, p0)) return 1;
                    float acc = tl_load(L, ME_ACC, o) / l;
                    if (bug->store_unmasked || m < seqlen) tl_store(L, ME_OUT, o, acc, tl_f32());
                }
            }
        }
    return 0;
}

static int epilogue(const td_abi_launch *L) {
    static const msa_epi_bugs none = {0, 0};
    return td_msa_epilogue(L, &none);
}

TD_KERNEL(td_k_msa_epilogue) = {"mixed_sparse_attention.mixed_sparse_attention_epilogue_io_correctness", "triton",
                                TD_ABI_HOST, NULL, NULL, NULL, 7, 4, epilogue, NULL};
