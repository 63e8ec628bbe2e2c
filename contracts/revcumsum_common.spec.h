/* The spec half shared by the reversed cumulative sums (reversed_cumsum,
 * reversed_cumsum_scalar): written once against contracts/spec.h, compiled once per number
 * type with the including spec (no include guard on purpose).
 *
 * rcs_suffix(x, T, t) = sum_{t <= k < T} x_k, the value at step t of a reversed inclusive
 * cumulative sum along x_k = reg[base + k * stride], and the tolerance of every admissible
 * evaluation of it.  The admissible implementations fall into two forms:
 *
 *   direct: a sum of the suffix terms x_t .. x_{T-1} in some order: a sequential scan from
 *     the end, a chunked scan of any chunk size (the carried total of the later chunks
 *     plus the chunk's own masked sum or tl.dot with a triangular mask), tl.cumsum's
 *     parallel-prefix tree on the flipped row, torch.flip(cumsum(flip(x))).  Each is a
 *     tree over the T - t leaves: |err| <= gamma_{T-t-1} sum |x_k| (acc_end charges any
 *     order, Higham ASNA sec. 4.2).
 *   total minus prefix: Z - P_incl(t) + x_t (reversed_cumsum_scalar.py: b_s - tl.cumsum(b_s)
 *     + b_z, the chunk's inclusive prefix subtracted from the suffix total b_z of the chunks
 *     from the current one on) or Z - P_excl(t), for a chunk start cs <= t of any chunk
 *     size: Z = sum_{k >= cs} x_k, P = sum_{cs <= k <= t} x_k.  Each is a tree over the
 *     signed leaves {x_k : k >= cs} + {-x_k : cs <= k <= t} + {x_t}: |err| <= gamma_{N-1}
 *     sum |leaf| with N = (T - cs) + (t - cs + 1) + 1.  Both N and sum |leaf| only grow as cs
 *     falls, so the leaves with cs = 0 bound every chunk size: that sum (T + t + 2 leaves)
 *     is the second form below.  Its bound grows with the whole row, not only the suffix:
 *     the cancellation of the prefix is the price of this form, which the original
 *     scalar kernel uses.
 *
 * The reference is the direct sum's exact value (N(either) keeps a's value).  Cost: O(T)
 * per lane. */
static NUM SPEC(rcs_suffix)(NCX *cx, const td_case *c, int reg, uint64_t base, int64_t stride, int64_t T,
                            int64_t t) {
    NACC d;
    N(acc_init)(cx, &d, TD_ORDER_SEQ, 0); /* the source's order: from the end (documentation only) */
    for (int64_t k = T - 1; k >= t; k--) N(acc_add)(cx, &d, N(in)(cx, c, reg, base + (uint64_t)(k * stride)));
    NUM direct = N(acc_end)(cx, &d);
    NACC z;
    N(acc_init)(cx, &z, TD_ORDER_ANY, 0);
    for (int64_t k = 0; k < T; k++) N(acc_add)(cx, &z, N(in)(cx, c, reg, base + (uint64_t)(k * stride)));
    for (int64_t k = 0; k <= t; k++)
        N(acc_add)(cx, &z, N(neg)(cx, N(in)(cx, c, reg, base + (uint64_t)(k * stride))));
    N(acc_add)(cx, &z, N(in)(cx, c, reg, base + (uint64_t)(t * stride)));
    return N(either)(cx, direct, N(acc_end)(cx, &z));
}
