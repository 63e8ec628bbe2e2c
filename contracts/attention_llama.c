/* attention_llama: the FlashAttention-1-style _fwd_kernel of triton_fa (catalogue part 1, src lines 902-974).
 *
 *   attention_llama_fwd_closed_form_correct         (IS_CAUSAL = False) lowering exists AND Realizes_without_Rounding:
 *       hBM, hBN > 0; hSEQ: N_CTX = BLOCK_N * numKVBlocks; hnum: 0 < numKVBlocks; houtinj; hundef
 *       Out[m,d] (m < H) = attentionReal(Q, K(N_CTX), V, sm_scale)[m,d] = sum_n e^(s_mn) V[n,d] / sum_n e^(s_mn),
 *       s_mn = sm_scale * sum_d' Q[m,d'] K[n,d']
 *   attention_llama_fwd_causal_closed_form_correct  (IS_CAUSAL = True):
 *       hspanEq: (pid0+1)*BLOCK_N + start_position = BLOCK_N*numCausalBlocks; hspanle: BLOCK_N*numCausalBlocks <= N_CTX;
 *       hsp: start_position <= pid0*BLOCK_M
 *       Out[m,d] = attentionRealCausalBlock(pid0*BLOCK_M - start_position, Q, K(BLOCK_N*numCausalBlocks), V, sm_scale)[m,d]
 *         (key n kept iff n <= pid0*BLOCK_M - start_position + m, i.e. n + start_position <= row)
 *   write if row = pid0*BLOCK_M + m < H at (pid1/N_HEAD)*stride_oz + (pid1%N_HEAD)*stride_oh + row*stride_om + d*stride_on.
 *
 * Checked against bench/tritonbench_g/attention_llama/attention_llama.py and
 * AttentionLlama.lean: H is the QUERY length (the launcher passes m_size), N_CTX the key
 * length; q is loaded with offs_m < H (other 0), K/V with start_n + offs_n < N_CTX; per
 * block qk = dot(q, k^T), qk = where(offs_n < N_CTX, qk, -inf) (local offs_n: a no-op
 * once BLOCK_N <= N_CTX), qk *= sm_scale, causal: where(offs_m >= start_n + offs_n +
 * start_position, qk, -inf); m = max(rowmax, m_prev); l_prev *= exp(m_prev - m); p =
 * exp(qk - m); l = rowsum(p) + l_prev; l_rcp = 1/l; p *= l_rcp; acc *= l_prev * l_rcp;
 * acc += dot(p.to(fp16), v); the store is acc itself (normalised every step).  The
 * [named] readings (attentionReal, attentionRealCausalBlock) match, natural exp.  The
 * USE_FP8 arm (int8 K/V bit-cast to float8e5) is outside both theorems (the Lean port
 * drops it) and is not ported.
 *
 * Launches.  The causal hypotheses are per program: program pid0 is the theorem's
 * instance with numCausalBlocks = pid0 + 1 + start_position/BLOCK_N (numCausalBlocks is
 * not a kernel argument: the parameter carries the last program's value), and hsp at
 * pid0 = 0 forces start_position = 0 in any grid, so every program satisfies them when
 * start_position = 0 and grid0*BLOCK_N <= N_CTX (hspanle for the last program).  Keys
 * past a program's span are never read; keys of a loaded block that no row keeps make
 * the step multiply acc by l * (1/l) (modelled: no exact skip under this normalisation).
 *
 * Rounding: the theorems are over the reals (the Lean port erases p.to(Q.dtype) and stores
 * acc as .real).  The real kernel rounds the normalised P to fp16 (Q is fp16: triton_fa
 * asserts it) and stores into o = empty_like(q), fp16: it is checked under those
 * profiles ("p", "store" fp16:rne:inf), the contract's value with each conversion applied
 * as the kernel rounds it.  Error model (attn_online_common.h, AT_NORM_STEP): a binary32
 * dot over BLOCK_DMODEL lanes, one scale product, expf budgets, the tree row sum plus
 * l_prev, one reciprocal, the products p*l_rcp and l_prev*l_rcp, the fp16 P, a binary32
 * P.V dot added to acc*(l_prev*l_rcp), the fp16 store.
 *
 * Generator: Q, K, V, Out each in its own layout (contiguous, heads interleaved as the
 * test's transposed tensors, or column-major) with padded strides; query counts H with
 * tails and H < BLOCK_M, S_q != S_k, keys past the causal span, and the family's values.
 */
#include "attn_online_common.h"
#include "gen_far.h"

enum {
    P_SM, P_SQZ, P_SQH, P_SQM, P_SQK, P_SKZ, P_SKH, P_SKN, P_SKK, P_SVZ, P_SVH, P_SVK, P_SVN,
    P_SOZ, P_SOH, P_SOM, P_SON, P_NHEAD, P_H, P_NCTX, P_SP, P_BM, P_BN, P_BD, P_NB, NP
};
enum { R_Q, R_K, R_V, R_OUT, NR };
enum { C_P, C_STORE, NC };

#define PI(c, k) ((c)->p[(k)].i)

/* head program pid1's base offset in a tensor whose (z, h) strides are params kz, kh */
static int64_t al_base(const td_case *c, int kz, int64_t p1) {
    return p1 / PI(c, P_NHEAD) * PI(c, kz) + p1 % PI(c, P_NHEAD) * PI(c, kz + 1);
}
static int64_t al_block_end(const td_case *c, int causal, int64_t p0) {
    return causal ? (p0 + 1) * PI(c, P_BN) + PI(c, P_SP) : PI(c, P_NCTX);
}

static void al_row(const td_case *c, int causal, const td_olane *l, at_row *R);
/* The operation's row (the intent): every key j < N_CTX, kept where j <= row when causal
 * (torch's is_causal: top-left aligned, start_position = 0 by hsp), whatever the
 * program's KV span. */
static void al_intent_row(const td_case *c, int causal, const td_olane *l, at_row *R);

#define TD_SPEC_FILE "attention_llama.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_nc[NP] = {
    {"sm_scale", TD_P_REAL},  {"stride_qz", TD_P_INT}, {"stride_qh", TD_P_INT},  {"stride_qm", TD_P_INT},
    {"stride_qk", TD_P_INT},  {"stride_kz", TD_P_INT}, {"stride_kh", TD_P_INT},  {"stride_kn", TD_P_INT},
    {"stride_kk", TD_P_INT},  {"stride_vz", TD_P_INT}, {"stride_vh", TD_P_INT},  {"stride_vk", TD_P_INT},
    {"stride_vn", TD_P_INT},  {"stride_oz", TD_P_INT}, {"stride_oh", TD_P_INT},  {"stride_om", TD_P_INT},
    {"stride_on", TD_P_INT},  {"N_HEAD", TD_P_INT},    {"H", TD_P_INT},          {"N_CTX", TD_P_INT},
    {"start_position", TD_P_INT}, {"BLOCK_M", TD_P_INT}, {"BLOCK_N", TD_P_INT}, {"BLOCK_DMODEL", TD_P_INT},
    {"numKVBlocks", TD_P_INT}};
static const td_param_decl params_c[NP] = {
    {"sm_scale", TD_P_REAL},  {"stride_qz", TD_P_INT}, {"stride_qh", TD_P_INT},  {"stride_qm", TD_P_INT},
    {"stride_qk", TD_P_INT},  {"stride_kz", TD_P_INT}, {"stride_kh", TD_P_INT},  {"stride_kn", TD_P_INT},
    {"stride_kk", TD_P_INT},  {"stride_vz", TD_P_INT}, {"stride_vh", TD_P_INT},  {"stride_vk", TD_P_INT},
    {"stride_vn", TD_P_INT},  {"stride_oz", TD_P_INT}, {"stride_oh", TD_P_INT},  {"stride_om", TD_P_INT},
    {"stride_on", TD_P_INT},  {"N_HEAD", TD_P_INT},    {"H", TD_P_INT},          {"N_CTX", TD_P_INT},
    {"start_position", TD_P_INT}, {"BLOCK_M", TD_P_INT}, {"BLOCK_N", TD_P_INT}, {"BLOCK_DMODEL", TD_P_INT},
    {"numCausalBlocks", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"Q", TD_F16, TD_R_IN}, {"K", TD_F16, TD_R_IN}, {"V", TD_F16, TD_R_IN}, {"Out", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[NC] = {
    {"p", "fp16:rne:inf", "p = p.to(Q.dtype.element_ty): the normalised P operand of the P.V dot"},
    {"store", "fp16:rne:inf", "tl.store(out_ptrs, acc): Out = empty_like(q), fp16 (the Lean port stores .real)"}};

static double al_sm_scale(td_producer *p, int64_t bd) {
    static const unsigned w[] = {6, 2, 4, 1};
    switch (td_prod_pick(p, w, 4)) {
    case 0: return (double)(float)(1.0 / sqrt((double)bd));
    case 1: return 1.0;
    case 2: return td_gen_real(p, -2, 2);
    default: return 0.0;
    }
}

static void al_gen(td_producer *p, td_case *c, int causal) {
    int64_t bd = at_pow2(p, 0, 5), bn = at_pow2(p, 0, 5), bm = at_pow2(p, 0, 6);
    int64_t nb = 1 + td_prod_u32(p, 0, 1), nhead = 1 + td_prod_u32(p, 0, 1);
    if (nb * nhead > 3) nhead = 1;
    int64_t nq = (int64_t)td_gen_count(p, (uint64_t)bm, 64, &c->classes); /* H: the query rows */
    int64_t grid0 = (nq + bm - 1) / bm, nkv, nctx, nblk;
    if (causal) {
        /* start_position = 0 (hsp at pid0 = 0); the last program's span grid0*BLOCK_N <= N_CTX */
        while (grid0 * bn > 64 && bn > 1) bn /= 2;
        nblk = grid0;
        nctx = grid0 * bn + (td_prod_bool(p) ? td_prod_u32(p, 0, (uint32_t)(64 - grid0 * bn)) : 0);
        nkv = nblk;
    } else {
        nkv = td_prod_u32(p, 1, (uint32_t)(64 / bn < 8 ? 64 / bn : 8));
        nctx = bn * nkv;
        nblk = nkv;
    }
    /* the per-lane MPFR reference re-runs the row: lanes x keys below 2^15 */
    while (nb * nhead * nq * bd * (nblk * bn) > (1 << 15) && bd > 1) bd /= 2;
    while (nb * nhead * nq * bd * (nblk * bn) > (1 << 15) && nhead > 1) nhead--;
    int64_t sq[4], sk[4], sv[4], so[4];
    at_strides(p, nb, nhead, nq, bd, sq);
    at_strides(p, nb, nhead, nctx, bd, sk);
    at_strides(p, nb, nhead, nctx, bd, sv);
    at_strides(p, nb, nhead, nq, bd, so);
    c->p[P_SM].r = al_sm_scale(p, bd);
    for (int k = 0; k < 4; k++)
        c->p[P_SQZ + k].i = sq[k], c->p[P_SKZ + k].i = sk[k], c->p[P_SVZ + k].i = sv[k], c->p[P_SOZ + k].i = so[k];
    c->p[P_NHEAD].i = nhead, c->p[P_H].i = nq, c->p[P_NCTX].i = nctx, c->p[P_SP].i = 0;
    c->p[P_BM].i = bm, c->p[P_BN].i = bn, c->p[P_BD].i = bd, c->p[P_NB].i = causal ? grid0 : nkv;
    c->grid[0] = (uint32_t)grid0;
    c->grid[1] = (uint32_t)(nb * nhead);
    td_case_alloc(c, R_Q, (size_t)at_strides_extent(sq, nb, nhead, nq, bd));
    td_case_alloc(c, R_K, (size_t)at_strides_extent(sk, nb, nhead, nctx, bd));
    td_case_alloc(c, R_V, (size_t)at_strides_extent(sv, nb, nhead, nctx, bd));
    td_case_alloc(c, R_OUT, (size_t)at_strides_extent(so, nb, nhead, nq, bd));
    for (int r = R_Q; r <= R_V; r++) at_poison(c, r);
    at_vals g;
    at_vals_init(&g, p, c, fabs(c->p[P_SM].r), (int)bd, (int)nctx, 256, 0, 256);
    for (int64_t p1 = 0; p1 < nb * nhead; p1++) {
        int64_t bq = al_base(c, P_SQZ, p1), bk = al_base(c, P_SKZ, p1), bv = al_base(c, P_SVZ, p1);
        for (int64_t r = 0; r < nq; r++)
            for (int64_t e = 0; e < bd; e++) td_set(c, R_Q, (size_t)(bq + r * sq[2] + e * sq[3]), at_q(&g, TD_F16, (int)p1, (int)r, (int)e));
        for (int64_t j = 0; j < nctx; j++)
            for (int64_t e = 0; e < bd; e++) {
                td_set(c, R_K, (size_t)(bk + j * sk[2] + e * sk[3]), at_k(&g, TD_F16, (int)p1, (int)j, (int)e));
                td_set(c, R_V, (size_t)(bv + j * sv[2] + e * sv[3]), at_v(&g, TD_F16));
            }
    }
    if (nblk > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (sq[2] > bd || sk[2] > bd || sq[3] > 1) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (causal && bm > 1) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
}

static const char *al_check(const td_case *c, int causal) {
    int64_t bm = PI(c, P_BM), bn = PI(c, P_BN), bd = PI(c, P_BD), nq = PI(c, P_H), nctx = PI(c, P_NCTX);
    int64_t sp = PI(c, P_SP), nb = PI(c, P_NB);
    if ((double)(float)c->p[P_SM].r != c->p[P_SM].r) return "sm_scale is the kernel's binary32 scalar";
    if (bm <= 0) return "hBM: 0 < BLOCK_M";
    if (bn <= 0) return "hBN: 0 < BLOCK_N";
    if (bd <= 0 || nq <= 0) return "BLOCK_DMODEL > 0 and H > 0 (a non-empty launch)";
    if (!causal) {
        if (nb <= 0) return "hnum: 0 < numKVBlocks";
        if (nctx != bn * nb) return "hSEQ: N_CTX = BLOCK_N * numKVBlocks";
    } else {
        for (int64_t p0 = 0; p0 < c->grid[0]; p0++) {
            int64_t ncb = p0 + 1 + sp / bn; /* the instance of program pid0 */
            if (sp % bn || (p0 + 1) * bn + sp != bn * ncb) return "hspanEq: (pid0+1)*BLOCK_N + start_position = BLOCK_N*numCausalBlocks";
            if (bn * ncb > nctx) return "hspanle: BLOCK_N*numCausalBlocks <= N_CTX";
            if (sp > p0 * bm) return "hsp: start_position <= pid0*BLOCK_M";
        }
        if (nb != (int64_t)c->grid[0] + sp / bn) return "numCausalBlocks is the last program's instance";
    }
    if ((int64_t)c->grid[0] != (nq + bm - 1) / bm) return "grid axis 0 = cdiv(H, BLOCK_M) (the launcher's m_size)";
    if (c->grid[1] < 1 || c->grid[1] > AT_MAXH || c->grid[1] % PI(c, P_NHEAD)) return "grid axis 1 = batch * N_HEAD";
    if (bd > AT_MAXD || nctx > AT_MAXS || al_block_end(c, causal, c->grid[0] - 1) > AT_MAXS)
        return "the case fits the oracle's row model (N_CTX <= 64, BLOCK_DMODEL <= 64)";
    int64_t span = al_block_end(c, causal, c->grid[0] - 1), nbh = c->grid[1];
    const struct { int reg, kz; int64_t rows; } t[4] = {{R_Q, P_SQZ, nq}, {R_K, P_SKZ, span}, {R_V, P_SVZ, span}, {R_OUT, P_SOZ, nq}};
    for (int k = 0; k < 4; k++)
        for (int64_t p1 = 0; p1 < nbh; p1++) {
            int64_t e = al_base(c, t[k].kz, p1) + (t[k].rows - 1) * PI(c, t[k].kz + 2) + (bd - 1) * PI(c, t[k].kz + 3);
            if (e >= (int64_t)c->r[t[k].reg].len) return "the regions hold every element the launch reads and writes";
        }
    /* houtinj (within a program) and the global injectivity of the writes: checked by the harness */
    return NULL;
}

static void al_writes(const td_case *c, td_wset *ws) {
    int64_t bm = PI(c, P_BM), bd = PI(c, P_BD), nq = PI(c, P_H);
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            for (int64_t i = 0; i < bm; i++) {
                int64_t row = p0 * bm + i;
                if (row >= nq) break; /* alActive: row < H */
                for (int64_t d = 0; d < bd; d++) {
                    int64_t off = al_base(c, P_SOZ, p1) + row * PI(c, P_SOM) + d * PI(c, P_SON);
                    td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)off, .pid = {p0, p1, 0},
                                  .j = (uint64_t)(i * bd + d), .idx = {p1, row, d, 0}};
                    td_wset_add(ws, &l);
                }
            }
}

static void al_row(const td_case *c, int causal, const td_olane *l, at_row *R) {
    int64_t bn = PI(c, P_BN), bd = PI(c, P_BD), nctx = PI(c, P_NCTX), sp = PI(c, P_SP);
    int64_t p1 = l->idx[0], row = l->idx[1], d = l->idx[2], p0 = l->pid[0];
    int64_t bq = al_base(c, P_SQZ, p1), bk = al_base(c, P_SKZ, p1), bv = al_base(c, P_SVZ, p1);
    at_row_init(R);
    R->key = ((uint64_t)p1 << 16) | (uint64_t)row;
    R->out = AT_OUT_O;
    R->score = AT_SC_SCALE;
    R->base2 = 0;
    R->norm = AT_NORM_STEP;
    R->q_reg = R_Q, R->k_reg = R_K, R->v_reg = R_V;
    R->nd = (int)bd;
    for (int64_t e = 0; e < bd; e++) R->q_off[e] = bq + row * PI(c, P_SQM) + e * PI(c, P_SQK);
    int64_t end = al_block_end(c, causal, p0);
    R->nkeys = (int)(end < nctx ? end : nctx);
    R->k_es = PI(c, P_SKK);
    for (int64_t j = 0; j < R->nkeys; j++) {
        R->k_off[j] = bk + j * PI(c, P_SKN);
        R->v_off[j] = bv + j * PI(c, P_SVK) + d * PI(c, P_SVN);
        R->keep[j] = (uint8_t)(!causal || row >= j + sp);
    }
    R->bn = (int)bn;
    R->nblk = (int)((end + bn - 1) / bn);
    for (int b = 0; b < R->nblk; b++) R->blk_lo[b] = (int)(b * bn);
    R->sm_scale = c->p[P_SM].r;
    R->lit = NULL;
    R->c_p = C_P;
    R->c_store = C_STORE;
}

static void al_intent_row(const td_case *c, int causal, const td_olane *l, at_row *R) {
    al_row(c, causal, l, R);
    int64_t nctx = PI(c, P_NCTX), p1 = l->idx[0], row = l->idx[1], d = l->idx[2];
    int64_t bk = al_base(c, P_SKZ, p1), bv = al_base(c, P_SVZ, p1);
    R->nkeys = (int)nctx;
    for (int64_t j = 0; j < nctx; j++) {
        R->k_off[j] = bk + j * PI(c, P_SKN);
        R->v_off[j] = bv + j * PI(c, P_SVK) + d * PI(c, P_SVN);
        R->keep[j] = (uint8_t)(!causal || j <= row);
    }
}

/* Offsets beyond 2^31 (gen_far.h): the launch's one outer axis with two programs or more
 * (batch: stride_*z, or head: stride_*h; nb * N_HEAD <= 3, so never both) of Q, K and V
 * moves to a stride near 2^31 over sparse regions (td_far_axis; nothing moves where that
 * axis sits inside the rows: the interleaved-heads layout).  Out stays dense at its own
 * strides.  The kernel forms off_q / off_k / off_v as batch_id * stride + off_hz * stride
 * in Triton's int32 unless a stride needs int64. */
static void al_far(td_producer *p, td_case *c) {
    int64_t nh = PI(c, P_NHEAD), ax = c->grid[1] / nh >= 2 ? 0 : 1;
    const int reg[3] = {R_Q, R_K, R_V}, st[3] = {P_SQZ + (int)ax, P_SKZ + (int)ax, P_SVZ + (int)ax};
    td_far_axis(p, c, 3, reg, st, c->grid[1]);
}

static void gen_nc(td_producer *p, td_case *c) { al_gen(p, c, 0); }
static void gen_c(td_producer *p, td_case *c) { al_gen(p, c, 1); }
static const char *check_nc(const td_case *c) { return al_check(c, 0); }
static const char *check_c(const td_case *c) { return al_check(c, 1); }

#define AL_CLASSES                                                                                                  \
    (TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) |          \
     TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) |         \
     TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_VALUES_SPECIAL) |                          \
     TD_BC(TD_BC_OFFSET_2_31))
#define AL_COMMON                                                                                                   \
    .file = "attention_llama", .family = "attention", .io_class = "Realizes_without_Rounding (lowering exists)",    \
    .kind = "exact", .nparams = NP, .nregions = NR, .regions = regions, .ncasts = NC, .casts = casts,               \
    .sv = TD_SV_REAL, .writes = al_writes, .far = al_far,                                                           \
    .sv_note = "finite inputs, bounded scores; key 0 is kept in every row, so l >= 1 (no 0/0)",                    \
    .error_model = "FlashAttention-1 online softmax in kernel order: binary32 dot * sm_scale, expf budget, tree row " \
                   "sum + l_prev, 1/l, p*l_rcp, acc*(l_prev*l_rcp) + P.V, fp16 P (any scale; any KV blocking), fp16 store"

static const td_intent i_nc = {
    .operation = "scaled dot-product attention softmax(q k^T * sm_scale) v of each of the H query rows over the N_CTX keys",
    .definition = "torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=sm_scale) (PyTorch "
                  "documentation), exact (no fp16 cast of the weights P)",
    TD_SPECS(al_nc_intent),
};
static const td_intent i_c = {
    .operation = "causal scaled dot-product attention softmax(q k^T * sm_scale + causal mask) v of each of the H "
                 "query rows over the N_CTX keys (key j <= row)",
    .definition = "torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, scale=sm_scale) "
                  "(PyTorch documentation: the top-left causal mask), exact (no fp16 cast of the weights P)",
    TD_SPECS(al_c_intent),
};

const td_contract td_c_attention_llama_nc = {
    .id = "attention_llama.attention_llama_fwd_closed_form_correct",
    .formula = "Out[m,d] = sum_n e^s[m,n] V[n,d] / sum_n e^s[m,n], s = sm_scale (Q.K)[m,n], m < H",
    .params = params_nc,
    .classes = AL_CLASSES,
    .gen = gen_nc,
    .check = check_nc,
    AL_COMMON,
    TD_SPECS(al_nc),
    .intent = &i_nc,
};

const td_contract td_c_attention_llama_c = {
    .id = "attention_llama.attention_llama_fwd_causal_closed_form_correct",
    .formula = "Out[m,d] = sum_{n+start_position<=m} e^s[m,n] V[n,d] / sum_{...} e^s[m,n], keys n < (pid0+1)*BLOCK_N",
    .params = params_c,
    .classes = AL_CLASSES | TD_BC(TD_BC_FULLY_MASKED),
    .gen = gen_c,
    .check = check_c,
    AL_COMMON,
    TD_SPECS(al_c),
    .intent = &i_c,
};
