/* llama_ff_triton: ff_llama on the CPU (USE_FP8 = False), program by program.
 *
 * Program pid: pid_m = pid // cdiv(N, BN), pid_n = pid % cdiv(N, BN), rows wrapped % M and
 * columns % N in the unmasked loads.  Per K step: the [BM, BK] tile of A (fp16),
 * a_sum += pow(a.to(f32), 2) lane by lane (the correctly rounded square), a = a * rms_w in
 * fp16 (the exact product of two fp16 values rounded once to fp16), acc1 += tl.dot(a, w1)
 * and acc2 += tl.dot(a, w3) (matmul_tl.h's tile dot: BK products summed by tl_sum's tree).
 * Tail: a_mean = tl.sum(a_sum, axis=1) / K + EPS, a_norm = rsqrt(a_mean) (1 / sqrtf),
 * acc1 *= a_norm, acc2 *= a_norm, (acc1 * sigmoid(acc1)) * acc2 with sigmoid = 1 / (1 +
 * exp(-x)), stored to fp16 under row < M & col < N.  `bug` selects a mutant
 * (kernels/mutants/llama_ff_triton.c), 0 here. */
#include "matmul_tl.h"

enum { P_M, P_N, P_SAM, P_SAK, P_SW1K, P_SW1N, P_SW3K, P_SW3N, P_SOUTM, P_SOUTN, P_SRMS, P_BM, P_BN, P_BK, P_NKB,
       P_K, P_EPS };
enum { R_A, R_W1, R_W3, R_OUT, R_RMS };
enum { FF_OK = 0, FF_BUG_ASUM_LAST, FF_BUG_GATE_W3, FF_BUG_NORM_ACC1_ONLY, FF_BUG_A_I32 };

/* A's row offset; FF_BUG_A_I32: (offs_am % M) * stride_am formed in int32 (wraps beyond 2^31) */
static int64_t ff_arow(const td_abi_launch *L, int bug, int64_t row) {
    return bug == FF_BUG_A_I32 ? tl_i32(row * tl_i32(TL_I(L, P_SAM))) : row * TL_I(L, P_SAM);
}

typedef struct ff_tiles {
    float *a, *asum, *w1, *w3, *acc1, *acc2, *prod;
} ff_tiles;

/* the K loop of program (pm, pn) into t->acc1, t->acc2, t->asum */
static void ff_kloop(const td_abi_launch *L, int bug, int64_t pm, int64_t pn, ff_tiles *t) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), BK = TL_I(L, P_BK);
    for (int64_t s = 0; s < TL_I(L, P_NKB); s++) {
        for (int64_t i = 0; i < BM; i++)
            for (int64_t e = 0; e < BK; e++) {
                int64_t k = s * BK + e, row = (pm * BM + i) % M;
                float a = tl_load(L, R_A, ff_arow(L, bug, row) + k * TL_I(L, P_SAK));
                float sq = a * a; /* pow(a, 2): the correctly rounded square */
                t->asum[i * BK + e] = bug == FF_BUG_ASUM_LAST ? sq : t->asum[i * BK + e] + sq;
                t->a[i * BK + e] = mmh_round_f16(a * tl_load(L, R_RMS, k * TL_I(L, P_SRMS)));
            }
        for (int64_t e = 0; e < BK; e++)
            for (int64_t j = 0; j < BN; j++) {
                int64_t k = s * BK + e, col = (pn * BN + j) % N;
                t->w1[e * BN + j] = tl_load(L, R_W1, k * TL_I(L, P_SW1K) + col * TL_I(L, P_SW1N));
                t->w3[e * BN + j] = tl_load(L, R_W3, k * TL_I(L, P_SW3K) + col * TL_I(L, P_SW3N));
            }
        for (int64_t i = 0; i < BM; i++)
            for (int64_t j = 0; j < BN; j++) {
                for (int64_t e = 0; e < BK; e++) t->prod[e] = t->a[i * BK + e] * t->w1[e * BN + j];
                t->acc1[i * BN + j] += tl_sum(t->prod, BK);
                for (int64_t e = 0; e < BK; e++) t->prod[e] = t->a[i * BK + e] * t->w3[e * BN + j];
                t->acc2[i * BN + j] += tl_sum(t->prod, BK);
            }
    }
}

/* the tail of program (pm, pn): norm, gate, masked fp16 store */
static void ff_tail(const td_abi_launch *L, int bug, int64_t pm, int64_t pn, ff_tiles *t) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), BK = TL_I(L, P_BK);
    td_profile st = mmh_f16_store();
    for (int64_t i = 0; i < BM; i++) {
        float mean = tl_sum(t->asum + i * BK, BK) / (float)TL_I(L, P_K) + TL_R(L, P_EPS);
        float nrm = 1.0f / sqrtf(mean);
        for (int64_t j = 0; j < BN; j++) {
            float v1 = t->acc1[i * BN + j] * nrm;
            float v2 = bug == FF_BUG_NORM_ACC1_ONLY ? t->acc2[i * BN + j] : t->acc2[i * BN + j] * nrm;
            if (bug == FF_BUG_GATE_W3) { /* the gate on the w3 branch */
                float tmp = v1;
                v1 = v2, v2 = tmp;
            }
            float out = (v1 * (1.0f / (1.0f + expf(-v1)))) * v2;
            int64_t row = pm * BM + i, col = pn * BN + j;
            if (row < M && col < N) tl_store(L, R_OUT, row * TL_I(L, P_SOUTM) + col * TL_I(L, P_SOUTN), out, st);
        }
    }
}

int td_llama_ff_triton_program(const td_abi_launch *L, int bug);
int td_llama_ff_triton_program(const td_abi_launch *L, int bug) {
    int64_t BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), BK = TL_I(L, P_BK), gn = (TL_I(L, P_N) + BN - 1) / BN;
    ff_tiles t;
    TL_ALLOC(L, t.a, BM * BK);
    TL_ALLOC(L, t.asum, BM * BK);
    TL_ALLOC(L, t.w1, BK * BN);
    TL_ALLOC(L, t.w3, BK * BN);
    TL_ALLOC(L, t.acc1, BM * BN);
    TL_ALLOC(L, t.acc2, BM * BN);
    TL_ALLOC(L, t.prod, BK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        for (int64_t i = 0; i < BM && bug == FF_BUG_A_I32; i++) { /* a wrapped row faults before any load */
            int64_t row = (pid / gn * BM + i) % TL_I(L, P_M);
            if (!tl_fault(L, R_A, ff_arow(L, bug, row), TL_I(L, P_K), TL_I(L, P_SAK), pid)) continue;
            free(t.a), free(t.asum), free(t.w1), free(t.w3), free(t.acc1), free(t.acc2), free(t.prod);
            return 1;
        }
        memset(t.asum, 0, (size_t)(BM * BK) * sizeof(float));
        memset(t.acc1, 0, (size_t)(BM * BN) * sizeof(float));
        memset(t.acc2, 0, (size_t)(BM * BN) * sizeof(float));
        ff_kloop(L, bug, pid / gn, pid % gn, &t);
        ff_tail(L, bug, pid / gn, pid % gn, &t);
    }
    free(t.a), free(t.asum), free(t.w1), free(t.w3), free(t.acc1), free(t.acc2), free(t.prod);
    return 0;
}

static int ff_llama(const td_abi_launch *L) { return td_llama_ff_triton_program(L, FF_OK); }

TD_KERNEL(td_k_llama_ff_triton) = {"llama_ff_triton.ff_llama_closed_form_correct", "triton", TD_ABI_HOST,
                                   "store=fp16:rne:inf", NULL, NULL, 17, 5, ff_llama, NULL};
