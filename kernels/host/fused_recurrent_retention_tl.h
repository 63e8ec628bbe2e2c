/* fused_recurrent_retention: the port's program, shared by the kernel and its mutants. */
#ifndef TD_HOST_FUSED_RECURRENT_RETENTION_H
#define TD_HOST_FUSED_RECURRENT_RETENTION_H
#include "tl.h"

enum { FRR_P_USE_INIT, FRR_P_STORE_FINAL, FRR_P_SQK, FRR_P_SVO, FRR_P_B, FRR_P_H, FRR_P_T, FRR_P_DK, FRR_P_DV,
       FRR_P_BK, FRR_P_BV, FRR_P_M, FRR_P_SCALE };
enum { FRR_R_Q, FRR_R_K, FRR_R_V, FRR_R_O, FRR_R_DO, FRR_R_DQ, FRR_R_DK, FRR_R_DV, FRR_R_H0, FRR_R_HT, FRR_R_HSEED,
       FRR_R_HPREV, FRR_R_HOUT, FRR_R_DHPREV, FRR_R_DHOUT };
#define FRR_SUM "fused_recurrent_retention.fused_recurrent_retention_output_summary_general"
#define FRR_SEED "fused_recurrent_retention.fused_recurrent_retention_seed_io_correctness"
#define FRR_SEED_R "fused_recurrent_retention.fused_recurrent_retention_seed_io_correctnessR"

/* the bugs the mutants seed (all 0: the port) */
typedef struct frr_bug {
    int decay_twice; /* forward: h = b (b h) + k v */
    int fp16_state;  /* forward: the state kept in fp16 between steps */
    int bwd_forward; /* backward: the d_h loop runs forward in time */
    int decay_early; /* backward: d_h *= b_b before dk, dv (the decay at the wrong step) */
    int bwd_no_init; /* backward: the rebuilt h not seeded with initial_state */
    int off_i32;     /* both: the head bases (i_bh + i_x*B*H) * s_qk_h / s_vo_h in int32 */
} frr_bug;
int td_frr_run(const td_abi_launch *L, const frr_bug *bug);
#endif
