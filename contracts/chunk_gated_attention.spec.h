/* The spec of contracts/chunk_gated_attention.c (vocabulary: contracts/spec.h): both
 * slices are copies, read = write address in the source region. */
static NUM SPEC(cga_copy)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(in)(cx, c, l->o == O_H ? R_BH : R_BHF, l->off);
}
