/* The spec of contracts/seed_sm86.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "sh_dot.h"      /* N(acc_add_mul) */
#include "spec_dot_in.h" /* N(acc_add_dot_row), N(f16_row) */
#include "attn_common.spec.h"

/* t_ij = RN(S c), S the binary32 sum of exact products in k order; -inf when masked */
static NUM SPEC(sm_t)(NCX *cx, const td_case *c, const sm_geo *g, int64_t h, int64_t i, int64_t j) {
    int64_t kv = h / g->groups;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t d = 0; d < g->W; d++)
        N(acc_add_mul)(cx, &acc, N(in)(cx, c, R_Q, sm_q(g, h, i, d)), N(in)(cx, c, R_K, sm_k(g, kv, j, d)));
    return N(mul)(cx, N(acc_end)(cx, &acc), N(exact)(cx, g->c));
}

/* Row (h, i): RN16(P_j) for the keys j <= i, alpha of every tile after the first, the
 * butterflied l and the final running maximum m; memoised per row. */
static void SPEC(sm_row)(NCX *cx, const td_case *c, const sm_geo *g, int64_t h, int64_t i, NUM *p16, NUM *alpha,
                         NUM *l, NUM *m) {
    int64_t nt = i / g->B + 1;
    uint64_t row = (uint64_t)(h * g->T + i);
    if (N(memo_get)(cx, at_key(SM_TAG_L, row, 0, 0), l)) {
        N(memo_get)(cx, at_key(SM_TAG_M, row, 0, 0), m);
        for (int64_t t = 1; t < nt; t++) N(memo_get)(cx, at_key(SM_TAG_A, row, (uint64_t)t, 0), &alpha[t]);
        for (int64_t j = 0; j <= i; j++) N(memo_get)(cx, at_key(SM_TAG_P16, row, (uint64_t)j, 0), &p16[j]);
        return;
    }
    NUM lq[4], mm = N(exact)(cx, 0);
    int have[4] = {0, 0, 0, 0};
    NUM pr[SM_MAX_T];
    for (int64_t t = 0; t < nt; t++) {
        int64_t j0 = t * g->B, j1 = t == nt - 1 ? i + 1 : j0 + g->B; /* the diagonal tile keeps keys <= i */
        for (int64_t j = j0; j < j1; j++) pr[j] = SPEC(sm_t)(cx, c, g, h, i, j);
        NUM rmax = pr[j0];
        for (int64_t j = j0 + 1; j < j1; j++) rmax = N(max)(cx, rmax, pr[j]);
        NUM mn = t == 0 ? rmax : N(max)(cx, mm, rmax);
        if (t > 0) alpha[t] = N(exp2)(cx, N(sub)(cx, mm, mn));
        for (int64_t j = j0; j < j1; j++) {
            pr[j] = N(exp2)(cx, N(sub)(cx, pr[j], mn));
            p16[j] = N(cast)(cx, pr[j], C_P);
        }
        for (int q = 0; q < 4; q++) { /* l_q = l_q alpha + this lane's P, in column order */
            NACC acc;
            N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
            int terms = 0;
            if (t > 0 && have[q]) N(acc_add_mul)(cx, &acc, lq[q], alpha[t]), terms++;
            for (int64_t j = j0; j < j1; j++)
                if (sm_quad(j - j0) == q) N(acc_add)(cx, &acc, pr[j]), terms++;
            if (terms) lq[q] = N(acc_end)(cx, &acc), have[q] = 1;
            else N(acc_end)(cx, &acc); /* l_q is still exactly 0 */
        }
        mm = mn;
    }
    for (int q = 0; q < 4; q++)
        if (!have[q]) lq[q] = N(exact)(cx, 0);
    *l = N(add)(cx, N(add)(cx, lq[0], lq[1]), N(add)(cx, lq[2], lq[3]));
    *m = mm;
    for (int64_t t = 1; t < nt; t++) N(memo_put)(cx, at_key(SM_TAG_A, row, (uint64_t)t, 0), alpha[t]);
    for (int64_t j = 0; j <= i; j++) N(memo_put)(cx, at_key(SM_TAG_P16, row, (uint64_t)j, 0), p16[j]);
    N(memo_put)(cx, at_key(SM_TAG_M, row, 0, 0), *m);
    N(memo_put)(cx, at_key(SM_TAG_L, row, 0, 0), *l);
}

/* a forward lane's own part, from its row's quantities (sm_row) */
static NUM SPEC(sm_lane)(NCX *cx, const td_case *c, const sm_geo *gp, const td_olane *ol, const NUM *p16,
                         const NUM *alpha, NUM l, NUM m) {
    sm_geo g = *gp;
    int64_t h = ol->idx[0], i = ol->idx[1], d = ol->idx[2], kv = h / g.groups;
    if (ol->o == 1) return N(add)(cx, m, N(log2)(cx, l)); /* LSE2 = m + LG2(l) */
    int64_t nt = i / g.B + 1;
    NUM o = N(exact)(cx, 0);
    for (int64_t t = 0; t < nt; t++) {
        int64_t j0 = t * g.B, j1 = t == nt - 1 ? i + 1 : j0 + g.B;
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
        if (t > 0) N(acc_add_mul)(cx, &acc, o, alpha[t]); /* O = O alpha, then += P16 V */
        for (int64_t j = j0; j < j1; j++) N(acc_add_mul)(cx, &acc, p16[j], N(in)(cx, c, R_V, sm_v(&g, kv, j, d)));
        o = N(acc_end)(cx, &acc);
    }
    NUM r = N(div)(cx, N(exact)(cx, 1.0), l); /* RCP(l) */
    return N(cast)(cx, N(mul)(cx, o, r), C_STORE);
}

static NUM SPEC(sm86_forward)(NCX *cx, const td_case *c, const td_olane *ol) {
    sm_geo g;
    sm_geo_get(c, &g);
    NUM p16[SM_MAX_T], alpha[SM_MAX_T], l, m;
    SPEC(sm_row)(cx, c, &g, ol->idx[0], ol->idx[1], p16, alpha, &l, &m);
    return SPEC(sm_lane)(cx, c, &g, ol, p16, alpha, l, m);
}

/* ---- query pass ---- */
/* D_i: each quad lane's FFMA chain over its columns, then the butterfly */
static NUM SPEC(sq_D)(NCX *cx, const td_case *c, const sb_geo *g, int64_t h, int64_t i) {
    NUM dq[4];
    for (int q = 0; q < 4; q++) {
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
        for (int64_t d = 0; d < g->W; d++)
            if (sm_quad(d) == q)
                N(acc_add_mul)(cx, &acc, N(in)(cx, c, RQ_DO, sb_rows(g, h, i, d)), N(in)(cx, c, RQ_O, sb_tok(g, h, i, d)));
        dq[q] = N(acc_end)(cx, &acc);
    }
    return N(add)(cx, N(add)(cx, dq[0], dq[1]), N(add)(cx, dq[2], dq[3]));
}

/* a dot of exact binary16 products, k order from +0; a: a row loaded once (sb_load),
 * arow = N(f16_row)(a, W), its operands' test done once for the row's dots;
 * N(acc_add_dot_row): N(acc_add_mul)(a[d], N(in)(rb, b0 + d)) for each d, the shadow's
 * with short paths for binary16 operands (spec_dot_in.h) */
static NUM SPEC(sb_dot)(NCX *cx, const td_case *c, const NUM *a, int arow, int rb, size_t b0, int64_t W) {
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    N(acc_add_dot_row)(cx, &acc, a, arow, c, rb, b0, W);
    return N(acc_end)(cx, &acc);
}

/* a[d] = element a0 + d of region ra, d < W: the row a dot shares with every key (query)
 * of its row (column), loaded once instead of once per dot */
static void SPEC(sb_load)(NCX *cx, const td_case *c, int ra, size_t a0, int64_t W, NUM *a) {
    for (int64_t d = 0; d < W; d++) a[d] = N(in)(cx, c, ra, a0 + (size_t)d);
}

/* dS = FMUL(EX2(FFMA(S, c, -L)), FADD(dP, -D)) */
static NUM SPEC(sb_dS)(NCX *cx, NUM S, NUM dP, NUM L, NUM D, double cc, NUM *P) {
    *P = N(exp2)(cx, N(fma)(cx, S, N(exact)(cx, cc), N(neg)(cx, L)));
    return N(mul)(cx, *P, N(sub)(cx, dP, D));
}

static void SPEC(sq_row)(NCX *cx, const td_case *c, const sb_geo *g, int64_t h, int64_t i, NUM *ds16, NUM *D) {
    uint64_t row = (uint64_t)(h * g->T + i);
    if (N(memo_get)(cx, at_key(11, row, 0, 0), D)) {
        for (int64_t j = 0; j <= i; j++) N(memo_get)(cx, at_key(12, row, (uint64_t)j, 0), &ds16[j]);
        return;
    }
    int64_t kv = h / g->groups;
    *D = SPEC(sq_D)(cx, c, g, h, i);
    NUM L = N(in)(cx, c, RQ_L, (size_t)(h * g->T + i)), P, q[SM_MAX_W], dO[SM_MAX_W];
    SPEC(sb_load)(cx, c, RQ_Q, sb_rows(g, h, i, 0), g->W, q);
    SPEC(sb_load)(cx, c, RQ_DO, sb_rows(g, h, i, 0), g->W, dO);
    int qrow = N(f16_row)(cx, q, g->W), dorow = N(f16_row)(cx, dO, g->W);
    for (int64_t j = 0; j <= i; j++) {
        NUM S = SPEC(sb_dot)(cx, c, q, qrow, RQ_K, sb_rows(g, kv, j, 0), g->W);
        NUM dP = SPEC(sb_dot)(cx, c, dO, dorow, RQ_V, sb_rows(g, kv, j, 0), g->W);
        ds16[j] = N(cast)(cx, SPEC(sb_dS)(cx, S, dP, L, *D, g->c, &P), CB_DS);
        N(memo_put)(cx, at_key(12, row, (uint64_t)j, 0), ds16[j]);
    }
    N(memo_put)(cx, at_key(11, row, 0, 0), *D);
}

/* a query-pass lane's own part, from its row's dS16 and D (sq_row) */
static NUM SPEC(sq_lane)(NCX *cx, const td_case *c, const sb_geo *g, const td_olane *ol, const NUM *ds16, NUM D) {
    int64_t h = ol->idx[0], i = ol->idx[1], d = ol->idx[2], kv = h / g->groups;
    if (ol->o == 1) return D;
    NACC acc; /* dQ += dS16 K over every tile up to the diagonal, one accumulator */
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t j = 0; j <= i; j++) N(acc_add_mul)(cx, &acc, ds16[j], N(in)(cx, c, RQ_K, sb_rows(g, kv, j, d)));
    return N(mul)(cx, N(acc_end)(cx, &acc), N(exact)(cx, g->s));
}

static NUM SPEC(sm86_query)(NCX *cx, const td_case *c, const td_olane *ol) {
    sb_geo g;
    sq_geo_get(c, &g);
    NUM ds16[SM_MAX_T], D;
    SPEC(sq_row)(cx, c, &g, ol->idx[0], ol->idx[1], ds16, &D);
    return SPEC(sq_lane)(cx, c, &g, ol, ds16, D);
}

/* ---- key pass ---- */
/* key j of query head h: RN16(dS^T) and RN16(P^T) for the queries i >= j, memoised; a
 * memo hit fetches only the one a lane of output o reads (dS16 for dK, P16 for dV): the
 * column's entries are put together, after it is computed, with the same lane flags */
static void SPEC(sk_col)(NCX *cx, const td_case *c, const sb_geo *g, int64_t h, int64_t j, NUM *ds16, NUM *p16,
                         uint32_t o) {
    uint64_t col = (uint64_t)(h * g->T + j);
    unsigned tag = o == 0 ? 22 : 21;
    NUM *want = o == 0 ? ds16 : p16;
    if (N(memo_get)(cx, at_key(tag, col, 0, 0), &want[j])) {
        for (int64_t i = j + 1; i < g->T; i++) N(memo_get)(cx, at_key(tag, col, (uint64_t)i, 1), &want[i]);
        return;
    }
    int64_t kv = h / g->groups;
    NUM k[SM_MAX_W], v[SM_MAX_W];
    SPEC(sb_load)(cx, c, RK_K, sb_rows(g, kv, j, 0), g->W, k);
    SPEC(sb_load)(cx, c, RK_V, sb_rows(g, kv, j, 0), g->W, v);
    int krow = N(f16_row)(cx, k, g->W), vrow = N(f16_row)(cx, v, g->W);
    for (int64_t i = j; i < g->T; i++) {
        NUM S = SPEC(sb_dot)(cx, c, k, krow, RK_Q, sb_rows(g, h, i, 0), g->W);
        NUM dP = SPEC(sb_dot)(cx, c, v, vrow, RK_DO, sb_rows(g, h, i, 0), g->W);
        NUM L = N(in)(cx, c, RK_L, (size_t)(h * g->T + i)), D = N(in)(cx, c, RK_D, (size_t)(h * g->T + i)), P;
        ds16[i] = N(cast)(cx, SPEC(sb_dS)(cx, S, dP, L, D, g->c, &P), CB_DS);
        p16[i] = N(cast)(cx, P, CB_P);
    }
    for (int64_t i = j + 1; i < g->T; i++) {
        N(memo_put)(cx, at_key(21, col, (uint64_t)i, 1), p16[i]);
        N(memo_put)(cx, at_key(22, col, (uint64_t)i, 1), ds16[i]);
    }
    N(memo_put)(cx, at_key(22, col, 0, 0), ds16[j]);
    N(memo_put)(cx, at_key(21, col, 0, 0), p16[j]);
}

/* a key-pass lane's own part, from its column's dS16 (o = 0) or P16 (o = 1) (sk_col) */
static NUM SPEC(sk_lane)(NCX *cx, const td_case *c, const sb_geo *gp, const td_olane *ol, const NUM *ds16,
                         const NUM *p16) {
    sb_geo g = *gp;
    int64_t h = ol->idx[0], j = ol->idx[1], d = ol->idx[2];
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    /* the query sub-tiles from the last one down to the diagonal one, ascending within */
    for (int64_t qs = g.T / g.sub - 1; qs >= j / g.sub; qs--)
        for (int64_t i = qs * g.sub; i < (qs + 1) * g.sub; i++) {
            if (i < j) continue; /* the diagonal sub-tile's mask: query >= key */
            if (ol->o == 0) N(acc_add_mul)(cx, &acc, ds16[i], N(in)(cx, c, RK_Q, sb_rows(&g, h, i, d)));
            else N(acc_add_mul)(cx, &acc, p16[i], N(in)(cx, c, RK_DO, sb_rows(&g, h, i, d)));
        }
    NUM sum = N(acc_end)(cx, &acc);
    return ol->o == 0 ? N(mul)(cx, sum, N(exact)(cx, g.s)) : sum;
}

static NUM SPEC(sm86_key)(NCX *cx, const td_case *c, const td_olane *ol) {
    sb_geo g;
    sk_geo_get(c, &g);
    NUM ds16[SM_MAX_T], p16[SM_MAX_T];
    SPEC(sk_col)(cx, c, &g, ol->idx[0], ol->idx[1], ds16, p16, ol->o);
    return SPEC(sk_lane)(cx, c, &g, ol, ds16, p16);
}

/* ---- the group reduction ---- */
static NUM SPEC(sm86_reduce)(NCX *cx, const td_case *c, const td_olane *ol) {
    int64_t T = c->p[PR_T].i, heads = c->p[PR_HEADS].i, kvh = c->p[PR_KVHEADS].i, W = c->p[PR_W].i;
    int64_t groups = heads / kvh, kv = ol->idx[0], e = ol->idx[1];
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t gg = 0; gg < groups; gg++) N(acc_add)(cx, &acc, N(in)(cx, c, RR_SRC, (size_t)((kv * groups + gg) * W * T + e)));
    return N(acc_end)(cx, &acc);
}


/* The intent (docs/intent.md): torch.nn.functional.scaled_dot_product_attention(Q, K, V,
 * is_causal=True, scale=c ln 2, enable_gqa=True) (query head h reads K/V head
 * h / groups), exact (attn_common.spec.h), and the row's base-2 log-sum-exp. */
static NUM SPEC(sm86_forward_intent)(NCX *cx, const td_case *c, const td_olane *ol) {
    sm_geo g;
    sm_geo_get(c, &g);
    int64_t h = ol->idx[0], i = ol->idx[1], d = ol->o == 0 ? ol->idx[2] : 0, kv = h / g.groups;
    at_irow R = {.q_reg = R_Q, .k_reg = R_K, .v_reg = R_V, .q0 = (int64_t)sm_q(&g, h, i, 0), .qe = 1,
                 .k0 = (int64_t)sm_k(&g, kv, 0, 0), .kj = g.W, .ke = 1, .v0 = (int64_t)sm_v(&g, kv, 0, d),
                 .vj = g.vrows ? g.W : 1, .nd = g.W, .nkeys = i + 1, .scale = g.c, .base2 = 1,
                 .row = (uint64_t)(h * g.T + i)};
    return ol->o == 0 ? SPEC(at_intent_lane)(cx, c, &R) : SPEC(at_intent_lse2)(cx, c, &R);
}
