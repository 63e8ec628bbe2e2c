/* fused_recurrent_delta summary: the port's program, shared by the kernel and its mutants. */
#ifndef TD_HOST_FUSED_RECURRENT_DELTA_H
#define TD_HOST_FUSED_RECURRENT_DELTA_H
#include "tl.h"

enum { FRD_P_HEADWISE, FRD_P_USE_INIT, FRD_P_STORE_FINAL, FRD_P_USE_DH0, FRD_P_USE_DHT, FRD_P_SQK, FRD_P_SVO, FRD_P_NK,
       FRD_P_B, FRD_P_H, FRD_P_T, FRD_P_K, FRD_P_V, FRD_P_BK, FRD_P_BV, FRD_P_M, FRD_P_SCALE };
enum { FRD_R_Q, FRD_R_K, FRD_R_V, FRD_R_BETA, FRD_R_O, FRD_R_H0, FRD_R_HT, FRD_R_DHT, FRD_R_DH0, FRD_R_DO, FRD_R_DQ,
       FRD_R_DK, FRD_R_DV, FRD_R_DBETA, FRD_R_HPREV, FRD_R_HOUT, FRD_R_DHPREV, FRD_R_HREC };
#define FRD_SUM "fused_recurrent_delta.fused_recurrent_delta_output_summary_general"

/* the bugs the mutants seed (all 0: the port) */
typedef struct frd_bug {
    int vnew_scaled; /* forward: v_new stored after b_v *= b_beta */
    int no_dk_corr;  /* backward loop 2: dk not corrected by - h d_v */
    int bwd_no_init; /* backward loop 2: the rebuilt h not seeded with h0 */
} frd_bug;
int td_frd_run(const td_abi_launch *L, const frd_bug *bug);
#endif
