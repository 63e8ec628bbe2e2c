/* parallel_retention_attention: the port's programs, shared by the kernels and mutants. */
#ifndef TD_HOST_PARALLEL_RETENTION_ATTENTION_H
#define TD_HOST_PARALLEL_RETENTION_ATTENTION_H
#include "tl.h"

#define PRA_FWD "parallel_retention_attention.pra_fwd_o_exec_genuine"
#define PRA_BWD "parallel_retention_attention.pra_bwd_dkv_exec_genuine"
/* the bugs the mutants seed (all 0: the port) */
typedef struct pra_bug {
    int mask_strict;   /* the diagonal mask o_q > o_k (the key at the query's own position dropped) */
    int no_blk_decay;  /* forward: b_o not decayed by 2^(b_b BTS) between blocks */
    int skip_far;      /* backward: the descending loop stops one block early (the farthest block skipped) */
} pra_bug;
int td_pra_fwd_run(const td_abi_launch *L, const pra_bug *bug);
int td_pra_bwd_run(const td_abi_launch *L, const pra_bug *bug);
#endif
