/* Alternatives for triton_attention.
 *
 * _bwd_preprocess (NewDO = DO / L, Delta = sum_d Out * NewDO):
 *   alt_recip_fma    NewDO as DO * (1 / L) (a reciprocal per row, one product per lane: the
 *                    a * (1/b) form), Delta as an FMA chain over the lanes from the last down.
 *   alt_div_once     Delta = (sum_d Out * DO) / L, the algebraically equal form that divides
 *                    once per row (the contract's N(either)); the sum left to right.
 * Parameters and regions: the port's. */
#include "alt_a_attn.h"

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

/* _fwd_kernel (causal attention with the row's l and m), one query row at a time through the
 * shared online-softmax row of alt_a_attn.h (normalised once at the end, not every block):
 *   alt_fwd_kv3_rev  key blocks of 3 keys from the last to the first, the score dots as FMA
 *                    chains, exp as compiled Triton lowers it (ex2.approx of x * log2 e).
 *   alt_fwd_kv1      one key per block left to right (a rescale at every key), expf.
 * L and M are the row's final running sum and maximum; Out the fp16 store. */
enum { F_SC, F_SQZ, F_SQH, F_Z, F_H, F_NCTX, F_D0, F_BM, F_BD, F_BN };
enum { FR_Q, FR_K, FR_V, FR_L, FR_M, FR_OUT };

static int tfa_run(const td_abi_launch *L, int64_t C, int reverse, aa_expfn ex) {
    const int64_t BM = TL_I(L, F_BM), BD = TL_I(L, F_BD), NCTX = TL_I(L, F_NCTX);
    const int64_t keys = (int64_t)L->grid[0] * BM;
    float *s, *v, *o, *p;
    uint8_t *keep;
    TL_ALLOC(L, s, keys);
    TL_ALLOC(L, v, keys * BD);
    TL_ALLOC(L, o, BD);
    TL_ALLOC(L, p, keys);
    TL_ALLOC(L, keep, keys);
    for (int64_t hz = 0; hz < (int64_t)L->grid[1]; hz++) {
        const int64_t base = hz * (TL_I(L, F_SQH) / BD);
        for (int64_t row = 0; row < keys; row++) {
            const int64_t n = (row / BM + 1) * BM; /* the program's key span */
            for (int64_t j = 0; j < n; j++) {
                float dot = 0.0f;
                for (int64_t e = BD - 1; e >= 0; e--)
                    dot = fmaf(tl_load(L, FR_Q, (base + row) * BD + e), tl_load(L, FR_K, (base + j) * BD + e), dot);
                s[j] = dot * TL_R(L, F_SC);
                keep[j] = j <= row;
                for (int64_t d = 0; d < BD; d++) v[j * BD + d] = tl_load(L, FR_V, (base + j) * BD + d);
            }
            aat_row R = {n, s, keep, C, reverse, 1, 0, ex};
            float m, l;
            aat_row_run2(&R, v, BD, o, p, &m, &l);
            tl_store(L, FR_L, hz * NCTX + row, l, tl_f32());
            tl_store(L, FR_M, hz * NCTX + row, m, tl_f32());
            for (int64_t d = 0; d < BD; d++) tl_store(L, FR_OUT, (base + row) * BD + d, o[d], alt_f16());
        }
    }
    free(s), free(v), free(o), free(p), free(keep);
    return 0;
}
static int kv3(const td_abi_launch *L) { return tfa_run(L, 3, 1, alt_exp_ptx); }
static int kv1(const td_abi_launch *L) { return tfa_run(L, 1, 0, expf); }

#define FWD "triton_attention.triton_attention_forward_output_summary_general"
#define FWDIO "triton_attention.triton_attention_forward_io_correctness"
#define FCASTS "p=fp16:rne:inf;store=fp16:rne:inf"
TD_KERNEL(td_a_ta_fwd_kv3) = {FWD, "alt_fwd_kv3_rev", TD_ABI_HOST, FCASTS, NULL, NULL, 10, 6, kv3, NULL};
TD_KERNEL(td_a_ta_fwdio_kv3) = {FWDIO, "alt_fwd_kv3_rev", TD_ABI_HOST, FCASTS, NULL, NULL, 10, 6, kv3, NULL};
TD_KERNEL(td_a_ta_fwd_kv1) = {FWD, "alt_fwd_kv1", TD_ABI_HOST, FCASTS, NULL, NULL, 10, 6, kv1, NULL};
TD_KERNEL(td_a_ta_fwdio_kv1) = {FWDIO, "alt_fwd_kv1", TD_ABI_HOST, FCASTS, NULL, NULL, 10, 6, kv1, NULL};

/* _bwd_kernel (DQ, DV, DK), unblocked and in other orders:
 *   alt_bwd_rowwise  every (query I, key J) pair recomputed where it is used: qk and do.v as
 *                    FMA chains from the last lane down, dp = dot - Di (subtracted after the
 *                    sum, not accumulated onto -Di), qk*sc - m as one FMA; DQ's sum from the
 *                    last key down with the prior contents added last, DV and DK's from the
 *                    last query row up, FMA throughout; no BM blocking.
 * The casts of p and ds to fp16 where the kernel makes them.  Parameters and regions: the port's. */
enum { TB_H, TB_SQZ, TB_SQH, TB_BASE, TB_SC, TB_BM, TB_BD, TB_D0, TB_NB };
enum { TBR_Q, TBR_K, TBR_V, TBR_DO, TBR_M, TBR_DELTA, TBR_DQ, TBR_DV, TBR_DK };

/* fp16(p[I,J]) (w = 0) or fp16(ds[I,J]) (w = 1) of the program at 2-D row hz */
static float tba_pds(const td_abi_launch *L, int64_t hz, int64_t row0, int64_t I, int64_t J, int w) {
    const int64_t BD = TL_I(L, TB_BD);
    if (J > I) return 0.0f;
    float qk = 0.0f, dot = 0.0f;
    for (int64_t e = BD - 1; e >= 0; e--) {
        qk = fmaf(tl_load(L, TBR_Q, (hz + I) * BD + e), tl_load(L, TBR_K, (hz + J) * BD + e), qk);
        dot = fmaf(tl_load(L, TBR_DO, (hz + I) * BD + e), tl_load(L, TBR_V, (hz + J) * BD + e), dot);
    }
    const float sc = TL_R(L, TB_SC);
    const float p = expf(fmaf(qk, sc, -tl_load(L, TBR_M, row0 + I)));
    const float dp = dot - tl_load(L, TBR_DELTA, row0 + I);
    return aat_f16(w ? p * dp * sc : p);
}

static int bwd_rowwise(const td_abi_launch *L) {
    const int64_t BD = TL_I(L, TB_BD), NCTX = TL_I(L, TB_NB) * TL_I(L, TB_BM), H = TL_I(L, TB_H);
    for (int64_t p0 = 0; p0 < (int64_t)L->grid[0]; p0++) {
        const int64_t hz = (p0 / H) * (TL_I(L, TB_SQZ) / BD) + (p0 % H) * (TL_I(L, TB_SQH) / BD), row0 = p0 * NCTX;
        for (int64_t r = 0; r < NCTX; r++)
            for (int64_t d = 0; d < BD; d++) {
                float dq = 0.0f, dv = 0.0f, dk = 0.0f;
                for (int64_t J = r; J >= 0; J--)
                    dq = fmaf(tba_pds(L, hz, row0, r, J, 1), tl_load(L, TBR_K, (hz + J) * BD + d), dq);
                for (int64_t I = NCTX - 1; I >= r; I--) {
                    dv = fmaf(tba_pds(L, hz, row0, I, r, 0), tl_load(L, TBR_DO, (hz + I) * BD + d), dv);
                    dk = fmaf(tba_pds(L, hz, row0, I, r, 1), tl_load(L, TBR_Q, (hz + I) * BD + d), dk);
                }
                const int64_t off = (hz + r) * BD + d;
                tl_store(L, TBR_DQ, off, dq + tl_load(L, TBR_DQ, off), tl_f32());
                tl_store(L, TBR_DV, off, dv, alt_f16());
                tl_store(L, TBR_DK, off, dk, alt_f16());
            }
    }
    return 0;
}

#define BWD "triton_attention.triton_attention_bwd_grads_genuine_output_summary_general"
TD_KERNEL(td_a_ta_bwd_rowwise) = {BWD, "alt_bwd_rowwise", TD_ABI_HOST, "p=fp16:rne:inf;ds=fp16:rne:inf;store=fp16:rne:inf",
                                  NULL, NULL, 15, 9, bwd_rowwise, NULL};
