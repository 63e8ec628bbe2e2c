/* matmul_kernel: the fixed-layout matmul (M = N = K = 4096, row strides 4096): program
 * (pid_m, pid_n) on a 2-D grid, offs_am / offs_bn wrapped % 4096, no masks, the fused
 * `accumulator = tl.dot(a, b, accumulator)` over numKBlocks steps, the fp16 cast and
 * the unmasked store.  Parameters: BM BN BK T.  Regions: C, A, B (fp16). */
#include "matmul_tl.h"

enum { P_BM, P_BN, P_BK, P_T };
enum { R_C, R_A, R_B };
#define LD 4096

int td_matmul_kernel_program(const td_abi_launch *L, int64_t b_kstep, int acc_fp16);
int td_matmul_kernel_program(const td_abi_launch *L, int64_t b_kstep, int acc_fp16) {
    int64_t BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), BK = TL_I(L, P_BK), T = TL_I(L, P_T);
    int64_t *arow, *bcol;
    float *acc;
    TL_ALLOC(L, arow, BM);
    TL_ALLOC(L, bcol, BN);
    TL_ALLOC(L, acc, BM * BN);
    int rc = 0;
    for (uint32_t pn = 0; pn < L->grid[1] && !rc; pn++)
        for (uint32_t pm = 0; pm < L->grid[0] && !rc; pm++) {
            for (int64_t i = 0; i < BM; i++) arow[i] = ((pm * BM + i) % LD) * LD; /* offs_am * stride_am */
            for (int64_t j = 0; j < BN; j++) bcol[j] = (pn * BN + j) % LD;        /* offs_bn * stride_bn */
            memset(acc, 0, (size_t)(BM * BN) * sizeof *acc);
            mmh_loop m = {R_A, R_B, BM, BN, BK, T, BK * T, arow, bcol, 1, b_kstep, acc_fp16};
            rc = mmh_kloop(L, &m, acc);
            for (int64_t i = 0; i < BM && !rc; i++)
                for (int64_t j = 0; j < BN; j++)
                    tl_store(L, R_C, LD * (pm * BM + i) + (pn * BN + j), acc[i * BN + j], mmh_f16_store());
        }
    free(arow);
    free(bcol);
    free(acc);
    return rc;
}

static int matmul_kernel(const td_abi_launch *L) { return td_matmul_kernel_program(L, LD, 0); }

TD_KERNEL(td_k_matmul_kernel_cf) = {"matmul_kernel.matmul_kernel_closed_form_correct", "triton", TD_ABI_HOST,
                                    "store=fp16:rne:inf", NULL, NULL, 4, 3, matmul_kernel, NULL};
TD_KERNEL(td_k_matmul_kernel_io) = {"matmul_kernel.matmul_kernel_io_correctness", "triton", TD_ABI_HOST,
                                    "store=fp16:rne:inf", NULL, NULL, 4, 3, matmul_kernel, NULL};
