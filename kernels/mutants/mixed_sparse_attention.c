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

static int blocks_num_blks(const td_abi_launch *L) {
    static const msa_cf_bugs b = {1, 0, 0};
    return td_msa_cf(L, &b);
}
static int cols_causal(const td_abi_launch *L) {
    static const msa_cf_bugs b = {0, 1, 0};
    return td_msa_cf(L, &b);
}

static int cf_offset_i32(const td_abi_launch *L) {
    static const msa_cf_bugs b = {0, 0, 1};
    return td_msa_cf(L, &b);
}

#define MCF "mixed_sparse_attention.mixed_sparse_attention_output_closed_form_summary_general"
TD_KERNEL(td_m_msa_cf_nb) = {MCF, "mut_blocks_num_blks", TD_ABI_HOST, MSA_CF_CASTS, NULL,
                             "block loop over num_blks only (`for b in range(num_blks)`, the plain softmax over the "
                             "selected keys): the unused iterations' masked zero keys left out of the denominator",
                             MC_NP, MR_NR, blocks_num_blks, NULL};
TD_KERNEL(td_m_msa_cf_cc) = {MCF, "mut_cols_causal", TD_ABI_HOST, MSA_CF_CASTS, NULL,
                             "the column phase causally masked too (cols <= offs_m): vertical keys past the row dropped",
                             MC_NP, MR_NR, cols_causal, NULL};
TD_KERNEL(td_m_msa_cf_i32) = {MCF, "mut_offset_int32", TD_ABI_HOST, MSA_CF_CASTS, NULL,
                              "kv_offset = off_hz // H * stride_kz + off_hz % H * stride_kh computed in int32 (wraps "
                              "beyond 2^31 elements)", MC_NP, MR_NR, cf_offset_i32, NULL};
