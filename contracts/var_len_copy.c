/* var_len_copy  (catalogue part 2): a ragged batch of segments copied from one packed
 * buffer to another, one program per segment b (lightllm's request-to-token copy).
 *
 *   var_len_copy_kernel_triton_small_length_output_summary (ComputeCorrect, Fin BLOCK_SIZE)
 *     hBS: 0 < BLOCK_SIZE; hLen: old_a_len[b] <= BLOCK_SIZE; hLenPos: 0 < old_a_len[b];
 *     hOutInj: i -> new_a_start[b] + i injective (always true)
 *     new_a_location[new_a_start[b] + i] = old_a_location[old_a_start[b] + i], i < old_a_len[b]
 *   var_len_copy_one_chunk_io_correctness (Meta3MaskedTileKernelIO_1, no hypotheses)
 *     read = old_a_start[b] + chunk*BLOCK_SIZE + i, write = new_a_start[b] + chunk*BLOCK_SIZE + i,
 *     mask = i < old_a_len[b]   (i < BLOCK_SIZE: the lane, not chunk*BLOCK_SIZE + i, is masked)
 *
 * Checked against VeriTile's VarLenCopy.lean and var_len_copy.py: the Python loop
 * `for i in range(0, length, BLOCK_SIZE)` masks each chunk by `offset < length`, not
 * `i + offset < length`, so for a segment longer than the block the last chunk copies a
 * whole block past the segment's end; the full-kernel theorem is therefore restricted
 * to one chunk (0 < len <= BLOCK_SIZE), and the IO theorem states one chunk `chunk` of
 * the loop with exactly that mask.  Our one-chunk generator keeps chunk consistent with
 * the lengths as the catalogue asks: chunk 0 with any length (0 included), or chunk >= 1
 * with every length > chunk*BLOCK_SIZE (the loop does run that chunk); the lanes past a
 * segment's end that such a chunk copies are part of the contract, so old_a_location
 * holds them.  Segments are cu_seqlens-packed in the old buffer (td_gen_ragged: lengths
 * 0, 1, at the block edges, the last one ending at the buffer's end) and placed in the
 * new buffer in a shuffled order with gaps, so their write windows are disjoint (the
 * launch's write set is exact) and an extra lane lands on a sentinel or in the guard.
 * old_a_start holds nb + 1 entries (cu_seqlens: the total last), as varlen hosts pass.
 * Error model: a copy; tolerance 0 for every implementation (nothing is rounded).
 * Special values: every finite binary32 is drawn; no arithmetic, so none arise. */
#include "kvcopy_common.h"

enum { P_BLOCK, NP_SMALL };          /* small-length summary */
enum { P_CHUNK = 0, P_BLOCK1, NP_CHUNK }; /* one chunk */
enum { R_OSTART, R_OLEN, R_OLD, R_NSTART, R_NEW, NR };

#define TD_SPEC_FILE "var_len_copy.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_small[NP_SMALL] = {{"BLOCK_SIZE", TD_P_INT}};
static const td_param_decl params_chunk[NP_CHUNK] = {{"chunk", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {{"old_a_start", TD_I64, TD_R_META},
                                           {"old_a_len", TD_I64, TD_R_META},
                                           {"old_a_location", TD_F32, TD_R_IN},
                                           {"new_a_start", TD_I64, TD_R_META},
                                           {"new_a_location", TD_F32, TD_R_OUT}};
enum { MAX_NB = 8 };

/* the lanes program b writes: i < min(len, BLOCK) */
static int64_t width(int64_t len, int64_t B) { return len < B ? len : B; }

/* Segments b < nb with lengths in [min_len, max_len]; chunk offset cb = chunk*BLOCK. */
static void gen_common(td_producer *p, td_case *c, int64_t B, int64_t cb, int64_t min_len, int64_t max_len,
                       int64_t edge) {
    int nb = (int)td_prod_u32(p, 1, MAX_NB);
    int64_t lens[MAX_NB], starts[MAX_NB + 1], nstart[MAX_NB], order[MAX_NB];
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, KV_VALUE_BOUND);
    int64_t total = td_gen_ragged(p, &g.rng, lens, starts, nb, min_len, max_len, edge, &c->classes);
    int64_t need = total; /* the old buffer: every segment, and every lane a chunk reads */
    for (int b = 0; b < nb; b++)
        if (lens[b] > 0 && starts[b] + cb + width(lens[b], B) > need) need = starts[b] + cb + width(lens[b], B);
    if (need > total) c->classes &= ~TD_BC(TD_BC_SEQ_ENDS_AT_END); /* a chunk reads past the last segment */
    /* the new buffer: windows of width(len) in a shuffled order, gaps of 0..2, from cb */
    td_gen_slots(p, &g.rng, order, nb, nb, &c->classes);
    int64_t pos = cb;
    for (int k = 0; k < nb; k++) {
        int b = (int)order[k];
        pos += td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 2) : 0;
        nstart[b] = pos - cb;
        pos += width(lens[b], B);
    }
    kv_store_meta(c, R_OSTART, starts, nb + 1, 0);
    kv_store_meta(c, R_OLEN, lens, nb, 0);
    kv_store_meta(c, R_NSTART, nstart, nb, 0);
    td_case_alloc(c, R_OLD, (size_t)(need > 0 ? need : 1));
    td_vgen_fill(&g, c, R_OLD);
    td_case_alloc(c, R_NEW, (size_t)(pos + td_prod_u32(p, 0, 2)));
    c->grid[0] = (uint32_t)nb, c->grid[1] = c->grid[2] = 1;
    if (nb == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}

static void gen_small(td_producer *p, td_case *c) {
    int64_t B = td_gen_pow2(p, 0, 6);
    c->p[P_BLOCK].i = B;
    if (B == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    gen_common(p, c, B, 0, 1, B, B);
}

static void gen_chunk(td_producer *p, td_case *c) {
    int64_t B = td_gen_pow2(p, 0, 5), chunk = td_prod_u32(p, 0, 2) ? 0 : (int64_t)td_prod_u32(p, 1, 2);
    c->p[P_CHUNK].i = chunk, c->p[P_BLOCK1].i = B;
    if (chunk) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (chunk == 0) gen_common(p, c, B, 0, 0, 2 * B + 1, B);
    else gen_common(p, c, B, chunk * B, chunk * B + 1, (chunk + 1) * B + 1, (chunk + 1) * B);
}

/* Offsets beyond 2^31: the first R = min(nb, 4) segments' old windows (from old_a_start[b]
 * to the last lane the chunk reads) moved to old_a_start[b] = b * S, S near 2^31
 * (td_far_stride), over a sparse old_a_location; old_a_start[R] (the cu_seqlens total)
 * becomes the end of the last window; the new buffer keeps its windows.  The kernel
 * adds the loaded start to its lane: no product an int32 could wrap, so no int32
 * mutant (a start read through an int32 would be a metadata bug, not an offset one). */
static void far_common(td_producer *p, td_case *c, int64_t B, int64_t cb) {
    int64_t R = c->grid[0] < TD_FAR_MAX_ROWS ? c->grid[0] : TD_FAR_MAX_ROWS, w = 1, win[TD_FAR_MAX_ROWS];
    if (R < 2) return;
    for (int64_t b = 0; b < R; b++) {
        int64_t lw = width(td_geti(c, R_OLEN, (size_t)b), B);
        win[b] = lw > 0 ? cb + lw : 0;
        w = win[b] > w ? win[b] : w;
    }
    int64_t S = td_far_stride(p, R, w);
    td_region old = c->r[R_OLD];
    size_t eb = td_fmt_get(old.fmt)->bytes;
    c->r[R_OLD].data = NULL, c->r[R_OLD].mapped = 0, c->r[R_OLD].len = 0;
    uint8_t *d = td_case_alloc_sparse(c, R_OLD, (size_t)((R - 1) * S + w));
    if (!d) {
        c->r[R_OLD] = old;
        return;
    }
    for (int64_t b = 0; b < R; b++) {
        int64_t from = td_geti(c, R_OSTART, (size_t)b);
        memcpy(d + (size_t)(b * S) * eb, (const uint8_t *)old.data + (size_t)from * eb, (size_t)win[b] * eb);
        td_seti(c, R_OSTART, (size_t)b, b * S);
    }
    td_region_release(&old);
    if ((int64_t)c->r[R_OSTART].len > R) td_seti(c, R_OSTART, (size_t)R, (R - 1) * S + win[R - 1]);
    c->grid[0] = (uint32_t)R;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31);
}
static void far_small(td_producer *p, td_case *c) { far_common(p, c, c->p[P_BLOCK].i, 0); }
static void far_chunk(td_producer *p, td_case *c) {
    far_common(p, c, c->p[P_BLOCK1].i, c->p[P_CHUNK].i * c->p[P_BLOCK1].i);
}

/* The shared preconditions: metadata in range, windows inside the buffers and disjoint. */
static const char *check_common(const td_case *c, int64_t B, int64_t cb) {
    int64_t nb = c->grid[0];
    if (B <= 0) return "hBS: 0 < BLOCK_SIZE";
    if ((int64_t)c->r[R_OSTART].len < nb || (int64_t)c->r[R_OLEN].len < nb || (int64_t)c->r[R_NSTART].len < nb)
        return "the metadata regions hold one entry per program";
    for (int64_t b = 0; b < nb; b++) {
        int64_t len = td_geti(c, R_OLEN, b), os = td_geti(c, R_OSTART, b), ns = td_geti(c, R_NSTART, b), w;
        if (len < 0 || os < 0 || ns < 0) return "lengths and starts are Nat";
        if ((w = width(len, B)) == 0) continue;
        if (os + cb + w > (int64_t)c->r[R_OLD].len) return "old_a_location holds every lane read";
        if (ns + cb + w > (int64_t)c->r[R_NEW].len) return "new_a_location holds every lane written";
        for (int64_t k = 0; k < b; k++) {
            int64_t nk = td_geti(c, R_NSTART, k), wk = width(td_geti(c, R_OLEN, k), B);
            if (wk > 0 && ns < nk + wk && nk < ns + w) return "the programs' write windows are disjoint";
        }
    }
    return NULL;
}

static const char *check_small(const td_case *c) {
    int64_t B = c->p[P_BLOCK].i;
    for (int64_t b = 0; b < (int64_t)c->grid[0] && b < (int64_t)c->r[R_OLEN].len; b++) {
        if (td_geti(c, R_OLEN, b) > B) return "hLen: old_a_len[pid] <= BLOCK_SIZE";
        if (td_geti(c, R_OLEN, b) <= 0) return "hLenPos: 0 < old_a_len[pid]";
    }
    return check_common(c, B, 0);
}

static const char *check_chunk(const td_case *c) {
    if (c->p[P_CHUNK].i < 0) return "chunk is Nat";
    return check_common(c, c->p[P_BLOCK1].i, c->p[P_CHUNK].i * c->p[P_BLOCK1].i);
}

static void writes_common(const td_case *c, td_wset *ws, int64_t B, int64_t cb) {
    for (uint32_t b = 0; b < c->grid[0]; b++) {
        int64_t ns = td_geti(c, R_NSTART, b), w = width(td_geti(c, R_OLEN, b), B);
        for (int64_t i = 0; i < w; i++) {
            td_olane l = {.o = 0, .region = R_NEW, .off = (uint64_t)(ns + cb + i), .pid = {b, 0, 0},
                          .j = (uint64_t)i, .idx = {b, i, cb, 0}};
            td_wset_add(ws, &l);
        }
    }
}
static void writes_small(const td_case *c, td_wset *ws) { writes_common(c, ws, c->p[P_BLOCK].i, 0); }
static void writes_chunk(const td_case *c, td_wset *ws) {
    writes_common(c, ws, c->p[P_BLOCK1].i, c->p[P_CHUNK].i * c->p[P_BLOCK1].i);
}

#define VLC_CLASSES                                                                                              \
    (TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) |                          \
     TD_BC(TD_BC_SEQ_ENDS_AT_END) | TD_BC(TD_BC_IDX_PERMUTATION) | TD_BC(TD_BC_IDX_FIRST_LAST) |                 \
     TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31))

const td_contract td_c_var_len_copy_small = {
    .id = "var_len_copy.var_len_copy_kernel_triton_small_length_output_summary",
    .file = "var_len_copy",
    .family = "copy",
    .io_class = "ComputeCorrect over Fin BLOCK_SIZE",
    .kind = "exact",
    .formula = "new_a_location[new_a_start[b] + i] = old_a_location[old_a_start[b] + i]  (i < old_a_len[b] <= BLOCK_SIZE)",
    .nparams = NP_SMALL,
    .params = params_small,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "a copy: finite inputs, no arithmetic",
    .error_model = "a copy rounds nothing (tolerance 0 for every implementation)",
    .classes = VLC_CLASSES | TD_BC(TD_BC_SINGLE_LANE),
    .gen = gen_small,
    .far = far_small,
    .check = check_small,
    .writes = writes_small,
    TD_SPECS(vlc),
};

const td_contract td_c_var_len_copy_chunk = {
    .id = "var_len_copy.var_len_copy_one_chunk_io_correctness",
    .file = "var_len_copy",
    .family = "copy",
    .io_class = "Meta3MaskedTileKernelIO_1",
    .kind = "exact",
    .formula = "new[news[b] + chunk*BS + i] = old[olds[b] + chunk*BS + i]  (i < min(len[b], BS))",
    .nparams = NP_CHUNK,
    .params = params_chunk,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "a copy: finite inputs, no arithmetic",
    .error_model = "a copy rounds nothing (tolerance 0 for every implementation)",
    .classes = VLC_CLASSES | TD_BC(TD_BC_SEQ_EMPTY) | TD_BC(TD_BC_MULTI_TILE),
    .gen = gen_chunk,
    .far = far_chunk,
    .check = check_chunk,
    .writes = writes_chunk,
    TD_SPECS(vlc),
};
