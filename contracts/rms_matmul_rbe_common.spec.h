/* The spec half of contracts/rms_matmul_rbe_common.h (no include guard: compiled once per
 * number type).  Lane (b, m, n) of output o: rmsSpec = normSpec * accPartial, cast to fp16. */

/* x_norm of row (b, m): rsqrt(sum_k x^2 / K + EPS), the squares in any order (memoised) */
static inline NUM SPEC(rmr_norm)(NCX *cx, const td_case *c, const rmr_idx *ix, int64_t b, int64_t m) {
    NUM nrm;
    if (N(memo_get)(cx, rmr_key(b, m), &nrm)) return nrm;
    int64_t K = c->p[ix->p_k].i, x0 = b * c->p[ix->p_sxb].i + m * c->p[ix->p_sxm].i, sxk = c->p[ix->p_sxk].i;
    NACC s;
    N(acc_init)(cx, &s, TD_ORDER_ANY, 0);
    for (int64_t k = 0; k < K; k++) {
        NUM x = N(in)(cx, c, ix->r_x, (size_t)(x0 + k * sxk));
        N(acc_add)(cx, &s, N(mul)(cx, x, x));
    }
    NUM mean = N(div)(cx, N(acc_end)(cx, &s), N(exact)(cx, (double)K));
    nrm = N(rsqrt)(cx, N(add)(cx, mean, N(exact)(cx, c->p[ix->p_eps].r)));
    N(memo_put)(cx, rmr_key(b, m), nrm);
    return nrm;
}

static inline NUM SPEC(rmr_lane)(NCX *cx, const td_case *c, const td_olane *l, const rmr_idx *ix, int store_slot) {
    int64_t b = l->idx[0], m = l->idx[1], n = l->idx[2], o = l->idx[3], K = c->p[ix->p_k].i;
    int64_t x0 = b * c->p[ix->p_sxb].i + m * c->p[ix->p_sxm].i, sxk = c->p[ix->p_sxk].i, srms = c->p[ix->p_srms].i;
    int64_t swk = c->p[ix->p_swk[o]].i, w0 = n * c->p[ix->p_swn[o]].i;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t k = 0; k < K; k++) {
        NUM x = N(in)(cx, c, ix->r_x, (size_t)(x0 + k * sxk)), r = N(in)(cx, c, ix->r_rms, (size_t)(k * srms));
        NUM xr32 = N(mul)(cx, x, r);
        /* x * rms_w: fp16 * fp16 rounded to fp16 (Triton), a kernel-side rounding the real
         * spec does not make (attn2_common.h), or promoted to binary32: either */
        NUM xr = N(either)(cx, xr32, SPEC(attn2_kround)(cx, xr32, attn2_fp16));
        N(acc_add)(cx, &acc, N(mul)(cx, xr, N(in)(cx, c, ix->r_w[o], (size_t)(w0 + k * swk))));
    }
    NUM out = N(mul)(cx, N(acc_end)(cx, &acc), SPEC(rmr_norm)(cx, c, ix, b, m));
    return N(cast)(cx, out, store_slot);
}

/* The intent: RMSNorm (Zhang & Sennrich 2019; torch.nn.RMSNorm with weight rms_w) of row
 * (b, m) over its K entries, then the matmul with W (torch.matmul):
 *     out[b, m, n] = sum_k (x_k / sqrt(mean(x^2) + EPS) * rms_w[k]) * W[k, n],
 * sums in any order, rsqrt or 1/sqrt, then the output's fp16 store (one rounding).  No
 * rotary: the statements have no positions or THETA (the kernel's RBE_EPILOGUE is unused).
 * Memo tag 0x53: never a contract's (rmr_key is 0x52). */
static inline NUM SPEC(rmr_intent)(NCX *cx, const td_case *c, const td_olane *l, const rmr_idx *ix, int store_slot) {
    int64_t b = l->idx[0], m = l->idx[1], n = l->idx[2], o = l->idx[3], K = c->p[ix->p_k].i;
    int64_t x0 = b * c->p[ix->p_sxb].i + m * c->p[ix->p_sxm].i, sxk = c->p[ix->p_sxk].i, srms = c->p[ix->p_srms].i;
    uint64_t key = (UINT64_C(0x53) << 56) ^ ((uint64_t)b << 24) ^ (uint64_t)m;
    NUM r;
    if (!N(memo_get)(cx, key, &r)) {
        NACC s;
        N(acc_init)(cx, &s, TD_ORDER_ANY, 0);
        for (int64_t k = 0; k < K; k++) {
            NUM x = N(in)(cx, c, ix->r_x, (size_t)(x0 + k * sxk));
            N(acc_add)(cx, &s, N(mul)(cx, x, x));
        }
        NUM arg = N(add)(cx, N(div)(cx, N(acc_end)(cx, &s), N(exact)(cx, (double)K)), N(exact)(cx, c->p[ix->p_eps].r));
        r = N(either)(cx, N(rsqrt)(cx, arg), N(div)(cx, N(exact)(cx, 1.0), N(sqrt)(cx, arg)));
        N(memo_put)(cx, key, r);
    }
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t k = 0; k < K; k++) {
        NUM x = N(in)(cx, c, ix->r_x, (size_t)(x0 + k * sxk)), rw = N(in)(cx, c, ix->r_rms, (size_t)(k * srms));
        NUM xn = N(mul)(cx, N(mul)(cx, x, r), rw);
        NUM w = N(in)(cx, c, ix->r_w[o], (size_t)(n * c->p[ix->p_swn[o]].i + k * c->p[ix->p_swk[o]].i));
        N(acc_add)(cx, &acc, N(mul)(cx, xn, w));
    }
    return N(cast)(cx, N(acc_end)(cx, &acc), store_slot);
}
