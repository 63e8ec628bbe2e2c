/* block_sparse_attn mutants (the programs are in ../host/block_sparse_attn.c). */
#include "../host/block_sparse_attn_tl.h"

static int run_stores(const td_abi_launch *L, const bsa_store_bugs *b) {
    if (td_bsa_store_slice(L, BS_ACC, 0, b)) return 1;
    return td_bsa_store_slice(L, BS_ACC2, 1, b);
}
static int acc_d_unstrided(const td_abi_launch *L) {
    static const bsa_store_bugs b = {1, 0, 0};
    return run_stores(L, &b);
}
static int no_shift(const td_abi_launch *L) {
    static const bsa_store_bugs b = {0, 1, 0};
    return run_stores(L, &b);
}
static int store_unmasked(const td_abi_launch *L) {
    static const bsa_store_bugs b = {0, 0, 1};
    return run_stores(L, &b);
}

#define ST "block_sparse_attn.block_sparse_attn_output_stores_io_correctness"
#define STR "block_sparse_attn.block_sparse_attn_output_stores_io_correctnessR"
#define AD "Acc read at + offs_d without stride_acc_d (Out's unstrided column offsets copied to the load)"
#define NS "the second D block stored at out_ptrs without + BLOCK_D (over the first block's columns)"
#define SU "the partial last row block stored unmasked: rows past total_seq_len written (other = 0)"
#define F32 "store=fp32:rne:inf"
TD_KERNEL(td_m_bsa_st_ad) = {ST, "mut_acc_d_unstrided", TD_ABI_HOST, NULL, NULL, AD, 11, 3, acc_d_unstrided, NULL};
TD_KERNEL(td_m_bsa_st_ns) = {ST, "mut_second_no_shift", TD_ABI_HOST, NULL, NULL, NS, 11, 3, no_shift, NULL};
TD_KERNEL(td_m_bsa_st_su) = {ST, "mut_store_unmasked", TD_ABI_HOST, NULL, NULL, SU, 11, 3, store_unmasked, NULL};
TD_KERNEL(td_m_bsa_str_ad) = {STR, "mut_acc_d_unstrided", TD_ABI_HOST, F32, NULL, AD, 11, 3, acc_d_unstrided, NULL};
TD_KERNEL(td_m_bsa_str_ns) = {STR, "mut_second_no_shift", TD_ABI_HOST, F32, NULL, NS, 11, 3, no_shift, NULL};
TD_KERNEL(td_m_bsa_str_su) = {STR, "mut_store_unmasked", TD_ABI_HOST, F32, NULL, SU, 11, 3, store_unmasked, NULL};

/* the closed form */
static int layout_by_kv_head(const td_abi_launch *L) {
    static const bsa_bugs b = {1, 0, 0, 0};
    return td_bsa_attention(L, &b);
}
static int causal_local(const td_abi_launch *L) {
    static const bsa_bugs b = {0, 1, 0, 0};
    return td_bsa_attention(L, &b);
}
static int cf_store_unmasked(const td_abi_launch *L) {
    static const bsa_bugs b = {0, 0, 1, 0};
    return td_bsa_attention(L, &b);
}
static int cf_offset_i32(const td_abi_launch *L) {
    static const bsa_bugs b = {0, 0, 0, 1};
    return td_bsa_attention(L, &b);
}
#define CF "block_sparse_attn.block_sparse_attn_output_closed_form_summary_general"
TD_KERNEL(td_m_bsa_cf_lkv) = {CF, "mut_layout_by_kv_head", TD_ABI_HOST, NULL, NULL,
                              "the layout entry read for the wrong head: layout_h = off_h_kv % num_layout", 22, 6,
                              layout_by_kv_head, NULL};
TD_KERNEL(td_m_bsa_cf_cl) = {CF, "mut_causal_local", TD_ABI_HOST, NULL, NULL,
                             "causal mask offs_m >= offs_n without start_n: keys compared by their offset in the block",
                             22, 6, causal_local, NULL};
TD_KERNEL(td_m_bsa_cf_su) = {CF, "mut_store_unmasked", TD_ABI_HOST, NULL, NULL,
                             "the partial last row block stored unmasked: rows past total_seq_len written", 22, 6,
                             cf_store_unmasked, NULL};
TD_KERNEL(td_m_bsa_cf_i32) = {CF, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                              "K += off_b * stride_kb + off_h_kv * stride_kh computed in int32 (wraps beyond 2^31 "
                              "elements)", 22, 6, cf_offset_i32, NULL};
