/* The spec of contracts/llama_ff_triton.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference).  Lane (m, n): fp16(silu(r*S1) * (r*S3)). */

/* r of row m: rsqrt(sum_k A[m,k]^2 / K + EPS), the squares in any order (memoised, tag 0x4c) */
static inline NUM SPEC(ff_norm)(NCX *cx, const td_case *c, int64_t m) {
    NUM nrm;
    uint64_t key = (UINT64_C(0x4c) << 56) ^ (uint64_t)m;
    if (N(memo_get)(cx, key, &nrm)) return nrm;
    int64_t K = c->p[FF_K].i, a0 = m * c->p[FF_SAM].i, sak = c->p[FF_SAK].i;
    NACC s;
    N(acc_init)(cx, &s, TD_ORDER_ANY, 0);
    for (int64_t k = 0; k < K; k++) {
        NUM a = N(in)(cx, c, FF_A, (size_t)(a0 + k * sak));
        N(acc_add)(cx, &s, N(mul)(cx, a, a));
    }
    NUM mean = N(div)(cx, N(acc_end)(cx, &s), N(exact)(cx, (double)K));
    nrm = N(rsqrt)(cx, N(add)(cx, mean, N(exact)(cx, c->p[FF_EPS].r)));
    N(memo_put)(cx, key, nrm);
    return nrm;
}

/* S of (m, n) against the weight region w: sum_k (A[m,k] * RMS[k]) * W[k,n], any order;
 * the product a * rms_w rounded to fp16 (Triton's fp16 tile product, a kernel-side
 * rounding the real statement does not make) or in binary32: either */
static inline NUM SPEC(ff_gemm)(NCX *cx, const td_case *c, int64_t m, int64_t n, int w, int pk, int pn) {
    int64_t K = c->p[FF_K].i, a0 = m * c->p[FF_SAM].i, sak = c->p[FF_SAK].i, srms = c->p[FF_SRMS].i;
    int64_t w0 = n * c->p[pn].i, swk = c->p[pk].i;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t k = 0; k < K; k++) {
        NUM a = N(in)(cx, c, FF_A, (size_t)(a0 + k * sak)), r = N(in)(cx, c, FF_RMS, (size_t)(k * srms));
        NUM ar32 = N(mul)(cx, a, r);
        NUM ar = N(either)(cx, ar32, SPEC(attn2_kround)(cx, ar32, attn2_fp16));
        N(acc_add)(cx, &acc, N(mul)(cx, ar, N(in)(cx, c, w, (size_t)(w0 + k * swk))));
    }
    return N(acc_end)(cx, &acc);
}

static NUM SPEC(ff)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t m = l->idx[0], n = l->idx[1];
    NUM r = SPEC(ff_norm)(cx, c, m);
    NUM s1 = N(mul)(cx, SPEC(ff_gemm)(cx, c, m, n, FF_W1, FF_SW1K, FF_SW1N), r);
    NUM s3 = N(mul)(cx, SPEC(ff_gemm)(cx, c, m, n, FF_W3, FF_SW3K, FF_SW3N), r);
    NUM g = N(mul)(cx, s1, N(sigmoid)(cx, s1)); /* silu(v) = v * sigmoid(v) */
    return N(cast)(cx, N(mul)(cx, g, s3), FF_C_STORE);
}

/* The intent (docs/intent.md): LLaMA's FeedForward gate on the RMS-normalised row,
 *     xn[k] = A[m,k] / sqrt(mean_k A[m,k]^2 + EPS) * rms_w[k]   (torch.nn.RMSNorm),
 *     out = silu(sum_k xn[k] W1[k,n]) * (sum_k xn[k] W3[k,n])  (F.silu(w1(x)) * w3(x)),
 * sums in any order, rsqrt or 1/sqrt, the exact value rounded once to the fp16 output.
 * Memo tag 0x4d (the contract's norm is 0x4c). */
static NUM SPEC(ff_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t m = l->idx[0], n = l->idx[1], K = c->p[FF_K].i, a0 = m * c->p[FF_SAM].i, sak = c->p[FF_SAK].i;
    uint64_t key = (UINT64_C(0x4d) << 56) ^ (uint64_t)m;
    NUM r;
    if (!N(memo_get)(cx, key, &r)) {
        NACC s;
        N(acc_init)(cx, &s, TD_ORDER_ANY, 0);
        for (int64_t k = 0; k < K; k++) {
            NUM a = N(in)(cx, c, FF_A, (size_t)(a0 + k * sak));
            N(acc_add)(cx, &s, N(mul)(cx, a, a));
        }
        NUM arg = N(add)(cx, N(div)(cx, N(acc_end)(cx, &s), N(exact)(cx, (double)K)), N(exact)(cx, c->p[FF_EPS].r));
        r = N(either)(cx, N(rsqrt)(cx, arg), N(div)(cx, N(exact)(cx, 1.0), N(sqrt)(cx, arg)));
        N(memo_put)(cx, key, r);
    }
    NACC h1, h3;
    N(acc_init)(cx, &h1, TD_ORDER_ANY, 0);
    N(acc_init)(cx, &h3, TD_ORDER_ANY, 0);
    for (int64_t k = 0; k < K; k++) {
        NUM a = N(in)(cx, c, FF_A, (size_t)(a0 + k * sak)), rw = N(in)(cx, c, FF_RMS, (size_t)(k * c->p[FF_SRMS].i));
        NUM xn = N(mul)(cx, N(mul)(cx, a, r), rw);
        NUM w1 = N(in)(cx, c, FF_W1, (size_t)(n * c->p[FF_SW1N].i + k * c->p[FF_SW1K].i));
        NUM w3 = N(in)(cx, c, FF_W3, (size_t)(n * c->p[FF_SW3N].i + k * c->p[FF_SW3K].i));
        N(acc_add)(cx, &h1, N(mul)(cx, xn, w1));
        N(acc_add)(cx, &h3, N(mul)(cx, xn, w3));
    }
    NUM v1 = N(acc_end)(cx, &h1);
    return N(cast)(cx, N(mul)(cx, N(mul)(cx, v1, N(sigmoid)(cx, v1)), N(acc_end)(cx, &h3)), FF_C_STORE);
}
