/* chunk_gla_fwd: the port's program, shared by the kernel and its mutants. */
#ifndef TD_HOST_CHUNK_GLA_FWD_H
#define TD_HOST_CHUNK_GLA_FWD_H
#include "tl.h"

enum { CGF_P_SKH, CGF_P_SKT, CGF_P_SVH, CGF_P_SVT, CGF_P_SHH, CGF_P_SHT, CGF_P_SCALE, CGF_P_T, CGF_P_K, CGF_P_V,
       CGF_P_BT, CGF_P_BK, CGF_P_BV };
enum { CGF_R_Q, CGF_R_V, CGF_R_G, CGF_R_H, CGF_R_O, CGF_R_A };
#define CGF_ID "chunk_gla_fwd.chunk_gla_fwd_o_exec_genuine"

/* the bugs the mutants seed (all 0: the port) */
typedef struct cgf_bug {
    int strict_mask;  /* where(i > j, A, 0): A's diagonal dropped */
    int state_chunk0; /* h read without the i_t*K*V offset */
    int scale_twice;  /* o = (b_o + A v) * scale: A (already scaled by its producer) scaled again */
} cgf_bug;
int td_cgf_run(const td_abi_launch *L, const cgf_bug *bug);
#endif
