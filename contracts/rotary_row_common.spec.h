/* The spec of the rotary row-slice contracts (rotary_transform, rotary_transform_ops),
 * written once for both number types (no include guard: spec_instantiate.h reads it
 * twice).  rotaryO0Spec / rotaryO1Spec (and rotaryMetaF, the same values):
 *   cos, sin = COS/SIN[(rm + SO) * rdh + j] if rm + SO < seqlen_ro else 1.0, 0.0
 *   o = 0: x0*cos - x1*sin,  o = 1: x0*sin + x1*cos. */
static NUM SPEC(rr_lane)(NCX *cx, const td_case *c, const td_olane *l, const rr_idx *ix) {
    rr_seq s = rr_seq_of(c, ix, l->pid[1], l->pid[2]);
    int64_t rm = (int64_t)l->pid[0] * rr_p(c, ix, RR_BM), j = l->idx[3], rdh = rr_p(c, ix, RR_RDH);
    int64_t sxs = rr_p(c, ix, RR_SXS), sxd = rr_p(c, ix, RR_SXD), row = rm + rr_p(c, ix, RR_SO);
    NUM x0 = N(in)(cx, c, ix->r_x, (size_t)(s.xb + rm * sxs + j * sxd));
    NUM x1 = N(in)(cx, c, ix->r_x, (size_t)(s.xb + rm * sxs + (j + rdh) * sxd));
    NUM cs, sn;
    if (row < rr_p(c, ix, RR_SRO)) {
        cs = N(in)(cx, c, ix->r_cos, (size_t)(row * rdh + j));
        sn = N(in)(cx, c, ix->r_sin, (size_t)(row * rdh + j));
    } else { /* other=1.0 / other=0.0 of the masked table loads */
        cs = N(exact)(cx, 1.0);
        sn = N(exact)(cx, 0.0);
    }
    if (l->o == 0) return N(sub)(cx, N(mul)(cx, x0, cs), N(mul)(cx, x1, sn));
    return N(add)(cx, N(mul)(cx, x0, sn), N(mul)(cx, x1, cs));
}

/* The intent (docs/intent.md; rotary_row_common.h): the rotation of row r = pid0 *
 * BLOCK_M + j / rdh (the contract's lanes: j < BLOCK_HALF <= rdh, so its row rm), column
 * idx[3], by the table row r + SEQLEN_OFFSETS (td_rr_intent_gap: the row exists). */
static NUM SPEC(rr_intent)(NCX *cx, const td_case *c, const td_olane *l, const rr_idx *ix) {
    rr_seq s = rr_seq_of(c, ix, l->pid[1], l->pid[2]);
    int64_t rdh = rr_p(c, ix, RR_RDH), j = l->idx[3];
    int64_t r = (int64_t)l->pid[0] * rr_p(c, ix, RR_BM) + (int64_t)l->j / rdh, pos = r + rr_p(c, ix, RR_SO);
    int64_t sxs = rr_p(c, ix, RR_SXS), sxd = rr_p(c, ix, RR_SXD);
    NUM x0 = N(in)(cx, c, ix->r_x, (size_t)(s.xb + r * sxs + j * sxd));
    NUM x1 = N(in)(cx, c, ix->r_x, (size_t)(s.xb + r * sxs + (j + rdh) * sxd));
    NUM cs = N(in)(cx, c, ix->r_cos, (size_t)(pos * rdh + j));
    NUM sn = N(in)(cx, c, ix->r_sin, (size_t)(pos * rdh + j));
    if (l->o == 0) return N(sub)(cx, N(mul)(cx, x0, cs), N(mul)(cx, x1, sn));
    return N(add)(cx, N(mul)(cx, x0, sn), N(mul)(cx, x1, cs));
}
