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

/* the closed form's parameters and regions (contracts/mixed_sparse_attention.c) */
enum { MC_BM, MC_BN, MC_BD, MC_NCTX, MC_Z, MC_H, MC_NR, MC_NS, MC_NV, MC_SQZ, MC_SQH, MC_SQM, MC_SQK, MC_SKZ, MC_SKH,
       MC_SKN, MC_SKK, MC_SVZ, MC_SVH, MC_SVN, MC_SVK, MC_SOZ, MC_SOH, MC_SOM, MC_SOK, MC_SCALE, MC_NP };
enum { MR_Q, MR_K, MR_V, MR_SEQ, MR_BCNT, MR_BOFF, MR_CCNT, MR_COLS, MR_OUT, MR_NR };

typedef struct msa_cf_bugs {
    int blocks_num_blks; /* the block loop runs num_blks iterations, not max_num_blks = 8 (no zero keys) */
    int cols_causal;     /* the column phase also masks keys past the row (cols <= offs_m) */
    int offset_i32;      /* kv_offset = off_hz // H * stride_kz + off_hz % H * stride_kh formed in int32 */
} msa_cf_bugs;

int td_msa_cf(const td_abi_launch *L, const msa_cf_bugs *bug);
#define MSA_CF_CASTS "q=fp16:rne:inf;p=fp16:rne:inf;store=fp16:rne:inf"
#endif
