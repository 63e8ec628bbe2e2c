/* fused_recurrent_hgrn: the port's program, shared by the kernel and its mutants. */
#ifndef TD_HOST_FUSED_RECURRENT_HGRN_H
#define TD_HOST_FUSED_RECURRENT_HGRN_H
#include "tl.h"

enum { HG_P_USE_INIT, HG_P_STORE_FINAL, HG_P_IT, HG_P_T, HG_P_D, HG_P_BD };
enum { HG_R_X, HG_R_G, HG_R_O, HG_R_H0, HG_R_HT, HG_R_DX, HG_R_DG, HG_R_DO, HG_R_BHPREV, HG_R_DHPREV };
#define HG_SUM "fused_recurrent_hgrn.fused_recurrent_hgrn_output_summary_general"
#define HG_DX "fused_recurrent_hgrn.fused_recurrent_hgrn_bwd_dx_io_correctness"

typedef struct hg_bug {
    int fp16_state;  /* forward: the state kept in fp16 between steps */
    int bwd_forward; /* backward: the loop runs from t = 0 up */
    int dg_same_row; /* backward: b_o read from O[t] instead of O[t - 1] */
    int decay_early; /* backward: b_dh *= b_g before dx, dg are taken */
    int off_i32;     /* i_bh * T * D + o_d in int32 (the pointers then step by D in 64 bits) */
} hg_bug;
int td_hgrn_run(const td_abi_launch *L, const hg_bug *bug);
#endif
