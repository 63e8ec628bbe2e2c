/* parallel_attention: the port's programs, shared by the kernels and mutants. */
#ifndef TD_HOST_PARALLEL_ATTENTION_H
#define TD_HOST_PARALLEL_ATTENTION_H
#include "tl.h"

#define PA_FWD "parallel_attention.pa_fwd_o_exec_genuine"
#define PA_BWD "parallel_attention.pa_bwd_dkv_exec_genuine"
/* the bugs the mutants seed (all 0: the port) */
typedef struct pa_bug {
    int mask_strict; /* the diagonal mask strict (a query's own key dropped) */
    int no_square;   /* forward: the score not squared (linear attention's feature map) */
    int dz_all;      /* backward: dz added on every V block (not only i_v = 0): counted NV times by the host */
    int skip_far;    /* backward: the descending loop starts one block low */
    int offset_i32;  /* forward: q + i_bh * s_qk_h formed in int32 (wraps beyond 2^31 elements) */
} pa_bug;
int td_pa_fwd_run(const td_abi_launch *L, const pa_bug *bug);
int td_pa_bwd_run(const td_abi_launch *L, const pa_bug *bug);
#endif
