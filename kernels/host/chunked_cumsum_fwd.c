/* chunked_cumsum_fwd: chunked_cumsum_fused_slice (_chunk_cumsum_fwd_kernel on prepared
 * dt), program (pid_b, pid_c, pid_h): the [BSH, BSC] tile of dt (masked h < nheads,
 * col < chunk_size, other 0.0), stored to dt_out; A[h] (masked h < nheads); dA = dt * A
 * (binary32); dA_cs = tl.cumsum(dA, axis=1) by the Kogge-Stone network along each head's
 * row; a masked binary32 store. */
#include "chunked_cumsum_fwd_tl.h"

static int chunked_cumsum_fwd_kernel(const td_abi_launch *L) {
    ccf_geo g = ccf_geo_of(L);
    int64_t BSH = g.p[CCF_BSH], BSC = g.p[CCF_BSC], nh = g.p[CCF_NH], cs = g.p[CCF_CS];
    float *dA, *tmp;
    TL_ALLOC(L, dA, BSC);
    TL_ALLOC(L, tmp, BSC);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t ck = 0; ck < L->grid[1]; ck++)
            for (uint32_t ph = 0; ph < L->grid[2]; ph++)
                for (int64_t r = 0; r < BSH; r++) {
                    int64_t h = (int64_t)ph * BSH + r;
                    float a = h < nh ? tl_load(L, g.r[CCF_A], h * g.p[CCF_SAH]) : 0.0f;
                    for (int64_t col = 0; col < BSC; col++) {
                        int on = h < nh && col < cs;
                        float dt = on ? tl_load(L, g.r[CCF_DT], ccf_rd(&g, b, ck, h, col)) : 0.0f;
                        if (on) tl_store(L, g.r[CCF_DTOUT], ccf_wr(&g, 0, b, ck, h, col), dt, tl_f32());
                        dA[col] = dt * a;
                    }
                    for (int64_t d = 1; d < BSC; d *= 2) { /* tl.cumsum(dA, axis=1) */
                        memcpy(tmp, dA, (size_t)BSC * sizeof *dA);
                        for (int64_t col = d; col < BSC; col++) dA[col] = tmp[col] + tmp[col - d];
                    }
                    for (int64_t col = 0; col < BSC; col++)
                        if (h < nh && col < cs) tl_store(L, g.r[CCF_DACS], ccf_wr(&g, 1, b, ck, h, col), dA[col], tl_f32());
                }
    free(dA);
    free(tmp);
    return 0;
}

TD_KERNEL(td_k_ccf_corr) = {CCF_CORR, "triton", TD_ABI_HOST, NULL, NULL, NULL, 16, 4, chunked_cumsum_fwd_kernel, NULL};
TD_KERNEL(td_k_ccf_sum) = {CCF_SUM, "triton", TD_ABI_HOST, NULL, NULL, NULL, 23, 9, chunked_cumsum_fwd_kernel, NULL};
