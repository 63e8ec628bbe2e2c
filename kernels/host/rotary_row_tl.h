/* The row slice of flash-attn's rotary_kernel (rotary_transform, rotary_transform_ops:
 * rotary_kernel_o0o1_row and rotary_meta_row of their Lean files), shared by the host
 * kernels (bug 0: the kernel as written) and the mutants (one RR_BUG_* switched on).
 * Per program (pid0 = row block, pid1 = batch, pid2 = head unless HEAD_IDX is a
 * parameter): rm = pid0 * BLOCK_M; nothing when rm >= seqlen; lanes j < BLOCK_HALF of
 *   cos, sin = COS/SIN[(rm + SEQLEN_OFFSETS) * rdh + j] (masked: 1.0, 0.0),
 *   x0 = X[.. j * sxd], x1 = X[.. (j + rdh) * sxd],
 *   OUT[.. j * sod] = x0*cos - x1*sin, OUT[.. (j + rdh) * sod] = x0*sin + x1*cos. */
#ifndef TD_ROTARY_ROW_TL_H
#define TD_ROTARY_ROW_TL_H

#include "tl.h"

/* where a statement keeps its parameters: 14 row parameters from p0 (SEQLEN_OFFSETS,
 * seqlen, rotary_dim_half, seqlen_ro, 4 out strides, 4 x strides, BLOCK_M, BLOCK_HALF);
 * regions OUT, X, COS, SIN, then CU_SEQLENS where r_cu >= 0 */
typedef struct rrk_layout {
    int p0, p_head, p_varlen, r_cu;
} rrk_layout;
enum { RRK_SO, RRK_SEQLEN, RRK_RDH, RRK_SRO, RRK_SOB, RRK_SOS, RRK_SOH, RRK_SOD, RRK_SXB, RRK_SXS, RRK_SXH, RRK_SXD,
       RRK_BM, RRK_BH };
enum { RRK_OUT, RRK_X, RRK_COS, RRK_SIN };
enum { RR_BUG_SIGN = 1, RR_BUG_INTERLEAVED, RR_BUG_NO_OFFSET, RR_BUG_COS_SIN, RR_BUG_SEQ_END,
       RR_BUG_OFFSET_I32 /* pid_batch * stride_x_batch + pid_head * stride_x_nheads formed in int32 */ };

typedef struct rrk_seq {
    int64_t xb, ob, len;
} rrk_seq;

/* the program's X/OUT bases and its sequence length (the IS_VARLEN prologue) */
static inline rrk_seq rrk_seq_of(const td_abi_launch *L, const rrk_layout *k, uint32_t pid1, uint32_t pid2, int bug) {
#define RP(i) TL_I(L, k->p0 + (i))
    int64_t head = k->p_head >= 0 ? TL_I(L, k->p_head) : (int64_t)pid2;
    rrk_seq s;
    if (k->p_varlen >= 0 && TL_I(L, k->p_varlen)) {
        int64_t start = tl_load_int(L, k->r_cu, pid1), end = tl_load_int(L, k->r_cu, pid1 + 1);
        s.len = end - start - (bug == RR_BUG_SEQ_END ? 1 : 0);
        s.xb = start * RP(RRK_SXS) + head * RP(RRK_SXH);
        s.ob = start * RP(RRK_SOS) + head * RP(RRK_SOH);
    } else {
        s.len = RP(RRK_SEQLEN);
        s.xb = (int64_t)pid1 * RP(RRK_SXB) + head * RP(RRK_SXH);
        if (bug == RR_BUG_OFFSET_I32) s.xb = tl_i32(tl_i32((int64_t)pid1 * tl_i32(RP(RRK_SXB))) + head * RP(RRK_SXH));
        s.ob = (int64_t)pid1 * RP(RRK_SOB) + head * RP(RRK_SOH);
    }
    return s;
}

/* one program's row: lanes j < BLOCK_HALF */
static inline void rrk_row(const td_abi_launch *L, const rrk_layout *k, rrk_seq s, int64_t rm, int bug) {
    int64_t rdh = RP(RRK_RDH), sro = RP(RRK_SRO), sxs = RP(RRK_SXS), sxd = RP(RRK_SXD);
    int64_t rm_cs = rm + (bug == RR_BUG_NO_OFFSET ? 0 : RP(RRK_SO));
    for (int64_t j = 0; j < RP(RRK_BH); j++) {
        int tmask = rm_cs < sro && j < rdh, xmask = rm < s.len && j < rdh;
        float cs = tmask ? tl_load(L, RRK_COS, rm_cs * rdh + j) : 1.0f;
        float sn = tmask ? tl_load(L, RRK_SIN, rm_cs * rdh + j) : 0.0f;
        if (bug == RR_BUG_COS_SIN) {
            float t = cs;
            cs = sn, sn = t;
        }
        int64_t i0 = j, i1 = j + rdh;
        if (bug == RR_BUG_INTERLEAVED) i0 = 2 * j, i1 = 2 * j + 1; /* (x[2j], x[2j+1]) pairs */
        float x0 = xmask ? tl_load(L, RRK_X, s.xb + rm * sxs + i0 * sxd) : 0.0f;
        float x1 = xmask ? tl_load(L, RRK_X, s.xb + rm * sxs + i1 * sxd) : 0.0f;
        float o0 = x0 * cs - x1 * sn, o1 = x0 * sn + x1 * cs;
        if (bug == RR_BUG_SIGN) o0 = x0 * cs + x1 * sn, o1 = x1 * cs - x0 * sn; /* rotated by -theta */
        if (!xmask) continue;
        tl_store(L, RRK_OUT, s.ob + rm * RP(RRK_SOS) + j * RP(RRK_SOD), o0, tl_f32());
        tl_store(L, RRK_OUT, s.ob + rm * RP(RRK_SOS) + (j + rdh) * RP(RRK_SOD), o1, tl_f32());
    }
}

static inline int rotary_row_program(const td_abi_launch *L, const rrk_layout *k, int bug) {
    for (uint32_t pid2 = 0; pid2 < L->grid[2]; pid2++)
        for (uint32_t pid1 = 0; pid1 < L->grid[1]; pid1++)
            for (uint32_t pid0 = 0; pid0 < L->grid[0]; pid0++) {
                rrk_seq s = rrk_seq_of(L, k, pid1, pid2, bug);
                int64_t rm = (int64_t)pid0 * RP(RRK_BM);
                if (rm >= s.len) continue; /* if pid_m * BLOCK_M >= seqlen: return */
                if (bug == RR_BUG_OFFSET_I32 && tl_fault(L, RRK_X, s.xb + rm * RP(RRK_SXS), 1, 1, pid0)) return 1;
                rrk_row(L, k, s, rm, bug);
            }
    return 0;
}
#undef RP

/* the two statements' layouts (rotary_transform and rotary_transform_ops alike) */
static const rrk_layout rrk_general = {0, -1, -1, -1};
static const rrk_layout rrk_meta = {1, 0, 15, 4};

#endif
