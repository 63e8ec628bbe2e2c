/* fifth_order_sph_harmonics: fifth_order_fwd, program by program.
 * Parameters: block_size, coord_numel, output_numel, col_offset, output_stride.
 * Regions: coord_ptr, output_ptr. */
#include "tl.h"
#include "fifth_order_sph_harmonics.h"

enum { P_B, P_COORD_NUMEL, P_OUT_NUMEL, P_COL_OFFSET, P_OUT_STRIDE };
enum { R_COORD, R_OUT };

static int fifth_order_fwd(const td_abi_launch *L) {
    int64_t B = TL_I(L, P_B), cn = TL_I(L, P_COORD_NUMEL), on = TL_I(L, P_OUT_NUMEL);
    int64_t col = TL_I(L, P_COL_OFFSET), os = TL_I(L, P_OUT_STRIDE);
    for (int64_t pid = 0; pid < (int64_t)L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t ci = j * 3 + B * 3 * pid, oi = j * os + B * os * pid + col;
            /* masked loads: a masked lane's value is never stored (hCover) */
            float x = ci < cn ? tl_load(L, R_COORD, ci) : 0.0f;
            float y = ci + 1 < cn ? tl_load(L, R_COORD, ci + 1) : 0.0f;
            float z = ci + 2 < cn ? tl_load(L, R_COORD, ci + 2) : 0.0f;
            float Y[11];
            sph5_eval(x, y, z, Y);
            for (int64_t o = 0; o < 11; o++)
                if (oi + o < on) tl_store(L, R_OUT, oi + o, Y[o], tl_f32());
        }
    return 0;
}

TD_KERNEL(td_k_fifth_order_sph) = {"fifth_order_sph_harmonics.fifth_order_fwd_correctness", "triton", TD_ABI_HOST,
                                   NULL, NULL, NULL, 5, 2, fifth_order_fwd, NULL};
