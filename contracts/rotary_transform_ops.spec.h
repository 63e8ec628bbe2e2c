/* The spec of contracts/rotary_transform_ops.c (vocabulary: contracts/spec.h): the row
 * slice's lane, rotary_row_common.spec.h, for each statement's parameter layout. */
#include "rotary_row_common.spec.h"

static NUM SPEC(rotary_g)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(rr_lane)(cx, c, l, &ix_g); }
static NUM SPEC(rotary_m)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(rr_lane)(cx, c, l, &ix_m); }

/* The intent (docs/intent.md): flash-attn's apply_rotary_emb on every row (rotary_row_common.h). */
static NUM SPEC(rotary_g_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(rr_intent)(cx, c, l, &ix_g); }
static NUM SPEC(rotary_m_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(rr_intent)(cx, c, l, &ix_m); }
