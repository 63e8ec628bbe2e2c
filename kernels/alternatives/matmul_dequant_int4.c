/* matmul_dequant_int4, alternative: unpack a whole packed word, then scale column-wise.
 *
 * alt_unpack_words: for each column n and each packed row w of b, the eight nibbles of
 * the word are unpacked with logical shifts of its unsigned pattern, the zero point and
 * scale of each k = 8w + e looked up, and (q - zp) * s formed in binary64 (exact:
 * 5 x 24 bits) and rounded once to binary32.  Admissible: one correctly rounded product
 * of the exact nibble difference and the scale.
 */
#include "tl.h"

enum { P_K, P_N, P_GS, P_SBK, P_SBN, P_SBSK, P_SBSN, P_SBZK, P_SBZN, P_SFK, P_SFN };
enum { R_B, R_S, R_ZP, R_F };

static int unpack_words(const td_abi_launch *L) {
    int64_t K = TL_I(L, P_K), N = TL_I(L, P_N), gs = TL_I(L, P_GS);
    for (int64_t n = 0; n < N; n++)
        for (int64_t w = 0; w * 8 < K; w++) {
            uint32_t word = (uint32_t)tl_load_int(L, R_B, w * TL_I(L, P_SBK) + n * TL_I(L, P_SBN));
            for (int64_t e = 0; e < 8 && w * 8 + e < K; e++) {
                int64_t k = w * 8 + e;
                uint32_t z = (uint32_t)tl_load_int(L, R_ZP, k / gs * TL_I(L, P_SBZK) + n / 8 * TL_I(L, P_SBZN));
                int q = (int)((word >> (4 * e)) & 15u) - (int)((z >> (4 * (n % 8))) & 15u);
                double s = tl_load(L, R_S, k / gs * TL_I(L, P_SBSK) + n * TL_I(L, P_SBSN));
                tl_store(L, R_F, k * TL_I(L, P_SFK) + n * TL_I(L, P_SFN), (float)(q * s), tl_f32());
            }
        }
    return 0;
}

TD_KERNEL(td_a_matmul_dequant_int4) = {"matmul_dequant_int4.matmul_dequant_int4_exec_genuine", "alt_unpack_words",
                                       TD_ABI_HOST, NULL, NULL, NULL, 13, 4, unpack_words, NULL};
