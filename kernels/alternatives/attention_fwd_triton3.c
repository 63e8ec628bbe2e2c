/* Alternatives for attention_fwd_triton3 (_attn_fwd with a sliding window and the
 * INIT/END resume protocol; every case and form): per query row `row` of head program
 * pid1 (base = pid1/H * sqz + pid1%H * sqh, shared by Q, K, V, Out),
 *     Out[row, d] = sum_{kept n} 2^(c s_n) V[n, d] / sum_{kept n} 2^(c s_n),
 *     M[pid1 * ROUND_CTX + row] = m + log2(l) of the same fold,
 * c = RN(sm_scale * RN(1.4426950408889634)), s_n = q_row . k_n, key n kept iff (with
 * dist = row - n + off, the kernel's signed distance) case 1, 4: 0 <= dist < size;
 * case 2: dist >= size; case 3: every key.  Case 4 resumes from the stored state (m0,
 * l0, acc0) = (M[row], L[row], Out[row, d]).  A row with no kept key and no seed stores
 * M = -inf, Out = 0 (the kernel's m = -inf, l = 1).  What the contract pins: the two
 * declared casts (P to fp16 for the P.V dot, the fp16 Out store), M and Out's places, the
 * window.  The port folds KV blocks of BN from the window's first block, the seed being
 * its initial state, exp2f, acc / l.  These choose otherwise:
 *   alt_kv3_rev_ex2_split  blocks of 3 keys from the last to the first (the running max
 *                  moves at other keys, so P is cast to fp16 at other scales), exp2 as
 *                  the ex2.approx model, the new keys' (m, l, acc) merged with case 4's
 *                  seed at the end as one more split (the flash-decoding combine:
 *                  m = max(m0, m_new), both sides rescaled), out = acc * (1/l).
 *   alt_twopass_exp2  no online rescaling: the row max over the kept keys (and the seed's
 *                  m0) first, every weight and its fp16 P at that final max, the seed
 *                  rescaled once, exp2f, out = acc / l.
 *   alt_kv4_ftz_divfull  the port's arithmetic as compiled Triton runs it on NVIDIA (the
 *                  "triton" member of the "any" math model): blocks of 4 keys left to
 *                  right, exp2 as ex2.approx.ftz.f32 (2 ulp, subnormal results flushed to
 *                  0), acc / l as div.full.f32 (2 ulp), the seed as the initial state.
 * Scores: each q.k an FMA chain along ND (fp16 products are exact in binary32, so the
 * chain is the port's sequential sum) times c.  M = m + log2f(l) in both. */
#include <float.h>

#include "../host/attn_online_tl.h"
#include "alt_a_softmax.h"
#include "alt_common.h"

enum { T3_SM, T3_SQZ, T3_SQH, T3_SQM, T3_SQK, T3_SKZ, T3_SKH, T3_SKN, T3_SKK, T3_SVZ, T3_SVH, T3_SVK, T3_SVN,
       T3_SOZ, T3_SOH, T3_SOM, T3_SON, T3_Z, T3_H, T3_HKV, T3_NCTX, T3_ROUND, T3_NKV, T3_OFF, T3_SIZE };
enum { T3_Q, T3_K, T3_V, T3_M, T3_OUT, T3_L };

typedef struct t3a_state {
    float m, l, *acc; /* m = -inf: nothing folded yet (l, acc are 0 then) */
} t3a_state;

static inline float t3a_f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(alt_f16(), x)); }

/* fold keys lo .. hi-1 (scores s, kept where keep[j]) into S; p: scratch of hi-lo floats */
static void t3a_block(t3a_state *S, const float *s, const uint8_t *keep, const float *v, int64_t D, int64_t lo,
                      int64_t hi, aa_expfn ex, float *p) {
    float bm = -INFINITY;
    for (int64_t j = lo; j < hi; j++)
        if (keep[j] && s[j] > bm) bm = s[j];
    if (bm == -INFINITY) return; /* no kept key here: the state stays */
    float mn = S->m > bm ? S->m : bm, alpha = S->m == -INFINITY ? 0.0f : ex(S->m - mn), ls = 0.0f;
    for (int64_t j = lo; j < hi; j++) {
        float e = keep[j] ? ex(s[j] - mn) : 0.0f;
        ls = ls + e;
        p[j - lo] = t3a_f16(e); /* p.to(fp16), the declared cast */
    }
    S->l = S->l * alpha + ls;
    for (int64_t d = 0; d < D; d++) {
        float pv = 0.0f;
        for (int64_t j = lo; j < hi; j++) pv = fmaf(p[j - lo], v[j * D + d], pv);
        S->acc[d] = fmaf(S->acc[d], alpha, pv);
    }
    S->m = mn;
}

/* S = the merge of S and a stored state (m0, l0, acc0): both rescaled to max(m0, S->m) */
static void t3a_merge(t3a_state *S, float m0, float l0, const float *acc0, int64_t D, aa_expfn ex) {
    float m = S->m > m0 ? S->m : m0, a0 = ex(m0 - m), a1 = S->m == -INFINITY ? 0.0f : ex(S->m - m);
    S->l = fmaf(l0, a0, S->l * a1);
    for (int64_t d = 0; d < D; d++) S->acc[d] = fmaf(acc0[d], a0, S->acc[d] * a1);
    S->m = m;
}

/* ex2.approx.ftz.f32: the 2-ulp model with subnormal results flushed to zero */
static float t3a_ex2_ftz(float t) {
    float r = alt_ex2_approx(t);
    return fabsf(r) < FLT_MIN ? 0.0f : r;
}

typedef struct t3a_alt {
    int cas;
    int split; /* 1: blocks of 3 right to left, the seed merged last; 0: two-pass, seed
                * first; 2: blocks of 4 left to right, seed first, ftz exp2, div.full */
} t3a_alt;

/* row `row`'s scores s[n] = c * (q_row . k_n) (an FMA chain along ND) and its window keep[n] */
static void t3a_scores(const td_abi_launch *L, const t3a_alt *A, int64_t b, int64_t row, int64_t NKV, int64_t D,
                       float c, float *s, uint8_t *keep) {
    const int64_t off = TL_I(L, T3_OFF), size = A->cas == 3 ? 0 : TL_I(L, T3_SIZE);
    for (int64_t n = 0; n < NKV; n++) {
        int64_t dist = row - n + off;
        keep[n] = (uint8_t)(A->cas == 3 ? 1 : A->cas == 2 ? dist >= size : dist >= 0 && dist < size);
        float dot = 0.0f;
        for (int64_t e = 0; e < D; e++)
            dot = fmaf(tl_load(L, T3_Q, b + row * TL_I(L, T3_SQM) + e * TL_I(L, T3_SQK)),
                       tl_load(L, T3_K, b + n * TL_I(L, T3_SKN) + e * TL_I(L, T3_SKK)), dot);
        s[n] = dot * c;
    }
}

/* the row's fold of its kept keys (and case 4's seed m0, l0, acc0) into S, as A says */
static void t3a_fold(const t3a_alt *A, t3a_state *S, const float *s, const uint8_t *keep, const float *v, int64_t NKV,
                     int64_t D, float m0, float l0, const float *acc0, aa_expfn ex, float *p) {
    if (A->split == 1) {
        for (int64_t hi = NKV; hi > 0; hi -= 3) t3a_block(S, s, keep, v, D, hi > 3 ? hi - 3 : 0, hi, ex, p);
        if (A->cas == 4) t3a_merge(S, m0, l0, acc0, D, ex);
        return;
    }
    if (A->cas == 4) { /* the seed first: the initial state of the fold */
        S->m = m0, S->l = l0;
        for (int64_t d = 0; d < D; d++) S->acc[d] = acc0[d];
    }
    const int64_t C = A->split == 2 ? 4 : NKV; /* two-pass: the whole row one block */
    for (int64_t lo = 0; lo < NKV; lo += C) t3a_block(S, s, keep, v, D, lo, lo + C < NKV ? lo + C : NKV, ex, p);
}

/* M = m + log2(l) and Out = acc / l (as A divides) of a folded row; -inf and 0 for an empty one */
static void t3a_store(const td_abi_launch *L, const t3a_alt *A, const t3a_state *S, int64_t mrow, int64_t orow,
                      int64_t D) {
    int any = S->m != -INFINITY;
    float r = any && A->split == 1 ? 1.0f / S->l : 0.0f;
    tl_store(L, T3_M, mrow, any ? S->m + log2f(S->l) : -INFINITY, tl_f32());
    for (int64_t d = 0; d < D; d++) {
        float o = !any             ? 0.0f
                  : A->split == 1 ? S->acc[d] * r
                  : A->split == 2 ? alt_div_full(S->acc[d], S->l)
                                  : S->acc[d] / S->l;
        tl_store(L, T3_OUT, orow + d * TL_I(L, T3_SON), o, alt_f16());
    }
}

static int t3a_run(const td_abi_launch *L, const t3a_alt *A) {
    const int ib = A->cas == 3 ? T3_SIZE : T3_SIZE + 1;
    const int64_t BM = TL_I(L, ib), D = TL_I(L, ib + 1), NKV = TL_I(L, T3_NKV), H = TL_I(L, T3_H);
    const int64_t ROUND = TL_I(L, T3_ROUND);
    const float c = TL_R(L, T3_SM) * 1.4426950408889634f;
    aa_expfn ex = A->split == 1 ? alt_ex2_approx : A->split == 2 ? t3a_ex2_ftz : exp2f;
    float *s, *v, *acc, *acc0, *p;
    uint8_t *keep;
    TL_ALLOC(L, s, NKV + NKV * D + 2 * D + NKV);
    v = s + NKV, acc = v + NKV * D, acc0 = acc + D, p = acc0 + D;
    TL_ALLOC(L, keep, NKV);
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
        const int64_t b = p1 / H * TL_I(L, T3_SQZ) + p1 % H * TL_I(L, T3_SQH);
        for (int64_t n = 0; n < NKV; n++)
            for (int64_t d = 0; d < D; d++)
                v[n * D + d] = tl_load(L, T3_V, b + n * TL_I(L, T3_SVK) + d * TL_I(L, T3_SVN));
        for (int64_t row = 0; row < (int64_t)L->grid[0] * BM; row++) {
            const int64_t mrow = p1 * ROUND + row, orow = b + row * TL_I(L, T3_SOM);
            t3a_scores(L, A, b, row, NKV, D, c, s, keep);
            t3a_state S = {-INFINITY, 0.0f, acc};
            for (int64_t d = 0; d < D; d++) acc[d] = 0.0f;
            float m0 = 0, l0 = 0;
            if (A->cas == 4) {
                m0 = tl_load(L, T3_M, mrow), l0 = tl_load(L, T3_L, mrow);
                for (int64_t d = 0; d < D; d++) acc0[d] = tl_load(L, T3_OUT, orow + d * TL_I(L, T3_SON));
            }
            t3a_fold(A, &S, s, keep, v, NKV, D, m0, l0, acc0, ex, p);
            t3a_store(L, A, &S, mrow, orow, D);
        }
    }
    free(s), free(keep);
    return 0;
}

#define T3A(c, sp) \
    static int t3a_##c##_##sp(const td_abi_launch *L) { \
        t3a_alt A = {c, sp}; \
        return t3a_run(L, &A); \
    }
T3A(1, 1) T3A(2, 1) T3A(3, 1) T3A(4, 1) T3A(1, 0) T3A(2, 0) T3A(3, 0) T3A(4, 0)
T3A(1, 2) T3A(2, 2) T3A(3, 2) T3A(4, 2)

#define T3_ID(x) "attention_fwd_triton3.attention_fwd_triton3_" x
#define T3_CASTS "p=fp16:rne:inf;store=fp16:rne:inf"
/* (the kernel table is scanned for lines that begin with TD_KERNEL(name): one entry each) */
#define T3_SPLIT "alt_kv3_rev_ex2_split"
#define T3_2P "alt_twopass_exp2"
TD_KERNEL(td_a_t3_os1_s) = {T3_ID("python_case1_output_summary_general"), T3_SPLIT, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                28, 6, t3a_1_1, NULL};
TD_KERNEL(td_a_t3_os2_s) = {T3_ID("python_case2_output_summary_general"), T3_SPLIT, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                28, 6, t3a_2_1, NULL};
TD_KERNEL(td_a_t3_os3_s) = {T3_ID("python_case3_output_summary_general"), T3_SPLIT, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                27, 6, t3a_3_1, NULL};
TD_KERNEL(td_a_t3_os4_s) = {T3_ID("python_case4_output_summary_general"), T3_SPLIT, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                28, 6, t3a_4_1, NULL};
TD_KERNEL(td_a_t3_io1_s) = {T3_ID("case1_io_correctness"), T3_SPLIT, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                28, 6, t3a_1_1, NULL};
TD_KERNEL(td_a_t3_io2_s) = {T3_ID("case2_io_correctness"), T3_SPLIT, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                28, 6, t3a_2_1, NULL};
TD_KERNEL(td_a_t3_io3_s) = {T3_ID("case3_io_correctness"), T3_SPLIT, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                27, 6, t3a_3_1, NULL};
TD_KERNEL(td_a_t3_io4_s) = {T3_ID("case4_io_correctness"), T3_SPLIT, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                28, 6, t3a_4_1, NULL};
TD_KERNEL(td_a_t3_os1_2p) = {T3_ID("python_case1_output_summary_general"), T3_2P, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                28, 6, t3a_1_0, NULL};
TD_KERNEL(td_a_t3_os2_2p) = {T3_ID("python_case2_output_summary_general"), T3_2P, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                28, 6, t3a_2_0, NULL};
TD_KERNEL(td_a_t3_os3_2p) = {T3_ID("python_case3_output_summary_general"), T3_2P, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                27, 6, t3a_3_0, NULL};
TD_KERNEL(td_a_t3_os4_2p) = {T3_ID("python_case4_output_summary_general"), T3_2P, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                28, 6, t3a_4_0, NULL};
TD_KERNEL(td_a_t3_io1_2p) = {T3_ID("case1_io_correctness"), T3_2P, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                28, 6, t3a_1_0, NULL};
TD_KERNEL(td_a_t3_io2_2p) = {T3_ID("case2_io_correctness"), T3_2P, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                28, 6, t3a_2_0, NULL};
TD_KERNEL(td_a_t3_io3_2p) = {T3_ID("case3_io_correctness"), T3_2P, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                27, 6, t3a_3_0, NULL};
TD_KERNEL(td_a_t3_io4_2p) = {T3_ID("case4_io_correctness"), T3_2P, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                28, 6, t3a_4_0, NULL};
#define T3_FTZ "alt_kv4_ftz_divfull"
TD_KERNEL(td_a_t3_os1_ftz) = {T3_ID("python_case1_output_summary_general"), T3_FTZ, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                 28, 6, t3a_1_2, NULL};
TD_KERNEL(td_a_t3_os2_ftz) = {T3_ID("python_case2_output_summary_general"), T3_FTZ, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                 28, 6, t3a_2_2, NULL};
TD_KERNEL(td_a_t3_os3_ftz) = {T3_ID("python_case3_output_summary_general"), T3_FTZ, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                 27, 6, t3a_3_2, NULL};
TD_KERNEL(td_a_t3_os4_ftz) = {T3_ID("python_case4_output_summary_general"), T3_FTZ, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                 28, 6, t3a_4_2, NULL};
TD_KERNEL(td_a_t3_io1_ftz) = {T3_ID("case1_io_correctness"), T3_FTZ, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                 28, 6, t3a_1_2, NULL};
TD_KERNEL(td_a_t3_io2_ftz) = {T3_ID("case2_io_correctness"), T3_FTZ, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                 28, 6, t3a_2_2, NULL};
TD_KERNEL(td_a_t3_io3_ftz) = {T3_ID("case3_io_correctness"), T3_FTZ, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                 27, 6, t3a_3_2, NULL};
TD_KERNEL(td_a_t3_io4_ftz) = {T3_ID("case4_io_correctness"), T3_FTZ, TD_ABI_HOST, T3_CASTS, NULL, NULL,
                                 28, 6, t3a_4_2, NULL};
