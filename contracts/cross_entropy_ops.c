/* cross_entropy_ops.cross_entropy_fwd_correctness  (catalogue part 1, src lines 3264-3314)
 *
 * The same Triton source and statement as cross_entropy2.c: the statement, its reading (checked
 * against bench/tritonbench_g/cross_entropy_ops, the .py and the Lean file), the error model, the
 * special-value policy, the parameters, generator and spec are in
 * contracts/cross_entropy_fwd_common.h.
 */
#include "cross_entropy_fwd_common.h"

const td_contract td_c_ce_ops_fwd = {
    .id = "cross_entropy_ops.cross_entropy_fwd_correctness",
    .file = "cross_entropy_ops",
    CE_FWD_FIELDS,
};
