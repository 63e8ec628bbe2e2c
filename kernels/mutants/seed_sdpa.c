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
