/* chunk_delta_fwd: the port's programs, shared by the kernels and their mutants. */
#ifndef TD_HOST_CHUNK_DELTA_FWD_H
#define TD_HOST_CHUNK_DELTA_FWD_H
#include "tl.h"

#define CDF_EXEC "chunk_delta_fwd.chunk_delta_fwd_exec_genuine"
enum { CDF_P_USE_INIT, CDF_P_STORE_FINAL, CDF_P_SQKH, CDF_P_SQKT, CDF_P_SQKD, CDF_P_SVOH, CDF_P_SVOT, CDF_P_SVOD,
       CDF_P_SHH, CDF_P_SHT, CDF_P_H, CDF_P_T, CDF_P_K, CDF_P_V, CDF_P_BT, CDF_P_BC, CDF_P_BK, CDF_P_BV, CDF_P_NT };
enum { CDF_R_K, CDF_R_V, CDF_R_D, CDF_R_VNEW, CDF_R_H, CDF_R_H0, CDF_R_HT };
/* the bugs the exec mutants seed (all 0: the port) */
typedef struct cdf_bug {
    int store_after; /* h[i_t] stored after the chunk's update (the state of the wrong chunk) */
    int no_carry;    /* b_h += b_h_cumsum dropped: the state not carried across chunks */
    int fp16_dot;    /* b_h.to(fp16) for the correction dot (an fp16 state) */
    int raw_v;       /* b_h_cumsum += k @ v with the uncorrected v */
} cdf_bug;
int td_cdf_run(const td_abi_launch *L, const cdf_bug *bug);

#define CDF_STORE "chunk_delta_fwd.chunk_delta_h_state_store_io_correctness"
#define CDF_STORE_R "chunk_delta_fwd.chunk_delta_h_state_store_io_correctnessR"
enum { CDF_PS_IT, CDF_PS_SHH, CDF_PS_SHT, CDF_PS_K, CDF_PS_V, CDF_PS_BK, CDF_PS_BV };

/* the bugs the state-store mutants seed (all 0: the port) */
typedef struct cdf_store_bug {
    int no_vcheck;   /* boundary_check=(0,): the V tail's columns loaded and stored */
    int slot_stride; /* the chunk slot at i_t*K*s_h_t (the row stride taken for V) */
    int fp16;        /* the state stored through fp16 */
} cdf_store_bug;
int td_cdf_store_run(const td_abi_launch *L, const cdf_store_bug *bug);
#endif
