/* matmul_leakyrelu: the tutorial matmul with the leaky_relu epilogue and an fp16
 * output (catalogue part 2, src lines 7112-7163).
 *
 *   matmul_leakyrelu_closed_form_correct (hBK : 0 < BK) (hscn : SCN = 1) (hbnle : BN <= SCM)
 *     (hmlt : every row of the program's tile < M) (hnlt : every column < N) (hundef):
 *     C[cOffset] = outputCell = MemCell.of .fp16 (fp16(leakyrelu(sum_{k < BK*numKBlocks}
 *     A[(row % M)*SAM + k*SAK] * B[k*SBK + (col % N)*SBN])))
 *   matmul_leakyrelu_io_correctness (hBK) (hscn) (hbnle): matmulLeakyreluIO |=[R]
 *     fun _ _ xs ys l => leakyrelu (sum_t sum_e xs t (aLane l e) * ys t (bLane l e)),
 *     StreamMasked2DKernelIO_2, outDType .fp16, T = numKBlocks,
 *     read1 = ((pidM p0*BM + l/BK) % M)*SAM + (t*BK + l%BK)*SAK,
 *     read2 = (t*BK + l/BN)*SBK + ((pidN p0*BN + l%BN) % N)*SBN,
 *     write = SCM*(pidM*BM + l/BN) + SCN*(pidN*BN + l%BN),
 *     mask1/mask2: t*BK + e < BK*numKBlocks (always true), writeMask row < M & col < N.
 *
 * Kernel (bench/tritonbench_g/matmul_leakyrelu/matmul_leakyrelu.py) at ACTIVATION =
 * "leaky_relu", the specialisation both theorems state (matmul_leaky_relu_surface in
 * MatmulLeakyrelu.lean): tutorial order (pidM/pidN: (pid % num_pid_in_group) %
 * group_size_m), loads wrapped with % M / % N, `accumulator += tl.dot(a, b)` with the
 * (vacuous) K-tail masks, tl.where(acc >= 0, acc, 0.01*acc), `.to(tl.float16)`,
 * masked store.  leakyrelu in the Lean file: v >= 0 -> v else 1e-2 * v; checked.
 * The closed form's hmlt/hnlt hold for every program of a launch only when the tiles
 * tile the matrix: the generator draws M = k*BM and N = k*BN for it; the IO contract
 * takes any M, N (partial tiles wrap their loads and mask their stores).
 *
 * Dtypes: A, B, C fp16 (the wrapper's test).  The fp16 store: cast slot "store",
 * default fp16:rne:inf (`.to(tl.float16)` = cvt.rn.f16.f32).  The IO contract is
 * genuinely rounding (R at outDType .fp16); the closed form's real.cast .fp16 is the
 * identity placeholder of VeriTile's exact semantics (the R = triv reading), which a
 * real fp16 store cannot meet, so it is checked as the same rounding store.
 * Error model: contracts/matmul_common.h, then leaky_relu with the binary32 literal
 * 0.01 (one rounding; both branches covered where the sum is within its error of 0),
 * then the fp16 cast of the interval.
 * Special values: finite fp16 operands, binary32 sums finite; the fp16 store may
 * overflow to inf where the exact value rounds there (IEEE policy).
 * Parameters, generators, checkers, write set and spec: contracts/matmul_leakyrelu_common.h
 * (shared with matmul_leakyrelu_fp8.c).
 */
#define LR_FILE "matmul_leakyrelu"
#define LR_HSCN_MSG "hscn: SCN = 1"
#include "matmul_leakyrelu_common.h"

const td_contract td_c_matmul_leakyrelu_cf = {
    .id = "matmul_leakyrelu.matmul_leakyrelu_closed_form_correct",
    LR_CF_FIELDS,
};

const td_contract td_c_matmul_leakyrelu_io = {
    .id = "matmul_leakyrelu.matmul_leakyrelu_io_correctness",
    .io_class = "StreamMasked2DKernelIO_2 (matmulLeakyreluIO), outDType .fp16",
    LR_IO_FIELDS,
};
