/* The spec of contracts/token_softmax_llama.c (vocabulary: contracts/spec.h). */
#include "token_softmax_common.spec.h"

static NUM SPEC(ts_llama)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(ts_lane)(cx, c, l); }
static NUM SPEC(ts_llama_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(ts_intent)(cx, c, l); }
