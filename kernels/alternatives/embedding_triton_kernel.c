/* embedding_triton_kernel, alternative: a row-per-token lookup with a zero fill.
 *
 * alt_row_copy: for every token row a launch covers (the whole BLOCK_N of each program,
 * or the one start_nn slice of the body contracts), first fills the row's written
 * columns with 0 and then, when the id is in [vob_start, vob_end), overwrites them with
 * the weight row copied from the last column to the first: how a vocabulary-parallel
 * embedding is often written (torch: out = weight[ids - start] * in_shard_mask, here with
 * the zero written first rather than multiplied).  Admissible: the final value of each
 * cell is the contract's (a weight element or 0) and no other cell is touched; a
 * cell written twice is allowed for a kernel (only the final state is specified).
 */
#include "alt_common.h"

enum { P_VSTART, P_VEND, P_SW, P_SO, P_NCTX, P_HIDDEN, P_BD, P_BN, P_BNN, P_START_NN };
enum { R_WEIGHT, R_IDS, R_OUT };

static void token_row(const td_abi_launch *L, int64_t t) {
    int64_t vs = TL_I(L, P_VSTART), ve = TL_I(L, P_VEND), sw = TL_I(L, P_SW), so = TL_I(L, P_SO);
    int64_t cols = TL_I(L, P_HIDDEN) < TL_I(L, P_BD) ? TL_I(L, P_HIDDEN) : TL_I(L, P_BD);
    for (int64_t d = 0; d < cols; d++) tl_store(L, R_OUT, t * so + d, 0.0f, tl_f32());
    int64_t id = tl_load_int(L, R_IDS, t);
    if (id < vs || id >= ve) return;
    for (int64_t d = cols - 1; d >= 0; d--)
        tl_store(L, R_OUT, t * so + d, tl_load(L, R_WEIGHT, (id - vs) * sw + d), tl_f32());
}

static int rows(const td_abi_launch *L, int64_t first, int64_t count) {
    int64_t n = TL_I(L, P_NCTX), bn = TL_I(L, P_BN);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t i = 0; i < count; i++) {
            int64_t t = (int64_t)pid * bn + first + i;
            if (t < n) token_row(L, t);
        }
    return 0;
}
static int whole(const td_abi_launch *L) { return rows(L, 0, TL_I(L, P_BN)); }
static int body(const td_abi_launch *L) { return rows(L, TL_I(L, P_START_NN), TL_I(L, P_BNN)); }

TD_KERNEL(td_a_embedding_summary) = {"embedding_triton_kernel.embedding_kernel_output_summary", "alt_row_copy",
                                     TD_ABI_HOST, NULL, NULL, NULL, 9, 3, whole, NULL};
TD_KERNEL(td_a_embedding_body) = {"embedding_triton_kernel.embedding_body_io_correctness", "alt_row_copy", TD_ABI_HOST,
                                  NULL, NULL, NULL, 10, 3, body, NULL};
TD_KERNEL(td_a_embedding_body_r) = {"embedding_triton_kernel.embedding_body_io_correctnessR", "alt_row_copy",
                                    TD_ABI_HOST, "store=fp32:rne:inf", NULL, NULL, 10, 3, body, NULL};
TD_KERNEL(td_a_embedding_whole_r) = {"embedding_triton_kernel.embedding_kernel_whole_io_correctnessR", "alt_row_copy",
                                     TD_ABI_HOST, "store=fp32:rne:inf", NULL, NULL, 8, 3, whole, NULL};
