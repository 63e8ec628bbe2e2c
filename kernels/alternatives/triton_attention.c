/* Alternatives for triton_attention's _bwd_preprocess (NewDO = DO / L, Delta = sum_d Out * NewDO):
 *   alt_recip_fma    NewDO as DO * (1 / L) (a reciprocal per row, one product per lane: the
 *                    a * (1/b) form), Delta as an FMA chain over the lanes from the last down.
 *   alt_div_once     Delta = (sum_d Out * DO) / L, the algebraically equal form that divides
 *                    once per row (the contract's N(either)); the sum left to right.
 * Parameters and regions: the port's. */
#include "alt_common.h"

enum { P_BM, P_DH };
enum { R_OUT, R_DO, R_L, R_NEWDO, R_DELTA };

static int taa_run(const td_abi_launch *L, int variant) {
    const int64_t DH = TL_I(L, P_DH), rows = (int64_t)L->grid[0] * TL_I(L, P_BM);
    for (int64_t m = 0; m < rows; m++) {
        const float l = tl_load(L, R_L, m), rcp = 1.0f / l;
        float delta = 0.0f;
        for (int64_t n = DH - 1; n >= 0; n--) {
            const float o = tl_load(L, R_OUT, m * DH + n), g = tl_load(L, R_DO, m * DH + n);
            const float d = variant ? g / l : g * rcp;
            delta = variant ? delta : fmaf(o, d, delta);
            tl_store(L, R_NEWDO, m * DH + n, d, alt_f16());
        }
        if (variant) {
            for (int64_t n = 0; n < DH; n++) delta += tl_load(L, R_OUT, m * DH + n) * tl_load(L, R_DO, m * DH + n);
            delta = delta / l;
        }
        tl_store(L, R_DELTA, m, delta, tl_f32());
    }
    return 0;
}
static int recip(const td_abi_launch *L) { return taa_run(L, 0); }
static int once(const td_abi_launch *L) { return taa_run(L, 1); }

#define PRE "triton_attention.triton_attention_bwd_preprocess_genuine_output_summary_general"
TD_KERNEL(td_a_ta_pre_recip) = {PRE, "alt_recip_fma", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 2, 5, recip, NULL};
TD_KERNEL(td_a_ta_pre_once) = {PRE, "alt_div_once", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 2, 5, once, NULL};
