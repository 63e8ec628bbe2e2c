/* chunk_retention / chunk_retention_ops: the forward state program
 * chunk_retention_fwd_kernel_h (the same kernel in both files), shared by the kernels and
 * the mutants of both.  Parameters (catalogue order): s_qk_h s_qk_t s_qk_d s_vo_h s_vo_t
 * s_vo_d s_h_h s_h_t H T K V BT BK BV NT USE_INITIAL_STATE STORE_FINAL_STATE; regions
 * k v h h0 ht. */
#ifndef TD_HOST_CHUNK_RETENTION_H
#define TD_HOST_CHUNK_RETENTION_H
#include "tl.h"

enum { CRT_P_SQK_H, CRT_P_SQK_T, CRT_P_SQK_D, CRT_P_SVO_H, CRT_P_SVO_T, CRT_P_SVO_D, CRT_P_SH_H, CRT_P_SH_T, CRT_P_H,
       CRT_P_T, CRT_P_K, CRT_P_V, CRT_P_BT, CRT_P_BK, CRT_P_BV, CRT_P_NT, CRT_P_USE_INIT, CRT_P_STORE_FINAL };
enum { CRT_R_K, CRT_R_V, CRT_R_H, CRT_R_H0, CRT_R_HT };
#define CRH_FWD "chunk_retention.crh_fwd_h_exec_genuine"
#define CRH_BWD "chunk_retention.crh_bwd_dh_exec_genuine"
#define CRO_FWD "chunk_retention_ops.cro_fwd_h_exec_genuine"
#define CRO_BWD "chunk_retention_ops.cro_bwd_dh_exec_genuine"

/* the bugs the forward mutants seed (all 0: the port) */
typedef struct crt_bug {
    int no_carry;    /* the state reset at every chunk (not carried across the boundary) */
    int no_ragged;   /* the ragged last chunk keeps BT's d_b / d_i (the decay at the wrong steps) */
    int fp16_state;  /* the state kept in fp16 between chunks */
    int store_after; /* h[t] stored after chunk t's update instead of before */
} crt_bug;
int td_crt_fwd_run(const td_abi_launch *L, const crt_bug *bug);
#endif
