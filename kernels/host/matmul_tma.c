/* matmul_tma: matmul_tma_load_store: one program loads the [BLOCK_M, BLOCK_K] and
 * [BLOCK_K, BLOCK_N] blocks at offset (0, 0) through block pointers (no boundary
 * check), c = tl.dot(a, b) (binary32 tile sum of exact fp16 products), the fp16 cast
 * when C is fp16 (OUTPUT_F16), and the store through the C block pointer.
 * Parameters: M N K stride_am stride_ak stride_bk stride_bn stride_cm stride_cn
 * BLOCK_M BLOCK_N BLOCK_K.  Regions: A, B (fp16), C (binary32 or fp16). */
#include "matmul_tl.h"

enum { P_M, P_N, P_K, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK };
enum { R_A, R_B, R_C };

int td_matmul_tma_program(const td_abi_launch *L, int64_t sam, int64_t sak, int64_t sbk, int64_t sbn, td_rnd rnd);
int td_matmul_tma_program(const td_abi_launch *L, int64_t sam, int64_t sak, int64_t sbk, int64_t sbn, td_rnd rnd) {
    int64_t BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), BK = TL_I(L, P_BK);
    if ((BM - 1) * sam + (BK - 1) * sak >= (int64_t)TL_LEN(L, R_A) ||
        (BK - 1) * sbk + (BN - 1) * sbn >= (int64_t)TL_LEN(L, R_B)) { /* the bug models' strides only */
        snprintf(L->err, L->errlen, "illegal memory access: a block read past its tensor");
        return 1;
    }
    int64_t *arow, *bcol;
    float *acc;
    TL_ALLOC(L, arow, BM);
    TL_ALLOC(L, bcol, BN);
    TL_ALLOC(L, acc, BM * BN);
    for (int64_t i = 0; i < BM; i++) arow[i] = i * sam;
    for (int64_t j = 0; j < BN; j++) bcol[j] = j * sbn;
    mmh_loop m = {R_A, R_B, BM, BN, BK, 1, BK, arow, bcol, sak, sbk, 0};
    int rc = mmh_kloop(L, &m, acc); /* c = tl.dot(a, b): 0 + the tile sum, exact */
    td_profile st = TL_FMT(L, R_C) == TD_F16 ? mmh_f16_store() : tl_f32();
    st.rnd = TL_FMT(L, R_C) == TD_F16 ? rnd : TD_RNE;
    for (int64_t i = 0; i < BM && !rc; i++)
        for (int64_t j = 0; j < BN; j++)
            tl_store(L, R_C, i * TL_I(L, P_SCM) + j * TL_I(L, P_SCN), acc[i * BN + j], st);
    free(arow);
    free(bcol);
    free(acc);
    return rc;
}

static int matmul_tma_load_store(const td_abi_launch *L) {
    return td_matmul_tma_program(L, TL_I(L, P_SAM), TL_I(L, P_SAK), TL_I(L, P_SBK), TL_I(L, P_SBN), TD_RNE);
}

TD_KERNEL(td_k_matmul_tma_f32_cf) = {"matmul_tma.matmul_tma_f32_closed_form_correct", "triton", TD_ABI_HOST, NULL,
                                     NULL, NULL, 12, 3, matmul_tma_load_store, NULL};
TD_KERNEL(td_k_matmul_tma_f16_cf) = {"matmul_tma.matmul_tma_f16_closed_form_correct", "triton", TD_ABI_HOST,
                                     "store=fp16:rne:inf", NULL, NULL, 12, 3, matmul_tma_load_store, NULL};
TD_KERNEL(td_k_matmul_tma_f32_io) = {"matmul_tma.matmul_tma_f32_io_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                                     NULL, 12, 3, matmul_tma_load_store, NULL};
TD_KERNEL(td_k_matmul_tma_f16_io) = {"matmul_tma.matmul_tma_f16_io_correctnessR", "triton", TD_ABI_HOST,
                                     "store=fp16:rne:inf", NULL, NULL, 12, 3, matmul_tma_load_store, NULL};
