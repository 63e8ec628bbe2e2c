/* Alternatives for context_attn_mistral (LightLLM's prefill attention with a sliding
 * window): Out[start + gi, h, d] = sum_j e^(s_j) V[j, h, d] / sum_j e^(s_j) over the
 * window keys max(0, gi - sw + 1) <= j <= gi (the kernel's int32 window), s_j =
 * sm_scale * q_gi . k_j, rows gi < seqlen of the query blocks the grid covers.
 *
 * What the contract pins besides the value (see contracts/context_attn_mistral.c, item 2):
 * a row whose window starts at or past key BLK (its first BLK-block holds no live key)
 * goes through the kernel's guards, and reaches its first live key with the running
 * state (m, l, acc) = (0, RN32(1e-9), 0): the denominator carries an extra 1e-9 e^(0 - m).
 * Both kernels below honour it (the two-pass one seeds its max and sum with it, the
 * FlashAttention-2 one adds the seed's share 1e-9 e^(-m) to l at the end); the rest is
 * theirs.  The port normalises the running output at every
 * BLK-block (p * beta / l_new, acc * l / l_new * alpha) and casts the normalised P to
 * fp16; these normalise once at the end (FlashAttention-2) or not online at all:
 *   alt_fa2_kv3_exptl  one query row at a time, the window cut into blocks of 3 keys
 *                      counted from its first key (not BLK-aligned: the window edge and the
 *                      diagonal fall inside other blocks), exp as Triton lowers tl.exp
 *                      (exp2 of the binary32 product x * log2 e), P cast to fp16 at the
 *                      running max of the keys (unnormalised: the max key's weight is 1),
 *                      P.V as FMA chains onto acc * alpha, out = acc * (1/l).  (Seeding
 *                      the fold with the guard's m = 0 instead would put an fp16 P at a
 *                      scale no key sets: all of a row's weights may then lie in fp16's
 *                      subnormals, a real loss the contract rightly flags.)
 *   alt_twopass_rev    the window's max first (0 included for a guarded row: the state's
 *                      m), then the weights expf(s_j - m), summed from the last key to the
 *                      first, P kept in binary32, one division per lane.
 *   alt_fa1_kv2_ptx    the port's per-block normalisation (FlashAttention-1: p * beta /
 *                      l_new cast to fp16, acc * (l / l_new) alpha) with the guard's seed as
 *                      the initial state, as the port; but over blocks of 2 window keys
 *                      counted from the window's first key, and with compiled Triton's
 *                      math on NVIDIA (the "triton" member of the "any" model): tl.exp as
 *                      ex2.approx.f32 of RN(x * log2 e), both divisions as div.full.f32.
 * The q.k dots are FMA chains along the head dim (fp16 products are exact in binary32, so
 * the chain is the port's sequential sum).  Parameters: genuine sm_scale rs hs BLK DM sw;
 * IO sm_scale rs hs sw BLK DM NT.  Regions Q, K, V, B_Start_Loc, B_Seqlen, Out. */
#include "alt_a_num.h"
#include "alt_common.h"

enum { R_Q, R_K, R_V, R_START, R_SEQLEN, R_OUT, NR };
typedef struct cam_ix {
    int sm, rs, hs, blk, dm, sw, np;
} cam_ix;
static const cam_ix cam_g = {0, 1, 2, 3, 4, 5, 6}, cam_io = {0, 1, 2, 4, 5, 3, 7};

static const td_profile cam_f16 = {TD_F16, TD_RNE, TD_OVF_INF, false};

typedef struct cam_row {
    int64_t n;        /* window keys, already scored: s[0..n), values v[j*D + d] */
    const float *s, *v;
    int64_t D;
    int guarded;      /* start from (0, 1e-9, 0) */
} cam_row;

/* FlashAttention-2 over blocks of C window keys, left to right; a guarded row's seed
 * (0, 1e-9, 0) enters at the end as 1e-9 e^(0 - m) in the denominator (the same real
 * value as seeding the fold: the seed's acc is 0, its l rescales like any other) */
static void cam_fa2(const cam_row *R, int64_t C, float *o) {
    float m = -INFINITY, l = 0.0f;
    for (int64_t d = 0; d < R->D; d++) o[d] = 0.0f;
    for (int64_t lo = 0; lo < R->n; lo += C) {
        int64_t hi = lo + C < R->n ? lo + C : R->n;
        float mn = m;
        for (int64_t j = lo; j < hi; j++) mn = R->s[j] > mn ? R->s[j] : mn;
        float alpha = m == -INFINITY ? 0.0f : aa_exp_tl(m - mn), p[3];
        l = l * alpha;
        for (int64_t d = 0; d < R->D; d++) o[d] = o[d] * alpha;
        for (int64_t j = lo; j < hi; j++) {
            float e = aa_exp_tl(R->s[j] - mn);
            l = l + e;
            p[j - lo] = (float)td_decode(TD_F16, td_encode_f32(cam_f16, e)); /* p.to(fp16) */
        }
        for (int64_t d = 0; d < R->D; d++)
            for (int64_t j = lo; j < hi; j++) o[d] = fmaf(p[j - lo], R->v[j * R->D + d], o[d]);
        m = mn;
    }
    if (R->guarded) l = l + 1e-9f * aa_exp_tl(-m); /* e^(-m) = inf: every weight below 1e-9 e^-88 */
    float r = 1.0f / l;
    for (int64_t d = 0; d < R->D; d++) o[d] = o[d] * r;
}

/* FlashAttention-1 over blocks of 2 window keys, normalised at every block, from the
 * guard's seed (0, 1e-9, 0) or from (-inf, 0, 0) */
static void cam_fa1(const cam_row *R, float *o) {
    float m = R->guarded ? 0.0f : -INFINITY, l = R->guarded ? 1e-9f : 0.0f, p[2];
    for (int64_t d = 0; d < R->D; d++) o[d] = 0.0f;
    for (int64_t lo = 0; lo < R->n; lo += 2) {
        int64_t hi = lo + 2 < R->n ? lo + 2 : R->n;
        float m_ij = R->s[lo], l_ij = 0.0f;
        for (int64_t j = lo + 1; j < hi; j++) m_ij = R->s[j] > m_ij ? R->s[j] : m_ij;
        for (int64_t j = lo; j < hi; j++) p[j - lo] = alt_exp_ptx(R->s[j] - m_ij), l_ij = l_ij + p[j - lo];
        float m_new = m > m_ij ? m : m_ij;
        float alpha = m == -INFINITY ? 0.0f : alt_exp_ptx(m - m_new), beta = alt_exp_ptx(m_ij - m_new);
        float l_new = alpha * l + beta * l_ij;
        float p_scale = alt_div_full(beta, l_new), acc_scale = alt_div_full(l, l_new) * alpha;
        for (int64_t j = lo; j < hi; j++)
            p[j - lo] = (float)td_decode(TD_F16, td_encode_f32(cam_f16, p[j - lo] * p_scale)); /* p.to(fp16) */
        for (int64_t d = 0; d < R->D; d++) {
            float pv = 0.0f;
            for (int64_t j = lo; j < hi; j++) pv = fmaf(p[j - lo], R->v[j * R->D + d], pv);
            o[d] = o[d] * acc_scale + pv;
        }
        l = l_new, m = m_new;
    }
}

/* two passes: the max, then the weights and their sum from the last key down */
static void cam_twopass(const cam_row *R, float *w, float *o) {
    float m = R->guarded ? 0.0f : -INFINITY, l = 0.0f;
    for (int64_t j = 0; j < R->n; j++) m = R->s[j] > m ? R->s[j] : m;
    for (int64_t j = R->n - 1; j >= 0; j--) w[j] = expf(R->s[j] - m), l = l + w[j];
    if (R->guarded) l = l + 1e-9f * expf(-m);
    for (int64_t d = 0; d < R->D; d++) {
        float a = 0.0f;
        for (int64_t j = R->n - 1; j >= 0; j--) a = a + w[j] * R->v[j * R->D + d];
        o[d] = a / l;
    }
}

enum { CAM_FA2, CAM_TWOPASS, CAM_FA1 };
static int cam_run(const td_abi_launch *L, const cam_ix *x, int kind) {
    int64_t rs = TL_I(L, x->rs), hs = TL_I(L, x->hs), BLK = TL_I(L, x->blk), D = TL_I(L, x->dm);
    int64_t sw = TL_I(L, x->sw), rows = (int64_t)L->grid[2] * BLK;
    float sm = TL_R(L, x->sm);
    td_profile st = {TL_FMT(L, R_OUT), TD_RNE, TD_OVF_INF, false};
    float *s, *v, *w, *o;
    TL_ALLOC(L, s, rows + rows * D + rows + D);
    v = s + rows, w = v + rows * D, o = w + rows;
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t seqlen = tl_load_int(L, R_SEQLEN, b), start = tl_load_int(L, R_START, b);
            for (int64_t gi = 0; gi < seqlen && gi < rows; gi++) {
                int64_t j0 = gi - sw + 1 > 0 ? gi - sw + 1 : 0; /* the window's first key */
                cam_row R = {gi + 1 - j0, s, v, D, j0 >= BLK};
                for (int64_t j = j0; j <= gi; j++) {
                    float dot = 0.0f;
                    for (int64_t e = 0; e < D; e++)
                        dot = fmaf(tl_load(L, R_Q, (start + gi) * rs + h * hs + e),
                                   tl_load(L, R_K, (start + j) * rs + h * hs + e), dot);
                    s[j - j0] = dot * sm;
                    for (int64_t d = 0; d < D; d++)
                        v[(j - j0) * D + d] = tl_load(L, R_V, (start + j) * rs + h * hs + d);
                }
                if (kind == CAM_TWOPASS) cam_twopass(&R, w, o);
                else if (kind == CAM_FA1) cam_fa1(&R, o);
                else cam_fa2(&R, 3, o);
                for (int64_t d = 0; d < D; d++) tl_store(L, R_OUT, (start + gi) * rs + h * hs + d, o[d], st);
            }
        }
    free(s);
    return 0;
}

static int g_fa2(const td_abi_launch *L) { return cam_run(L, &cam_g, CAM_FA2); }
static int g_2p(const td_abi_launch *L) { return cam_run(L, &cam_g, CAM_TWOPASS); }
static int g_fa1(const td_abi_launch *L) { return cam_run(L, &cam_g, CAM_FA1); }
static int io_fa2(const td_abi_launch *L) { return cam_run(L, &cam_io, CAM_FA2); }
static int io_2p(const td_abi_launch *L) { return cam_run(L, &cam_io, CAM_TWOPASS); }
static int io_fa1(const td_abi_launch *L) { return cam_run(L, &cam_io, CAM_FA1); }

#define G "context_attn_mistral.context_attn_mistral_genuine_output_summary_general"
#define IO "context_attn_mistral.context_attn_mistral_io_correctness"
TD_KERNEL(td_a_ctx_mistral_fa2) = {G, "alt_fa2_kv3_exptl", TD_ABI_HOST, NULL, NULL, NULL, 6, NR, g_fa2, NULL};
TD_KERNEL(td_a_ctx_mistral_2p) = {G, "alt_twopass_rev", TD_ABI_HOST, NULL, NULL, NULL, 6, NR, g_2p, NULL};
TD_KERNEL(td_a_ctx_mistral_io_fa2) = {IO, "alt_fa2_kv3_exptl", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 7, NR,
                                      io_fa2, NULL};
TD_KERNEL(td_a_ctx_mistral_io_2p) = {IO, "alt_twopass_rev", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 7, NR,
                                     io_2p, NULL};
TD_KERNEL(td_a_ctx_mistral_fa1) = {G, "alt_fa1_kv2_ptx", TD_ABI_HOST, NULL, NULL, NULL, 6, NR, g_fa1, NULL};
TD_KERNEL(td_a_ctx_mistral_io_fa1) = {IO, "alt_fa1_kv2_ptx", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 7, NR,
                                      io_fa1, NULL};
