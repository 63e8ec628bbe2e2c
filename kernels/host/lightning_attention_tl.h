/* lightning_attention: the port's forward program, shared by the kernel and its mutants. */
#ifndef TD_HOST_LIGHTNING_ATTENTION_H
#define TD_HOST_LIGHTNING_ATTENTION_H
#include "tl.h"

enum { LA_P_B, LA_P_H, LA_P_N, LA_P_D, LA_P_E, LA_P_BLOCK, LA_P_NUMBLOCK, LA_P_BM, LA_P_M };
enum { LA_R_Q, LA_R_K, LA_R_V, LA_R_OUT, LA_R_DO, LA_R_DQ, LA_R_DK, LA_R_DV, LA_R_KVPREV, LA_R_KTRANS, LA_R_VTILE,
       LA_R_KVOUT, LA_R_OINTER };
#define LA_SUM "lightning_attention.lightning_attention_output_summary_general"
#define LA_GRAD "lightning_attention.lightning_attention_bwd_grad_store_io_correctness"
#define LA_GRAD_R "lightning_attention.lightning_attention_bwd_grad_store_io_correctnessR"

/* the bugs the mutants seed (all 0: the port) */
typedef struct la_bug {
    int kv_first;    /* kv += k^T v before the block's output (the block counted twice) */
    int strict_mask; /* the causal mask index > 0: the diagonal dropped */
    int kv_reset;    /* kv not carried across blocks (reset per block) */
} la_bug;
int td_la_run(const td_abi_launch *L, const la_bug *bug);
#endif
