/* triton_attention: _bwd_preprocess on the CPU, program by program: the BLOCK_M x D_HEAD
 * tiles of Out and DO (fp16) and BLOCK_M entries of L converted to binary32, do / denom
 * stored as NewDO (fp16), the row sums of o * do (tl.sum: a pairwise tree) as Delta
 * (binary32).  Parameters: BLOCK_M, D_HEAD.  Regions: Out, DO, L, NewDO, Delta. */
#include "tl.h"

enum { P_BM, P_DH };
enum { R_OUT, R_DO, R_L, R_NEWDO, R_DELTA };

/* the mutants' switches (kernels/mutants/triton_attention.c) */
#define TA_MUT_RAW_DO 1u    /* delta = sum(o * do) with the undivided do */
#define TA_MUT_TIMES_L 2u   /* do * denom for do / denom */
#define TA_MUT_LAST_LANE 4u /* delta over D_HEAD - 1 lanes */
int td_hk_triton_attention_pre(const td_abi_launch *L, unsigned mut);

static td_profile ta_f16(void) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return p;
}

int td_hk_triton_attention_pre(const td_abi_launch *L, unsigned mut) {
    const int64_t BM = TL_I(L, P_BM), DH = TL_I(L, P_DH);
    float *prod;
    TL_ALLOC(L, prod, DH);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t i = 0; i < BM; i++) {
            const int64_t m = (int64_t)pid * BM + i;
            const float denom = tl_load(L, R_L, m);
            for (int64_t n = 0; n < DH; n++) {
                const float o = tl_load(L, R_OUT, m * DH + n), g = tl_load(L, R_DO, m * DH + n);
                const float d = (mut & TA_MUT_TIMES_L) ? g * denom : g / denom;
                prod[n] = o * ((mut & TA_MUT_RAW_DO) ? g : d);
                tl_store(L, R_NEWDO, m * DH + n, d, ta_f16());
            }
            const int64_t lanes = (mut & TA_MUT_LAST_LANE) && DH > 1 ? DH - 1 : DH;
            tl_store(L, R_DELTA, m, tl_sum(prod, lanes), tl_f32());
        }
    free(prod);
    return 0;
}

static int launch(const td_abi_launch *L) { return td_hk_triton_attention_pre(L, 0); }

TD_KERNEL(td_k_triton_attention_pre) = {"triton_attention.triton_attention_bwd_preprocess_genuine_output_summary_general",
                                        "triton", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 2, 5, launch, NULL};
