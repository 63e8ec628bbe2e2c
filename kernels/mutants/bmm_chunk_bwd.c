/* bmm_chunk_bwd mutants (the program itself is in ../host/bmm_chunk_bwd.c). */
#include "../host/matmul_tl.h"

enum { BCB_OK = 0, BCB_DOUT_UNTRANSPOSED, BCB_DB_CHUNK_NO_CS, BCB_STORE_MASK_CS, BCB_A_I32 };
int td_bmm_chunk_bwd_program(const td_abi_launch *L, int summary, int bug);

/* dout_ptrs = dout_ptr + offs_m * stride_dout_csize_m + offs_cs * stride_dout_csize_n:
 * dout read untransposed */
static int dout_sum(const td_abi_launch *L) { return td_bmm_chunk_bwd_program(L, 1, BCB_DOUT_UNTRANSPOSED); }
static int dout_io(const td_abi_launch *L) { return td_bmm_chunk_bwd_program(L, 0, BCB_DOUT_UNTRANSPOSED); }
/* db_ptr += pid_c * stride_db_seqlen: the chunk's first row without * chunk_size */
static int dbchunk_sum(const td_abi_launch *L) { return td_bmm_chunk_bwd_program(L, 1, BCB_DB_CHUNK_NO_CS); }
static int dbchunk_io(const td_abi_launch *L) { return td_bmm_chunk_bwd_program(L, 0, BCB_DB_CHUNK_NO_CS); }
/* the store masked by offs_m < chunk_size instead of chunk_size_limit */
static int mask_io(const td_abi_launch *L) { return td_bmm_chunk_bwd_program(L, 0, BCB_STORE_MASK_CS); }

#define SUM "bmm_chunk_bwd.bmm_chunk_bwd_output_summary_general"
#define IO "bmm_chunk_bwd.bmm_chunk_bwd_io_correctness"
#define DT "dout read untransposed (csize_m and csize_n strides swapped)"
#define DC "Db's chunk offset pid_c * stride_db_seqlen, without * chunk_size"
#define MK "store masked by offs_m < chunk_size instead of chunk_size_limit: a partial chunk's tail rows written"
TD_KERNEL(td_m_bmm_chunk_bwd_sum_dt) = {SUM, "mut_dout_untransposed", TD_ABI_HOST, NULL, NULL, DT, 20, 3, dout_sum, NULL};
TD_KERNEL(td_m_bmm_chunk_bwd_io_dt) = {IO, "mut_dout_untransposed", TD_ABI_HOST, NULL, NULL, DT, 20, 3, dout_io, NULL};
TD_KERNEL(td_m_bmm_chunk_bwd_sum_dc) = {SUM, "mut_db_chunk_offset", TD_ABI_HOST, NULL, NULL, DC, 20, 3, dbchunk_sum, NULL};
TD_KERNEL(td_m_bmm_chunk_bwd_io_dc) = {IO, "mut_db_chunk_offset", TD_ABI_HOST, NULL, NULL, DC, 20, 3, dbchunk_io, NULL};
TD_KERNEL(td_m_bmm_chunk_bwd_io_mk) = {IO, "mut_store_mask_chunk_size", TD_ABI_HOST, NULL, NULL, MK, 20, 3, mask_io, NULL};
/* a_ptr += pid_b * stride_a_batch + ... in int32 (Triton's default): batches beyond 2^31
 * elements wrap */
static int a_i32_sum(const td_abi_launch *L) { return td_bmm_chunk_bwd_program(L, 1, BCB_A_I32); }
static int a_i32_io(const td_abi_launch *L) { return td_bmm_chunk_bwd_program(L, 0, BCB_A_I32); }
#define AI32 "pid_b * stride_a_batch (+ the chunk and head offsets) formed in int32 (A's batch offsets wrap beyond 2^31 elements)"
TD_KERNEL(td_m_bmm_chunk_bwd_sum_i32) = {SUM, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, AI32, 20, 3, a_i32_sum, NULL};
TD_KERNEL(td_m_bmm_chunk_bwd_io_i32) = {IO, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, AI32, 20, 3, a_i32_io, NULL};
