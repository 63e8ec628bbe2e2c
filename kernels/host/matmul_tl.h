/* The matmul family's K loop on the host, shared by the host kernels and their mutants.
 *
 * tl.dot on the host: a program's [BM, BK] x [BK, BN] tile product is evaluated lane
 * by lane in binary32 as Triton's interpreter would with a pairwise reduction: the BK
 * products a[i,e] * b[e,j] (one rounding each; exact for fp16 and fp8 operands), then
 * tl_sum over the BK lanes (the pairwise tree of tl.h).  `acc += tl.dot(a, b)` and the
 * fused `acc = tl.dot(a, b, acc)` both add that tile sum to the accumulator once per
 * K step.  Masked loads give 0 (other=0.0; the masked loads without `other` of
 * bmm_optimized read 0 too: VeriTile's clean-undef hypothesis, see that file).
 * contracts/matmul_common.h derives the tolerance from exactly this order.
 */
#ifndef TD_MATMUL_TL_H
#define TD_MATMUL_TL_H

#include "tl.h"

/* One program's K loop. */
typedef struct mmh_loop {
    int ra, rb;             /* regions of A and B */
    int64_t BM, BN, BK, T;  /* tile shape and number of K steps */
    int64_t K;              /* lanes with t*BK + e >= K load 0 (the offs_k < K - k*BK mask) */
    const int64_t *arow;    /* [BM]: offset of A[row i, k = 0]; < 0: the row's loads are masked */
    const int64_t *bcol;    /* [BN]: offset of B[k = 0, col j]; < 0: masked */
    int64_t sak, sbk;       /* element strides along K */
    int acc_fp16;           /* a bug model: the accumulator rounded to fp16 after every step */
} mmh_loop;

static inline float mmh_round_f16(float x) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return (float)td_decode(TD_F16, td_encode_f32(p, x));
}

/* acc[i*BN + j] += sum over the T steps of the tile dot products (acc holds the
 * initial value: zeros, or a bias). Returns 0, or 1 with a message. */
static inline int mmh_kloop(const td_abi_launch *L, const mmh_loop *m, float *acc) {
    float *a, *b, *prod;
    TL_ALLOC(L, a, m->BM * m->BK);
    TL_ALLOC(L, b, m->BK * m->BN);
    prod = calloc((size_t)(m->BK > 0 ? m->BK : 1), sizeof *prod);
    if (!prod) {
        free(a);
        free(b);
        snprintf(L->err, L->errlen, "out of memory for a tile of %lld lanes", (long long)m->BK);
        return 1;
    }
    for (int64_t t = 0; t < m->T; t++) {
        /* a = tl.load(a_ptrs, mask=offs_k[None, :] < K - t*BK, other=0.0) */
        for (int64_t i = 0; i < m->BM; i++)
            for (int64_t e = 0; e < m->BK; e++) {
                int64_t k = t * m->BK + e;
                a[i * m->BK + e] = (m->arow[i] >= 0 && k < m->K) ? tl_load(L, m->ra, m->arow[i] + k * m->sak) : 0.0f;
            }
        for (int64_t e = 0; e < m->BK; e++)
            for (int64_t j = 0; j < m->BN; j++) {
                int64_t k = t * m->BK + e;
                b[e * m->BN + j] = (m->bcol[j] >= 0 && k < m->K) ? tl_load(L, m->rb, m->bcol[j] + k * m->sbk) : 0.0f;
            }
        /* acc += tl.dot(a, b) */
        for (int64_t i = 0; i < m->BM; i++)
            for (int64_t j = 0; j < m->BN; j++) {
                for (int64_t e = 0; e < m->BK; e++) prod[e] = a[i * m->BK + e] * b[e * m->BN + j];
                float s = acc[i * m->BN + j] + tl_sum(prod, m->BK);
                acc[i * m->BN + j] = m->acc_fp16 ? mmh_round_f16(s) : s;
            }
    }
    free(a);
    free(b);
    free(prod);
    return 0;
}

/* Store profiles. */
static inline td_profile mmh_f16_store(void) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return p;
}

/* leaky_relu(x) = tl.where(x >= 0, x, 0.01 * x) with the literal held in binary32. */
static inline float mmh_leaky(float x) { return x >= 0.0f ? x : 0.01f * x; }

/* The tutorial's grouped program order (see contracts/matmul_common.h, mm_swizzle). */
static inline void mmh_swizzle(int64_t pid, int64_t M, int64_t N, int64_t BM, int64_t BN, int64_t GM, int simple,
                               int64_t *pm, int64_t *pn) {
    int64_t nm = (M + BM - 1) / BM, nn = (N + BN - 1) / BN, nig = GM * nn;
    int64_t gid = pid / nig, fpm = gid * GM;
    int64_t gsm = nm - fpm < GM ? nm - fpm : GM;
    if (gsm < 1) gsm = 1;
    *pm = fpm + (simple ? pid % gsm : (pid % nig) % gsm);
    *pn = (pid % nig) / gsm;
}


/* ---- the 2-D grouped GEMM program (one program per [BM, BN] output tile) ---- */
enum { MMH_SWZ_TUTORIAL = 0, MMH_SWZ_SIMPLE = 1, MMH_SWZ_ROWMAJOR = 2 };
enum { MMH_IDX_RAW = 0, MMH_IDX_WRAP, MMH_IDX_CLAMP };
typedef struct mmh_2d {
    int64_t M, N, K, BM, BN, BK, T, GM;
    int64_t sam, sak, sbk, sbn, scm, scn;
    int swz;              /* program order */
    int rowmode, colmode; /* offs_am / offs_bn: raw, % M, or tl.where(offs < M, offs, 0) */
    int ra, rb, rc;
    int leaky;            /* leaky_relu before the store */
    td_profile store;     /* the store's cast (binary32: exact) */
    int acc_fp16;         /* bug model: fp16 accumulator */
    int mask_rows_only;   /* bug model: store mask without the column bound */
    int pidn_nomod;       /* bug model: pid_n = pid // group_size_m (no % num_pid_in_group) */
    int clamp_rows_by_n;  /* bug model: offs_am clamped against N instead of M */
    int rowmajor_by_m;    /* bug model: row-major order with num_pid_n = cdiv(M, BM) */
    int a_off_i32;        /* bug model: offs_am * stride_am formed in int32 (wraps beyond 2^31) */
} mmh_2d;

/* The program of matmul_leakyrelu and matmul_leakyrelu_fp8 (their ports and mutants):
 * parameters M N SAM SAK SBK SBN SCM SCN BM BN BK GROUP numKBlocks, regions A, B, C; the
 * tutorial's grouped order, loads wrapped % M / % N, leaky_relu, an fp16 store, the
 * kernel's K = BK * numKBlocks. */
enum { MMH_LR_M, MMH_LR_N, MMH_LR_SAM, MMH_LR_SAK, MMH_LR_SBK, MMH_LR_SBN, MMH_LR_SCM, MMH_LR_SCN, MMH_LR_BM,
       MMH_LR_BN, MMH_LR_BK, MMH_LR_GROUP, MMH_LR_NKB };
static inline mmh_2d mmh_leakyrelu_program(const td_abi_launch *L) {
    mmh_2d g = {.M = TL_I(L, MMH_LR_M), .N = TL_I(L, MMH_LR_N), .BM = TL_I(L, MMH_LR_BM), .BN = TL_I(L, MMH_LR_BN),
                .BK = TL_I(L, MMH_LR_BK), .T = TL_I(L, MMH_LR_NKB), .GM = TL_I(L, MMH_LR_GROUP),
                .sam = TL_I(L, MMH_LR_SAM), .sak = TL_I(L, MMH_LR_SAK), .sbk = TL_I(L, MMH_LR_SBK),
                .sbn = TL_I(L, MMH_LR_SBN), .scm = TL_I(L, MMH_LR_SCM), .scn = TL_I(L, MMH_LR_SCN),
                .swz = MMH_SWZ_TUTORIAL, .rowmode = MMH_IDX_WRAP, .colmode = MMH_IDX_WRAP, .ra = 0, .rb = 1, .rc = 2,
                .leaky = 1, .store = mmh_f16_store()};
    g.K = g.BK * g.T;
    return g;
}

static inline int64_t mmh_index(int64_t g, int64_t bound, int mode) {
    return mode == MMH_IDX_WRAP ? g % bound : mode == MMH_IDX_CLAMP ? (g < bound ? g : 0) : g;
}

static inline int mmh_gemm_2d(const td_abi_launch *L, const mmh_2d *g) {
    int64_t *arow, *bcol;
    float *acc;
    TL_ALLOC(L, arow, g->BM);
    TL_ALLOC(L, bcol, g->BN);
    TL_ALLOC(L, acc, g->BM * g->BN);
    int rc = 0;
    int64_t nn = g->rowmajor_by_m ? (g->M + g->BM - 1) / g->BM : (g->N + g->BN - 1) / g->BN;
    for (uint32_t pid = 0; pid < L->grid[0] && !rc; pid++) {
        int64_t pm, pn;
        if (g->swz == MMH_SWZ_ROWMAJOR) pm = pid / nn, pn = pid % nn;
        else mmh_swizzle(pid, g->M, g->N, g->BM, g->BN, g->GM, g->swz == MMH_SWZ_SIMPLE, &pm, &pn);
        if (g->pidn_nomod) {
            int64_t nm = (g->M + g->BM - 1) / g->BM, fpm = pid / (g->GM * nn) * g->GM;
            pn = pid / (nm - fpm < g->GM ? nm - fpm : g->GM);
        }
        for (int64_t i = 0; i < g->BM && !rc; i++) {
            int64_t r = mmh_index(pm * g->BM + i, g->clamp_rows_by_n ? g->N : g->M, g->rowmode);
            arow[i] = g->a_off_i32 ? tl_i32(r * tl_i32(g->sam)) : r * g->sam;
            rc = g->a_off_i32 && tl_fault(L, g->ra, arow[i], g->K, g->sak, pid);
        }
        if (rc) break;
        for (int64_t j = 0; j < g->BN; j++) bcol[j] = mmh_index(pn * g->BN + j, g->N, g->colmode) * g->sbn;
        memset(acc, 0, (size_t)(g->BM * g->BN) * sizeof *acc);
        mmh_loop m = {g->ra, g->rb, g->BM, g->BN, g->BK, g->T, g->K, arow, bcol, g->sak, g->sbk, g->acc_fp16};
        rc = mmh_kloop(L, &m, acc);
        for (int64_t i = 0; i < g->BM && !rc; i++)
            for (int64_t j = 0; j < g->BN; j++) {
                int64_t row = pm * g->BM + i, col = pn * g->BN + j; /* offs_cm, offs_cn */
                if (!(row < g->M && (g->mask_rows_only || col < g->N))) continue;
                int64_t off = row * g->scm + col * g->scn;
                if (off >= (int64_t)TL_LEN(L, g->rc)) continue; /* the bug models only: never past C */
                float v = acc[i * g->BN + j];
                tl_store(L, g->rc, off, g->leaky ? mmh_leaky(v) : v, g->store);
            }
    }
    free(arow);
    free(bcol);
    free(acc);
    return rc;
}

/* A bug model's reads must stay inside A and B: 0 (and a message) when the last row /
 * column it loads leaves its region, as a GPU kernel would fault there. */
static inline int mmh_reads_fit(const td_abi_launch *L, const mmh_2d *g) {
    int64_t arows = g->rowmode == MMH_IDX_RAW ? (g->M + g->BM - 1) / g->BM * g->BM : g->M;
    if (g->clamp_rows_by_n) { /* rows g < N of the launch's tiles are read as they are */
        int64_t tiles = (g->M + g->BM - 1) / g->BM * g->BM;
        arows = tiles < g->N ? tiles : g->N;
    }
    int64_t bcols = g->colmode == MMH_IDX_RAW ? (g->N + g->BN - 1) / g->BN * g->BN : g->N;
    int64_t alast = (arows - 1) * g->sam + (g->K - 1) * g->sak, blast = (g->K - 1) * g->sbk + (bcols - 1) * g->sbn;
    if (alast >= (int64_t)TL_LEN(L, g->ra) || blast >= (int64_t)TL_LEN(L, g->rb)) {
        snprintf(L->err, L->errlen, "illegal memory access: %s read past its end",
                 alast >= (int64_t)TL_LEN(L, g->ra) ? "A" : "B");
        return 0;
    }
    return 1;
}

#endif
