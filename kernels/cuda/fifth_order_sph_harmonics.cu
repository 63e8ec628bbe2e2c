/* fifth_order_sph_harmonics on CUDA: fifth_order_fwd, one block per program, one thread
 * per lane j: masked coordinate loads, the eleven polynomials as the kernel writes
 * them (binary32 literals, left to right), eleven masked stores. */
#include "tlc.cuh"

enum { P_B, P_COORD_NUMEL, P_OUT_NUMEL, P_COL_OFFSET, P_OUT_STRIDE };
enum { R_COORD, R_OUT };

static __global__ void fifth_order_fwd(const float *coord, float *out, int64_t B, int64_t cn, int64_t on,
                                       int64_t col, int64_t os) {
    const float C000 = 1.73430461568895f, C001 = 2.32681380862329f, C002 = 1.60565407233314f,
                C003 = 3.21130814466628f, C004 = 3.31662479035540f, C005 = 6.21867148191637f,
                C009 = 11.6340690431164f, C010 = 12.8452325786651f, C011 = 12.4373429638327f,
                C013 = 13.8744369255116f, C017 = 33.9852909359329f, C018 = 7.35803132638072f,
                C020 = -44.1481879582843f, C021 = -41.6233107765348f, C022 = -29.4321253055229f,
                C023 = -23.2681380862329f, C024 = -19.2678488679977f, C026 = -16.9926454679664f,
                C028 = -13.8744369255116f, C029 = -16.5831239517770f, C030 = 3.46860923137790f,
                C031 = -8.49632273398321f, C032 = -5.20291384706685f, C033 = -3.46860923137790f,
                C034 = -1.73430461568895f;
    int64_t pid = blockIdx.x;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t ci = j * 3 + B * 3 * pid, oi = j * os + B * os * pid + col;
        float x = ci < cn ? coord[ci] : 0.0f, y = ci + 1 < cn ? coord[ci + 1] : 0.0f;
        float z = ci + 2 < cn ? coord[ci + 2] : 0.0f;
        float V05 = x * x * x * x * x, V06 = x * x * x * x, V07 = x * x * x, V08 = x * x;
        float V14 = y * y * y * y * y, V15 = y * y * y * y, V16 = y * y * y, V17 = y * y;
        float V23 = z * z * z * z * z, V24 = z * z * z * z, V25 = z * z * z, V26 = z * z;
        float Y[11];
        Y[0] = C001 * V05 + C009 * V24 * x + C023 * V07 * V26;
        Y[1] = y * (C022 * V07 * z - C022 * V25 * x);
        Y[2] = C000 * V05 + V07 * (C028 * V17 + C033 * V26) + x * (-C021 * V17 * V26 + C032 * V24);
        Y[3] = C026 * V07 * y * z + x * (C017 * V16 * z + C026 * V25 * y);
        Y[4] = C002 * V05 + V07 * (C003 * V26 + C024 * V17) + x * (C002 * V24 + C010 * V15 + C024 * V17 * V26);
        Y[5] = C004 * V14 + V16 * (C029 * V08 + C029 * V26) + y * (C005 * V06 + C005 * V24 + C011 * V08 * V26);
        Y[6] = C002 * V23 + V25 * (C003 * V08 + C024 * V17) + z * (C002 * V06 + C010 * V15 + C024 * V08 * V17);
        Y[7] = V16 * (C026 * V08 - C026 * V26) + y * (-C031 * V06 + C031 * V24);
        Y[8] = C034 * V23 + V25 * (C013 * V17 + C030 * V08) + z * (C021 * V08 * V17 - C032 * V06);
        Y[9] = y * (C018 * V06 + C018 * V24 + C020 * V08 * V26);
        Y[10] = C001 * V23 + C009 * V06 * z + C023 * V08 * V25;
        for (int o = 0; o < 11; o++)
            if (oi + o < on) out[oi + o] = Y[o];
    }
}

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_B);
    fifth_order_fwd<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_COORD, const float), TLC_PTR(L, R_OUT, float), B, TLC_I(L, P_COORD_NUMEL),
        TLC_I(L, P_OUT_NUMEL), TLC_I(L, P_COL_OFFSET), TLC_I(L, P_OUT_STRIDE));
    return tlc_check(L, "fifth_order_fwd");
}

TD_KERNEL(td_kc_fifth_order_sph) = {"fifth_order_sph_harmonics.fifth_order_fwd_correctness", "triton", TD_ABI_CUDA,
                                    NULL, NULL, NULL, 5, 2, launch, NULL};
