/* seed_vyre mutants: vyre's tiled and scalar programs (kernels/host/attn_tl.h) with one
 * seeded bug each. */
#include "../host/attn_tl.h"

static int stale_tail(const td_abi_launch *L) { return vyh_tiled(L, VYH_STALE_TAIL); }
static int no_rescale_l(const td_abi_launch *L) { return vyh_tiled(L, VYH_NO_RESCALE_L); }
static int no_flush(const td_abi_launch *L) { return vyh_tiled(L, VYH_NO_FLUSH); }
static int ref_o_no_rescale(const td_abi_launch *L) { return vyh_reference(L, VYH_REF_O_NO_RESCALE); }

#define VY "seed_vyre.flash_attention_2_matches_reference"
TD_KERNEL(td_m_seed_vyre_stale) = {VY, "mut_stale_tail_scores", TD_ABI_HOST, NULL, "libm",
                                   "tile_max and tile_sum loop to tile_size instead of tile_len: the tail tile reuses "
                                   "the previous tile's scores",
                                   3, 4, stale_tail, NULL};
TD_KERNEL(td_m_seed_vyre_rescale) = {VY, "mut_no_rescale_l", TD_ABI_HOST, NULL, "libm",
                                     "l = l + tile_sum: the running max is updated without rescaling l", 3, 4,
                                     no_rescale_l, NULL};
TD_KERNEL(td_m_seed_vyre_flush) = {VY, "mut_no_flush_tiny", TD_ABI_HOST, NULL, "libm",
                                   "flush_tiny dropped: outputs |x| <= 2^-126 are stored instead of +0", 3, 4,
                                   no_flush, NULL};
TD_KERNEL(td_m_seed_vyre_ref_o) = {VY, "mut_ref_o_no_rescale", TD_ABI_HOST, NULL, "libm",
                                   "scalar reference: o = o + prob*v, the accumulator not rescaled when the max moves",
                                   3, 4, ref_o_no_rescale, NULL};
