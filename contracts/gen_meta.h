/* Metadata generators shared by the contracts whose inputs include index tensors,
 * ragged batches, position ids, LoRA adapter ids and boolean masks (issue 14).
 *
 * Each generator draws its choices from the producer (so the case stays a pure function
 * of the bytes) and favours the patterns that real bugs need: the first and the last
 * slot, the largest legal index, repeated indices where the contract allows them,
 * sequences of length 0 and 1 and at a block edge, a batch whose last sequence ends
 * exactly at the end of its buffer, position 0 and the largest position.  Every pattern
 * hit sets its boundary class (enum td_bclass) in *classes, so `corpus-stats` reports it.
 * Output arrays are int64 whatever the region's storage format (the contract stores them
 * with td_region_set or its own loop). */
#ifndef TD_GEN_META_H
#define TD_GEN_META_H

#include "contract.h"

/* n distinct slots in [0, cap) (an injection; requires n <= cap).  Patterns: a random
 * injection, a permutation of the whole cache (n == cap is forced when cap is small
 * enough to allow it by the caller passing n == cap), consecutive slots starting at 0 or
 * ending at cap - 1, and a random injection that contains both 0 and cap - 1. */
void td_gen_slots(td_producer *p, td_rng *r, int64_t *out, int64_t n, int64_t cap, uint64_t *classes);

/* n indices in [0, cap) with repeats allowed (gather, embedding lookups).  Patterns:
 * uniform, all equal, few distinct values (many repeats), and uniform with 0 and cap - 1
 * planted.  cap >= 1. */
void td_gen_indices(td_producer *p, td_rng *r, int64_t *out, int64_t n, int64_t cap, uint64_t *classes);

/* A ragged batch of nb >= 1 sequences: lens[b] in [min_len, max_len] (min_len may be 0),
 * starts[b] = lens[0] + ... + lens[b-1] (cu_seqlens: starts has nb + 1 entries, starts[nb]
 * is the total, which is returned).  Lengths favour 0 (when min_len == 0), 1, block - 1,
 * block, block + 1 (block > 0: the kernel's block along the sequence) and max_len.
 * The caller sizes the buffer to the total so the last sequence ends exactly at its end
 * (TD_BC_SEQ_ENDS_AT_END is marked when the last length is > 0); or passes slack. */
int64_t td_gen_ragged(td_producer *p, td_rng *r, int64_t *lens, int64_t *starts, int nb, int64_t min_len,
                      int64_t max_len, int64_t block, uint64_t *classes);

/* n position ids in [0, max_pos]: 0..n-1 shifted by an offset (monotone, possibly ending
 * at max_pos), or, when nonmonotone_ok, a random draw including 0 and max_pos. */
void td_gen_positions(td_producer *p, td_rng *r, int64_t *out, int64_t n, int64_t max_pos, int nonmonotone_ok,
                      uint64_t *classes);

/* Rotary (RoPE) cos/sin tables from real angles: for table row t < n and pair i < half,
 *   angle = pos[t] * theta_i,  theta_i = base^(-i/half)  (the RoPE frequencies base^(-2i/d),
 *   d = 2*half), cos_out[t*half + i] = RN32(cos(angle)), sin_out likewise.
 * The base is drawn from the bytes (10000 as in LLaMA, 500000 as in LLaMA 3, and 100 for
 * high frequencies in every pair); pos comes from the caller (td_gen_positions), so position
 * 0 (cos 1, sin 0 exactly) and the largest position are reached through it.  Values are
 * binary32 (the table format of every rotary kernel), computed in binary64 with the host's
 * libm then rounded once: the same bytes give the same table with every compiler. */
void td_gen_rotary_table(td_producer *p, const int64_t *pos, int64_t n, int64_t half, double *cos_out,
                         double *sin_out);

/* n adapter ids in [0, n_adapters) or -1 ("no adapter") when none_ok: one adapter for all,
 * random, and some tokens without an adapter. */
void td_gen_adapters(td_producer *p, td_rng *r, int64_t *out, int64_t n, int64_t n_adapters, int none_ok,
                     uint64_t *classes);

/* n booleans (0/1): all false, all true, alternating, one true at the end, random density. */
void td_gen_mask(td_producer *p, td_rng *r, uint8_t *out, int64_t n, uint64_t *classes);

/* A strided layout for k <= 4 logical dims of extents n[0..k) (n[d] >= 1), as the
 * tensors of a KV cache come: the dims nested in an order the bytes choose (contiguous,
 * head-major, dims transposed: any permutation), each optional padding (a stride larger
 * than the row: TD_BC_STRIDE_GT_ROW), the innermost stride 1 (or 2 unless unit_inner).
 * Mixed radix, so the map from indices to offsets is injective by construction.  Writes
 * stride[d] for the logical dim d and returns the elements the layout spans. */
int64_t td_gen_layout(td_producer *p, int k, const int64_t *n, int64_t *stride, int unit_inner, uint64_t *classes);

#endif
