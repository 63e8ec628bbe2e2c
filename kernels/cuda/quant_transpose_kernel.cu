/* quant_transpose_kernel on CUDA: one block per program; the blocked theorem's launch
 * uses the Python grouped 1-D schedule, the io theorem's the 2-D grid; each element
 * (int8) llrint(127 * (a * absmax_inv)) (__float2ll_rn: half to even), the low byte stored. */
#include "tlc.cuh"

enum { P_SAM, P_SAN, P_SBN, P_SBM, P_M, P_N, P_BM, P_BN, P_GM };
enum { R_A, R_INV, R_B };

struct qt_args {
    int64_t sam, san, sbn, sbm, M, N, BM, BN, GM;
};

static __global__ void qt_kernel(const float *A, const float *inv_p, int8_t *B, qt_args q, int grouped) {
    int64_t pid_m = blockIdx.x, pid_n = blockIdx.y;
    if (grouped) {
        int64_t grid_m = (q.M + q.BM - 1) / q.BM, grid_n = (q.N + q.BN - 1) / q.BN, width = q.GM * grid_n;
        int64_t pid = blockIdx.x, group_id = pid / width;
        int64_t gs = grid_m - group_id * q.GM < q.GM ? grid_m - group_id * q.GM : q.GM;
        pid_m = group_id * q.GM + pid % gs;
        pid_n = (pid % width) / gs;
    }
    float inv = inv_p[0];
    for (int64_t t = threadIdx.x; t < q.BM * q.BN; t += blockDim.x) {
        int64_t rm = pid_m * q.BM + t / q.BN, rn = pid_n * q.BN + t % q.BN;
        if (rm < q.M && rn < q.N) {
            long long v = __float2ll_rn(__fmul_rn(127.0f, __fmul_rn(A[rm * q.sam + rn * q.san], inv)));
            B[rm * q.sbm + rn * q.sbn] = (int8_t)(unsigned char)(v & 0xff);
        }
    }
}

static int launch_with(const td_abi_launch *L, int grouped) {
    qt_args q = {TLC_I(L, P_SAM), TLC_I(L, P_SAN), TLC_I(L, P_SBN), TLC_I(L, P_SBM), TLC_I(L, P_M),
                 TLC_I(L, P_N),   TLC_I(L, P_BM),  TLC_I(L, P_BN),  grouped ? TLC_I(L, P_GM) : 1};
    qt_kernel<<<tlc_grid(L), tlc_threads(q.BM * q.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const float), TLC_PTR(L, R_INV, const float), TLC_PTR(L, R_B, int8_t), q, grouped);
    return tlc_check(L, "qt_kernel");
}
static int launch_blocked(const td_abi_launch *L) { return launch_with(L, 1); }
static int launch_io(const td_abi_launch *L) { return launch_with(L, 0); }

TD_KERNEL(td_kc_qt_blocked) = {"quant_transpose_kernel.quantize_global_transpose_blocked_output_summary_general",
                               "triton", TD_ABI_CUDA, "store=int8:rne:wrap", NULL, NULL, 10, 3, launch_blocked, NULL};
TD_KERNEL(td_kc_qt_io) = {"quant_transpose_kernel.quant_transpose_scaled_store_io_correctness", "triton", TD_ABI_CUDA,
                          "store=int8:rne:wrap", NULL, NULL, 9, 3, launch_io, NULL};
