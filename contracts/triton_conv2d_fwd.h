/* The shared declarations of contracts/triton_conv2d_fwd.c and its spec file: the
 * parameter and region indices and the launch's dimensions read from a case. */
#ifndef TD_TRITON_CONV2D_FWD_H
#define TD_TRITON_CONV2D_FWD_H

#include "matmul_common.h"

enum {
    CV_B, CV_CIN, CV_IH, CV_IW, CV_COUT, CV_OH, CV_OW, CV_IBS, CV_IIFS, CV_IHS, CV_IWS, CV_WOFS, CV_WIFS, CV_WHS,
    CV_WWS, CV_OBS, CV_OOFS, CV_OHS, CV_OWS, CV_KH, CV_KW, CV_SH, CV_SW, CV_PH, CV_PW, CV_G, CV_TF32, CV_BHW,
    CV_BIN, CV_OF, CV_NCB, CV_NP
};
enum { CV_IN, CV_W, CV_OUT, CV_NR }; /* (Input Weight Output : RegionName) */

typedef struct cv_dims {
    int64_t B, cin, IH, IW, cout, OH, OW, KH, KW, SH, SW, PH, PW, G, BHW, BIN, OF, NCB;
    int64_t IGD, OGD;            /* in_feat_dim / groups, out_feat_dim / groups */
    int64_t is[4], ws[4], os[4]; /* Input, Weight, Output strides in the kernel's order */
} cv_dims;

static inline void cv_get(const td_case *c, cv_dims *d) {
    const td_pval *p = c->p;
    d->B = p[CV_B].i, d->cin = p[CV_CIN].i, d->IH = p[CV_IH].i, d->IW = p[CV_IW].i, d->cout = p[CV_COUT].i;
    d->OH = p[CV_OH].i, d->OW = p[CV_OW].i, d->KH = p[CV_KH].i, d->KW = p[CV_KW].i, d->SH = p[CV_SH].i;
    d->SW = p[CV_SW].i, d->PH = p[CV_PH].i, d->PW = p[CV_PW].i, d->G = p[CV_G].i, d->BHW = p[CV_BHW].i;
    d->BIN = p[CV_BIN].i, d->OF = p[CV_OF].i, d->NCB = p[CV_NCB].i;
    d->IGD = d->G > 0 ? d->cin / d->G : 0, d->OGD = d->G > 0 ? d->cout / d->G : 0;
    for (int k = 0; k < 4; k++)
        d->is[k] = p[CV_IBS + k].i, d->ws[k] = p[CV_WOFS + k].i, d->os[k] = p[CV_OBS + k].i;
}

/* hOutInj: the active lanes' output offsets are distinct (a direct check) */
static inline int cv_out_injective(const cv_dims *d) {
    int64_t span = (d->B - 1) * d->os[0] + (d->G * d->OGD - 1) * d->os[1] + (d->OH - 1) * d->os[2] +
                   (d->OW - 1) * d->os[3] + 1;
    uint8_t *seen;
    if (span <= 0 || span > (1 << 26) || !(seen = calloc((size_t)span, 1))) return 0;
    int ok = 1;
    for (int64_t b = 0; b < d->B && ok; b++)
        for (int64_t oc = 0; oc < d->G * d->OGD && ok; oc++)
            for (int64_t h = 0; h < d->OH && ok; h++)
                for (int64_t w = 0; w < d->OW && ok; w++) {
                    int64_t o = b * d->os[0] + oc * d->os[1] + h * d->os[2] + w * d->os[3];
                    ok = !seen[o];
                    seen[o] = 1;
                }
    free(seen);
    return ok;
}

#endif
