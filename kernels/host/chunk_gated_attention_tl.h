/* chunk_gated_attention: the port's state-store slices, shared by the kernels and the mutants. */
#ifndef TD_HOST_CHUNK_GATED_ATTENTION_H
#define TD_HOST_CHUNK_GATED_ATTENTION_H
#include "tl.h"

#define CGA_ST "chunk_gated_attention.chunk_gated_attention_state_stores_io_correctness"
#define CGA_ST_R "chunk_gated_attention.chunk_gated_attention_state_stores_io_correctnessR"

/* the bugs the mutants seed (all 0: the port) */
typedef struct cga_bug {
    int no_chunk_offset; /* the h store without i_t*KSize*VSize: every chunk's state at chunk 0 */
    int strides_swapped; /* the h tile addressed k*s_h_d + v*s_h_t */
    int floor_grid;      /* NK = KSize // BK: the K tail's programs never run */
} cga_bug;
int td_cga_stores_run(const td_abi_launch *L, const cga_bug *bug);

#define CGA_BUNDLE "chunk_gated_attention.chunk_gated_attention_cum_slice_output_summary_general"
/* the bundle's bugs (all 0: the port) */
typedef struct cga_bbug {
    int cum_exclusive; /* m_s = o_i[:, None] > o_i[None, :]: the exclusive cumsum */
    int no_decay;      /* b_h *= exp(b_gn) left out: the carried state not decayed */
    int gn_first_row;  /* b_gn read at the chunk's first row instead of its last */
    int fp16_state;    /* the carried state kept in fp16 between chunks */
} cga_bbug;
int td_cga_bundle_run(const td_abi_launch *L, const cga_bbug *bug);
#endif
