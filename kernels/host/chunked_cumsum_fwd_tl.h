/* chunked_cumsum_fwd: the parameter and region indices of its two contracts (the kernel
 * ABI passes them in each theorem's catalogue order), shared by the host, mutant and
 * alternative kernels. */
#ifndef TD_CHUNKED_CUMSUM_FWD_TL_H
#define TD_CHUNKED_CUMSUM_FWD_TL_H

#include "tl.h"

enum { CCF_SDB, CCF_SDS, CCF_SDH, CCF_SAH, CCF_SOB, CCF_SOC, CCF_SOH, CCF_SOS, CCF_SAB, CCF_SAC, CCF_SAHD, CCF_SAS,
       CCF_NH, CCF_CS, CCF_BSH, CCF_BSC, CCF_NK };
enum { CCF_DT, CCF_A, CCF_DTOUT, CCF_DACS, CCF_NQ };

typedef struct ccf_geo {
    int64_t p[CCF_NK];
    int r[CCF_NQ];
} ccf_geo;

/* correctness: the 16 parameters in order, 4 regions; summary_general: 23 parameters
 * (batch seqlen nheads chunk_size dt_min dt_max, 13 strides with stride_dt_bias_head
 * 5th, DT_SOFTPLUS HAS_DT_BIAS BSH BSC), 9 regions (the surface's 5 first). */
static inline ccf_geo ccf_geo_of(const td_abi_launch *L) {
    static const int corr[CCF_NK] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    static const int sum[CCF_NK] = {6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 2, 3, 21, 22};
    int is_sum = L->nparams != 16;
    ccf_geo g;
    for (int k = 0; k < CCF_NK; k++) g.p[k] = TL_I(L, is_sum ? sum[k] : corr[k]);
    for (int q = 0; q < CCF_NQ; q++) g.r[q] = (is_sum ? 5 : 0) + q;
    return g;
}
static inline int64_t ccf_rd(const ccf_geo *g, int64_t b, int64_t ck, int64_t h, int64_t col) {
    return b * g->p[CCF_SDB] + (ck * g->p[CCF_CS] + col) * g->p[CCF_SDS] + h * g->p[CCF_SDH];
}
static inline int64_t ccf_wr(const ccf_geo *g, int o, int64_t b, int64_t ck, int64_t h, int64_t col) {
    const int64_t *s = g->p + (o ? CCF_SAB : CCF_SOB);
    return b * s[0] + ck * s[1] + h * s[2] + col * s[3];
}

#define CCF_CORR "chunked_cumsum_fwd.chunked_cumsum_fwd_correctness"
#define CCF_SUM "chunked_cumsum_fwd.chunked_cumsum_fwd_summary_general"

#endif
