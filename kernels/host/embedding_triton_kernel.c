/* embedding_triton_kernel: embedding_kernel, program by program.  Parameters:
 * vob_start_id, vob_end_id, stride_weight_seq, stride_out_seq, n_ctx, hiden_size,
 * BLOCK_DMODEL, BLOCK_N [, BLOCK_NN [, start_nn]].  Regions: weight, input_ids (int32), out.
 * Three launches: the whole kernel with the BLOCK_NN parameter (the summary), the whole
 * kernel with BLOCK_NN = 1 (wholeIO) and one loop slice at start_nn (bodyIO). */
#include "tl.h"

enum { P_VSTART, P_VEND, P_SW, P_SO, P_NCTX, P_HIDDEN, P_BD, P_BN, P_BNN, P_START_NN };
enum { R_WEIGHT, R_IDS, R_OUT };

/* One body of the start_nn loop for program pid: BLOCK_NN token rows, BLOCK_DMODEL columns. */
static void body(const td_abi_launch *L, uint32_t pid, int64_t bnn, int64_t start_nn) {
    int64_t vs = TL_I(L, P_VSTART), ve = TL_I(L, P_VEND), sw = TL_I(L, P_SW), so = TL_I(L, P_SO);
    int64_t n = TL_I(L, P_NCTX), hidden = TL_I(L, P_HIDDEN), bd = TL_I(L, P_BD), bn = TL_I(L, P_BN);
    for (int64_t i = 0; i < bnn; i++) {
        int64_t seq = start_nn + (int64_t)pid * bn + i; /* offs_seq */
        int n_ctx_mask = seq < n;
        int64_t id = n_ctx_mask ? tl_load_int(L, R_IDS, seq) : ve; /* other = vob_end_id */
        int id_mask = id >= vs && id < ve;
        for (int64_t d = 0; d < bd; d++) {
            int dim_mask = d < hidden;
            float v = (id_mask && dim_mask) ? tl_load(L, R_WEIGHT, (id - vs) * sw + d) : 0.0f;
            if (n_ctx_mask && dim_mask) tl_store(L, R_OUT, seq * so + d, v, tl_f32());
        }
    }
}

static int whole(const td_abi_launch *L, int64_t bnn) {
    int64_t bn = TL_I(L, P_BN);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t start_nn = 0; start_nn < bn; start_nn += bnn) body(L, pid, bnn, start_nn);
    return 0;
}
static int embedding_kernel(const td_abi_launch *L) { return whole(L, TL_I(L, P_BNN)); }
static int embedding_kernel_nn1(const td_abi_launch *L) { return whole(L, 1); }
static int embedding_body_slice(const td_abi_launch *L) {
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) body(L, pid, TL_I(L, P_BNN), TL_I(L, P_START_NN));
    return 0;
}

#define EMB "embedding_triton_kernel."
TD_KERNEL(td_k_embedding_summary) = {EMB "embedding_kernel_output_summary", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                                     9, 3, embedding_kernel, NULL};
TD_KERNEL(td_k_embedding_body) = {EMB "embedding_body_io_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                                  10, 3, embedding_body_slice, NULL};
TD_KERNEL(td_k_embedding_body_r) = {EMB "embedding_body_io_correctnessR", "triton", TD_ABI_HOST, "store=fp32:rne:inf",
                                    NULL, NULL, 10, 3, embedding_body_slice, NULL};
TD_KERNEL(td_k_embedding_whole_r) = {EMB "embedding_kernel_whole_io_correctnessR", "triton", TD_ABI_HOST,
                                     "store=fp32:rne:inf", NULL, NULL, 8, 3, embedding_kernel_nn1, NULL};
