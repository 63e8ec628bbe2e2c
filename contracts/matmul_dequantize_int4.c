/* matmul_dequantize_int4: the GPTQ-style int4 GEMM matmul4_kernel (catalogue part 2,
 * src lines 7051-7075).
 *
 *   matmul_dequantize_int4_exec_genuine (hInj : cAddr injective over the tile): for every
 *     lane with row < M, col < N, c[cAddr] = accSpec row col (the stored binary32
 *     accumulator), accSpec = sum_k a[row, k] * (nib(b) * scales[g, col] - nib(zeros) * scales[g, col]),
 *     g = NO_GROUPS ? 0 : k-block / (groupsize / BK).
 *
 * The [named] reading was checked against the original (VeriTile
 * bench/tritonbench_g/matmul_dequantize_int4/matmul_dequantize_int4.py, matmul4_kernel,
 * and MatmulDequantizeInt4.lean: bNibble, groupRow, zeroScaled, bDequant, accSpec, the
 * headline): the kernel is matmul_dequantize's matmul4_kernel but for
 * `tl.dot(a, b.to(a.dtype))` (the identity for the binary32 activations the contract
 * takes) and the spelling of its dead `c` cast; the store writes `accumulator`.  The
 * contract therefore shares matmul_dequantize_matmul4's parameters, generator,
 * checker, write set, spec, intent and error model: contracts/gptq4_common.h derives
 * them (with the preconditions taken from the source's WARNING lines: K and groupsize
 * multiples of BLOCK_SIZE_K, BLOCK_SIZE_K % 8 == 0).
 */
#include "gptq4_common.h"

const td_contract td_c_matmul_dequantize_int4 = {
    .id = "matmul_dequantize_int4.matmul_dequantize_int4_exec_genuine", .file = "matmul_dequantize_int4",
    G4_CONTRACT_FIELDS,
};
