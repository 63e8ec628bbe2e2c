/* int_scaled_matmul on CUDA: one block per program id (grouped order pid_m =
 * group_id*GROUP_M + pid % group_size), one thread per output lane; int32 accumulation
 * of int8 products (unsigned: wraps like the GPU's int32 add).  The plain kernel
 * (block pointers, boundary-checked) stores the int32 sum at row*scm + col*scn; the
 * scaled kernel (rows / columns wrapped % M / % N, K loads masked) stores
 * __fmul_rn((float)acc, s1[row]) at col + N*row. */
#include "tlc.cuh"

enum { P_M, P_N, P_K, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN };

struct ism_args {
    int64_t M, N, K, sam, sak, sbk, sbn, scm, scn, BM, BN, GM;
};

static __device__ uint32_t ism_dot(const int8_t *A, const int8_t *B, const ism_args &g, int64_t row, int64_t col) {
    uint32_t acc = 0;
    for (int64_t k = 0; k < g.K; k++)
        acc += (uint32_t)((int32_t)A[row * g.sam + k * g.sak] * (int32_t)B[k * g.sbk + col * g.sbn]);
    return acc;
}

static __global__ void ism_kernel(const int8_t *A, const int8_t *B, void *C, const float *s1, ism_args g) {
    int64_t nm = (g.M + g.BM - 1) / g.BM, nn = (g.N + g.BN - 1) / g.BN, width = g.GM * nn, pid = blockIdx.x;
    int64_t gid = pid / width, gsz = nm - gid * g.GM < g.GM ? nm - gid * g.GM : g.GM;
    int64_t pm = gid * g.GM + pid % gsz, pn = (pid % width) / gsz;
    for (int64_t l = threadIdx.x; l < g.BM * g.BN; l += blockDim.x) {
        int64_t row = pm * g.BM + l / g.BN, col = pn * g.BN + l % g.BN;
        if (!(row < g.M && col < g.N)) continue;
        uint32_t acc = ism_dot(A, B, g, row, col);
        if (s1) ((float *)C)[col + g.N * row] = __fmul_rn((float)(int32_t)acc, s1[row]);
        else ((int32_t *)C)[row * g.scm + col * g.scn] = (int32_t)acc;
    }
}

static int launch_with(const td_abi_launch *L, int scaled) {
    int o = scaled ? 11 : 9; /* BM BN BK GM after the strides (and s1m s1n) */
    ism_args g = {TLC_I(L, P_M),   TLC_I(L, P_N),   TLC_I(L, P_K), TLC_I(L, P_SAM),   TLC_I(L, P_SAK),
                  TLC_I(L, P_SBK), TLC_I(L, P_SBN), TLC_I(L, P_SCM), TLC_I(L, P_SCN), TLC_I(L, o),
                  TLC_I(L, o + 1), TLC_I(L, o + 3)};
    ism_kernel<<<tlc_grid(L), tlc_threads(g.BM * g.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const int8_t), TLC_PTR(L, 1, const int8_t), TLC_PTR(L, 2, void),
        scaled ? TLC_PTR(L, 3, const float) : (const float *)0, g);
    return tlc_check(L, "ism_kernel");
}
static int launch_mm(const td_abi_launch *L) { return launch_with(L, 0); }
static int launch_sc(const td_abi_launch *L) { return launch_with(L, 1); }

TD_KERNEL(td_kc_int_scaled_matmul_mm) = {"int_scaled_matmul.int_scaled_matmul_matmul_exec_genuine", "triton",
                                         TD_ABI_CUDA, NULL, NULL, NULL, 13, 3, launch_mm, NULL};
TD_KERNEL(td_kc_int_scaled_matmul_sc) = {"int_scaled_matmul.int_scaled_matmul_scaled_exec_genuine", "triton",
                                         TD_ABI_CUDA, NULL, NULL, NULL, 17, 4, launch_sc, NULL};
