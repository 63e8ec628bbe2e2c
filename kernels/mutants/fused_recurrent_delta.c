/* fused_recurrent_delta mutants (the program is in ../host/fused_recurrent_delta.c). */
#include "../host/tl.h"

int td_frd_out(const td_abi_launch *L, int no_row, int transposed);
static int no_row(const td_abi_launch *L) { return td_frd_out(L, 1, 0); }
static int transposed(const td_abi_launch *L) { return td_frd_out(L, 0, 1); }
#define ID "fused_recurrent_delta.fused_recurrent_delta_output_step_io_correctness"
TD_KERNEL(td_m_frd_no_row) = {ID, "mut_time_row_dropped", TD_ABI_HOST, NULL, NULL,
                              "o stored without the + t*V row offset (every step into row 0)", 9, 3, no_row, NULL};
TD_KERNEL(td_m_frd_trans) = {ID, "mut_state_transposed", TD_ABI_HOST, NULL, NULL,
                             "HNext read as [V, K] (v*K + k) instead of [K, V]", 9, 3, transposed, NULL};
