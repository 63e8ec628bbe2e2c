/* chunk_bwd_dqkg: the port's program, shared by the kernel and its mutants. */
#ifndef TD_HOST_CHUNK_BWD_DQKG_H
#define TD_HOST_CHUNK_BWD_DQKG_H
#include "tl.h"

enum { CBD_P_SKH, CBD_P_SKT, CBD_P_SVH, CBD_P_SVT, CBD_P_SHH, CBD_P_SHT, CBD_P_SCALE, CBD_P_T, CBD_P_K, CBD_P_V,
       CBD_P_BT, CBD_P_BK, CBD_P_BV, CBD_P_NT };
enum { CBD_R_Q, CBD_R_K, CBD_R_V, CBD_R_H, CBD_R_G, CBD_R_DO, CBD_R_DH, CBD_R_DQ, CBD_R_DK, CBD_R_DG };
#define CBD_ID "chunk_bwd_dqkg.chunk_bwd_dqkg_exec_genuine"

/* the bugs the mutants seed (all 0: the port) */
typedef struct cbd_bug {
    int strict_mask;   /* where(o_i[:, None] > o_i[None, :]): ds's diagonal dropped */
    int dglast_late;   /* b_dg_last += sum(b_dk * b_k) taken after the ds contraction */
    int dglast_blkrow; /* b_dg_last added at row BT - 1, not the last in-range row */
} cbd_bug;
int td_cbd_run(const td_abi_launch *L, const cbd_bug *bug);
#endif
