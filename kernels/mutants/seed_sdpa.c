/* seed_sdpa mutants: accy's SDPA program (kernels/host/attn_tl.h) with one seeded bug. */
#include "../host/attn_tl.h"

static int scale_twice(const td_abi_launch *L) { return sdpah_run(L, SDPAH_SCALE_TWICE); }
static int den_from_one(const td_abi_launch *L) { return sdpah_run(L, SDPAH_DEN_FROM_ONE); }
static int value_tail(const td_abi_launch *L) { return sdpah_run(L, SDPAH_VALUE_TAIL); }

#define SDPA "seed_sdpa.scaled_dot_product_f32"
TD_KERNEL(td_m_seed_sdpa_scale2) = {SDPA, "mut_scale_twice", TD_ABI_HOST, NULL, "libm",
                                    "score = dot * scale * scale: the 1/sqrt(qk) scale applied twice", 8, 4,
                                    scale_twice, NULL};
TD_KERNEL(td_m_seed_sdpa_den) = {SDPA, "mut_den_fold_from_one", TD_ABI_HOST, NULL, "libm",
                                 "the denominator's fold starts at key 1 like the max's: key 0 left out of den", 8, 4,
                                 den_from_one, NULL};
TD_KERNEL(td_m_seed_sdpa_tail) = {SDPA, "mut_value_tail_unguarded", TD_ABI_HOST, NULL, "libm",
                                  "the value axis's tail threads (v >= value) are not guarded and store", 8, 4,
                                  value_tail, NULL};

/* The seed's indices formed in int32 (attn_tl.h, sdpah_fault_i32): a query past element
 * 2^31 is a wrapped, negative address.  Ordinary cases hold a few thousand elements and
 * pass; the large tier (contracts/seed_sdpa.c, large) kills it. */
static int index_i32(const td_abi_launch *L) { return sdpah_fault_i32(L) ? 1 : sdpah_run(L, SDPAH_CORRECT); }
TD_KERNEL(td_m_seed_sdpa_i32) = {SDPA, "mut_large_offset_int32", TD_ABI_HOST, NULL, "libm",
                                 "queryIndex and outputIndex formed in int32 (the seed's i64 constants narrowed): "
                                 "they wrap past 2^31 elements",
                                 8, 4, index_i32, NULL};
