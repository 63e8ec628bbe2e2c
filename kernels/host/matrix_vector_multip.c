/* matrix_vector_multip: mv_kernel: program pid owns rows [pid*BLOCK_N, +BLOCK_N); acc
 * [BLOCK_N, BLOCK_M] = 0; for m in range(0, M, BLOCK_M): masked loads (other = 0),
 * acc += a * b; then tl.sum(acc, axis=1) (pairwise tree) and the store masked by n < N.
 * Parameters: N M stride_an stride_am stride_bm stride_cn BLOCK_N BLOCK_M.
 * Regions: A, B, C (binary32). */
#include "matmul_tl.h"

enum { P_N, P_M, P_SAN, P_SAM, P_SBM, P_SCN, P_BN, P_BM };
enum { R_A, R_B, R_C };

/* a_i32: the bug model of offs_n[:, None] * stride_an formed in int32 (wraps beyond 2^31) */
int td_mv_program_ex(const td_abi_launch *L, int64_t b_stride, int mask_store, int a_i32);
int td_mv_program(const td_abi_launch *L, int64_t b_stride, int mask_store);
int td_mv_program(const td_abi_launch *L, int64_t b_stride, int mask_store) {
    return td_mv_program_ex(L, b_stride, mask_store, 0);
}
int td_mv_program_ex(const td_abi_launch *L, int64_t b_stride, int mask_store, int a_i32) {
    int64_t N = TL_I(L, P_N), M = TL_I(L, P_M), BN = TL_I(L, P_BN), BM = TL_I(L, P_BM);
    int64_t san = TL_I(L, P_SAN), sam = TL_I(L, P_SAM), scn = TL_I(L, P_SCN);
    if (!mask_store && ((int64_t)L->grid[0] * BN - 1) * scn >= (int64_t)TL_LEN(L, R_C)) {
        snprintf(L->err, L->errlen, "illegal memory access: C written past its end");
        return 1;
    }
    if ((M - 1) * b_stride >= (int64_t)TL_LEN(L, R_B)) { /* the bug model's stride only */
        snprintf(L->err, L->errlen, "illegal memory access: B read past its end");
        return 1;
    }
    float *acc;
    TL_ALLOC(L, acc, BN * BM);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        memset(acc, 0, (size_t)(BN * BM) * sizeof *acc);
        for (int64_t m0 = 0; m0 < M; m0 += BM)
            for (int64_t i = 0; i < BN; i++)
                for (int64_t j = 0; j < BM; j++) {
                    int64_t n = pid * BN + i, m = m0 + j;
                    int64_t ar = a_i32 ? tl_i32(n * tl_i32(san)) : n * san;
                    if (a_i32 && n < N && m < M && tl_fault(L, R_A, ar + m * sam, 1, 1, pid)) {
                        free(acc);
                        return 1;
                    }
                    float a = (n < N && m < M) ? tl_load(L, R_A, ar + m * sam) : 0.0f;
                    float b = m < M ? tl_load(L, R_B, m * b_stride) : 0.0f;
                    acc[i * BM + j] += a * b;
                }
        for (int64_t i = 0; i < BN; i++) {
            int64_t n = pid * BN + i;
            float s = tl_sum(acc + i * BM, BM); /* acc = tl.sum(acc, axis=1) */
            if (n < N || !mask_store) tl_store(L, R_C, n * scn, s, tl_f32());
        }
    }
    free(acc);
    return 0;
}

static int mv_kernel(const td_abi_launch *L) { return td_mv_program(L, TL_I(L, P_SBM), 1); }

TD_KERNEL(td_k_mv_summary) = {"matrix_vector_multip.mv_kernel_output_summary_general", "triton", TD_ABI_HOST, NULL,
                              NULL, NULL, 8, 3, mv_kernel, NULL};
TD_KERNEL(td_k_mv_io) = {"matrix_vector_multip.mv_one_block_io_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                         8, 3, mv_kernel, NULL};
