/* chunk_gate_recurrence mutants (the programs are in ../host/chunk_gate_recurrence.c):
 * the bugs chunked recurrent kernels ship. */
#include "../host/chunk_gate_recurrence_tl.h"

static int store_run(const td_abi_launch *L, cgr_store_bug b) { return td_cgr_store_run(L, &b); }
static int chunk_one(const td_abi_launch *L) { return store_run(L, (cgr_store_bug){.chunk_one = 1}); }
static int acc_layout(const td_abi_launch *L) { return store_run(L, (cgr_store_bug){.acc_layout = 1}); }
static int fp16(const td_abi_launch *L) { return store_run(L, (cgr_store_bug){.fp16 = 1}); }
/* O's head base offset_bh * NUM_BLOCK * D_MODEL_K * D_MODEL_V in int32, as Triton forms it
 * (NUM_BLOCK an int32 argument, the others constexprs; the pointer adds it in 64 bits):
 * past 2^31 a head's chunk 0 wraps to an illegal address; only far cases (NUM_BLOCK
 * enlarged, gen_far.h) pass 2^31 */
static int off_i32(const td_abi_launch *L) { return store_run(L, (cgr_store_bug){.off_i32 = 1}); }

#define CHUNK_ONE "O advanced by DK*DV before the initial store: the seed lands in chunk 1 (the carried state from the wrong chunk)"
#define ACC_LAYOUT "O's head stride DK*DV (the state's layout) instead of NUM_BLOCK*DK*DV"
#define FP16 "the state tile stored through fp16 (fp16 state storage between chunks)"
TD_KERNEL(td_m_cgr_store_chunk1) = {CGR_STORE, "mut_store_chunk_one", TD_ABI_HOST, NULL, NULL, CHUNK_ONE, 5, 2, chunk_one, NULL};
TD_KERNEL(td_m_cgr_store_r_chunk1) = {CGR_STORE_R, "mut_store_chunk_one", TD_ABI_HOST, NULL, NULL, CHUNK_ONE, 5, 2, chunk_one, NULL};
TD_KERNEL(td_m_cgr_store_layout) = {CGR_STORE, "mut_head_stride", TD_ABI_HOST, NULL, NULL, ACC_LAYOUT, 5, 2, acc_layout, NULL};
TD_KERNEL(td_m_cgr_store_r_layout) = {CGR_STORE_R, "mut_head_stride", TD_ABI_HOST, NULL, NULL, ACC_LAYOUT, 5, 2, acc_layout, NULL};
TD_KERNEL(td_m_cgr_store_fp16) = {CGR_STORE, "mut_fp16_state", TD_ABI_HOST, NULL, NULL, FP16, 5, 2, fp16, NULL};
TD_KERNEL(td_m_cgr_store_r_fp16) = {CGR_STORE_R, "mut_fp16_state", TD_ABI_HOST, NULL, NULL, FP16, 5, 2, fp16, NULL};
#define OFF_I32 "O's head base offset_bh * NUM_BLOCK * DK * DV in int32: wraps past 2^31"
TD_KERNEL(td_m_cgr_store_i32) = {CGR_STORE, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, OFF_I32, 5, 2, off_i32, NULL};
TD_KERNEL(td_m_cgr_store_r_i32) = {CGR_STORE_R, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, OFF_I32, 5, 2, off_i32, NULL};

static int run(const td_abi_launch *L, cgr_bug b) { return td_cgr_run(L, &b); }
static int no_carry(const td_abi_launch *L) { return run(L, (cgr_bug){.no_carry = 1}); }
static int decay_twice(const td_abi_launch *L) { return run(L, (cgr_bug){.decay_twice = 1}); }
static int fp16_state(const td_abi_launch *L) { return run(L, (cgr_bug){.fp16_state = 1}); }
static int same_index(const td_abi_launch *L) { return run(L, (cgr_bug){.same_index = 1}); }
TD_KERNEL(td_m_cgr_no_carry) = {CGR_SUM, "mut_state_not_carried", TD_ABI_HOST, NULL, NULL,
                                "forward: acc = seed * d_i + S_i, the state not carried across chunks", 10, 11,
                                no_carry, NULL};
TD_KERNEL(td_m_cgr_decay_twice) = {CGR_SUM, "mut_decay_twice", TD_ABI_HOST, NULL, NULL,
                                   "forward: the gate applied twice per chunk (acc * d * d + S)", 10, 11, decay_twice,
                                   NULL};
TD_KERNEL(td_m_cgr_fp16_state) = {CGR_SUM, "mut_fp16_state", TD_ABI_HOST, NULL, NULL,
                                  "forward: the state stored as fp16 between chunks", 10, 11, fp16_state, NULL};
TD_KERNEL(td_m_cgr_same_index) = {CGR_SUM, "mut_bwd_same_index", TD_ABI_HOST, NULL, NULL,
                                  "backward: DS and d read at S's chunk instead of one ahead (one shared index)", 10,
                                  11, same_index, NULL};

/* offset_bh * NUM_BLOCK * D_MODEL_K * D_MODEL_V in int32, as Triton forms every head base of
 * _fwd_recurrence / _bwd_recurrence (an int32 program id times an int32 argument and
 * constexprs): past 2^31 elements a head's base wraps negative, an illegal address (the
 * launch-wide check, tl_fault_rows_i32); only the large tier (`--large`, td_rows_large)
 * has B*H*NUM_BLOCK*DK*DV > 2^31: ordinary cases hold a few thousand cells, where it is
 * the port. */
static int off_i32_sum(const td_abi_launch *L) {
    int64_t head = TL_I(L, CGR_P_NB) * TL_I(L, CGR_P_DK) * TL_I(L, CGR_P_DV);
    if (tl_fault_rows_i32(L, CGR_R_S, head, head)) return 1;
    return run(L, (cgr_bug){0});
}
TD_KERNEL(td_m_cgr_i32) = {CGR_SUM, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL,
                           "offset_bh * NUM_BLOCK * D_MODEL_K * D_MODEL_V in int32: a head base wraps past 2^31", 10,
                           11, off_i32_sum, NULL};
