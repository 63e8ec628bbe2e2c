/* chunk_gated_attention: the two state-store slices of chunk_gated_abc_fwd_kernel_h on
 * every program (i_v, i_k, i_bh) of the grid (cdiv(VSize, BV), cdiv(KSize, BK), B*H):
 * the [BK, BV] tile loaded with mask k < KSize && v < VSize (other = 0) and stored
 * with the same mask, from BH to H at i_bh*s_h_h + i_t*KSize*VSize + k*s_h_t +
 * v*s_h_d, and from BHFinal to Ht at i_bh*KSize*VSize + k*VSize + v.
 * Parameters: i_t s_h_h s_h_t s_h_d KSize VSize BK BV.  Regions: BH H BHFinal Ht. */
#include "chunk_gated_attention_tl.h"

int td_cga_stores_run(const td_abi_launch *L, const cga_bug *bug) {
    int64_t it = TL_I(L, 0), shh = TL_I(L, 1), sht = TL_I(L, 2), shd = TL_I(L, 3), K = TL_I(L, 4), V = TL_I(L, 5);
    int64_t BK = TL_I(L, 6), BV = TL_I(L, 7);
    uint32_t nk = bug->floor_grid ? (uint32_t)(K / BK) : L->grid[1];
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < nk && p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
                for (int64_t r = 0; r < BK; r++)
                    for (int64_t c = 0; c < BV; c++) {
                        int64_t k = p1 * BK + r, v = p0 * BV + c;
                        if (k >= K || v >= V) continue;
                        int64_t off = p2 * shh + (bug->no_chunk_offset ? 0 : it * K * V) +
                                      (bug->strides_swapped ? k * shd + v * sht : k * sht + v * shd);
                        /* a swapped-stride address may leave the buffer: the device's illegal access */
                        if (tl_fault(L, 1, off, 1, 1, p0)) return 1;
                        tl_store(L, 1, off, tl_load(L, 0, off), tl_f32());
                        int64_t fo = p2 * K * V + k * V + v;
                        tl_store(L, 3, fo, tl_load(L, 2, fo), tl_f32());
                    }
    return 0;
}

/* ---- the bundle: chunk_gated_abc_fwd_kernel_cum on its grid (cdiv(S, BS), cdiv(T, BT),
 * B*H), then chunk_gated_abc_fwd_kernel_h's loop on (VSize/BV, KSize/BK, B*H) for
 * chunks 0 .. m: the state seeded from H0 (or 0), HPrev stored before chunk m's step,
 * each step b_h *= exp(b_gn) (GATEK: per key row, else per value column; gn = g at
 * the chunk's last row), the gated tile (b_k or b_v times exp(b_gn - b_g)), b_h +=
 * tl.dot (a sequential sum over the BT rows here); HOut stored after chunk m.
 * Parameters: USE_INITIAL_STATE s_s_h s_s_t s_s_d T S BT BS m s_k_h s_k_t s_k_d s_v_h
 * s_v_t s_v_d KSize VSize BK BV GATEK.  Regions: SReg GCum K V G H0 HPrev HOut. */
static float cga_f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(td_profile_default(TD_F16), x)); }

static void cum_program(const td_abi_launch *L, const cga_bbug *bug, int64_t i_s, int64_t i_t, int64_t bh) {
    int64_t ssh = TL_I(L, 1), sst = TL_I(L, 2), ssd = TL_I(L, 3), T = TL_I(L, 4), S = TL_I(L, 5), BT = TL_I(L, 6);
    int64_t BS = TL_I(L, 7);
    for (int64_t i = 0; i < BT; i++)
        for (int64_t j = 0; j < BS; j++) {
            int64_t t = i_t * BT + i, d = i_s * BS + j;
            if (t >= T || d >= S) continue;
            float a = 0.0f; /* tl.dot(m_s, b_s): row i of the 0/1 mask against column j */
            for (int64_t r = 0; r < BT; r++) {
                float ms = (bug->cum_exclusive ? i > r : i >= r) ? 1.0f : 0.0f;
                float x = i_t * BT + r < T ? tl_load(L, 0, bh * ssh + (i_t * BT + r) * sst + d * ssd) : 0.0f;
                a += ms * x;
            }
            tl_store(L, 1, bh * ssh + t * sst + d * ssd, a, tl_f32());
        }
}

/* one step (chunk j) of the state lane (k, v) */
static float h_step(const td_abi_launch *L, const cga_bbug *bug, float h, int64_t bh, int64_t j, int64_t k, int64_t v) {
    int64_t BT = TL_I(L, 6), skh = TL_I(L, 9), skt = TL_I(L, 10), skd = TL_I(L, 11), svh = TL_I(L, 12);
    int64_t svt = TL_I(L, 13), svd = TL_I(L, 14), K = TL_I(L, 15), V = TL_I(L, 16);
    int gatek = (int)TL_I(L, 19);
    int64_t row = bug->gn_first_row ? j * BT : j * BT + BT - 1;
    float gn = gatek ? tl_load(L, 4, bh * skh + (row * K + k) * skd) : tl_load(L, 4, bh * svh + (row * V + v) * svd);
    if (!bug->no_decay) h = h * expf(gn);
    float a = 0.0f;
    for (int64_t t = j * BT; t < (j + 1) * BT; t++) {
        float kk = tl_load(L, 2, bh * skh + k * skd + t * skt), vv = tl_load(L, 3, bh * svh + t * svt + v * svd);
        if (gatek) kk = kk * expf(gn - tl_load(L, 4, bh * skh + k * skd + t * skt));
        else vv = vv * expf(gn - tl_load(L, 4, bh * svh + t * svt + v * svd));
        a += kk * vv;
    }
    h = h + a;
    return bug->fp16_state ? cga_f16(h) : h;
}

int td_cga_bundle_run(const td_abi_launch *L, const cga_bbug *bug) {
    int64_t T = TL_I(L, 4), S = TL_I(L, 5), BT = TL_I(L, 6), BS = TL_I(L, 7), m = TL_I(L, 8);
    int64_t K = TL_I(L, 15), V = TL_I(L, 16), BK = TL_I(L, 17), BV = TL_I(L, 18);
    for (uint32_t bh = 0; bh < L->grid[2]; bh++)
        for (int64_t i_t = 0; i_t < (T + BT - 1) / BT; i_t++)
            for (int64_t i_s = 0; i_s < (S + BS - 1) / BS; i_s++) cum_program(L, bug, i_s, i_t, bh);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
                for (int64_t r = 0; r < BK; r++)
                    for (int64_t c = 0; c < BV; c++) {
                        int64_t k = p1 * BK + r, v = p0 * BV + c, off = p2 * K * V + k * V + v;
                        float h = TL_I(L, 0) ? tl_load(L, 5, off) : 0.0f;
                        for (int64_t j = 0; j <= m; j++) {
                            if (j == m) tl_store(L, 6, off, h, tl_f32());
                            h = h_step(L, bug, h, p2, j, k, v);
                        }
                        tl_store(L, 7, off, h, tl_f32());
                    }
    return 0;
}
static const cga_bbug cga_bnone = {0};
static int cga_bundle(const td_abi_launch *L) { return td_cga_bundle_run(L, &cga_bnone); }
TD_KERNEL(td_k_cga_bundle) = {CGA_BUNDLE, "triton", TD_ABI_HOST, NULL, NULL, NULL, 20, 8, cga_bundle, NULL};

static const cga_bug cga_none = {0};
static int cga_stores(const td_abi_launch *L) { return td_cga_stores_run(L, &cga_none); }

TD_KERNEL(td_k_cga_stores) = {CGA_ST, "triton", TD_ABI_HOST, NULL, NULL, NULL, 8, 4, cga_stores, NULL};
TD_KERNEL(td_k_cga_stores_r) = {CGA_ST_R, "triton", TD_ABI_HOST, NULL, NULL, NULL, 8, 4, cga_stores, NULL};
