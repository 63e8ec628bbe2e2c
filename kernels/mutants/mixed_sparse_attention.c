/* mixed_sparse_attention mutants (the programs are in ../host/mixed_sparse_attention.c). */
#include "../host/mixed_sparse_attention_tl.h"

static int seqlen_by_head(const td_abi_launch *L) {
    static const msa_epi_bugs b = {1, 0};
    return td_msa_epilogue(L, &b);
}
static int store_unmasked(const td_abi_launch *L) {
    static const msa_epi_bugs b = {0, 1};
    return td_msa_epilogue(L, &b);
}

#define EPI "mixed_sparse_attention.mixed_sparse_attention_epilogue_io_correctness"
TD_KERNEL(td_m_msa_epi_sh) = {EPI, "mut_seqlen_by_head", TD_ABI_HOST, NULL, NULL,
                              "seqlen loaded at Seqlens[off_hz % H]: the head's index for the batch's", 7, 4,
                              seqlen_by_head, NULL};
TD_KERNEL(td_m_msa_epi_su) = {EPI, "mut_store_unmasked", TD_ABI_HOST, NULL, NULL,
                              "m_mask dropped: rows past the sequence length stored (acc / l there)", 7, 4,
                              store_unmasked, NULL};
