/* bmm_chunk_bwd: _bmm_chunk_bwd_kernel with HAS_RESIDUAL = False, reduction extent
 * CSL = BCS * numCSBlocks (the surface's chunk_size_limit): pid_b = program_id(1),
 * pid_c / pid_h from program_id(2), pid_m / pid_n from program_id(0) with cdiv(K, BN);
 * dout loaded transposed (offs_m * stride_dout_csize_n + offs_cs * stride_dout_csize_m)
 * masked by offs_m < chunk_size, A masked by offs_n < K; `acc += tl.dot(dout, a)`;
 * `acc.to(db dtype)`; store masked by offs_m < CSL & offs_n < K.
 * Parameters: IO order (chunk_size K ngroups SAB SAS SAH SAK SDB SDC SDH SDM SDN SOB
 * SOS SOH SOK BM BN BCS numCSBlocks); the summary's order ends with K.
 * Regions: A, Dout (fp16), Db (binary32). */
#include "matmul_tl.h"

enum { Q_CS, Q_K, Q_G, Q_SAB, Q_SAS, Q_SAH, Q_SAK, Q_SDB, Q_SDC, Q_SDH, Q_SDM, Q_SDN, Q_SOB, Q_SOS, Q_SOH, Q_SOK,
       Q_BM, Q_BN, Q_BCS, Q_NCS, NQ };
enum { R_A, R_DOUT, R_DB };
static const int pos_sum[NQ] = {0, 19, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18};
static const int pos_io[NQ] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};

enum { BCB_OK = 0, BCB_DOUT_UNTRANSPOSED, BCB_DB_CHUNK_NO_CS, BCB_STORE_MASK_CS, BCB_A_I32 };

int td_bmm_chunk_bwd_program(const td_abi_launch *L, int summary, int bug);
int td_bmm_chunk_bwd_program(const td_abi_launch *L, int summary, int bug) {
    const int *pos = summary ? pos_sum : pos_io;
    int64_t q[NQ];
    for (int i = 0; i < NQ; i++) q[i] = TL_I(L, pos[i]);
    int64_t cs = q[Q_CS], K = q[Q_K], G = q[Q_G], BM = q[Q_BM], BN = q[Q_BN], BCS = q[Q_BCS];
    int64_t csl = BCS * q[Q_NCS], nnb = (K + BN - 1) / BN;
    int64_t sdm = q[Q_SDM], sdn = q[Q_SDN];
    if (bug == BCB_DOUT_UNTRANSPOSED) sdm = q[Q_SDN], sdn = q[Q_SDM];
    int64_t *arow, *bcol;
    float *acc;
    TL_ALLOC(L, arow, BM);
    TL_ALLOC(L, bcol, BN);
    TL_ALLOC(L, acc, BM * BN);
    int rc = 0;
    for (uint32_t p2 = 0; p2 < L->grid[2] && !rc; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1] && !rc; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0] && !rc; p0++) {
                int64_t pc = p2 / G, ph = p2 - pc * G, pm = p0 / nnb, pn = p0 % nnb;
                int64_t dbase = p1 * q[Q_SDB] + pc * q[Q_SDC] + ph * q[Q_SDH];
                int64_t abase = p1 * q[Q_SAB] + pc * cs * q[Q_SAS] + ph * q[Q_SAH];
                if (bug == BCB_A_I32) /* the bug model: a_ptr's offset formed in int32 */
                    abase = tl_i32(p1 * tl_i32(q[Q_SAB]) + pc * cs * q[Q_SAS] + ph * q[Q_SAH]);
                for (int64_t i = 0; i < BM; i++) { /* dout mask: offs_m < chunk_size */
                    int64_t m = pm * BM + i;
                    arow[i] = m < cs ? dbase + m * sdn : -1;
                    if (arow[i] >= 0 && arow[i] + (csl - 1) * sdm >= (int64_t)TL_LEN(L, R_DOUT)) {
                        snprintf(L->err, L->errlen, "illegal memory access: Dout read past its end"); /* bug model */
                        rc = 1;
                    }
                }
                for (int64_t j = 0; j < BN; j++) { /* a mask: offs_n < K */
                    int64_t n = pn * BN + j;
                    bcol[j] = n < K ? abase + n * q[Q_SAK] : -1;
                    if (bug == BCB_A_I32 && n < K && !rc) rc = tl_fault(L, R_A, bcol[j], csl, q[Q_SAS], p0);
                }
                if (rc) break;
                memset(acc, 0, (size_t)(BM * BN) * sizeof *acc);
                /* dout is the [BM, BCS] operand (K-step sdm), A the [BCS, BN] one (K-step SAS) */
                mmh_loop m = {R_DOUT, R_A, BM, BN, BCS, q[Q_NCS], csl, arow, bcol, sdm, q[Q_SAS], 0};
                rc = mmh_kloop(L, &m, acc);
                int64_t cstart = bug == BCB_DB_CHUNK_NO_CS ? pc : pc * cs;
                int64_t obase = p1 * q[Q_SOB] + cstart * q[Q_SOS] + ph * q[Q_SOH];
                int64_t rows = bug == BCB_STORE_MASK_CS ? cs : csl;
                for (int64_t i = 0; i < BM && !rc; i++)
                    for (int64_t j = 0; j < BN; j++) {
                        int64_t mm = pm * BM + i, nn = pn * BN + j;
                        if (mm < rows && nn < K)
                            tl_store(L, R_DB, obase + q[Q_SOS] * mm + nn * q[Q_SOK], acc[i * BN + j], tl_f32());
                    }
            }
    free(arow);
    free(bcol);
    free(acc);
    return rc;
}

static int kernel_sum(const td_abi_launch *L) { return td_bmm_chunk_bwd_program(L, 1, BCB_OK); }
static int kernel_io(const td_abi_launch *L) { return td_bmm_chunk_bwd_program(L, 0, BCB_OK); }

TD_KERNEL(td_k_bmm_chunk_bwd_summary) = {"bmm_chunk_bwd.bmm_chunk_bwd_output_summary_general", "triton", TD_ABI_HOST,
                                         NULL, NULL, NULL, 20, 3, kernel_sum, NULL};
TD_KERNEL(td_k_bmm_chunk_bwd_io) = {"bmm_chunk_bwd.bmm_chunk_bwd_io_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                                    NULL, 20, 3, kernel_io, NULL};
