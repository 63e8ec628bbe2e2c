/* matmul_dequant_int4: the int4 weight dequantization stage with group-wise scales and
 * packed zero points (catalogue part 2).
 *
 *   matmul_dequant_int4_exec_genuine (hInj : idx -> fpbAddr stride_fpbk stride_fpbn BK BN
 *     pid0 pid1 idx injective): for every tile lane with k = pid0*BK + i < K and
 *     n = pid1*BN + j < N,
 *       fpb[k*sfk + n*sfn] = dequantSpec k n
 *         = (bNibble k n - zpNibble k n) * scale[(k / group_size)*sbsk + n*sbsn],
 *       bNibble  = (b[(k / 8)*sbk + n*sbn] >> 4*(k % 8)) & 0xF            (8 nibbles per int32, along K)
 *       zpNibble = (zp[(k / group_size)*sbzpk + (n / 8)*sbzpn] >> 4*(n % 8)) & 0xF   (along N)
 *
 * The [named] reading, checked against the original (VeriTile
 * bench/tritonbench_g/matmul_dequant_int4/matmul_dequant_int4.py, dequantize_kernel, and
 * MatmulDequantInt4.lean: dequantSpec, bNibble, zpNibble, the headline): as above; the
 * Lean model reads b and zp as Nat regions, the kernel as int32 whose `>>` is
 * arithmetic -- after `& 0xF` both give the nibble of the 32-bit pattern, so the
 * contract takes int32 regions with any bit pattern and the spec extracts nibbles from
 * the unsigned pattern.  Low nibble first (k % 8 == 0 is bits 0..3).  The wrapper's
 * fp_b dtype is the activation's; the contract takes binary32 scales and output.  The
 * file's matmul kernel is not the headline and not covered here.
 *
 * Error model: the nibble difference is an exact integer in [-15, 15], its binary32
 * conversion exact; one binary32 product with the scale, u|d*s| (Higham 2.2; 0 where
 * exact, e.g. power-of-two scales).  The .real readback means the product is the
 * stored value.  Group sizes that divide K and that do not (and 1, and > K), zero
 * points at both edges (nibbles 0 and 15, and 8).
 * Special values: scales finite, |s| < 16, so |d*s| < 2^8 (TD_SV_REAL).
 * The parameters, generator, checker, write set, spec and intent live in
 * contracts/mdi4_common.h: matmul_dequantize's dequantize_kernel is the same source.
 */
#include "mdi4_common.h"

const td_contract td_c_matmul_dequant_int4 = {
    .id = "matmul_dequant_int4.matmul_dequant_int4_exec_genuine",
    .file = "matmul_dequant_int4", .family = "elementwise", .kind = "exact",
    .io_class = "exec-existential over TileIndex [BK,BN] (no IO class)",
    .formula = "fpb[k*sfk + n*sfn] = (((b[(k/8)*sbk + n*sbn] >> 4(k%8)) & 15) - "
               "((zp[(k/gs)*sbzpk + (n/8)*sbzpn] >> 4(n%8)) & 15)) * scale[(k/gs)*sbsk + n*sbsn]",
    .nparams = NP, .params = params, .nregions = NR, .regions = regions, .sv = TD_SV_REAL,
    .sv_note = "nibble differences in [-15, 15] and finite scales |s| < 16: every product finite",
    .error_model = "exact integer nibble difference, one binary32 product",
    .classes = (TD_BCLASSES_TILED & ~TD_BC(TD_BC_VALUES_LARGE)) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen, .far = far, .check = check, .writes = writes,
    TD_SPECS(mdi4),
    .intent = &mdi4_intent,
};
