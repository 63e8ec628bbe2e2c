/* fast_ce_loss: unsloth's _cross_entropy_forward (grid (n_rows,)) and
 * _chunked_cross_entropy_forward (grid (n_rows, N_CHUNKS), BLOCK_SIZE = n + 1),
 * softcapping off (DO_SOFTCAPPING = false in both contracts), program by program. */
#include "reduce_tl.h"

enum { P_V, P_STRIDE, P_BLOCK, P_SOFTCAP, P_SCALE, P_DO_SCALE };
enum { PC_V, PC_NCHUNKS, PC_STRIDE, PC_SOFTCAP, PC_SCALE, PC_DO_SCALE, PC_N };
enum { R_LOGITS, R_LOSS, R_LSE, R_LABELS };

static int cross_entropy_forward(const td_abi_launch *L) {
    int64_t V = TL_I(L, P_V), stride = TL_I(L, P_STRIDE), B = TL_I(L, P_BLOCK);
    int do_scale = TL_I(L, P_DO_SCALE) != 0;
    float scale = TL_R(L, P_SCALE);
    float *z, *e;
    TL_ALLOC(L, z, B);
    TL_ALLOC(L, e, B);
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t base = (int64_t)row * stride;
        int32_t label = (int32_t)tl_load_int(L, R_LABELS, row); /* .to(tl.int32) */
        for (int64_t j = 0; j < B; j++) {
            float x = j < V ? tl_load(L, R_LOGITS, base + j) : -INFINITY; /* mask = col < VOCAB_SIZE */
            z[j] = do_scale ? scale * x : x;
        }
        float c = tl_max(z, B);
        for (int64_t j = 0; j < B; j++) e[j] = expf(z[j] - c);
        float logsumexp = c + logf(tl_sum(e, B));
        float loss;
        if (label != -100) {
            float x = tl_load(L, R_LOGITS, base + label);
            if (do_scale) x = scale * x;
            loss = logsumexp - x;
        } else {
            loss = 0.0f;
        }
        tl_store(L, R_LSE, row, logsumexp, tl_f32());
        tl_store(L, R_LOSS, row, loss, tl_f32());
    }
    free(z);
    free(e);
    return 0;
}

static int chunked_cross_entropy_forward(const td_abi_launch *L) {
    int64_t V = TL_I(L, PC_V), chunks = TL_I(L, PC_NCHUNKS), stride = TL_I(L, PC_STRIDE), B = TL_I(L, PC_N) + 1;
    int do_scale = TL_I(L, PC_DO_SCALE) != 0;
    float scale = TL_R(L, PC_SCALE);
    float *z, *e;
    TL_ALLOC(L, z, B);
    TL_ALLOC(L, e, B);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (uint32_t chunk = 0; chunk < L->grid[1]; chunk++) {
            int64_t base = (int64_t)row * stride;
            int32_t label = (int32_t)tl_load_int(L, R_LABELS, row);
            for (int64_t j = 0; j < B; j++) {
                int64_t col = (int64_t)chunk * B + j;
                float x = col < V ? tl_load(L, R_LOGITS, base + col) : -INFINITY;
                z[j] = do_scale ? scale * x : x;
            }
            float c = tl_max(z, B);
            for (int64_t j = 0; j < B; j++) e[j] = expf(z[j] - c);
            float logsumexp = c + logf(tl_sum(e, B));
            if (chunk == 0) {
                float loss;
                if (label != -100) {
                    float x = tl_load(L, R_LOGITS, base + label);
                    if (do_scale) x = scale * x;
                    loss = -1.0f * x;
                } else {
                    loss = 0.0f;
                }
                tl_store(L, R_LOSS, row, loss, tl_f32());
                tl_store(L, R_LSE, (int64_t)row * chunks + chunk, logsumexp, tl_f32());
            }
        }
    free(z);
    free(e);
    return 0;
}

TD_KERNEL(td_k_fast_ce_forward) = {"fast_ce_loss.cross_entropy_forward_correctness", "triton", TD_ABI_HOST, NULL,
                                   "libm", NULL, 6, 4, cross_entropy_forward, NULL};
TD_KERNEL(td_k_fast_ce_chunked) = {"fast_ce_loss.chunked_cross_entropy_forward_output_summary", "triton",
                                   TD_ABI_HOST, NULL, "libm", NULL, 7, 4, chunked_cross_entropy_forward, NULL};
