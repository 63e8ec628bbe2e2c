/* mixed_sparse_attention: what the host kernel, its mutants and its alternative share. */
#ifndef TD_MIXED_SPARSE_ATTENTION_TL_H
#define TD_MIXED_SPARSE_ATTENTION_TL_H
#include "tl.h"

/* the epilogue's parameters and regions */
enum { ME_H, ME_SQZ, ME_SQH, ME_SOM, ME_SOK, ME_BM, ME_BD };
enum { ME_ACC, ME_L, ME_SEQ, ME_OUT };

typedef struct msa_epi_bugs {
    int seqlen_by_head; /* seqlen = Seqlens[off_hz % H] (the head's index for the batch's) */
    int store_unmasked; /* the rows past seqlen stored too */
} msa_epi_bugs;

int td_msa_epilogue(const td_abi_launch *L, const msa_epi_bugs *bug);
#endif
