/* chunk_gated_attention mutants (the slices are in ../host/chunk_gated_attention.c):
 * the addressing bugs state stores ship. */
#include "../host/chunk_gated_attention_tl.h"
#include "far_i32.h"

static int run(const td_abi_launch *L, cga_bug b) { return td_cga_stores_run(L, &b); }
static int no_chunk(const td_abi_launch *L) { return run(L, (cga_bug){.no_chunk_offset = 1}); }
static int swapped(const td_abi_launch *L) { return run(L, (cga_bug){.strides_swapped = 1}); }
static int floor_grid(const td_abi_launch *L) { return run(L, (cga_bug){.floor_grid = 1}); }

#define NOCHUNK "h stored without the i_t*KSize*VSize chunk offset (the state of every chunk at chunk 0)"
#define SWAP "h tile addressed k*s_h_d + v*s_h_t (the two strides swapped)"
#define FLOOR "NK = KSize // BK: the programs of the K tail never run"
TD_KERNEL(td_m_cga_nochunk) = {CGA_ST, "mut_no_chunk_offset", TD_ABI_HOST, NULL, NULL, NOCHUNK, 8, 4, no_chunk, NULL};
TD_KERNEL(td_m_cga_r_nochunk) = {CGA_ST_R, "mut_no_chunk_offset", TD_ABI_HOST, NULL, NULL, NOCHUNK, 8, 4, no_chunk, NULL};
TD_KERNEL(td_m_cga_swap) = {CGA_ST, "mut_strides_swapped", TD_ABI_HOST, NULL, NULL, SWAP, 8, 4, swapped, NULL};
TD_KERNEL(td_m_cga_r_swap) = {CGA_ST_R, "mut_strides_swapped", TD_ABI_HOST, NULL, NULL, SWAP, 8, 4, swapped, NULL};
TD_KERNEL(td_m_cga_floor) = {CGA_ST, "mut_floor_grid", TD_ABI_HOST, NULL, NULL, FLOOR, 8, 4, floor_grid, NULL};
TD_KERNEL(td_m_cga_r_floor) = {CGA_ST_R, "mut_floor_grid", TD_ABI_HOST, NULL, NULL, FLOOR, 8, 4, floor_grid, NULL};

/* the bundle */
static int brun(const td_abi_launch *L, cga_bbug b) { return td_cga_bundle_run(L, &b); }
/* K's head base i_bh * s_k_h formed in int32 (region 2, parameter 9) */
static int b_i32(const td_abi_launch *L) { return far_i32_fault(L, 2, 2, TL_I(L, 9)) ? 1 : brun(L, (cga_bbug){0}); }
static int b_excl(const td_abi_launch *L) { return brun(L, (cga_bbug){.cum_exclusive = 1}); }
static int b_nodecay(const td_abi_launch *L) { return brun(L, (cga_bbug){.no_decay = 1}); }
static int b_gnfirst(const td_abi_launch *L) { return brun(L, (cga_bbug){.gn_first_row = 1}); }
static int b_fp16(const td_abi_launch *L) { return brun(L, (cga_bbug){.fp16_state = 1}); }
TD_KERNEL(td_m_cga_b_excl) = {CGA_BUNDLE, "mut_cum_exclusive", TD_ABI_HOST, NULL, NULL,
                              "cum: m_s = o_i[:, None] > o_i[None, :] (exclusive where inclusive is specified)", 20, 8,
                              b_excl, NULL};
TD_KERNEL(td_m_cga_b_nodecay) = {CGA_BUNDLE, "mut_state_not_decayed", TD_ABI_HOST, NULL, NULL,
                                 "h: b_h *= exp(b_gn) left out (the carried state not decayed)", 20, 8, b_nodecay, NULL};
TD_KERNEL(td_m_cga_b_gnfirst) = {CGA_BUNDLE, "mut_gn_first_row", TD_ABI_HOST, NULL, NULL,
                                 "h: b_gn read at the chunk's first row (i_t*BT) instead of its last (the decay at the wrong step)",
                                 20, 8, b_gnfirst, NULL};
TD_KERNEL(td_m_cga_b_fp16) = {CGA_BUNDLE, "mut_fp16_state", TD_ABI_HOST, NULL, NULL,
                              "h: the carried state kept in fp16 between chunks", 20, 8, b_fp16, NULL};
TD_KERNEL(td_m_cga_b_i32) = {CGA_BUNDLE, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                             "i_bh * s_k_h formed in int32 (K's head base wraps beyond 2^31 elements)", 20, 8, b_i32,
                             NULL};
