/* triton_attention: _fwd_kernel and _bwd_preprocess on the CPU.
 *
 * _bwd_preprocess, program by program: the BLOCK_M x D_HEAD
 * tiles of Out and DO (fp16) and BLOCK_M entries of L converted to binary32, do / denom
 * stored as NewDO (fp16), the row sums of o * do (tl.sum: a pairwise tree) as Delta
 * (binary32).  Parameters: BLOCK_M, D_HEAD.  Regions: Out, DO, L, NewDO, Delta. */
#include "attn_online_tl.h"

enum { P_BM, P_DH };
enum { R_OUT, R_DO, R_L, R_NEWDO, R_DELTA };

/* the mutants' switches (kernels/mutants/triton_attention.c) */
#define TA_MUT_RAW_DO 1u    /* delta = sum(o * do) with the undivided do */
#define TA_MUT_TIMES_L 2u   /* do * denom for do / denom */
#define TA_MUT_LAST_LANE 4u /* delta over D_HEAD - 1 lanes */
int td_hk_triton_attention_pre(const td_abi_launch *L, unsigned mut);

static td_profile ta_f16(void) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return p;
}

int td_hk_triton_attention_pre(const td_abi_launch *L, unsigned mut) {
    const int64_t BM = TL_I(L, P_BM), DH = TL_I(L, P_DH);
    float *prod;
    TL_ALLOC(L, prod, DH);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t i = 0; i < BM; i++) {
            const int64_t m = (int64_t)pid * BM + i;
            const float denom = tl_load(L, R_L, m);
            for (int64_t n = 0; n < DH; n++) {
                const float o = tl_load(L, R_OUT, m * DH + n), g = tl_load(L, R_DO, m * DH + n);
                const float d = (mut & TA_MUT_TIMES_L) ? g * denom : g / denom;
                prod[n] = o * ((mut & TA_MUT_RAW_DO) ? g : d);
                tl_store(L, R_NEWDO, m * DH + n, d, ta_f16());
            }
            const int64_t lanes = (mut & TA_MUT_LAST_LANE) && DH > 1 ? DH - 1 : DH;
            tl_store(L, R_DELTA, m, tl_sum(prod, lanes), tl_f32());
        }
    free(prod);
    return 0;
}

static int launch(const td_abi_launch *L) { return td_hk_triton_attention_pre(L, 0); }

TD_KERNEL(td_k_triton_attention_pre) = {"triton_attention.triton_attention_bwd_preprocess_genuine_output_summary_general",
                                        "triton", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 2, 5, launch, NULL};

/* ---- _fwd_kernel (the tutorial's v1 forward): program (start_m, off_hz), Q, K, V, Out
 * fp16 read through the (D0, BLOCK_DMODEL) view from row off_hz * (stride_qh / BD), the
 * FlashAttention-1 step (normalised every block), L = l_prev, M = m_prev (binary32), Out
 * fp16.  Parameters: sc, stride_qz, stride_qh, Z, H, N_CTX, D0, BLOCK_M, BLOCK_DMODEL,
 * BLOCK_N.  Regions Q, K, V, L, M, Out. */
enum { F_SC, F_SQZ, F_SQH, F_Z, F_H, F_NCTX, F_D0, F_BM, F_BD, F_BN };
enum { FR_Q, FR_K, FR_V, FR_L, FR_M, FR_OUT };
#define TF_MUT_CAUSAL_GT 1u   /* offs_m > start_n + offs_n: the diagonal key dropped */
#define TF_MUT_NO_RESCALE 2u  /* acc not rescaled by l_prev / l_curr */
#define TF_MUT_LAST_BLOCK 4u  /* the key loop stops one block early (range(0, start_m * BLOCK_M)) */
int td_hk_triton_attention_fwd(const td_abi_launch *L, unsigned mut);

typedef struct tf_tiles {
    float *q, *k, *v, *qk, *acc, *m, *l, *p, *p16;
} tf_tiles;

/* one key block for every row of the program */
static void tf_block(const td_abi_launch *L, unsigned mut, const tf_tiles *w, int64_t hz, int64_t start_m,
                     int64_t start_n) {
    const int64_t BM = TL_I(L, F_BM), BN = TL_I(L, F_BN), BD = TL_I(L, F_BD), D0 = TL_I(L, F_D0);
    for (int64_t n = 0; n < BN; n++) /* boundary_check on the (D0, BD) view: rows past D0 read 0 */
        for (int64_t d = 0; d < BD; d++) {
            const int in = hz + start_n + n < D0;
            w->k[n * BD + d] = in ? tl_load(L, FR_K, (hz + start_n + n) * BD + d) : 0.0f;
            w->v[n * BD + d] = in ? tl_load(L, FR_V, (hz + start_n + n) * BD + d) : 0.0f;
        }
    for (int64_t i = 0; i < BM; i++) {
        const int64_t off_m = start_m * BM + i;
        for (int64_t n = 0; n < BN; n++) {
            float s = 0.0f, dot = 0.0f; /* qk = zeros; qk += tl.dot(q, tl.trans(k)); qk *= sm_scale */
            for (int64_t e = 0; e < BD; e++) dot += w->q[i * BD + e] * w->k[n * BD + e];
            s += dot;
            s *= TL_R(L, F_SC);
            const int keep = (mut & TF_MUT_CAUSAL_GT) ? off_m > start_n + n : off_m >= start_n + n;
            w->qk[i * BN + n] = keep ? s : -INFINITY;
        }
        const float rmax = tl_max(w->qk + i * BN, BN);
        const float m_curr = rmax > w->m[i] ? rmax : w->m[i];
        w->l[i] *= expf(w->m[i] - m_curr);
        for (int64_t n = 0; n < BN; n++) w->p[n] = expf(w->qk[i * BN + n] - m_curr);
        const float l_curr = tl_sum(w->p, BN) + w->l[i];
        const float l_rcp = 1.0f / l_curr;
        for (int64_t n = 0; n < BN; n++) w->p16[n] = at_cvt(TD_F16, w->p[n] * l_rcp);
        const float r = w->l[i] * l_rcp;
        for (int64_t d = 0; d < BD; d++) {
            if (!(mut & TF_MUT_NO_RESCALE)) w->acc[i * BD + d] *= r;
            float pv = 0.0f; /* tl.dot(p.to(fp16), v) */
            for (int64_t n = 0; n < BN; n++) pv += w->p16[n] * w->v[n * BD + d];
            w->acc[i * BD + d] += pv;
        }
        w->l[i] = l_curr;
        w->m[i] = m_curr;
    }
}

static void tf_program(const td_abi_launch *L, unsigned mut, const tf_tiles *w, int64_t start_m, int64_t off_hz) {
    const int64_t BM = TL_I(L, F_BM), BN = TL_I(L, F_BN), BD = TL_I(L, F_BD), NCTX = TL_I(L, F_NCTX);
    const int64_t hz = off_hz * (TL_I(L, F_SQH) / BD); /* off_hz * stride_qh_2d */
    for (int64_t i = 0; i < BM; i++) {
        w->m[i] = -INFINITY;
        w->l[i] = 0.0f;
        for (int64_t d = 0; d < BD; d++) {
            w->acc[i * BD + d] = 0.0f;
            w->q[i * BD + d] = tl_load(L, FR_Q, (hz + start_m * BM + i) * BD + d);
        }
    }
    const int64_t end = (mut & TF_MUT_LAST_BLOCK) ? start_m * BM : (start_m + 1) * BM;
    for (int64_t start_n = 0; start_n < end; start_n += BN) tf_block(L, mut, w, hz, start_m, start_n);
    for (int64_t i = 0; i < BM; i++) {
        const int64_t row = start_m * BM + i;
        tl_store(L, FR_L, off_hz * NCTX + row, w->l[i], tl_f32());
        tl_store(L, FR_M, off_hz * NCTX + row, w->m[i], tl_f32());
        for (int64_t d = 0; d < BD; d++) tl_store(L, FR_OUT, (hz + row) * BD + d, w->acc[i * BD + d], at_prof(TD_F16));
    }
}

int td_hk_triton_attention_fwd(const td_abi_launch *L, unsigned mut) {
    const int64_t BM = TL_I(L, F_BM), BN = TL_I(L, F_BN), BD = TL_I(L, F_BD);
    tf_tiles w;
    TL_ALLOC(L, w.q, BM * BD);
    TL_ALLOC(L, w.k, BN * BD);
    TL_ALLOC(L, w.v, BN * BD);
    TL_ALLOC(L, w.qk, BM * BN);
    TL_ALLOC(L, w.acc, BM * BD);
    TL_ALLOC(L, w.m, BM);
    TL_ALLOC(L, w.l, BM);
    TL_ALLOC(L, w.p, BN);
    TL_ALLOC(L, w.p16, BN);
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) tf_program(L, mut, &w, p0, p1);
    free(w.q), free(w.k), free(w.v), free(w.qk), free(w.acc), free(w.m), free(w.l), free(w.p), free(w.p16);
    return 0;
}

static int launch_fwd(const td_abi_launch *L) { return td_hk_triton_attention_fwd(L, 0); }

#define TF_CASTS "p=fp16:rne:inf;store=fp16:rne:inf"
TD_KERNEL(td_k_triton_attention_fwd) = {"triton_attention.triton_attention_forward_output_summary_general", "triton",
                                        TD_ABI_HOST, TF_CASTS, NULL, NULL, 10, 6, launch_fwd, NULL};
TD_KERNEL(td_k_triton_attention_fwd_io) = {"triton_attention.triton_attention_forward_io_correctness", "triton",
                                           TD_ABI_HOST, TF_CASTS, NULL, NULL, 10, 6, launch_fwd, NULL};

/* ---- _bwd_kernel: program off_hz (grid axis 0, Z*H programs) walks the key blocks start_n;
 * for each: the k, v tiles (BM x BD, rows past D0 read 0), dv = dk = 0, then the query blocks
 * start_m = start_n*BM .. nb*BM: qk = dot(q, k^T) (binary32, lanes in order), the causal where,
 * p = expf(qk*sc - m), dv += dot(fp16(p)^T, do), dp = -Di + dot(do, v^T) (accumulated onto -Di),
 * ds = p*dp*sc, dk += dot(fp16(ds)^T, q), DQ tile loaded, += dot(fp16(ds), k), stored; dv, dk
 * stored fp16.  Parameters: H, stride_qz, stride_qh, base, sc, BM, BD, D0, nb and six ignored.
 * Regions: Q, K, V, DO (fp16), M, Delta (binary32), DQ (binary32, read and written), DV, DK. */
enum { B_H, B_SQZ, B_SQH, B_BASE, B_SC, B_BM, B_BD, B_D0, B_NB };
enum { BR_Q, BR_K, BR_V, BR_DO, BR_M, BR_DELTA, BR_DQ, BR_DV, BR_DK };
#define TB_MUT_NO_DELTA 1u  /* dp = dot(do, v^T): Di not subtracted */
#define TB_MUT_CAUSAL_GT 2u /* offs_m_curr > offs_n: the diagonal pair dropped */
#define TB_MUT_DS_RAW 4u    /* ds fed to the dk and dq dots without the fp16 rounding */
#define TB_MUT_P_RAW 8u     /* p fed to the dv dot without the fp16 rounding */
#define TB_MUT_DQ_I32 16u   /* dq through DQ += off_z * stride_qz + off_h * stride_qh (int32) */
int td_hk_triton_attention_bwd(const td_abi_launch *L, unsigned mut);

typedef struct tb_tiles {
    float *k, *v, *q, *g, *p16, *ds, *dv, *dk;
} tb_tiles;

/* loads BM rows of a (D0, BD) tensor from 2-D row r0 (boundary_check: rows past D0 read 0) */
static void tb_tile(const td_abi_launch *L, int reg, int64_t r0, float *t) {
    const int64_t BM = TL_I(L, B_BM), BD = TL_I(L, B_BD), D0 = TL_I(L, B_D0);
    for (int64_t i = 0; i < BM; i++)
        for (int64_t e = 0; e < BD; e++) t[i * BD + e] = r0 + i < D0 ? tl_load(L, reg, (r0 + i) * BD + e) : 0.0f;
}

/* one (query block, key block) step: p, ds of the BM x BM block, then dv, dk, dq */
static void tb_step(const td_abi_launch *L, unsigned mut, const tb_tiles *w, int64_t hz, int64_t dq0, int64_t off_hz,
                    int64_t lo, int64_t start_m) {
    const int64_t BM = TL_I(L, B_BM), BD = TL_I(L, B_BD), NCTX = TL_I(L, B_NB) * BM;
    const float sc = TL_R(L, B_SC);
    tb_tile(L, BR_Q, hz + start_m, w->q);
    tb_tile(L, BR_DO, hz + start_m, w->g);
    for (int64_t i = 0; i < BM; i++) {
        const float m = tl_load(L, BR_M, off_hz * NCTX + start_m + i), di = tl_load(L, BR_DELTA, off_hz * NCTX + start_m + i);
        for (int64_t n = 0; n < BM; n++) {
            float qk = 0.0f, dp = (mut & TB_MUT_NO_DELTA) ? 0.0f : 0.0f - di;
            for (int64_t e = 0; e < BD; e++) qk += w->q[i * BD + e] * w->k[n * BD + e];
            for (int64_t e = 0; e < BD; e++) dp += w->g[i * BD + e] * w->v[n * BD + e];
            const int keep = (mut & TB_MUT_CAUSAL_GT) ? start_m + i > lo + n : start_m + i >= lo + n;
            const float p = expf((keep ? qk : -INFINITY) * sc - m), ds = p * dp * sc;
            w->p16[i * BM + n] = (mut & TB_MUT_P_RAW) ? p : at_cvt(TD_F16, p);
            w->ds[i * BM + n] = (mut & TB_MUT_DS_RAW) ? ds : at_cvt(TD_F16, ds);
        }
    }
    for (int64_t n = 0; n < BM; n++)
        for (int64_t e = 0; e < BD; e++) {
            float sv = 0.0f, sk = 0.0f; /* dot(p^T, do), dot(ds^T, q) of this block */
            for (int64_t i = 0; i < BM; i++) sv += w->p16[i * BM + n] * w->g[i * BD + e];
            for (int64_t i = 0; i < BM; i++) sk += w->ds[i * BM + n] * w->q[i * BD + e];
            w->dv[n * BD + e] += sv;
            w->dk[n * BD + e] += sk;
        }
    for (int64_t i = 0; i < BM; i++)
        for (int64_t e = 0; e < BD; e++) {
            float s = 0.0f; /* dot(ds, k) */
            for (int64_t n = 0; n < BM; n++) s += w->ds[i * BM + n] * w->k[n * BD + e];
            const int64_t off = dq0 + (start_m + i) * BD + e;
            tl_store(L, BR_DQ, off, tl_load(L, BR_DQ, off) + s, tl_f32());
        }
}

/* DQ's element offset of program off_hz: the block pointer's 2-D row hz times BD, or (the
 * mutant) the pointer DQ += off_z * stride_qz + off_h * stride_qh the kernel also forms,
 * Triton's int32 program ids times int32 strides */
static int64_t tb_dq0(const td_abi_launch *L, unsigned mut, int64_t off_hz, int64_t hz) {
    const int64_t H = TL_I(L, B_H);
    if (!(mut & TB_MUT_DQ_I32)) return hz * TL_I(L, B_BD);
    return tl_i32(tl_i32(off_hz / H * tl_i32(TL_I(L, B_SQZ))) + tl_i32(off_hz % H * tl_i32(TL_I(L, B_SQH))));
}
static int64_t tb_hz(const td_abi_launch *L, int64_t off_hz) {
    const int64_t H = TL_I(L, B_H), BD = TL_I(L, B_BD);
    return (off_hz / H) * (TL_I(L, B_SQZ) / BD) + (off_hz % H) * (TL_I(L, B_SQH) / BD);
}

static void tb_program(const td_abi_launch *L, unsigned mut, const tb_tiles *w, int64_t off_hz) {
    const int64_t BM = TL_I(L, B_BM), BD = TL_I(L, B_BD), NB = TL_I(L, B_NB);
    const int64_t hz = tb_hz(L, off_hz), dq0 = tb_dq0(L, mut, off_hz, hz);
    for (int64_t start_n = 0; start_n < NB; start_n++) {
        const int64_t lo = start_n * BM;
        for (int64_t x = 0; x < BM * BD; x++) w->dv[x] = w->dk[x] = 0.0f;
        tb_tile(L, BR_K, hz + lo, w->k);
        tb_tile(L, BR_V, hz + lo, w->v);
        for (int64_t start_m = lo; start_m < NB * BM; start_m += BM) tb_step(L, mut, w, hz, dq0, off_hz, lo, start_m);
        for (int64_t n = 0; n < BM; n++)
            for (int64_t e = 0; e < BD; e++) {
                tl_store(L, BR_DV, (hz + lo + n) * BD + e, w->dv[n * BD + e], ta_f16());
                tl_store(L, BR_DK, (hz + lo + n) * BD + e, w->dk[n * BD + e], ta_f16());
            }
    }
}

int td_hk_triton_attention_bwd(const td_abi_launch *L, unsigned mut) {
    const int64_t BM = TL_I(L, B_BM), BD = TL_I(L, B_BD);
    tb_tiles w;
    TL_ALLOC(L, w.k, BM * BD);
    TL_ALLOC(L, w.v, BM * BD);
    TL_ALLOC(L, w.q, BM * BD);
    TL_ALLOC(L, w.g, BM * BD);
    TL_ALLOC(L, w.dv, BM * BD);
    TL_ALLOC(L, w.dk, BM * BD);
    TL_ALLOC(L, w.p16, BM * BM);
    TL_ALLOC(L, w.ds, BM * BM);
    /* a wrapped DQ offset off the buffer fails the whole launch, as on a device (tl_fault);
     * not tl_fault_rows_i32: the base is off_z * stride_qz + off_h * stride_qh, two products */
    for (uint32_t p0 = 0; p0 < L->grid[0] && (mut & TB_MUT_DQ_I32); p0++)
        if (tl_fault(L, BR_DQ, tb_dq0(L, mut, p0, tb_hz(L, p0)), TL_I(L, B_NB) * BM * BD, 1, p0)) {
            free(w.k), free(w.v), free(w.q), free(w.g), free(w.dv), free(w.dk), free(w.p16), free(w.ds);
            return 1;
        }
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) tb_program(L, mut, &w, p0);
    free(w.k), free(w.v), free(w.q), free(w.g), free(w.dv), free(w.dk), free(w.p16), free(w.ds);
    return 0;
}

static int launch_bwd(const td_abi_launch *L) { return td_hk_triton_attention_bwd(L, 0); }
#define TB_CASTS "p=fp16:rne:inf;ds=fp16:rne:inf;store=fp16:rne:inf"
TD_KERNEL(td_k_triton_attention_bwd) = {"triton_attention.triton_attention_bwd_grads_genuine_output_summary_general",
                                        "triton", TD_ABI_HOST, TB_CASTS, NULL, NULL, 15, 9, launch_bwd, NULL};
