/* chunk_linear_attn: the port's programs, shared by the kernels and their mutants. */
#ifndef TD_HOST_CHUNK_LINEAR_ATTN_H
#define TD_HOST_CHUNK_LINEAR_ATTN_H
#include "tl.h"

#define CLA_FWD "chunk_linear_attn.cla_fwd_h_exec_genuine"
#define CLA_BWD "chunk_linear_attn.cla_bwd_dh_exec_genuine"

/* the bugs the mutants seed (all 0: the port) */
typedef struct cla_bug {
    int store_after; /* the state stored after the chunk's dot: inclusive where exclusive is specified */
    int no_carry;    /* b_h = tl.dot(...) instead of +=: the state not carried across chunks */
    int fp16_state;  /* the carried tile kept in fp16 between chunks */
    int ascending;   /* bwd: the loop runs i_t = 0 .. NT-1 (dh accumulated in the forward direction) */
} cla_bug;
int td_cla_fwd_run(const td_abi_launch *L, const cla_bug *bug);
int td_cla_bwd_run(const td_abi_launch *L, const cla_bug *bug);
#endif
