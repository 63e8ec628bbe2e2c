/* block_sparse_attn: what the host kernel, its mutants and its alternative share. */
#ifndef TD_BLOCK_SPARSE_ATTN_TL_H
#define TD_BLOCK_SPARSE_ATTN_TL_H
#include "tl.h"

/* the store slices' parameters and regions */
enum { BS_NH, BS_SEQ, BS_SAB, BS_SAH, BS_SAM, BS_SAD, BS_SOB, BS_SOH, BS_SOM, BS_BM, BS_BD };
enum { BS_ACC, BS_ACC2, BS_OUT };

/* the bugs the store mutants model (all 0: the kernel) */
typedef struct bsa_store_bugs {
    int acc_d_unstrided;    /* Acc read at + offs_d (stride_acc_d left out, as Out's store has none) */
    int no_shift;           /* the second store without + BLOCK_D */
    int store_unmasked;     /* the tail rows (offs_m >= total_seq_len) stored too (other = 0) */
} bsa_store_bugs;

int td_bsa_store_slice(const td_abi_launch *L, int reg, int second, const bsa_store_bugs *bug);

/* the closed form's parameters and regions (theorem order) */
enum { BF_BM, BF_BD, BF_BN, BF_NH, BF_NKV, BF_NL, BF_SEQ, BF_RSH, BF_CSH, BF_SQB, BF_SQH, BF_SQM, BF_SKB, BF_SKH,
       BF_SKN, BF_SVB, BF_SVH, BF_SVN, BF_SOB, BF_SOH, BF_SOM, BF_SCALE };
enum { BF_OUT, BF_Q, BF_K, BF_V, BF_R, BF_C };

typedef struct bsa_bugs {
    int layout_by_kv_head; /* layout_h = off_h_kv % num_layout (the KV head's layout) */
    int causal_local;      /* causal mask offs_m >= offs_n: the block's start_n left out */
    int store_unmasked;    /* rows past total_seq_len stored too */
    int offset_i32;        /* K += off_b * stride_kb + off_h_kv * stride_kh formed in int32 */
} bsa_bugs;

int td_bsa_attention(const td_abi_launch *L, const bsa_bugs *bug);
#endif
