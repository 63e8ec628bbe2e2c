/* logsumexp_fwd mutants. */
#include "../host/softmax_tl.h"

enum { P_D, P_B, P_HAS_SCALE, P_SCALE };
enum { R_X, R_Z };

/* shift 0: log(sum exp(b_x)) without the max (inf once a score exceeds 88.7, -inf once
 * all are below -103); add_back 0: the max subtracted but not added back; i32 1: the
 * kernel without its `.to(tl.int64)`, i_n * D + o_d formed in int32 as Triton types a
 * program id: past 2^31 elements the row offset wraps negative and the load is an
 * illegal address (tl_fault, checked at both ends of the block: a block that straddles
 * 2^31 wraps between them).  Only the large tier (`--large`, td_rows_large) has rows
 * beyond 2^31 / D: ordinary cases hold at most 16 rows of 16384 columns. */
static int variant(const td_abi_launch *L, int shift, int add_back, int i32) {
    int64_t D = TL_I(L, P_D), B = TL_I(L, P_B), ND = (D + B - 1) / B;
    int has_scale = TL_I(L, P_HAS_SCALE) != 0;
    float scale = TL_R(L, P_SCALE);
    float *t;
    TL_ALLOC(L, t, B);
    for (uint32_t in = 0; in < L->grid[0]; in++)
        for (uint32_t id = 0; id < L->grid[1]; id++) {
            int64_t lo = (int64_t)id * B, n = D - lo < B ? D - lo : B, row = (int64_t)in * D;
            if (i32) row = tl_i32(row);
            if (i32 && n > 0 &&
                (tl_fault(L, R_X, tl_i32(row + lo), 1, 1, in) || tl_fault(L, R_X, tl_i32(row + lo + n - 1), 1, 1, in))) {
                free(t);
                return 1;
            }
            for (int64_t j = 0; j < B; j++) {
                int64_t o = row + lo + j;
                t[j] = lo + j < D ? tl_load(L, R_X, i32 ? tl_i32(o) : o) : -INFINITY;
            }
            if (has_scale)
                for (int64_t j = 0; j < B; j++) t[j] = t[j] * scale;
            float m = shift ? tl_max(t, B) : 0.0f;
            for (int64_t j = 0; j < B; j++) t[j] = expf(t[j] - m);
            float z = logf(tl_sum(t, B));
            if (add_back) z = z + m;
            int64_t zo = (int64_t)in * ND + id;
            tl_store(L, R_Z, i32 ? tl_i32(zo) : zo, z, tl_f32());
        }
    free(t);
    return 0;
}
static int no_max(const td_abi_launch *L) { return variant(L, 0, 1, 0); }
static int max_not_added(const td_abi_launch *L) { return variant(L, 1, 0, 0); }
static int offset_int32(const td_abi_launch *L) { return variant(L, 1, 1, 1); }

TD_KERNEL(td_m_logsumexp_nomax) = {"logsumexp_fwd.logsumexp_fwd_kernel_correctness", "mut_no_max_subtraction",
                                   TD_ABI_HOST, NULL, NULL, "log(sum exp(x)) without subtracting the block max", 4, 2,
                                   no_max, NULL};
TD_KERNEL(td_m_logsumexp_noadd) = {"logsumexp_fwd.logsumexp_fwd_kernel_correctness", "mut_max_not_added_back",
                                   TD_ABI_HOST, NULL, NULL, "b_z = log(sum exp(b_x - b_m)): the + b_m dropped", 4, 2,
                                   max_not_added, NULL};

TD_KERNEL(td_m_logsumexp_i32) = {"logsumexp_fwd.logsumexp_fwd_kernel_correctness", "mut_large_offset_int32",
                                 TD_ABI_HOST, NULL, NULL,
                                 "i_n * D + o_d in int32 (program ids not converted to int64): wraps past 2^31", 4, 2,
                                 offset_int32, NULL};
