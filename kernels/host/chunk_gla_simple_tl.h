/* chunk_gla_simple: the port's program, shared by the kernel and its mutants. */
#ifndef TD_HOST_CHUNK_GLA_SIMPLE_H
#define TD_HOST_CHUNK_GLA_SIMPLE_H
#include "tl.h"

enum { CGS_P_SKH, CGS_P_SKT, CGS_P_SVH, CGS_P_SVT, CGS_P_SHH, CGS_P_SHT, CGS_P_SCALE, CGS_P_T, CGS_P_K, CGS_P_V,
       CGS_P_BT, CGS_P_BK, CGS_P_BV };
enum { CGS_R_Q, CGS_R_K, CGS_R_V, CGS_R_H, CGS_R_G, CGS_R_O };
#define CGS_SUM "chunk_gla_simple.chunk_gla_simple_output_summary_general"
#define CGS_IO "chunk_gla_simple.chunk_gla_simple_io_correctness"

/* the bugs the mutants seed (all 0: the port) */
typedef struct cgs_bug {
    int strict_mask;   /* m_s = o_i[:, None] > o_i[None, :]: the diagonal s = t dropped */
    int decay_swapped; /* exp(g_s - g_t): the decay's sign flipped (b_g[None, :] - b_g[:, None]) */
    int state_chunk0;  /* h read without the i_t*K*V chunk offset: every chunk uses chunk 0's state */
} cgs_bug;
int td_cgs_run(const td_abi_launch *L, const cgs_bug *bug);
#endif
