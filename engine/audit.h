/* Auditing a contract against its intent: does a textbook implementation of the
 * operation the contract is read as (its td_intent) meet the contract?  Each generated,
 * contract-valid case is judged lane by lane as if a kernel had written the intent's
 * exact value rounded once to the output's format, with the contract's own admissible
 * tolerance (td_judge_bytes).  A lane "differs" when that value fails the contract: a
 * correct implementation of the operation is rejected by the contract there, so the
 * contract encodes something other than the operation.  Lanes only one of the two
 * writes differ too.  The condition under which the cases differ is named when a simple
 * predicate over the integer parameters separates them (e.g. n_cols != BLOCK_SIZE). */
#ifndef TD_AUDIT_H
#define TD_AUDIT_H

#include "harness.h"

typedef struct td_audit_opts {
    uint64_t cases; /* generated cases (case i of seed S: td_case_bytes) */
    uint64_t seed;
    long mpfr_prec; /* the intent's MPFR precision (0: 640, the harness's default) */
} td_audit_opts;

typedef struct td_audit_result {
    const td_contract *k;
    uint64_t cases, cases_differ;
    uint64_t lanes, lanes_differ;         /* lanes both write, and those whose intent value fails */
    uint64_t lanes_intent_only;           /* the operation writes them, the contract does not */
    uint64_t lanes_contract_only;         /* the contract writes them, the operation does not */
    double worst_eot;                     /* largest err/tol of an intent value against the contract */
    int64_t smallest;                     /* case index of the smallest differing case, -1: none */
    uint64_t smallest_size;               /* its elements over all regions */
    char smallest_desc[1024];
    td_lane_report lane;                  /* its worst differing lane (has_lane 0: only a write-set difference) */
    uint64_t cases_gap;                   /* differing because the operation is undefined on them */
    char gap[200];                        /* the first such reason */
    uint64_t cases_partial;               /* not compared: the contract's lanes are partials */
    char partial[200];                    /* the first such reason */
    char condition[200];                  /* "" when no simple predicate separates the cases */
    uint64_t cond_differ, cond_agree, agree; /* cases satisfying it: differing, agreeing; agreeing in all */
    char msg[512];                        /* a harness error */
} td_audit_result;

/* 0, or -1 with out->msg (harness error). A contract without an intent is not audited
 * (the caller reports "no intent spec"). */
int td_audit_contract(td_ctx *cx, const td_contract *k, const td_audit_opts *o, td_audit_result *out);

/* The contract whose spec (and write set) is its intent's: `certify --against intent`
 * runs the same campaign against it.  NULL when k has no intent; the copy lives as long
 * as the process. */
const td_contract *td_intent_contract(const td_contract *k);

#endif
