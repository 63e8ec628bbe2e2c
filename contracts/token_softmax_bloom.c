/* token_softmax_bloom.token_softmax_bloom_correctness  (catalogue part 2)
 *
 *   tokenSoftmaxIO Logics B_Start_Loc B_Seqlen Prob_Out stride_logic_h stride_logic_bs
 *       stride_prob_h stride_prob_bs BLOCK_SIZE ⊨ fun _ _ _ m2 xs j => tokenSoftmaxSpecPure ... m2 xs j
 *   (hB : 0 < BLOCK_SIZE) (hOutInj : ∀ pid1 m1, j ↦ pid1*stride_prob_h + (m1 + j)*stride_prob_bs injective)
 *   MetaMasked2DKernelIO_1: m1 = B_Start_Loc[pid0], m2 = B_Seqlen[pid0];
 *   read = pid1*stride_logic_h + (m1 + j)*stride_logic_bs, write = pid1*stride_prob_h +
 *   (m1 + j)*stride_prob_bs, mask j < m2, j : Fin BLOCK_SIZE.
 *
 * The named spec, checked against TokenSoftmaxBloom.lean and token_softmax_bloom.py (VeriTile
 * bench/tritonbench_g/token_softmax_bloom/): tokenSoftmaxSpecPure builds the tile whose lane k < m2
 * holds xs k and whose other lanes are ⊥ (the kernel's other=-inf), then reduceMax,
 * the shift, exp, reduceSum and the division: the stable softmax over the first
 * min(m2, BLOCK_SIZE) lanes, 0 for an all-⊥ tile (m2 = 0, where the mask stores
 * nothing).  The Triton kernel does exactly that (row - tl.max, tl.exp, tl.sum, /,
 * masked store); the reading agrees.  The catalogue's note "seqlen must be <= BLOCK_SIZE
 * and > 0" is not a hypothesis of the theorem: m2 = 0 and m2 > BLOCK_SIZE are in its
 * domain and the generator reaches both.
 *
 * Launch, generator, checker, write set, error model and special values:
 * contracts/token_softmax_common.h (shared with token_softmax_llama.c: the same kernel). */
#include "token_softmax_common.h"

#define TD_SPEC_FILE "token_softmax_bloom.spec.h"
#include "spec_instantiate.h"

static void gen(td_producer *p, td_case *c) { ts_gen(p, c); }
static const char *check(const td_case *c) { return ts_check(c); }
static void writes(const td_case *c, td_wset *ws) { ts_writes(c, ws); }
/* Offsets beyond 2^31: Logics' head axis (ts_far, token_softmax_common.h). */
static void far(td_producer *p, td_case *c) { ts_far(p, c); }

static const td_intent i_ts = {
    .operation = TS_INTENT_OP, .definition = TS_INTENT_DEF, TD_SPECS(ts_bloom_intent), .gap = ts_gap};

const td_contract td_c_token_softmax_bloom = {
    .id = "token_softmax_bloom.token_softmax_bloom_correctness",
    .file = "token_softmax_bloom",
    .family = "softmax",
    .io_class = "MetaMasked2DKernelIO_1 (tokenSoftmaxIO), grid (batch, head)",
    .kind = "exact",
    .formula = "Prob[h*sph + (m1+j)*spbs] = exp(x[j] - max_k x[k]) / sum_k exp(x[k] - max), j,k < min(m2, BLOCK_SIZE), "
               "x = Logics[h*slh + (m1+.)*slbs], m1 = B_Start_Loc[b], m2 = B_Seqlen[b]",
    .nparams = NP,
    .params = ts_params,
    .nregions = NR,
    .regions = ts_regions,
    .sv = TD_SV_REAL,
    .sv_note = "exp(x - max) <= 1 and the sum >= 1: no overflow, no division by 0; an empty sequence writes nothing",
    .error_model = "softmax over the active lanes: exact max, sub, the backend's exp, sum in any order or online "
                   "(rescaled), div or reciprocal-multiply",
    .classes = TS_CLASSES,
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(ts_bloom),
    .intent = &i_ts,
};
