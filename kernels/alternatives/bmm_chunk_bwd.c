/* bmm_chunk_bwd, alternative: split-K per output cell.
 *
 * alt_splitk: db[b, c*cs + m, h, n] = sum_{s < CSL} dout[b, c, h, s, m] * A[b, c*cs + s, h, n]
 * for n < K and the rows m < CSL = BCS * numCSBlocks that the launch's row tiles cover
 * (m < (grid_0 / cdiv(K, BN)) * BM), where dout's rows m >= chunk_size load 0 (the
 * kernel's mask), so those cells hold 0.  Each cell sums its CSL exact fp16 products in
 * three slices, each an FMA chain, the partials added last slice first; the port adds a
 * pairwise tree per BCS step in order.  Admissible: an association order of the binary32
 * sum; the cells are the port's store mask (m < CSL & n < K, within the launched tiles) at the same offsets.
 */
#include "alt_common.h"

enum { Q_CS, Q_K, Q_G, Q_SAB, Q_SAS, Q_SAH, Q_SAK, Q_SDB, Q_SDC, Q_SDH, Q_SDM, Q_SDN, Q_SOB, Q_SOS, Q_SOH, Q_SOK,
       Q_BM, Q_BN, Q_BCS, Q_NCS, NQ };
enum { R_A, R_DOUT, R_DB };
/* the summary contract lists K last; the IO contract second */
static const int pos_sum[NQ] = {0, 19, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18};
static const int pos_io[NQ] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};

static int splitk(const td_abi_launch *L, const int *pos) {
    int64_t q[NQ];
    for (int i = 0; i < NQ; i++) q[i] = TL_I(L, pos[i]);
    int64_t cs = q[Q_CS], K = q[Q_K], G = q[Q_G], csl = q[Q_BCS] * q[Q_NCS];
    /* the launch's row tiles: grid axis 0 holds cdiv(K, BN) column tiles per row tile */
    int64_t tiles = (int64_t)L->grid[0] / ((K + q[Q_BN] - 1) / q[Q_BN]);
    int64_t rows = tiles * q[Q_BM] < csl ? tiles * q[Q_BM] : csl;
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t b = 0; b < L->grid[1]; b++) {
            int64_t c = p2 / G, h = p2 % G;
            int64_t dbase = b * q[Q_SDB] + c * q[Q_SDC] + h * q[Q_SDH];
            int64_t abase = b * q[Q_SAB] + c * cs * q[Q_SAS] + h * q[Q_SAH];
            int64_t obase = b * q[Q_SOB] + c * cs * q[Q_SOS] + h * q[Q_SOH];
            for (int64_t m = 0; m < rows; m++)
                for (int64_t n = 0; n < K; n++) {
                    alt_vec d = {R_DOUT, dbase + m * q[Q_SDN], q[Q_SDM]}, a = {R_A, abase + n * q[Q_SAK], q[Q_SAS]};
                    float v = m < cs ? alt_dot(L, &d, &a, csl, 0.0f, ALT_DOT_SPLITK) : 0.0f;
                    tl_store(L, R_DB, obase + m * q[Q_SOS] + n * q[Q_SOK], v, tl_f32());
                }
        }
    return 0;
}
static int splitk_sum(const td_abi_launch *L) { return splitk(L, pos_sum); }
static int splitk_io(const td_abi_launch *L) { return splitk(L, pos_io); }

TD_KERNEL(td_a_bmm_chunk_bwd_summary) = {"bmm_chunk_bwd.bmm_chunk_bwd_output_summary_general", "alt_splitk",
                                         TD_ABI_HOST, NULL, NULL, NULL, 20, 3, splitk_sum, NULL};
TD_KERNEL(td_a_bmm_chunk_bwd_io) = {"bmm_chunk_bwd.bmm_chunk_bwd_io_correctness", "alt_splitk", TD_ABI_HOST, NULL,
                                    NULL, NULL, 20, 3, splitk_io, NULL};
