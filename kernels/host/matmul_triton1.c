/* matmul_triton1: matmul_kernel with a 1-D grid split as m_block = pid // cdiv(n_size,
 * n_block_size), n_block = pid % that; no masks; `z += tl.dot(x_sub, y_sub,
 * allow_tf32=False)` (binary32 products) over the K blocks; unmasked binary32 store.
 * Parameters: NS M BLOCK_K N numKBlocks (M, N: the block sizes; NS: n_size).
 * Regions: X, Y, Z (binary32). */
#include "matmul_tl.h"

enum { P_NS, P_M, P_BK, P_N, P_NKB };
enum { R_X, R_Y, R_Z };

int td_matmul_triton1_program(const td_abi_launch *L, int64_t y_kstep, int64_t z_row_stride);
int td_matmul_triton1_program(const td_abi_launch *L, int64_t y_kstep, int64_t z_row_stride) {
    int64_t NS = TL_I(L, P_NS), M = TL_I(L, P_M), BK = TL_I(L, P_BK), N = TL_I(L, P_N), T = TL_I(L, P_NKB);
    int64_t K = BK * T, nnb = (NS + N - 1) / N;
    int64_t *arow, *bcol;
    float *acc;
    TL_ALLOC(L, arow, M);
    TL_ALLOC(L, bcol, N);
    TL_ALLOC(L, acc, M * N);
    int rc = 0;
    for (uint32_t pid = 0; pid < L->grid[0] && !rc; pid++) {
        int64_t mb = pid / nnb, nb = pid % nnb;
        for (int64_t i = 0; i < M; i++) arow[i] = (mb * M + i) * K; /* x_ptrs: m_offsets * k_size */
        for (int64_t j = 0; j < N; j++) bcol[j] = nb * N + j;       /* y_ptrs: n_offsets */
        memset(acc, 0, (size_t)(M * N) * sizeof *acc);
        mmh_loop m = {R_X, R_Y, M, N, BK, T, K, arow, bcol, 1, y_kstep, 0};
        rc = mmh_kloop(L, &m, acc);
        for (int64_t i = 0; i < M && !rc; i++)
            for (int64_t j = 0; j < N; j++) {
                int64_t off = (mb * M + i) * z_row_stride + nb * N + j;
                if (off >= (int64_t)TL_LEN(L, R_Z)) { /* the bug model's store only */
                    snprintf(L->err, L->errlen, "illegal memory access: Z written past its end");
                    rc = 1;
                    break;
                }
                tl_store(L, R_Z, off, acc[i * N + j], tl_f32());
            }
    }
    free(arow);
    free(bcol);
    free(acc);
    return rc;
}

static int matmul_kernel(const td_abi_launch *L) {
    return td_matmul_triton1_program(L, TL_I(L, P_NS), TL_I(L, P_NS)); /* y_ptrs += k_block_size * n_size */
}

TD_KERNEL(td_k_matmul_triton1_cf) = {"matmul_triton1.matmul_triton1_closed_form_correct", "triton", TD_ABI_HOST, NULL,
                                     NULL, NULL, 5, 3, matmul_kernel, NULL};
TD_KERNEL(td_k_matmul_triton1_io) = {"matmul_triton1.matmul_triton1_io_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                                     NULL, 5, 3, matmul_kernel, NULL};
