/* The spec of contracts/var_len_copy.c: lane i of segment b (chunk offset idx[2]) holds
 * old_a_location[old_a_start[b] + chunk*BLOCK_SIZE + i]. */
static NUM SPEC(vlc)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t os = td_geti(c, R_OSTART, (size_t)l->idx[0]);
    return N(in)(cx, c, R_OLD, (size_t)(os + l->idx[2] + l->idx[1]));
}
