/* chunk_gate_recurrence: the port's programs, shared by the kernels and their mutants. */
#ifndef TD_HOST_CHUNK_GATE_RECURRENCE_H
#define TD_HOST_CHUNK_GATE_RECURRENCE_H
#include "tl.h"

#define CGR_SUM "chunk_gate_recurrence.chunk_gate_recurrence_output_summary_general"
enum { CGR_P_HAS_LAST_KV, CGR_P_TREL, CGR_P_NUM_HEAD, CGR_P_NB, CGR_P_NUM_K, CGR_P_NUM_V, CGR_P_DK, CGR_P_DV,
       CGR_P_BMK, CGR_P_BMV };
enum { CGR_R_ACCPREV, CGR_R_S, CGR_R_D, CGR_R_O, CGR_R_LASTKV, CGR_R_DACCPREV, CGR_R_DACCTAIL, CGR_R_DS, CGR_R_DI,
       CGR_R_DG, CGR_R_DL };
/* the bugs the summary's mutants seed (all 0: the port) */
typedef struct cgr_bug {
    int no_carry;    /* forward: acc = seed * d_i + S_i, the state not carried across chunks */
    int decay_twice; /* forward: acc = acc * d_i * d_i + S_i */
    int fp16_state;  /* forward: acc kept in fp16 between chunks */
    int same_index;  /* backward: DS and d read at S's chunk, not one ahead */
} cgr_bug;
int td_cgr_run(const td_abi_launch *L, const cgr_bug *bug);

#define CGR_STORE "chunk_gate_recurrence.chunk_gate_recurrence_forward_store_io_correctness"
#define CGR_STORE_R "chunk_gate_recurrence.chunk_gate_recurrence_forward_store_io_correctnessR"
enum { CGR_PS_NB, CGR_PS_DK, CGR_PS_DV, CGR_PS_BMK, CGR_PS_BMV };

/* the bugs the store mutants seed (all 0: the port) */
typedef struct cgr_store_bug {
    int chunk_one;   /* O advanced by DK*DV before the initial store (chunk 1 written) */
    int acc_layout;  /* O's head stride taken from the state layout (DK*DV, NUM_BLOCK dropped) */
    int fp16;        /* the tile stored through fp16 */
    int off_i32;     /* O's head base offset_bh * NUM_BLOCK * DK * DV in int32 (Triton's int32 product) */
} cgr_store_bug;
int td_cgr_store_run(const td_abi_launch *L, const cgr_store_bug *bug);
#endif
