/* The spec half of contracts/attn2_common.h: helpers written once against the vocabulary of
 * contracts/spec.h.  A contract's spec file includes it, so it is compiled once per number
 * type with that spec (no include guard on purpose). */

/* kernel-side rounding to fp16 (see the header comment) */
static inline NUM SPEC(k16)(NCX *cx, NUM a) { return SPEC(attn2_kround)(cx, a, attn2_fp16); }

/* The P operand of a P.V dot, rounded to fp16 by the kernel (p.to(fp16)) at the scale
 * its own blocking gives it: no rounding boundary can be placed (td_sh_kround); the
 * subnormal parts are charged at the final scale by SPEC(a2_reblock). */
static inline NUM SPEC(p16)(NCX *cx, NUM a) { return N(kround_to)(cx, a, attn2_fp16); }

/* upper bound of a kernel weight e^(s - m) (2^(s - m)) at the final max m (see
 * attn_online_common.spec.h: at_wbound) */
static inline double SPEC(a2_wb)(NCX *cx, NUM s, double mlo, int base2) {
    double d = N(up)(cx, s) - mlo;
    return (d >= 0 ? 1.0 : (base2 ? exp2(d) : exp(d))) * (1 + 0x1p-8);
}

/* The row's accumulator and denominator as any blocking leaves them (td_sh_reblock;
 * the terms' magnitudes smag = sum_j pm_j |v_j|, lmag = sum_j pm_j over the n live keys,
 * vsum = sum_j |v_j| the subnormal parts of the fp16 P at the final scale).  norm: the
 * weights are normalised every step (the context kernels: p * beta / l_new, acc *
 * (l / l_new) alpha): 4 roundings and 2 divisions per step, smag / l. */
static inline void SPEC(a2_reblock)(NCX *cx, long n, double smag, double lmag, double vsum, double vmax, int base2,
                                    int norm, NUM *acc, NUM *l) {
    if (norm) *acc = N(reblock)(cx, *acc, n, smag, vmax, base2, 4, 2);
    else {
        *acc = N(reblock)(cx, *acc, n, smag, vmax, base2, 1, 0);
        *l = N(reblock)(cx, *l, n, lmag, 1.0, base2, 1, 0);
        /* the row sum may add the fp16 P the dot takes (see attn_online_common.spec.h) */
        *l = N(kround_abs_to)(cx, *l, attn2_fp16, (double)n, lmag);
    }
    *acc = N(kround_abs_to)(cx, *acc, attn2_fp16, vsum, 0.0);
}

/* The running-max update of an online softmax: m_new = max(m_old, m_blk).  The kernel's
 * maximum IS one of its operands, so one of alpha = exp(m_old - m_new) and
 * beta = exp(m_blk - m_new) is exp(0) = 1 exactly; which one is a comparison, and where
 * the shadow cannot decide it, N(sel) covers both branches (the kernel may take the
 * other one).  In exact arithmetic both branches give the same final value. */
static inline void SPEC(a2_rescale)(NCX *cx, NUM m_old, NUM m_blk, int base2, NUM *m_new, NUM *alpha, NUM *beta) {
    NB ge = N(cmp)(cx, m_old, m_blk, 'g');
    NUM one = N(exact)(cx, 1.0);
    if ((ge & 6) == 6) { /* decided for the exact values and the kernel's: only the taken branch */
        NUM d = N(truth)(ge) ? N(sub)(cx, m_blk, m_old) : N(sub)(cx, m_old, m_blk);
        NUM e = base2 ? N(exp2)(cx, d) : N(exp)(cx, d);
        *m_new = N(truth)(ge) ? m_old : m_blk;
        *alpha = N(truth)(ge) ? one : e;
        *beta = N(truth)(ge) ? e : one;
        return;
    }
    NUM d_ob = N(sub)(cx, m_old, m_blk), d_bo = N(sub)(cx, m_blk, m_old);
    NUM e_ob = base2 ? N(exp2)(cx, d_ob) : N(exp)(cx, d_ob); /* alpha when the block's max wins */
    NUM e_bo = base2 ? N(exp2)(cx, d_bo) : N(exp)(cx, d_bo); /* beta when the old max wins */
    *m_new = N(sel)(cx, ge, m_old, m_blk);
    *alpha = N(sel)(cx, ge, one, e_ob);
    *beta = N(sel)(cx, ge, e_bo, one);
}

/* attention_kernel[_aligned]: the score of row r (of head p1) against key j, the
 * kernel's evaluation: q' = (q * qk_scale).to(fp16) with qk_scale = sm_scale * 1.44269504
 * (binary32), qk = tl.dot(q', k) (fp16 products exact; a binary32 sum, or for the aligned
 * kernel out_dtype=fp16: each partial sum rounded to fp16), then the bias:
 *   attention_kernel:  qk += ((b0 + b1) * 1.44269504)  all fp16 (the literal rounded to fp16,
 *                      Triton keeps a Python scalar out of the promotion), added in binary32;
 *   aligned:           qk += (b0 + b1), fp16 + fp16 -> fp16.
 * The fp16 roundings are kernel-side (the contracts are real-valued in the loop). */
static inline NUM SPEC(a2k_score)(NCX *cx, const td_case *c, const attn2_ak *k, int64_t p1, int64_t r, int64_t j,
                                  uint64_t row) {
    uint64_t key = attn2_key(A2K_S, row, (uint64_t)j, 0);
    NUM s;
    if (N(memo_get)(cx, key, &s)) return s;
    NUM qks;
    if (!N(memo_get)(cx, attn2_key(A2K_QKS, 0, 0, 0), &qks)) {
        qks = N(mul)(cx, N(exact)(cx, k->sm_scale), N(lit_dec)(cx, "1.44269504"));
        N(memo_put)(cx, attn2_key(A2K_QKS, 0, 0, 0), qks);
    }
    int64_t kvh = p1 * (k->aligned ? k->sqh : k->skh);
    NUM dot = N(exact)(cx, 0.0);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t e = 0; e < k->HD; e++) {
        NUM qp;
        uint64_t kq = attn2_key(A2K_QP, row, (uint64_t)e, 0);
        if (!N(memo_get)(cx, kq, &qp)) {
            qp = SPEC(k16)(cx, N(mul)(cx, N(in)(cx, c, A2K_Q, (size_t)(p1 * k->sqh + r * k->HD + e)), qks));
            N(memo_put)(cx, kq, qp);
        }
        NUM t = N(mul)(cx, qp, N(in)(cx, c, A2K_K, (size_t)(kvh + j * k->HD + e)));
        if (k->aligned) dot = e == 0 ? SPEC(k16)(cx, t) : SPEC(k16)(cx, N(add)(cx, dot, t));
        else N(acc_add)(cx, &acc, t);
    }
    if (!k->aligned) dot = N(acc_end)(cx, &acc);
    int64_t brow = p1 * k->sb0h + r * k->sb0m;
    NUM b0 = N(in)(cx, c, A2K_B0, (size_t)(brow + j / k->BN));
    NUM b1 = N(in)(cx, c, A2K_B0, (size_t)(brow + (j % k->BN) % k->BLS + k->BLS));
    NUM bsum = SPEC(k16)(cx, N(add)(cx, b0, b1));
    if (k->aligned) {
        s = SPEC(k16)(cx, N(add)(cx, dot, bsum));
    } else {
        NUM c16;
        if (!N(memo_get)(cx, attn2_key(A2K_C16, 0, 0, 0), &c16)) {
            c16 = SPEC(k16)(cx, N(lit_dec)(cx, "1.44269504"));
            N(memo_put)(cx, attn2_key(A2K_C16, 0, 0, 0), c16);
        }
        s = N(add)(cx, dot, SPEC(k16)(cx, N(mul)(cx, bsum, c16)));
    }
    N(memo_put)(cx, key, s);
    return s;
}

/* Output lane (p1, r, d), in the kernel's order, per KV block t of BLOCK_N keys:
 *   m_new = maximum(m_i, tl.max(qk)), alpha = exp2(m_i - m_new), p = exp2(qk - m_new),
 *   acc = acc*alpha + tl.dot(p.to(fp16), v), l = l*alpha + tl.sum(p) (tree);
 * the first block from (-inf, 0, 0): acc = the dot, l = the sum, exactly; then acc / l. */
static inline NUM SPEC(a2k_out)(NCX *cx, const td_case *c, const attn2_ak *k, int64_t p1, int64_t r, int64_t d) {
    int64_t BN = k->BN, kvh = p1 * (k->aligned ? k->sqh : k->skh);
    uint64_t row = (uint64_t)(p1 * k->rows + r);
    NUM m = N(exact)(cx, 0.0), l = N(exact)(cx, 0.0), acc = N(exact)(cx, 0.0);
    for (int64_t t = 0; t < k->nB; t++) {
        NUM m_new, alpha, l_new, p16[256];
        int hit = N(memo_get)(cx, attn2_key(A2K_M, row, (uint64_t)t, 0), &m_new) &&
                  N(memo_get)(cx, attn2_key(A2K_A, row, (uint64_t)t, 0), &alpha) &&
                  N(memo_get)(cx, attn2_key(A2K_L, row, (uint64_t)t, 0), &l_new);
        for (int64_t n = 0; hit && n < BN; n++)
            hit = N(memo_get)(cx, attn2_key(A2K_P16, row, (uint64_t)(t * BN + n), 0), &p16[n]);
        if (!hit) {
            NUM bm = SPEC(a2k_score)(cx, c, k, p1, r, t * BN, row);
            for (int64_t n = 1; n < BN; n++) bm = N(max)(cx, bm, SPEC(a2k_score)(cx, c, k, p1, r, t * BN + n, row));
            if (t == 0) {
                m_new = bm;
                alpha = N(exact)(cx, 0.0);
            } else {
                NUM beta;
                SPEC(a2_rescale)(cx, m, bm, 1, &m_new, &alpha, &beta);
            }
            NACC ls;
            N(acc_init)(cx, &ls, TD_ORDER_TREE, 0);
            for (int64_t n = 0; n < BN; n++) {
                NUM pj = N(exp2)(cx, N(sub)(cx, SPEC(a2k_score)(cx, c, k, p1, r, t * BN + n, row), m_new));
                N(acc_add)(cx, &ls, pj);
                p16[n] = SPEC(p16)(cx, pj); /* p.to(OUT_DTYPE) */
                N(memo_put)(cx, attn2_key(A2K_P16, row, (uint64_t)(t * BN + n), 0), p16[n]);
            }
            NUM l_ij = N(acc_end)(cx, &ls);
            l_new = t == 0 ? l_ij : N(add)(cx, N(mul)(cx, l, alpha), l_ij);
            N(memo_put)(cx, attn2_key(A2K_M, row, (uint64_t)t, 0), m_new);
            N(memo_put)(cx, attn2_key(A2K_A, row, (uint64_t)t, 0), alpha);
            N(memo_put)(cx, attn2_key(A2K_L, row, (uint64_t)t, 0), l_new);
        }
        NACC dot;
        N(acc_init)(cx, &dot, TD_ORDER_SEQ, 0);
        for (int64_t n = 0; n < BN; n++)
            N(acc_add)(cx, &dot, N(mul)(cx, p16[n], N(in)(cx, c, A2K_V, (size_t)(kvh + (t * BN + n) * k->HD + d))));
        NUM dv = N(acc_end)(cx, &dot);
        acc = t == 0 ? dv : N(add)(cx, N(mul)(cx, acc, alpha), dv); /* acc *= alpha; acc += tl.dot */
        m = m_new, l = l_new;
    }
    double mlo = N(down)(cx, m), smag = 0, lmag = 0, vsum = 0, vmax = 0;
    for (int64_t j = 0; j < k->nB * BN; j++) {
        double w = SPEC(a2_wb)(cx, SPEC(a2k_score)(cx, c, k, p1, r, j, row), mlo, 1);
        double v = fabs(td_get(c, A2K_V, (size_t)(kvh + j * k->HD + d)));
        smag += w * v, lmag += w, vsum += v, vmax = v > vmax ? v : vmax;
    }
    SPEC(a2_reblock)(cx, (long)(k->nB * BN), smag, lmag, vsum, vmax, 1, 0, &acc, &l);
    return N(div)(cx, acc, l);
}

/* context attention (attn2_ctx): the score of query row gi against key j (memoised per
 * row and key): qk = tl.dot(q, k) (fp16 products exact, a binary32 sum along the head
 * dim), *= sm_scale */
static inline NUM SPEC(a2c_score)(NCX *cx, const td_case *c, const attn2_ctx *x, int64_t gi, int64_t j) {
    uint64_t key = attn2_key(A2C_S, x->rowid + (uint64_t)gi, (uint64_t)j, 0);
    NUM s;
    if (N(memo_get)(cx, key, &s)) return s;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t e = 0; e < x->DM; e++)
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, x->rq, a2c_qoff(x, gi, e)), N(in)(cx, c, x->rk, a2c_koff(c, x, j, e))));
    s = N(mul)(cx, N(acc_end)(cx, &acc), N(exact)(cx, x->sm_scale));
    N(memo_put)(cx, key, s);
    return s;
}


/* Output lane (gi, d) of the normalised online softmax, in the kernel's order, per
 * KV block t of BLOCK_N keys up to the row's last causal key gi + plen (nopad, mistral:
 * plen = 0, BLOCK_N = BLOCK_M, blocks 0 .. pid2):
 *   m_ij = tl.max(qk) (masked lanes out), p = exp(qk - m_ij), l_ij = tl.sum(p) (tree),
 *   m_new = max(m_i, m_ij), alpha, beta (a2_rescale), l_new = alpha*l_i + beta*l_ij,
 *   p_scale = beta / l_new, p = p*p_scale, acc_scale = l_i / l_new * alpha,
 *   acc = acc*acc_scale + tl.dot(p.to(fp16), v)   (the dot summed from 0, then added).
 * The first block starts from (m_i, l_i, acc) = (-inf, 0, 0): alpha = 0, beta = 1,
 * l_new = l_ij, acc = the dot, all exactly.  Mistral's masked prefix (blocks before the
 * row's window, where every lane holds the -1e9 sentinel) is modelled as the kernel's
 * declared behaviour: exp(-1e9 - m) is exactly 0 in binary32, m_ij = -1e9 becomes 0,
 * l_new = 0 becomes 1e-9 (the literal RN32(1e-9)), so the row reaches the first block of
 * its window with (m_i, l_i, acc) = (0, 1e-9, 0) exactly (see the contract file).
 * Bloom's blocks past the row's last causal key (where BLOCK_M > BLOCK_N) are exact
 * no-ops in the kernel (m_ij = -1e8, beta = exp(-1e8 - m_i) = 0, alpha = 1, l unchanged,
 * p_scale = 0, acc_scale forced to 1): they are skipped.
 * Per-row quantities are memoised (keyed by row + tag); the lane's own work is the
 * rescale and the dot of each block. */
static inline NUM SPEC(a2c_out)(NCX *cx, const td_case *c, const attn2_ctx *x, int64_t gi, int64_t d) {
    int64_t B = x->BN, T = (gi + x->plen) / B + 1; /* the blocks holding causal keys */
    int64_t j0 = (x->sw > 0 && gi - x->sw + 1 > 0) ? gi - x->sw + 1 : 0; /* first live key */
    int64_t P = j0 / B;                                                   /* masked-prefix blocks */
    uint64_t row = x->rowid + (uint64_t)gi;
    NUM m = N(exact)(cx, 0.0), l = N(exact)(cx, 0.0), acc = N(exact)(cx, 0.0);
    int state = 0; /* 0: (-inf, 0, 0); 1: after a masked prefix (0, 1e-9, 0); 2: running */
    if (P > 0) {
        l = N(lit_dec)(cx, "1e-9");
        state = 1;
    }
    for (int64_t t = P; t < T; t++) {
        NUM m_new, l_new, p_scale, acc_scale, p16[256];
        uint64_t kt = (uint64_t)t;
        int hit = N(memo_get)(cx, attn2_key(A2C_MNEW, row, kt, 0), &m_new) &&
                  N(memo_get)(cx, attn2_key(A2C_L, row, kt, 0), &l_new) &&
                  N(memo_get)(cx, attn2_key(A2C_PSCALE, row, kt, 0), &p_scale) &&
                  N(memo_get)(cx, attn2_key(A2C_ASCALE, row, kt, 0), &acc_scale);
        for (int64_t j = t * B; hit && j < (t + 1) * B; j++)
            if (a2c_live(x, gi, j)) hit = N(memo_get)(cx, attn2_key(A2C_P16, row, (uint64_t)j, 0), &p16[j - t * B]);
        if (!hit) {
            /* the block's max over its live keys, p and l_ij */
            NUM m_ij = N(exact)(cx, -INFINITY), p[256];
            int first = 1;
            for (int64_t j = t * B; j < (t + 1) * B; j++) {
                if (!a2c_live(x, gi, j)) continue;
                NUM s = SPEC(a2c_score)(cx, c, x, gi, j);
                m_ij = first ? s : N(max)(cx, m_ij, s);
                first = 0;
            }
            NACC ls;
            N(acc_init)(cx, &ls, TD_ORDER_TREE, 0);
            for (int64_t j = t * B; j < (t + 1) * B; j++) {
                if (!a2c_live(x, gi, j)) { /* exp(-inf) or exp(-1e9 - m_ij): an exact 0 in its place */
                    N(acc_add)(cx, &ls, N(exact)(cx, 0.0));
                    continue;
                }
                p[j - t * B] = N(exp)(cx, N(sub)(cx, SPEC(a2c_score)(cx, c, x, gi, j), m_ij));
                N(acc_add)(cx, &ls, p[j - t * B]);
            }
            NUM l_ij = N(acc_end)(cx, &ls);
            if (state == 0) { /* alpha = exp(-inf) = 0, beta = exp(0) = 1: l_new = l_ij exactly */
                m_new = m_ij;
                l_new = l_ij;
                p_scale = N(div)(cx, N(exact)(cx, 1.0), l_new);
                acc_scale = N(exact)(cx, 0.0);
            } else {
                NUM alpha, beta;
                SPEC(a2_rescale)(cx, m, m_ij, 0, &m_new, &alpha, &beta);
                l_new = N(add)(cx, N(mul)(cx, alpha, l), N(mul)(cx, beta, l_ij));
                p_scale = N(div)(cx, beta, l_new);
                acc_scale = N(mul)(cx, N(div)(cx, l, l_new), alpha);
            }
            for (int64_t j = t * B; j < (t + 1) * B; j++)
                if (a2c_live(x, gi, j)) { /* p = p * p_scale; p.to(v.dtype) */
                    p16[j - t * B] = SPEC(p16)(cx, N(mul)(cx, p[j - t * B], p_scale));
                    N(memo_put)(cx, attn2_key(A2C_P16, row, (uint64_t)j, 0), p16[j - t * B]);
                }
            N(memo_put)(cx, attn2_key(A2C_MNEW, row, kt, 0), m_new);
            N(memo_put)(cx, attn2_key(A2C_L, row, kt, 0), l_new);
            N(memo_put)(cx, attn2_key(A2C_PSCALE, row, kt, 0), p_scale);
            N(memo_put)(cx, attn2_key(A2C_ASCALE, row, kt, 0), acc_scale);
        }
        /* the lane's dot with this block's p16: tl.dot(p, v), summed from 0 */
        NACC dot;
        N(acc_init)(cx, &dot, TD_ORDER_SEQ, 0);
        for (int64_t j = t * B; j < (t + 1) * B; j++)
            if (a2c_live(x, gi, j))
                N(acc_add)(cx, &dot, N(mul)(cx, p16[j - t * B], N(in)(cx, c, x->rv, a2c_voff(c, x, j, d))));
        NUM dv = N(acc_end)(cx, &dot);
        /* acc = acc * acc_scale, then acc += dot; while acc is exactly 0 (the first block,
         * or a masked prefix) both steps are exact: acc = dot */
        acc = state == 2 ? N(add)(cx, N(mul)(cx, acc, acc_scale), dv) : dv;
        m = m_new, l = l_new, state = 2;
    }
    double mlo = N(down)(cx, m), llo = N(down)(cx, l), smag = 0, vsum = 0, vmax = 0;
    long n = 0;
    for (int64_t j = P * B; j < T * B; j++)
        if (a2c_live(x, gi, j)) {
            double w = SPEC(a2_wb)(cx, SPEC(a2c_score)(cx, c, x, gi, j), mlo, 0) / (llo > 0 ? llo : 0.0);
            double v = fabs(td_get(c, x->rv, a2c_voff(c, x, j, d)));
            smag += (w < 1 ? w : 1) * v, vsum += v, vmax = v > vmax ? v : vmax, n++;
        }
    SPEC(a2_reblock)(cx, n, smag, 0, vsum, vmax, 0, 1, &acc, &l);
    return acc;
}


/* Output lane (gi, d) of the unnormalised base-2 online softmax (context_attn_llama,
 * context_attn_fwd), acc / l, in the kernel's order, per KV block t of BLOCK_N keys up
 * to the row's last causal key gi + plen:
 *   m_ij = maximum(m_i, tl.max(qk)), p = exp2(qk - m_ij), l = l*alpha + tl.sum(p) (tree,
 *   masked lanes exact zeros), acc = tl.dot(p.to(fp16), v, acc*alpha) (onto acc*alpha, in
 *   order); the first block from (-inf, 0, 0): alpha = 0, acc = the dot, l = the sum.
 * Blocks past gi + plen are exact no-ops in the kernel (exp2(-1e8 - m) = 0, alpha = 1):
 * they are skipped.  The -1e8 sentinel's keys get weight 0 (see the contract files). */
static inline NUM SPEC(a2c_out_deferred)(NCX *cx, const td_case *c, const attn2_ctx *x, int64_t gi, int64_t d) {
    int64_t BN = x->BN, last = gi + x->plen; /* the row's last live key */
    uint64_t row = x->rowid + (uint64_t)gi;
    NUM m = N(exact)(cx, 0.0), l = N(exact)(cx, 0.0), acc = N(exact)(cx, 0.0);
    for (int64_t t = 0; t * BN <= last; t++) {
        int64_t j1 = (t + 1) * BN - 1 < last ? (t + 1) * BN - 1 : last; /* live keys t*BN .. j1 */
        NUM m_new, alpha, l_new, p16[256];
        int hit = N(memo_get)(cx, attn2_key(A2C_MNEW, row, (uint64_t)t, 0), &m_new) &&
                  N(memo_get)(cx, attn2_key(A2C_ALPHA, row, (uint64_t)t, 0), &alpha) &&
                  N(memo_get)(cx, attn2_key(A2C_L, row, (uint64_t)t, 0), &l_new);
        for (int64_t j = t * BN; hit && j <= j1; j++)
            hit = N(memo_get)(cx, attn2_key(A2C_P16, row, (uint64_t)j, 0), &p16[j - t * BN]);
        if (!hit) {
            NUM bm = SPEC(a2c_score)(cx, c, x, gi, t * BN);
            for (int64_t j = t * BN + 1; j <= j1; j++) bm = N(max)(cx, bm, SPEC(a2c_score)(cx, c, x, gi, j));
            if (t == 0) { /* maximum(-inf, tl.max(qk)) = tl.max(qk); alpha = exp2(-inf) = 0 */
                m_new = bm;
                alpha = N(exact)(cx, 0.0);
            } else {
                NUM beta;
                SPEC(a2_rescale)(cx, m, bm, 1, &m_new, &alpha, &beta);
            }
            NACC ls;
            N(acc_init)(cx, &ls, TD_ORDER_TREE, 0);
            for (int64_t j = t * BN; j < (t + 1) * BN; j++) {
                if (j > j1) { /* exp2(-1e8 - m) = 0 in its place of the tree */
                    N(acc_add)(cx, &ls, N(exact)(cx, 0.0));
                    continue;
                }
                NUM pj = N(exp2)(cx, N(sub)(cx, SPEC(a2c_score)(cx, c, x, gi, j), m_new)); /* exp2(qk - m_ij) */
                N(acc_add)(cx, &ls, pj);
                p16[j - t * BN] = SPEC(p16)(cx, pj); /* p.to(v.dtype) */
                N(memo_put)(cx, attn2_key(A2C_P16, row, (uint64_t)j, 0), p16[j - t * BN]);
            }
            NUM l_ij = N(acc_end)(cx, &ls);
            l_new = t == 0 ? l_ij : N(add)(cx, N(mul)(cx, l, alpha), l_ij); /* l_i * alpha + l_ij */
            N(memo_put)(cx, attn2_key(A2C_MNEW, row, (uint64_t)t, 0), m_new);
            N(memo_put)(cx, attn2_key(A2C_ALPHA, row, (uint64_t)t, 0), alpha);
            N(memo_put)(cx, attn2_key(A2C_L, row, (uint64_t)t, 0), l_new);
        }
        /* acc = tl.dot(p, v, acc * alpha): the products added onto acc*alpha in order */
        NACC dot;
        N(acc_init)(cx, &dot, TD_ORDER_SEQ, 0);
        if (t > 0) N(acc_add)(cx, &dot, N(mul)(cx, acc, alpha));
        for (int64_t j = t * BN; j <= j1; j++)
            N(acc_add)(cx, &dot, N(mul)(cx, p16[j - t * BN], N(in)(cx, c, x->rv, a2c_voff(c, x, j, d))));
        acc = N(acc_end)(cx, &dot);
        m = m_new, l = l_new;
    }
    double mlo = N(down)(cx, m), smag = 0, lmag = 0, vsum = 0, vmax = 0;
    for (int64_t j = 0; j <= last; j++) {
        double w = SPEC(a2_wb)(cx, SPEC(a2c_score)(cx, c, x, gi, j), mlo, 1);
        double v = fabs(td_get(c, x->rv, a2c_voff(c, x, j, d)));
        smag += w * v, lmag += w, vsum += v, vmax = v > vmax ? v : vmax;
    }
    SPEC(a2_reblock)(cx, (long)(last + 1), smag, lmag, vsum, vmax, 1, 0, &acc, &l);
    return N(div)(cx, acc, l);
}

/* ---- intents (docs/intent.md) ----
 * One output lane of torch.nn.functional.scaled_dot_product_attention (PyTorch
 * documentation: softmax(q k^T * scale + mask) v) for query row gi of a context
 * attention: the causal mask of its position, j <= gi + plen (is_causal=True over the
 * prompt cache's plen tokens and the sequence's own), and Mistral's sliding window
 * j > gi - sw where x->sw > 0 (Jiang et al. 2023, "Mistral 7B": each token attends to
 * the sw most recent tokens, itself included): a2c_live.  Every value exact (no fp16 P),
 * natural base.  base2: the kernel's host folds log2 e into sm_scale and uses exp2
 * (context_attn_llama, context_attn_fwd: sm_scale = 1/sqrt(d) * 1.4426950408889634), so
 * the operation's scale is sm_scale * ln 2. */
static inline NUM SPEC(a2c_intent_score)(NCX *cx, const td_case *c, const attn2_ctx *x, int64_t gi, int64_t j,
                                         int base2) {
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t e = 0; e < x->DM; e++)
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, x->rq, a2c_qoff(x, gi, e)), N(in)(cx, c, x->rk, a2c_koff(c, x, j, e))));
    NUM sc = N(exact)(cx, x->sm_scale);
    if (base2) sc = N(mul)(cx, sc, N(log)(cx, N(exact)(cx, 2.0)));
    return N(mul)(cx, N(acc_end)(cx, &acc), sc);
}
/* The intents memoise a row's max and weight sum and each live key's weight e^(t_j - m)
 * under their own tags (A2I_*, attn2_common.h). */
static inline void SPEC(a2c_intent_row)(NCX *cx, const td_case *c, const attn2_ctx *x, int64_t gi, int base2, NUM *m,
                                        NUM *ls) {
    uint64_t row = x->rowid + (uint64_t)gi;
    if (N(memo_get)(cx, attn2_key(A2I_M, row, 0, 0), m) && N(memo_get)(cx, attn2_key(A2I_L, row, 0, 0), ls)) return;
    int first = 1;
    *m = N(exact)(cx, 0.0);
    for (int64_t j = 0; j <= gi + x->plen; j++) {
        if (!a2c_live(x, gi, j)) continue;
        NUM t = SPEC(a2c_intent_score)(cx, c, x, gi, j, base2);
        *m = first ? t : N(max)(cx, *m, t);
        first = 0;
    }
    NACC l;
    N(acc_init)(cx, &l, TD_ORDER_ANY, 0);
    for (int64_t j = 0; j <= gi + x->plen; j++) {
        if (!a2c_live(x, gi, j)) continue;
        NUM p = N(exp)(cx, N(sub)(cx, SPEC(a2c_intent_score)(cx, c, x, gi, j, base2), *m));
        N(acc_add)(cx, &l, p);
        N(memo_put)(cx, attn2_key(A2I_P, row, (uint64_t)j, 0), p);
    }
    *ls = N(acc_end)(cx, &l);
    N(memo_put)(cx, attn2_key(A2I_M, row, 0, 0), *m);
    N(memo_put)(cx, attn2_key(A2I_L, row, 0, 0), *ls);
}
static inline NUM SPEC(a2c_intent)(NCX *cx, const td_case *c, const attn2_ctx *x, int64_t gi, int64_t d, int base2) {
    uint64_t row = x->rowid + (uint64_t)gi;
    NUM m, ls;
    SPEC(a2c_intent_row)(cx, c, x, gi, base2, &m, &ls);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t j = 0; j <= gi + x->plen; j++) {
        if (!a2c_live(x, gi, j)) continue;
        NUM p;
        if (!N(memo_get)(cx, attn2_key(A2I_P, row, (uint64_t)j, 0), &p))
            p = N(exp)(cx, N(sub)(cx, SPEC(a2c_intent_score)(cx, c, x, gi, j, base2), m));
        N(acc_add)(cx, &acc, N(mul)(cx, p, N(in)(cx, c, x->rv, a2c_voff(c, x, j, d))));
    }
    return N(div)(cx, N(acc_end)(cx, &acc), ls);
}

/* attention_kernel[_aligned]'s intent (attn2_common.h): query row r of head p1, exact. */
static inline NUM SPEC(a2k_intent_score)(NCX *cx, const td_case *c, const attn2_ak *k, int64_t p1, int64_t r,
                                         int64_t j) {
    int64_t kvh = p1 * (k->aligned ? k->sqh : k->skh), brow = p1 * k->sb0h + r * k->sb0m, W = k->BLS;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t e = 0; e < k->HD; e++)
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, A2K_Q, (size_t)(p1 * k->sqh + r * k->HD + e)),
                                    N(in)(cx, c, A2K_K, (size_t)(kvh + j * k->HD + e))));
    NUM bias = N(add)(cx, N(in)(cx, c, A2K_B0, (size_t)(brow + j / W)),
                      N(in)(cx, c, A2K_B0, (size_t)(brow + W + j % W)));
    return N(add)(cx, N(mul)(cx, N(acc_end)(cx, &acc), N(exact)(cx, k->sm_scale)), bias);
}
static inline NUM SPEC(a2k_intent)(NCX *cx, const td_case *c, const attn2_ak *k, int64_t p1, int64_t r, int64_t d) {
    int64_t n = k->BN * k->nB, kvh = p1 * (k->aligned ? k->sqh : k->skh);
    uint64_t row = (uint64_t)(p1 * k->rows + r);
    NUM m, ls;
    if (!N(memo_get)(cx, attn2_key(A2I_M, row, 0, 0), &m) || !N(memo_get)(cx, attn2_key(A2I_L, row, 0, 0), &ls)) {
        m = SPEC(a2k_intent_score)(cx, c, k, p1, r, 0);
        for (int64_t j = 1; j < n; j++) m = N(max)(cx, m, SPEC(a2k_intent_score)(cx, c, k, p1, r, j));
        NACC l;
        N(acc_init)(cx, &l, TD_ORDER_ANY, 0);
        for (int64_t j = 0; j < n; j++) {
            NUM p = N(exp)(cx, N(sub)(cx, SPEC(a2k_intent_score)(cx, c, k, p1, r, j), m));
            N(acc_add)(cx, &l, p);
            N(memo_put)(cx, attn2_key(A2I_P, row, (uint64_t)j, 0), p);
        }
        ls = N(acc_end)(cx, &l);
        N(memo_put)(cx, attn2_key(A2I_M, row, 0, 0), m);
        N(memo_put)(cx, attn2_key(A2I_L, row, 0, 0), ls);
    }
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t j = 0; j < n; j++) {
        NUM p;
        if (!N(memo_get)(cx, attn2_key(A2I_P, row, (uint64_t)j, 0), &p))
            p = N(exp)(cx, N(sub)(cx, SPEC(a2k_intent_score)(cx, c, k, p1, r, j), m));
        N(acc_add)(cx, &acc, N(mul)(cx, p, N(in)(cx, c, A2K_V, (size_t)(kvh + j * k->HD + d))));
    }
    return N(div)(cx, N(acc_end)(cx, &acc), ls);
}
