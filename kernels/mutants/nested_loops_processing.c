/* nested_loops_processing mutants: pointer-walk bugs of nested3 and its first store. */
#include "../host/tl.h"

enum { P_SM, P_SN };
enum { R_IN, R_OUT };

/* Copies the 2x2 tile at in shift si to out shift so (units of stride_n); tr swaps the
 * roles of the strides in the store's broadcast (offs[None, :] * stride_m). */
static void nl_copy(const td_abi_launch *L, int64_t si, int64_t so, int tr) {
    int64_t sm = TL_I(L, P_SM), sn = TL_I(L, P_SN);
    float t[2][2];
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++) t[r][c] = tl_load(L, R_IN, r * sm + c * sn + si * sn);
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++)
            tl_store(L, R_OUT, (tr ? c * sm + r * sn : r * sm + c * sn) + so * sn, t[r][c], tl_f32());
}

/* The store's pointer tile built with the broadcasts swapped: out[c*sm + r*sn] = in[r*sm + c*sn]. */
static int a1_transposed(const td_abi_launch *L) {
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) nl_copy(L, 0, 0, 1);
    return 0;
}
/* a_ptrs advanced by 2*stride_n before the first load (the j loop's advance hoisted). */
static int a1_advanced(const td_abi_launch *L) {
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) nl_copy(L, 2, 0, 0);
    return 0;
}

/* nested3 with the pointer walk changed: drop_outer leaves out the i loop's final
 * a_ptrs += 2*stride_n; reload_a1 loads a1 inside the j loop; keep_c leaves c_ptrs in
 * place after the a3 store. */
static int nl_walk(const td_abi_launch *L, int drop_outer, int reload_a1, int keep_c) {
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t a = 0, c = 0, a1 = 0, a2;
        for (int i = 0; i < 2; i++) {
            a1 = a;
            for (int j = 0; j < 2; j++) {
                if (reload_a1) a1 = a;
                a += 2;
                a2 = a;
                for (int k = 0; k < 2; k++) {
                    a += 2;
                    nl_copy(L, a1, c, 0);
                    c += 2;
                    nl_copy(L, a2, c, 0);
                    c += 2;
                    nl_copy(L, a, c, 0);
                    if (!keep_c) c += 2;
                }
            }
            if (!drop_outer) a += 2;
        }
    }
    return 0;
}
static int no_outer_advance(const td_abi_launch *L) { return nl_walk(L, 1, 0, 0); }
static int a1_reloaded(const td_abi_launch *L) { return nl_walk(L, 0, 1, 0); }
static int c_not_advanced(const td_abi_launch *L) { return nl_walk(L, 0, 0, 1); }

#define NL_A1 "nested_loops_processing.nested3_first_a1_store_io_correctness"
#define NL_A1R "nested_loops_processing.nested3_first_a1_store_io_correctnessR"
#define NL_SUM "nested_loops_processing.nested3_output_summary_general"
#define NL_TR "the store's offsets with the broadcasts swapped (c*stride_m + r*stride_n)"
#define NL_ADV "a_ptrs advanced by 2*stride_n before the first load"
TD_KERNEL(td_m_nested3_a1_tr) = {NL_A1, "mut_store_transposed", TD_ABI_HOST, NULL, NULL, NL_TR, 2, 2, a1_transposed,
                                 NULL};
TD_KERNEL(td_m_nested3_a1_adv) = {NL_A1, "mut_load_advanced", TD_ABI_HOST, NULL, NULL, NL_ADV, 2, 2, a1_advanced,
                                  NULL};
TD_KERNEL(td_m_nested3_a1r_tr) = {NL_A1R, "mut_store_transposed", TD_ABI_HOST, NULL, NULL, NL_TR, 2, 2,
                                  a1_transposed, NULL};
TD_KERNEL(td_m_nested3_a1r_adv) = {NL_A1R, "mut_load_advanced", TD_ABI_HOST, NULL, NULL, NL_ADV, 2, 2, a1_advanced,
                                   NULL};
TD_KERNEL(td_m_nested3_outer) = {NL_SUM, "mut_no_outer_advance", TD_ABI_HOST, NULL, NULL,
                                 "the i loop's final a_ptrs += 2*stride_n left out", 2, 2, no_outer_advance, NULL};
TD_KERNEL(td_m_nested3_reload) = {NL_SUM, "mut_a1_reloaded", TD_ABI_HOST, NULL, NULL,
                                  "a1 = tl.load(a_ptrs) moved into the j loop", 2, 2, a1_reloaded, NULL};
TD_KERNEL(td_m_nested3_keepc) = {NL_SUM, "mut_c_not_advanced", TD_ABI_HOST, NULL, NULL,
                                 "c_ptrs not advanced after the a3 store", 2, 2, c_not_advanced, NULL};
