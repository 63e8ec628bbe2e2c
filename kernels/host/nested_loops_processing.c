/* nested_loops_processing: `nested3` and its first-store slice, program by program.
 * Parameters: stride_m, stride_n.  Regions: in_ptr, out_ptr.
 * The io contracts' kernel is the slice nested3_first_a1_store (NestedLoopsProcessing.lean:
 * load the 2x2 tile at r*stride_m + c*stride_n, store it there); the summary's is the
 * whole nested3: pointer tiles walked by 2*stride_n through three range(0, 2) loops. */
#include "tl.h"

enum { P_SM, P_SN };
enum { R_IN, R_OUT };

/* tile[r][c] = in[base + r*sm + c*sn] */
static void nl_load(const td_abi_launch *L, int64_t base, float t[2][2]) {
    int64_t sm = TL_I(L, P_SM), sn = TL_I(L, P_SN);
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++) t[r][c] = tl_load(L, R_IN, base + r * sm + c * sn);
}
static void nl_store(const td_abi_launch *L, int64_t base, float t[2][2]) {
    int64_t sm = TL_I(L, P_SM), sn = TL_I(L, P_SN);
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++) tl_store(L, R_OUT, base + r * sm + c * sn, t[r][c], tl_f32());
}

static int first_a1_store(const td_abi_launch *L) {
    float a[2][2];
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        nl_load(L, 0, a);
        nl_store(L, 0, a);
    }
    return 0;
}

static int nested3(const td_abi_launch *L) {
    int64_t sn = TL_I(L, P_SN);
    float a1[2][2], a2[2][2], a3[2][2];
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t a_ptrs = 0, c_ptrs = 0; /* offsets of the pointer tiles' (0, 0) lane */
        for (int i = 0; i < 2; i++) {
            nl_load(L, a_ptrs, a1);
            for (int j = 0; j < 2; j++) {
                a_ptrs += 2 * sn;
                nl_load(L, a_ptrs, a2);
                for (int k = 0; k < 2; k++) {
                    a_ptrs += 2 * sn;
                    nl_load(L, a_ptrs, a3);
                    nl_store(L, c_ptrs, a1);
                    c_ptrs += 2 * sn;
                    nl_store(L, c_ptrs, a2);
                    c_ptrs += 2 * sn;
                    nl_store(L, c_ptrs, a3);
                    c_ptrs += 2 * sn;
                }
            }
            a_ptrs += 2 * sn;
        }
    }
    return 0;
}

TD_KERNEL(td_k_nested3_a1) = {"nested_loops_processing.nested3_first_a1_store_io_correctness", "triton", TD_ABI_HOST,
                              NULL, NULL, NULL, 2, 2, first_a1_store, NULL};
TD_KERNEL(td_k_nested3_a1_r) = {"nested_loops_processing.nested3_first_a1_store_io_correctnessR", "triton",
                                TD_ABI_HOST, "store=fp32:rne:inf", NULL, NULL, 2, 2, first_a1_store, NULL};
TD_KERNEL(td_k_nested3_summary) = {"nested_loops_processing.nested3_output_summary_general", "triton", TD_ABI_HOST,
                                   NULL, NULL, NULL, 2, 2, nested3, NULL};
