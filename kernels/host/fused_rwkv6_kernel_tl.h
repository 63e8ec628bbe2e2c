/* fused_rwkv6_kernel: the port's program, shared by the kernel and its mutants. */
#ifndef TD_HOST_FUSED_RWKV6_KERNEL_H
#define TD_HOST_FUSED_RWKV6_KERNEL_H
#include "tl.h"

enum { RW6_P_USE_INIT, RW6_P_STORE_FINAL, RW6_P_SKH, RW6_P_SVH, RW6_P_B, RW6_P_H, RW6_P_T, RW6_P_K, RW6_P_V,
       RW6_P_BK, RW6_P_BV, RW6_P_M, RW6_P_SCALE };
enum { RW6_R_Q, RW6_R_K, RW6_R_V, RW6_R_W, RW6_R_U, RW6_R_O, RW6_R_H0, RW6_R_HT, RW6_R_BHPREV, RW6_R_BHOUT, RW6_R_C };
#define RW6_SUM "fused_rwkv6_kernel.fused_recurrent_rwkv6_output_summary_general"
#define RW6_STEP "fused_rwkv6_kernel.fused_recurrent_rwkv6_state_step_io_correctness"

/* the bugs the mutants seed (all 0: the port) */
typedef struct rw6_bug {
    int post_update;  /* o_t read from the state AFTER step t's update */
    int decay_linear; /* h * w: the log-space decay taken as a linear one */
    int fp16_state;   /* the state kept in fp16 between steps */
} rw6_bug;
int td_rw6_run(const td_abi_launch *L, const rw6_bug *bug);
#endif
