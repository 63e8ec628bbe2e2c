/* nested_loops_processing on CUDA: nested3 and its first-store slice; one block per
 * program (the program id is unused: every block does the same stores). */
#include "tlc.cuh"

enum { P_SM, P_SN };
enum { R_IN, R_OUT };

static __global__ void nested3_a1_kernel(const float *in_ptr, float *out_ptr, int64_t sm, int64_t sn) {
    int64_t t = threadIdx.x;
    if (t >= 4) return;
    int64_t off = (t / 2) * sm + (t % 2) * sn;
    out_ptr[off] = in_ptr[off];
}

/* One thread walks the four lanes of each 2x2 tile: stores of a later tile overwrite an
 * earlier tile's cells in program order, as the Triton program orders its tile stores
 * (the output tiles overlap for small stride_m). */
static __device__ void nl_tile_copy(float *dst, const float *src, int64_t sm, int64_t sn) {
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++) dst[r * sm + c * sn] = src[r * sm + c * sn];
}

static __global__ void nested3_kernel(const float *in_ptr, float *out_ptr, int64_t sm, int64_t sn) {
    if (threadIdx.x != 0) return;
    const float *a_ptrs = in_ptr;
    float *c_ptrs = out_ptr;
    for (int i = 0; i < 2; i++) {
        const float *a1 = a_ptrs; /* a tile is loaded before any store it precedes: in_ptr is never written */
        for (int j = 0; j < 2; j++) {
            a_ptrs += 2 * sn;
            const float *a2 = a_ptrs;
            for (int k = 0; k < 2; k++) {
                a_ptrs += 2 * sn;
                nl_tile_copy(c_ptrs, a1, sm, sn);
                c_ptrs += 2 * sn;
                nl_tile_copy(c_ptrs, a2, sm, sn);
                c_ptrs += 2 * sn;
                nl_tile_copy(c_ptrs, a_ptrs, sm, sn);
                c_ptrs += 2 * sn;
            }
        }
        a_ptrs += 2 * sn;
    }
}

static int launch_a1(const td_abi_launch *L) {
    nested3_a1_kernel<<<tlc_grid(L), 32, 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_IN, const float), TLC_PTR(L, R_OUT, float), TLC_I(L, P_SM), TLC_I(L, P_SN));
    return tlc_check(L, "nested3_first_a1_store");
}
static int launch_nested3(const td_abi_launch *L) {
    nested3_kernel<<<tlc_grid(L), 32, 0, (cudaStream_t)L->stream>>>(TLC_PTR(L, R_IN, const float),
                                                                     TLC_PTR(L, R_OUT, float), TLC_I(L, P_SM),
                                                                     TLC_I(L, P_SN));
    return tlc_check(L, "nested3");
}

TD_KERNEL(td_kc_nested3_a1) = {"nested_loops_processing.nested3_first_a1_store_io_correctness", "triton", TD_ABI_CUDA,
                               NULL, NULL, NULL, 2, 2, launch_a1, NULL};
TD_KERNEL(td_kc_nested3_a1_r) = {"nested_loops_processing.nested3_first_a1_store_io_correctnessR", "triton",
                                 TD_ABI_CUDA, "store=fp32:rne:inf", NULL, NULL, 2, 2, launch_a1, NULL};
TD_KERNEL(td_kc_nested3_summary) = {"nested_loops_processing.nested3_output_summary_general", "triton", TD_ABI_CUDA,
                                    NULL, NULL, NULL, 2, 2, launch_nested3, NULL};
