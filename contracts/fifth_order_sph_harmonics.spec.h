/* The spec of contracts/fifth_order_sph_harmonics.c (vocabulary: contracts/spec.h):
 * sphY(o, x, y, z), written as the kernel's Y00..Y10 expressions (one operation per
 * rounding the kernel makes; the sums of three terms in any order), the constants as
 * the kernel's decimal literals (rounded once to binary32; MPFR holds the decimals).
 * A lane evaluates its own channel o only: the monomials and constants that channel
 * names, each monomial once (see sph_chain). */

#include "sh_dense.h"

#ifndef SPH_TAGS_DEFINED
#define SPH_TAGS_DEFINED
enum { SPH_TAG_POW = 1, SPH_TAG_LIT = 2 }; /* memo keys: tag << 56 | ... */
enum { SPH_NLIT = 35 };                    /* the literals' numbers: 0 .. 34 */
#endif

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

/* p[k] = x^k for k = 1..n as the kernel's left-to-right product x * x * ... (k - 1
 * roundings): x^k = x^(k-1) * x, so each power extends the one before it -- the same
 * operations on the same operands as k - 1 products from x, done once for all k.  The
 * eleven lanes of a row share x, y, z: the powers are memoised per case under `key`
 * (the row's variable), so a row computes each once: in the dense memo (oracle/sh_dense.h),
 * at index SPH_NLIT + 18 row + 6 v + k (v: x, y, z), the literals at their number. */
static void SPEC(sph_chain)(NCX *cx, NUM x, int n, NUM *p, uint64_t key, size_t idx) {
    int k = 2;
    p[1] = x;
    while (k <= n && N(dense_get)(cx, key + (uint64_t)k, idx + (size_t)k, &p[k], NULL)) k++;
    for (; k <= n; k++) {
        p[k] = SPH_M(p[k - 1], x);
        N(dense_put)(cx, key + (uint64_t)k, idx + (size_t)k, p[k], NULL);
    }
}

/* a decimal literal of the kernel, memoised per case under its number i (every lane
 * names four to seven of them) */
static NUM SPEC(sph_lit)(NCX *cx, unsigned i, const char *s) {
    NUM r;
    uint64_t key = (uint64_t)SPH_TAG_LIT << 56 | i;
    if (N(dense_get)(cx, key, i, &r, NULL)) return r;
    r = SPH_C(s);
    N(dense_put)(cx, key, i, r, NULL);
    return r;
}

/* the kernel's monomials VAR05..VAR26 and constants CONST000..CONST034 by name */
#define v05 X[5]
#define v06 X[4]
#define v07 X[3]
#define v08 X[2]
#define v14 Y[5]
#define v15 Y[4]
#define v16 Y[3]
#define v17 Y[2]
#define v23 Z[5]
#define v24 Z[4]
#define v25 Z[3]
#define v26 Z[2]
#define c000 SPEC(sph_lit)(cx, 0u, "1.73430461568895")
#define c001 SPEC(sph_lit)(cx, 1u, "2.32681380862329")
#define c002 SPEC(sph_lit)(cx, 2u, "1.60565407233314")
#define c003 SPEC(sph_lit)(cx, 3u, "3.21130814466628")
#define c004 SPEC(sph_lit)(cx, 4u, "3.31662479035540")
#define c005 SPEC(sph_lit)(cx, 5u, "6.21867148191637")
#define c009 SPEC(sph_lit)(cx, 9u, "11.6340690431164")
#define c010 SPEC(sph_lit)(cx, 10u, "12.8452325786651")
#define c011 SPEC(sph_lit)(cx, 11u, "12.4373429638327")
#define c013 SPEC(sph_lit)(cx, 13u, "13.8744369255116")
#define c017 SPEC(sph_lit)(cx, 17u, "33.9852909359329")
#define c018 SPEC(sph_lit)(cx, 18u, "7.35803132638072")
#define c020 SPEC(sph_lit)(cx, 20u, "-44.1481879582843")
#define c021 SPEC(sph_lit)(cx, 21u, "-41.6233107765348")
#define c022 SPEC(sph_lit)(cx, 22u, "-29.4321253055229")
#define c023 SPEC(sph_lit)(cx, 23u, "-23.2681380862329")
#define c024 SPEC(sph_lit)(cx, 24u, "-19.2678488679977")
#define c026 SPEC(sph_lit)(cx, 26u, "-16.9926454679664")
#define c028 SPEC(sph_lit)(cx, 28u, "-13.8744369255116")
#define c029 SPEC(sph_lit)(cx, 29u, "-16.5831239517770")
#define c030 SPEC(sph_lit)(cx, 30u, "3.46860923137790")
#define c031 SPEC(sph_lit)(cx, 31u, "-8.49632273398321")
#define c032 SPEC(sph_lit)(cx, 32u, "-5.20291384706685")
#define c033 SPEC(sph_lit)(cx, 33u, "-3.46860923137790")
#define c034 SPEC(sph_lit)(cx, 34u, "-1.73430461568895")

/* the highest power of x, y and z channel o names (0: none; the variable itself is used
 * as x, y, z) */
#ifndef SPH_DEG_DEFINED
#define SPH_DEG_DEFINED
static const unsigned char sph_deg[11][3] = {{5, 0, 4}, {3, 0, 3}, {5, 2, 4}, {3, 3, 3}, {5, 4, 4}, {4, 5, 4},
                                             {4, 4, 5}, {4, 3, 4}, {4, 2, 5}, {4, 0, 4}, {4, 0, 5}};
#endif

static NUM SPEC(sph_y)(NCX *cx, uint64_t row, int o, NUM x, NUM y, NUM z) {
    NUM X[6], Y[6], Z[6];
    const unsigned char *deg = sph_deg[o < 0 || o > 10 ? 10 : o];
    uint64_t key = (uint64_t)SPH_TAG_POW << 56 | row << 5; /* + 6 v + k (< 32): variable v's k-th power */
    size_t idx = SPH_NLIT + 18 * (size_t)row;             /* the same in the dense memo */
    SPEC(sph_chain)(cx, x, deg[0], X, key, idx);
    SPEC(sph_chain)(cx, y, deg[1], Y, key + 6, idx + 6);
    SPEC(sph_chain)(cx, z, deg[2], Z, key + 12, idx + 12);
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
    /* the dense memo's indices: the literals, then 18 a row of the coordinates' rows */
    N(dense_begin)(cx, SPH_NLIT + 18 * (size_t)((c->p[P_COORD_NUMEL].i + 2) / 3));
    NUM x = N(in)(cx, c, R_COORD, b), y = N(in)(cx, c, R_COORD, b + 1), z = N(in)(cx, c, R_COORD, b + 2);
    return SPEC(sph_y)(cx, (uint64_t)l->idx[0], (int)l->idx[1], x, y, z);
}
#undef v05
#undef v06
#undef v07
#undef v08
#undef v14
#undef v15
#undef v16
#undef v17
#undef v23
#undef v24
#undef v25
#undef v26
#undef c000
#undef c001
#undef c002
#undef c003
#undef c004
#undef c005
#undef c009
#undef c010
#undef c011
#undef c013
#undef c017
#undef c018
#undef c020
#undef c021
#undef c022
#undef c023
#undef c024
#undef c026
#undef c028
#undef c029
#undef c030
#undef c031
#undef c032
#undef c033
#undef c034
#undef SPH_M
#undef SPH_A
#undef SPH_S
#undef SPH_C
