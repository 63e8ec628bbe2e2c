/* Helpers shared by the RMS-normalised matmul contracts of rms_matmul_rbe (the single
 * output and the fused Q/K/V statement) and rms_rbe_matmul (the same statement in another
 * file): rms_matmul_rbe_surface, whose lane (b, m, n) of program (pid_batch, pid),
 * pid_m = pid / cdiv(N, BN), pid_n = pid % cdiv(N, BN), m = pid_m*BM + i < M, n = pid_n*BN + j < N, is
 *
 *   OUT[b*sob + m*som + n*son] = fp16( rsqrt( sum_{k<K} X[b,m,k]^2 / K + EPS )
 *                                      * sum_{k<K} X[b,m,k] * RMS[k*srms] * W[k*swk + n*swn] )
 *
 * with K = BK * numKBlocks (hK) and X[b,m,k] = X[b*sxb + m*sxm + k*sxk] (rows wrapped % M
 * in the loads: the identity on active lanes).
 *
 * Formats: X, W, RMS and OUT fp16 (the Python test and the host wrapper: `out` at the
 * weights' dtype); USE_FP8 = False (the only arm the statements cover).  The store's cast
 * is the statement's real.cast .fp16 (slot "store", fp16:rne:inf: cvt.rn.f16.f32).
 *
 * Error model (every correct kernel, not one evaluation order):
 *   - the squares: pow(x.to(f32), 2) is one binary32 rounding of the exact square
 *     (libdevice's __nv_powf(x, 2.0) returns the correctly rounded x*x; any kernel writing
 *     x*x rounds the same), summed over k < K in ANY order and tree shape (split over the
 *     BK lanes of x_sum, then tl.sum, or any other): gamma_{K-1} sum x^2 (acc, TD_ORDER_ANY);
 *   - / K and + EPS: one rounding each (a*(1/K) or a division: the oracle's div budget);
 *     rsqrt: the backend's rsqrt budget (rsqrt.approx.f32 included);
 *   - x * rms_w: Triton multiplies the two fp16 tiles in fp16 (one fp16 rounding of the
 *     exact product); a kernel that promotes to fp32 first rounds in binary32: N(either)
 *     of both, so both are admissible;
 *   - the dot: fp16 x fp16 products are exact in binary32 and the fp32 accumulation of
 *     K terms is any order with or without FMA (tl.dot's MMA tree, split-K): acc ANY;
 *   - acc * x_norm: one rounding; the fp16 store: the interval-aware cast.
 * Domain: |x| <= 2^10, |rms_w|, |w| <= 8: |out| <= K * max|rms_w*w| <= 2^13 (Cauchy-Schwarz:
 * sum|x_k| <= sqrt(K) |x|_2 = K * rms(x)), inside fp16; EPS in [2^-30, 2^-3] binary32 > 0,
 * so the mean + EPS > 0 and rsqrt is finite.
 */
#ifndef TD_RMS_MATMUL_RBE_COMMON_H
#define TD_RMS_MATMUL_RBE_COMMON_H

#include "attn2_common.h" /* attn2_kround: a kernel-side rounding to fp16 */
#include "gen.h"
#include "spec.h"

#define RMR_MAX_OUT 3
#define RMR_BOUND_X 0x1p10
#define RMR_BOUND_W 8.0

/* Where a statement keeps its parameters and regions.  Outputs o < nout each have a
 * weight (region, k and n strides) and an output (region, batch/row/col strides). */
typedef struct rmr_idx {
    int nout;
    int p_m, p_n, p_sxb, p_sxm, p_sxk, p_srms, p_bm, p_bn, p_bk, p_nkb, p_k, p_eps;
    int p_swk[RMR_MAX_OUT], p_swn[RMR_MAX_OUT], p_sob[RMR_MAX_OUT], p_som[RMR_MAX_OUT], p_son[RMR_MAX_OUT];
    int r_x, r_rms, r_w[RMR_MAX_OUT], r_out[RMR_MAX_OUT];
} rmr_idx;

static inline uint64_t rmr_key(int64_t b, int64_t m) { return (UINT64_C(0x52) << 56) ^ ((uint64_t)b << 24) ^ (uint64_t)m; }

/* contracts/rms_matmul_rbe_common.c */
void td_rmr_gen(td_producer *p, td_case *c, const rmr_idx *ix);
const char *td_rmr_check(const td_case *c, const rmr_idx *ix);
void td_rmr_writes(const td_case *c, td_wset *ws, const rmr_idx *ix);
/* Offsets beyond 2^31 (gen_far.h): X is the read-only region the batch axis moves, read
 * from pid_batch * stride_x_batch + offs_m * stride_x_m, in the original an int32 sum
 * of products (program_id, the unannotated strides).  Both batches (the generator draws
 * one or two) move to a batch stride near 2^31 over a sparse region; RMS, W and OUT keep
 * their layout. */
void td_rmr_far(td_producer *p, td_case *c, const rmr_idx *ix);

#define RMR_CLASSES                                                                                             \
    (TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_EXACT_MULTIPLE) | \
     TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) |   \
     TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_OFFSET_2_31))
#define RMR_FORMULA                                                                                             \
    "OUT[b*sob + m*som + n] = fp16(rsqrt(sum_k X[b,m,k]^2 / K + EPS) * sum_k X[b,m,k]*RMS[k]*W[k,n]), m < M, n < N"
#define RMR_ERROR_MODEL                                                                                         \
    "squares rounded once and summed in any order, / K, + EPS, rsqrt budget; x*rms_w in fp16 or binary32; "      \
    "exact fp16 products accumulated in any order (FMA or not); * x_norm; fp16 store of the interval"
#define RMR_SV_NOTE                                                                                             \
    "|x| <= 2^10, |rms_w|, |w| <= 8, EPS > 0: |out| <= 2^13 (inside fp16), mean + EPS > 0; zero rows give 0"

#endif
