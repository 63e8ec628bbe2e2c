/* The spec of contracts/fast_ce_loss.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "reduce_common.spec.h"

static NUM SPEC(fce_lane)(NCX *cx, const td_case *c, const td_olane *l, int64_t V, int64_t B, int64_t stride,
                          int scaled, double scale, int chunked) {
    int64_t row = l->idx[0];
    uint64_t row0 = (uint64_t)(row * stride);
    if (l->o == 0)
        return SPEC(rc_lse)(cx, c, R_LOGITS, row0, (long)(V < B ? V : B), scaled, scale, rc_key(1, (uint64_t)row, 0));
    int64_t lab = td_geti(c, R_LABELS, (size_t)row);
    if (lab == -100) return N(exact)(cx, 0.0);
    NUM x = SPEC(rc_z)(cx, c, R_LOGITS, row0 + (uint64_t)lab, scaled, scale);
    if (chunked) return N(neg)(cx, x); /* loss = -1.0 * x */
    NUM lse = SPEC(rc_lse)(cx, c, R_LOGITS, row0, (long)(V < B ? V : B), scaled, scale, rc_key(1, (uint64_t)row, 0));
    return N(sub)(cx, lse, x);
}

static NUM SPEC(fce)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(fce_lane)(cx, c, l, c->p[P_V].i, c->p[P_BLOCK].i, c->p[P_STRIDE].i, c->p[P_DO_SCALE].i != 0,
                          c->p[P_SCALE].r, 0);
}
static NUM SPEC(fce_chunked)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(fce_lane)(cx, c, l, c->p[PC_V].i, c->p[PC_N].i + 1, c->p[PC_STRIDE].i, c->p[PC_DO_SCALE].i != 0,
                          c->p[PC_SCALE].r, 1);
}


/* The intent (docs/intent.md): torch.logsumexp and torch.nn.functional.cross_entropy(
 * logits * LOGIT_SCALE (when DO_LOGIT_SCALING), labels, ignore_index=-100,
 * reduction='none') of each row over its VOCAB_SIZE classes (rc_intent_ce without
 * smoothing).  Softcapping is off in the contract (SOFTCAP unused), so not here either. */
static NUM SPEC(fce_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t row = l->idx[0];
    uint64_t row0 = (uint64_t)(row * c->p[P_STRIDE].i);
    long V = (long)c->p[P_V].i;
    int scaled = c->p[P_DO_SCALE].i != 0;
    double scale = c->p[P_SCALE].r;
    if (l->o == 0) return SPEC(rc_intent_lse)(cx, c, R_LOGITS, row0, V, scaled, scale, rc_key(1, (uint64_t)row, 0));
    int64_t lab = td_geti(c, R_LABELS, (size_t)row);
    if (lab == -100) return N(exact)(cx, 0.0);
    return SPEC(rc_intent_ce)(cx, c, R_LOGITS, row0, V, scaled, scale, lab, 0.0, (uint64_t)row);
}
