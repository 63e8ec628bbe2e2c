/* The spec of contracts/fifth_order_sph_harmonics.c (vocabulary: contracts/spec.h):
 * sphY(o, x, y, z), written as the kernel's Y00..Y10 expressions (one operation per
 * rounding the kernel makes; the sums of three terms in any order), the constants as
 * the kernel's decimal literals (rounded once to binary32; MPFR holds the decimals). */

#define SPH_M(a, b) N(mul)(cx, a, b)
#define SPH_A(a, b) N(add)(cx, a, b)
#define SPH_S(a, b) N(sub)(cx, a, b)
#define SPH_C(s) N(lit_dec)(cx, s)

static NUM SPEC(sph_sum3)(NCX *cx, NUM a, NUM b, NUM d) {
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0); /* Python's (a + b) + d; any order is charged */
    N(acc_add)(cx, &acc, a);
    N(acc_add)(cx, &acc, b);
    N(acc_add)(cx, &acc, d);
    return N(acc_end)(cx, &acc);
}

/* x^k as the kernel's left-to-right product x * x * ... (k - 1 roundings) */
static NUM SPEC(sph_pow)(NCX *cx, NUM x, int k) {
    NUM r = x;
    for (int i = 1; i < k; i++) r = SPH_M(r, x);
    return r;
}

static NUM SPEC(sph_y)(NCX *cx, int o, NUM x, NUM y, NUM z) {
    NUM v05 = SPEC(sph_pow)(cx, x, 5), v06 = SPEC(sph_pow)(cx, x, 4), v07 = SPEC(sph_pow)(cx, x, 3);
    NUM v08 = SPEC(sph_pow)(cx, x, 2), v14 = SPEC(sph_pow)(cx, y, 5), v15 = SPEC(sph_pow)(cx, y, 4);
    NUM v16 = SPEC(sph_pow)(cx, y, 3), v17 = SPEC(sph_pow)(cx, y, 2), v23 = SPEC(sph_pow)(cx, z, 5);
    NUM v24 = SPEC(sph_pow)(cx, z, 4), v25 = SPEC(sph_pow)(cx, z, 3), v26 = SPEC(sph_pow)(cx, z, 2);
    NUM c000 = SPH_C("1.73430461568895"), c001 = SPH_C("2.32681380862329"), c002 = SPH_C("1.60565407233314");
    NUM c003 = SPH_C("3.21130814466628"), c004 = SPH_C("3.31662479035540"), c005 = SPH_C("6.21867148191637");
    NUM c009 = SPH_C("11.6340690431164"), c010 = SPH_C("12.8452325786651"), c011 = SPH_C("12.4373429638327");
    NUM c013 = SPH_C("13.8744369255116"), c017 = SPH_C("33.9852909359329"), c018 = SPH_C("7.35803132638072");
    NUM c020 = SPH_C("-44.1481879582843"), c021 = SPH_C("-41.6233107765348"), c022 = SPH_C("-29.4321253055229");
    NUM c023 = SPH_C("-23.2681380862329"), c024 = SPH_C("-19.2678488679977"), c026 = SPH_C("-16.9926454679664");
    NUM c028 = SPH_C("-13.8744369255116"), c029 = SPH_C("-16.5831239517770"), c030 = SPH_C("3.46860923137790");
    NUM c031 = SPH_C("-8.49632273398321"), c032 = SPH_C("-5.20291384706685"), c033 = SPH_C("-3.46860923137790");
    NUM c034 = SPH_C("-1.73430461568895");
    switch (o) {
    case 0: return SPEC(sph_sum3)(cx, SPH_M(c001, v05), SPH_M(SPH_M(c009, v24), x), SPH_M(SPH_M(c023, v07), v26));
    case 1: return SPH_M(y, SPH_S(SPH_M(SPH_M(c022, v07), z), SPH_M(SPH_M(c022, v25), x)));
    case 2:
        return SPEC(sph_sum3)(cx, SPH_M(c000, v05), SPH_M(v07, SPH_A(SPH_M(c028, v17), SPH_M(c033, v26))),
                              SPH_M(x, SPH_A(SPH_M(SPH_M(N(neg)(cx, c021), v17), v26), SPH_M(c032, v24))));
    case 3:
        return SPH_A(SPH_M(SPH_M(SPH_M(c026, v07), y), z),
                     SPH_M(x, SPH_A(SPH_M(SPH_M(c017, v16), z), SPH_M(SPH_M(c026, v25), y))));
    case 4:
        return SPEC(sph_sum3)(cx, SPH_M(c002, v05), SPH_M(v07, SPH_A(SPH_M(c003, v26), SPH_M(c024, v17))),
                              SPH_M(x, SPEC(sph_sum3)(cx, SPH_M(c002, v24), SPH_M(c010, v15),
                                                      SPH_M(SPH_M(c024, v17), v26))));
    case 5:
        return SPEC(sph_sum3)(cx, SPH_M(c004, v14), SPH_M(v16, SPH_A(SPH_M(c029, v08), SPH_M(c029, v26))),
                              SPH_M(y, SPEC(sph_sum3)(cx, SPH_M(c005, v06), SPH_M(c005, v24),
                                                      SPH_M(SPH_M(c011, v08), v26))));
    case 6:
        return SPEC(sph_sum3)(cx, SPH_M(c002, v23), SPH_M(v25, SPH_A(SPH_M(c003, v08), SPH_M(c024, v17))),
                              SPH_M(z, SPEC(sph_sum3)(cx, SPH_M(c002, v06), SPH_M(c010, v15),
                                                      SPH_M(SPH_M(c024, v08), v17))));
    case 7:
        return SPH_A(SPH_M(v16, SPH_S(SPH_M(c026, v08), SPH_M(c026, v26))),
                     SPH_M(y, SPH_A(SPH_M(N(neg)(cx, c031), v06), SPH_M(c031, v24))));
    case 8:
        return SPEC(sph_sum3)(cx, SPH_M(c034, v23), SPH_M(v25, SPH_A(SPH_M(c013, v17), SPH_M(c030, v08))),
                              SPH_M(z, SPH_S(SPH_M(SPH_M(c021, v08), v17), SPH_M(c032, v06))));
    case 9:
        return SPH_M(y, SPEC(sph_sum3)(cx, SPH_M(c018, v06), SPH_M(c018, v24), SPH_M(SPH_M(c020, v08), v26)));
    default: return SPEC(sph_sum3)(cx, SPH_M(c001, v23), SPH_M(SPH_M(c009, v06), z), SPH_M(SPH_M(c023, v08), v25));
    }
}

/* Lane: idx = {row = pid * block_size + j, channel o}. */
static NUM SPEC(sph)(NCX *cx, const td_case *c, const td_olane *l) {
    size_t b = (size_t)(3 * l->idx[0]);
    NUM x = N(in)(cx, c, R_COORD, b), y = N(in)(cx, c, R_COORD, b + 1), z = N(in)(cx, c, R_COORD, b + 2);
    return SPEC(sph_y)(cx, (int)l->idx[1], x, y, z);
}
#undef SPH_M
#undef SPH_A
#undef SPH_S
#undef SPH_C
