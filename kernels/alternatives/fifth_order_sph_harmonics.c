/* Alternative for fifth_order_sph_harmonics.fifth_order_fwd_correctness.
 *
 *   alt_squares_fma  the monomials by squaring (x2 = x*x, x4 = x2*x2, x3 = x2*x,
 *                    x5 = x4*x), every three-term sum added last to first, and each
 *                    product-plus-term contracted into fmaf where the kernel writes
 *                    a*b + c.  Admissible: another grouping of each k-factor product
 *                    (k - 1 roundings), another order of each sum, FMA contraction.
 * Parameters: block_size, coord_numel, output_numel, col_offset, output_stride.
 * Regions: coord_ptr, output_ptr. */
#include "../host/tl.h"

enum { P_B, P_COORD_NUMEL, P_OUT_NUMEL, P_COL_OFFSET, P_OUT_STRIDE };
enum { R_COORD, R_OUT };

static void as_eval(float x, float y, float z, float *Y) {
    const float C000 = 1.73430461568895f, C001 = 2.32681380862329f, C002 = 1.60565407233314f,
                C003 = 3.21130814466628f, C004 = 3.31662479035540f, C005 = 6.21867148191637f,
                C009 = 11.6340690431164f, C010 = 12.8452325786651f, C011 = 12.4373429638327f,
                C013 = 13.8744369255116f, C017 = 33.9852909359329f, C018 = 7.35803132638072f,
                C020 = -44.1481879582843f, C021 = -41.6233107765348f, C022 = -29.4321253055229f,
                C023 = -23.2681380862329f, C024 = -19.2678488679977f, C026 = -16.9926454679664f,
                C028 = -13.8744369255116f, C029 = -16.5831239517770f, C030 = 3.46860923137790f,
                C031 = -8.49632273398321f, C032 = -5.20291384706685f, C033 = -3.46860923137790f,
                C034 = -1.73430461568895f;
    float x2 = x * x, x4 = x2 * x2, x3 = x2 * x, x5 = x4 * x;
    float y2 = y * y, y4 = y2 * y2, y3 = y2 * y, y5 = y4 * y;
    float z2 = z * z, z4 = z2 * z2, z3 = z2 * z, z5 = z4 * z;
    Y[0] = fmaf(C001, x5, C023 * x3 * z2 + C009 * z4 * x);
    Y[1] = y * fmaf(C022 * x3, z, -(C022 * z3 * x));
    Y[2] = fmaf(C000, x5, x * fmaf(C032, z4, -C021 * y2 * z2) + x3 * fmaf(C028, y2, C033 * z2));
    Y[3] = fmaf(x, fmaf(C017 * y3, z, C026 * z3 * y), C026 * x3 * y * z);
    Y[4] = fmaf(C002, x5,
                x * (C024 * y2 * z2 + C010 * y4 + C002 * z4) + x3 * fmaf(C003, z2, C024 * y2));
    Y[5] = fmaf(C004, y5,
                y * (C011 * x2 * z2 + C005 * z4 + C005 * x4) + y3 * fmaf(C029, x2, C029 * z2));
    Y[6] = fmaf(C002, z5,
                z * (C024 * x2 * y2 + C010 * y4 + C002 * x4) + z3 * fmaf(C003, x2, C024 * y2));
    Y[7] = fmaf(y3, fmaf(C026, x2, -(C026 * z2)), y * fmaf(-C031, x4, C031 * z4));
    Y[8] = fmaf(C034, z5, z * fmaf(C021 * x2, y2, -(C032 * x4)) + z3 * fmaf(C013, y2, C030 * x2));
    Y[9] = y * (C020 * x2 * z2 + C018 * z4 + C018 * x4);
    Y[10] = fmaf(C001, z5, C023 * x2 * z3 + C009 * x4 * z);
}

static int squares_fma(const td_abi_launch *L) {
    int64_t B = TL_I(L, P_B), cn = TL_I(L, P_COORD_NUMEL), on = TL_I(L, P_OUT_NUMEL);
    int64_t col = TL_I(L, P_COL_OFFSET), os = TL_I(L, P_OUT_STRIDE);
    for (int64_t pid = 0; pid < (int64_t)L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t ci = 3 * (pid * B + j), oi = (pid * B + j) * os + col;
            if (oi >= on || ci + 2 >= cn) continue; /* nothing of this row is stored */
            float Y[11];
            as_eval(tl_load(L, R_COORD, ci), tl_load(L, R_COORD, ci + 1), tl_load(L, R_COORD, ci + 2), Y);
            for (int64_t o = 0; o < 11 && oi + o < on; o++) tl_store(L, R_OUT, oi + o, Y[o], tl_f32());
        }
    return 0;
}

TD_KERNEL(td_a_fifth_order_sph_sq) = {"fifth_order_sph_harmonics.fifth_order_fwd_correctness", "alt_squares_fma",
                                      TD_ABI_HOST, NULL, NULL, NULL, 5, 2, squares_fma, NULL};
