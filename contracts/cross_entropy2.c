/* cross_entropy2.cross_entropy_fwd_correctness  (catalogue part 1, src lines 3212-3262)
 *
 * The same Triton source and statement as cross_entropy_ops.c: the statement, its reading (checked
 * against bench/tritonbench_g/cross_entropy2, the .py and the Lean file), the error model, the
 * special-value policy, the parameters, generator and spec are in
 * contracts/cross_entropy_fwd_common.h.
 */
#include "cross_entropy_fwd_common.h"

const td_contract td_c_ce2_fwd = {
    .id = "cross_entropy2.cross_entropy_fwd_correctness",
    .file = "cross_entropy2",
    CE_FWD_FIELDS,
};
