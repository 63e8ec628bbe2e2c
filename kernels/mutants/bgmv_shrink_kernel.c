/* bgmv_shrink_kernel mutants: the sentinel, the SPLIT_K tail and addressing, the scaling,
 * the rank mask.  One dot product per output lane (the order is not what they get wrong). */
#include "../host/tl.h"

enum { P_N, P_K, P_SCALE, P_XM, P_L0, P_LK, P_LN, P_CM, P_CN, P_BN, P_BK, P_SK, P_SK1 };
enum { R_IN, R_LORA, R_OUT, R_IDX };

enum {
    BUG_SENTINEL_AS_ZERO, BUG_STORE_NOT_ATOMIC, BUG_SPLIT_OFFSET, BUG_NO_SCALING, BUG_KSTEP_BK, BUG_N_MASK,
    BUG_OFFSET_INT32
};

/* 1 when the program faults: BUG_OFFSET_INT32 forms cur_batch * xm_stride in int32
 * (Triton's default for an int32 program id and stride), which beyond 2^31 elements
 * wraps to an illegal address on a GPU (tl_fault) or to another row. */
static int program(const td_abi_launch *L, int summary, int64_t pid_sk, int64_t b, int bug) {
    int64_t N = TL_I(L, P_N), K = TL_I(L, P_K), bn = TL_I(L, P_BN), bk = TL_I(L, P_BK), sk = TL_I(L, P_SK);
    int64_t li = tl_load_int(L, R_IDX, b);
    if (li == -1 && bug != BUG_SENTINEL_AS_ZERO) return 0;
    int64_t xb = b * TL_I(L, P_XM);
    if (bug == BUG_OFFSET_INT32 && tl_fault(L, R_IN, xb = tl_i32(b * tl_i32(TL_I(L, P_XM))), K, 1, (uint32_t)b))
        return 1;
    if (li == -1) li = 0; /* the sentinel read as a Nat (toNat (-1) = 0): adapter 0 applied */
    int64_t step = bug == BUG_KSTEP_BK ? bk : bk * sk, k_off = bug == BUG_SPLIT_OFFSET ? 0 : pid_sk * bk;
    int atomic = summary && !TL_I(L, P_SK1) && bug != BUG_STORE_NOT_ATOMIC;
    int64_t nmax = bug == BUG_N_MASK ? bn : (bn < N ? bn : N);
    for (int64_t n = 0; n < nmax; n++) {
        float acc = 0.0f;
        for (int64_t k = 0; k < K; k += step)
            for (int64_t e = 0; e < bk; e++) {
                int64_t ck = k + e + k_off;
                if (ck >= K || n >= N) continue;
                acc += tl_load(L, R_IN, xb + ck) *
                       tl_load(L, R_LORA, TL_I(L, P_L0) * li + n * TL_I(L, P_LK) + ck * TL_I(L, P_LN));
            }
        float v = bug == BUG_NO_SCALING ? acc : acc * TL_R(L, P_SCALE);
        int64_t off = b * TL_I(L, P_CM) + n * TL_I(L, P_CN);
        if (off >= (int64_t)TL_LEN(L, R_OUT)) continue; /* no write past out */
        tl_store(L, R_OUT, off, atomic ? tl_load(L, R_OUT, off) + v : v, tl_f32());
    }
    return 0;
}

static int run(const td_abi_launch *L, int summary, int bug) {
    for (uint32_t b = 0; b < L->grid[1]; b++)
        for (uint32_t s = 0; s < L->grid[0]; s++)
            if (program(L, summary, s, b, bug)) return 1;
    return 0;
}
/* the -1 guard missing: a row without adapter gets adapter 0's product */
static int sentinel_sum(const td_abi_launch *L) { return run(L, 1, BUG_SENTINEL_AS_ZERO); }
/* tl.store where SPLIT_K > 1 needs tl.atomic_add: the last split wins, old out lost */
static int store_sum(const td_abi_launch *L) { return run(L, 1, BUG_STORE_NOT_ATOMIC); }
/* offset_k without pid_sk * BLOCK_K: every split sums the first split's k block */
static int split_off_sum(const td_abi_launch *L) { return run(L, 1, BUG_SPLIT_OFFSET); }
/* accumulator *= scaling forgotten */
static int no_scale_io(const td_abi_launch *L) { return run(L, 0, BUG_NO_SCALING); }
/* the K loop steps by BLOCK_K instead of BLOCK_K * SPLIT_K: other splits' k summed too */
static int kstep_io(const td_abi_launch *L) { return run(L, 0, BUG_KSTEP_BK); }
/* c_mask offset_cn < BLOCK_N instead of < N: zeros stored past the rank */
static int n_mask_io(const td_abi_launch *L) { return run(L, 0, BUG_N_MASK); }
static int n_mask_sum(const td_abi_launch *L) { return run(L, 1, BUG_N_MASK); }
/* cur_batch * xm_stride in int32 */
static int offset_int32_io(const td_abi_launch *L) { return run(L, 0, BUG_OFFSET_INT32); }
static int offset_int32_sum(const td_abi_launch *L) { return run(L, 1, BUG_OFFSET_INT32); }

#define BSS "bgmv_shrink_kernel.bgmv_shrink_kernel_output_summary_general"
#define BSI "bgmv_shrink_kernel.bgmv_shrink_store_io_correctness"
#define F32S "store=fp32:rne:inf"
#define M_NM "c_mask offset_cn < BLOCK_N instead of offset_cn < N: stores past the rank"
TD_KERNEL(td_m_bss_sent) = {BSS, "mut_no_adapter_applied", TD_ABI_HOST, NULL, NULL,
                            "lora_index == -1 not skipped (read as adapter 0)", 13, 4, sentinel_sum, NULL};
TD_KERNEL(td_m_bss_store) = {BSS, "mut_store_not_atomic", TD_ABI_HOST, NULL, NULL,
                             "tl.store instead of tl.atomic_add for SPLIT_K > 1", 13, 4, store_sum, NULL};
TD_KERNEL(td_m_bss_split) = {BSS, "mut_split_offset_dropped", TD_ABI_HOST, NULL, NULL,
                             "offset_k without pid_sk * BLOCK_K: every split reads the first block", 13, 4,
                             split_off_sum, NULL};
TD_KERNEL(td_m_bss_nmask) = {BSS, "mut_n_mask_block", TD_ABI_HOST, NULL, NULL, M_NM, 13, 4, n_mask_sum, NULL};
TD_KERNEL(td_m_bsi_scale) = {BSI, "mut_scaling_dropped", TD_ABI_HOST, F32S, NULL, "accumulator *= scaling missing",
                             12, 4, no_scale_io, NULL};
TD_KERNEL(td_m_bsi_kstep) = {BSI, "mut_kstep_no_split", TD_ABI_HOST, F32S, NULL,
                             "K loop step BLOCK_K instead of BLOCK_K * SPLIT_K", 12, 4, kstep_io, NULL};
TD_KERNEL(td_m_bsi_nmask) = {BSI, "mut_n_mask_block", TD_ABI_HOST, F32S, NULL, M_NM, 12, 4, n_mask_io, NULL};
#define M_I32 "cur_batch * xm_stride computed in int32 (wraps beyond 2^31 elements)"
TD_KERNEL(td_m_bss_i32) = {BSS, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, M_I32, 13, 4, offset_int32_sum, NULL};
TD_KERNEL(td_m_bsi_i32) = {BSI, "mut_offset_int32", TD_ABI_HOST, F32S, NULL, M_I32, 12, 4, offset_int32_io, NULL};
