/* bmm_chunk_fwd: _bmm_chunk_fwd_kernel at IS_CAUSAL = False, HAS_SEQ_IDX = False,
 * seqlen = nchunks * chunk_size: pid_b = program_id(1), pid_c = program_id(2) //
 * ngroups, pid_h = the rest; pid_m / pid_n from program_id(0) with cdiv(chunk_size,
 * BN); `acc += tl.dot(a, b)` over numKBlocks steps with the row / column / K masks;
 * `acc.to(out dtype)` and the store masked by m, n < chunk_size.
 * Parameters: chunk_size ngroups SAB SAS SAH SAK SBB SBS SBH SBK SOB SOC SOH SOM SON
 * BM BN BK numKBlocks.  Regions: A, B (fp16), Out (binary32). */
#include "matmul_tl.h"

enum { P_CS, P_G, P_SAB, P_SAS, P_SAH, P_SAK, P_SBB, P_SBS, P_SBH, P_SBK, P_SOB, P_SOC, P_SOH, P_SOM, P_SON,
       P_BM, P_BN, P_BK, P_NKB };
enum { R_A, R_B, R_OUT };

/* a_i32: the bug model of a_ptr += pid_b * stride_a_batch + ... formed in int32 (wraps
 * beyond 2^31 elements; a wrapped row outside A faults as on the device) */
int td_bmm_chunk_fwd_program_ex(const td_abi_launch *L, int b_no_head, int chunk_no_cs, int a_i32);
int td_bmm_chunk_fwd_program(const td_abi_launch *L, int b_no_head, int chunk_no_cs);
int td_bmm_chunk_fwd_program(const td_abi_launch *L, int b_no_head, int chunk_no_cs) {
    return td_bmm_chunk_fwd_program_ex(L, b_no_head, chunk_no_cs, 0);
}
int td_bmm_chunk_fwd_program_ex(const td_abi_launch *L, int b_no_head, int chunk_no_cs, int a_i32) {
    int64_t cs = TL_I(L, P_CS), G = TL_I(L, P_G), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), BK = TL_I(L, P_BK);
    int64_t T = TL_I(L, P_NKB), K = BK * T, nnb = (cs + BN - 1) / BN;
    int64_t *arow, *bcol;
    float *acc;
    TL_ALLOC(L, arow, BM);
    TL_ALLOC(L, bcol, BN);
    TL_ALLOC(L, acc, BM * BN);
    int rc = 0;
    for (uint32_t p2 = 0; p2 < L->grid[2] && !rc; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1] && !rc; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0] && !rc; p0++) {
                int64_t pc = p2 / G, ph = p2 - pc * G;
                int64_t pm = p0 / nnb, pn = p0 % nnb;
                int64_t cstart = chunk_no_cs ? pc : pc * cs; /* a_ptr += pid_c * chunk_size * stride_a_seqlen */
                int64_t abase = p1 * TL_I(L, P_SAB) + cstart * TL_I(L, P_SAS) + ph * TL_I(L, P_SAH);
                if (a_i32) abase = tl_i32(p1 * tl_i32(TL_I(L, P_SAB)) + cstart * TL_I(L, P_SAS) + ph * TL_I(L, P_SAH));
                int64_t bbase = p1 * TL_I(L, P_SBB) + cstart * TL_I(L, P_SBS) + (b_no_head ? 0 : ph * TL_I(L, P_SBH));
                for (int64_t i = 0; i < BM; i++) { /* mask offs_m < chunk_size_limit (= chunk_size) */
                    int64_t m = pm * BM + i;
                    arow[i] = m < cs ? abase + m * TL_I(L, P_SAS) : -1;
                    if (a_i32 && m < cs && !rc) rc = tl_fault(L, R_A, arow[i], K, TL_I(L, P_SAK), p0);
                }
                if (rc) break;
                for (int64_t j = 0; j < BN; j++) {
                    int64_t n = pn * BN + j;
                    bcol[j] = n < cs ? bbase + n * TL_I(L, P_SBS) : -1;
                }
                memset(acc, 0, (size_t)(BM * BN) * sizeof *acc);
                mmh_loop m = {R_A, R_B, BM, BN, BK, T, K, arow, bcol, TL_I(L, P_SAK), TL_I(L, P_SBK), 0};
                rc = mmh_kloop(L, &m, acc);
                int64_t obase = p1 * TL_I(L, P_SOB) + pc * TL_I(L, P_SOC) + ph * TL_I(L, P_SOH);
                for (int64_t i = 0; i < BM && !rc; i++)
                    for (int64_t j = 0; j < BN; j++) {
                        int64_t mm = pm * BM + i, nn = pn * BN + j;
                        if (mm < cs && nn < cs)
                            tl_store(L, R_OUT, obase + TL_I(L, P_SOM) * mm + nn * TL_I(L, P_SON), acc[i * BN + j],
                                     tl_f32());
                    }
            }
    free(arow);
    free(bcol);
    free(acc);
    return rc;
}

static int bmm_chunk_fwd_kernel(const td_abi_launch *L) { return td_bmm_chunk_fwd_program(L, 0, 0); }

TD_KERNEL(td_k_bmm_chunk_fwd_summary) = {"bmm_chunk_fwd.bmm_chunk_fwd_output_summary_general", "triton", TD_ABI_HOST,
                                         NULL, NULL, NULL, 19, 3, bmm_chunk_fwd_kernel, NULL};
TD_KERNEL(td_k_bmm_chunk_fwd_io) = {"bmm_chunk_fwd.bmm_chunk_fwd_io_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                                    NULL, 19, 3, bmm_chunk_fwd_kernel, NULL};
