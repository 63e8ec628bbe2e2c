/* diag_ssm_triton: the port's programs, shared by the kernels and their mutants. */
#ifndef TD_HOST_DIAG_SSM_TRITON_H
#define TD_HOST_DIAG_SSM_TRITON_H
#include "tl.h"

#define DSSM_FWD_SUM "diag_ssm_triton.diag_ssm_forward_kernel_output_summary"
#define DSSM_FWD_IO "diag_ssm_triton.diag_ssm_forward_io_correctness"
#define DSSM_BWD_IO "diag_ssm_triton.diag_ssm_backward_io_correctness"
typedef struct dssm_bug {
    int decay_twice, fp16_state, lambda_by_batch; /* forward */
    int bwd_forward, y_same_row, no_last_decay;   /* backward */
    int off_i32;                                  /* both: t * batch_size * dim + col in int32 */
} dssm_bug;
int td_dssm_fwd(const td_abi_launch *L, const dssm_bug *bug);
int td_dssm_bwd(const td_abi_launch *L, const dssm_bug *bug);
#endif
