/* Offsets beyond 2^31 (the far tier, contracts/gen_far.h): far cases reach the class
 * over sparse regions at the cost of a few pages, the correct ports pass them, the
 * int32-offset mutants are killed by them (and by nothing else), and the read-only
 * and guard checks still hold over a sparse image.  Reserves up to 24 GiB of address
 * space per case, commits a few MiB: a "unit" test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "gen_far.h"
#include "backend.h"
#include "harness.h"

const td_abi_table *td_builtin_host_table(void);

#define TWO31 ((int64_t)1 << 31)
#define NB 56 /* bytes after the magic */

typedef struct far_contract {
    const char *id;
    const char *stride; /* the row stride the far hook moves */
    int reg;            /* the region it moves */
    const char *rows;   /* the parameter counting its rows (NULL: one row per program, grid[0]) */
} far_contract;
static const far_contract FAR[] = {
    {"softmax_triton1.softmax_kernel_correctness", "input_row_stride", 1, NULL},
    {"softmax_triton2.softmax_kernel_correctness", "input_row_stride", 1, NULL},
    {"rms_norm_triton.rms_norm_kernel_correctness", "x_stride_r", 1, NULL},
    {"cross_entropy2.cross_entropy_fwd_correctness", "logits_row_stride", 3, NULL},
    {"cross_entropy_ops.cross_entropy_fwd_correctness", "logits_row_stride", 3, NULL},
    {"layer_norm_liger.layer_norm_liger_forward_output_summary", "X_row_stride", 1, NULL},
    {"fast_rms_layernorm.rms_layernorm_forward_correctness", "X_row_stride", 1, NULL},
    {"fast_rms_layernorm.gemma_rms_layernorm_forward_correctness", "X_row_stride", 1, NULL},
    {"fast_ce_loss.cross_entropy_forward_correctness", "logits_row_stride", 0, NULL},
    {"fast_layernorm.layernorm_forward_correctness", "X_row_stride", 1, NULL},
    {"cross_entropy1.cross_entropy_fwd_correctness", "logits_row_stride", 2, NULL},
    {"destindex_copy_kv1.fwd_kernel_destindex_copy_kv_correctness", "stride_k_bs", 0, NULL},
    {"destindex_copy_kv2.fwd_kernel_destindex_copy_kv_correctness", "stride_k_bs", 0, NULL},
    {"ksoftmax_triton.ksoftmax_forward_plain_correctness", "stride_xm", 1, NULL},
    {"rmsnorm_triton.rmsnorm_full_output_summary", "sxb", 0, NULL},
    {"rmsnorm_triton.rmsnorm_full_io_correctness", "sxb", 0, NULL},
    {"rmsnorm_implementation.rmsnorm_implementation_output_summary", "stride_x_batch", 0, NULL},
    {"rmsnorm_implementation.rmsnorm_implementation_io_correctness", "stride_x_batch", 0, NULL},
    {"layernorm_fwd_triton.layernorm_fwd_triton_output_summary", "stride_x_N", 0, NULL},
    {"layernorm_fwd_triton.layernorm_fwd_triton_io_correctness", "stride_x_N", 0, NULL},
    {"triton_matmul.triton_matmul_f16_closed_form_correct", "sam", 0, "M"},
    {"triton_matmul.triton_matmul_f16_io_correctness", "sam", 0, "M"},
    {"triton_matmul.triton_matmul_f8_closed_form_correct", "sam", 0, "M"},
    {"triton_matmul.triton_matmul_f8_io_correctness", "sam", 0, "M"},
    {"iv_dependent_matmul.iv_dependent_matmul_io_correctness", "SAM", 0, "M"},
    {"matmul_triton_autotune.matmul_autotune_closed_form_correct", "sam", 0, "M"},
    {"matmul_triton_autotune.matmul_autotune_io_correctness", "sam", 0, "M"},
};
/* The first NFAR_FULL contracts' ports run 24 far cases, the later ones' (unsloth's
 * kernels, whose int32 row offsets were a real bug, cross_entropy1, destindex_copy_kv1/2,
 * ksoftmax_triton, the batched RMS norms of rmsnorm_triton and rmsnorm_implementation,
 * layernorm_fwd_triton, the A rows of triton_matmul, iv_dependent_matmul and
 * matmul_triton_autotune)
 * 12, to keep the test short; the int32-offset mutants from FAR[MUT_SAMPLED] on are
 * checked on 12 cases too. */
#define NFAR_FULL 6
#define MUT_SAMPLED 5
#define NFAR (sizeof FAR / sizeof FAR[0])

static void far_bytes(uint64_t i, uint8_t *b, int far) {
    memcpy(b, far ? TD_FAR_MAGIC : "notfar!!", TD_FAR_MAGIC_LEN);
    td_case_bytes(5, i, b + TD_FAR_MAGIC_LEN, NB);
}

/* Far inputs reach the class: the last row starts 2^31 elements or more into a sparse
 * region; the same bytes without the magic decode to an ordinary case. */
static void test_far_tier_reaches_the_class(void **st) {
    (void)st;
    for (size_t f = 0; f < NFAR; f++) {
        const td_contract *k = td_contract_find(FAR[f].id);
        assert_non_null(k);
        assert_non_null(k->far);
        assert_true(k->classes & TD_BC(TD_BC_OFFSET_2_31));
        int hits = 0;
        for (uint64_t i = 0; i < 64; i++) {
            uint8_t b[TD_FAR_MAGIC_LEN + NB];
            char err[512];
            td_case c;
            far_bytes(i, b, 0);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            assert_false(c.classes & TD_BC(TD_BC_OFFSET_2_31));
            td_case_free(&c);
            far_bytes(i, b, 1);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            if (c.classes & TD_BC(TD_BC_OFFSET_2_31)) {
                hits++;
                int64_t s = td_param_i(&c, FAR[f].stride, -1);
                int64_t rows = FAR[f].rows ? td_param_i(&c, FAR[f].rows, -1) : (int64_t)c.grid[0];
                assert_true((rows - 1) * s >= TWO31);
                assert_true(rows >= 2 && rows <= TD_FAR_MAX_ROWS);
                assert_true(c.r[FAR[f].reg].mapped > 0);
                assert_true(c.r[FAR[f].reg].len > (size_t)TWO31);
            }
            td_case_free(&c);
        }
        assert_true(hits >= 16); /* most far inputs have two rows or more */
    }
}

/* Case i of a campaign: every 16th case of a contract with a far hook is far. */
static void test_campaign_far_cases(void **st) {
    (void)st;
    const td_contract *far = td_contract_find(FAR[0].id), *plain = td_contract_find("add_example.add_kernel_correctness");
    assert_non_null(plain);
    assert_null(plain->far);
    uint8_t a[64], b[64];
    for (uint64_t i = 0; i < 48; i++) {
        td_campaign_case_bytes(far, 3, i, a, sizeof a);
        int is_far = i % TD_FAR_EVERY == TD_FAR_EVERY - 1;
        assert_int_equal(td_far_tier(a, sizeof a), is_far);
        td_case_bytes(3, i, b, is_far ? sizeof b - TD_FAR_MAGIC_LEN : sizeof b);
        assert_memory_equal(a + (is_far ? TD_FAR_MAGIC_LEN : 0), b, is_far ? sizeof b - TD_FAR_MAGIC_LEN : sizeof b);
        td_campaign_case_bytes(plain, 3, i, a, sizeof a);
        td_case_bytes(3, i, b, sizeof b);
        assert_memory_equal(a, b, sizeof a);
    }
}

static long maxrss_mib(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}

/* Runs `kern` on far case i (or the same bytes without the magic); the result's
 * return code, and its worst class in *worst. */
static uint32_t g_rows; /* grid[0] of the last case run_case ran */
static int run_case(td_ctx *cx, const td_kernel *kern, uint64_t i, int far, td_vclass *worst, uint64_t *classes) {
    uint8_t b[TD_FAR_MAGIC_LEN + NB];
    far_bytes(i, b, far);
    td_case_result r;
    int rc = td_run_bytes(cx, kern, b, sizeof b, &r);
    *worst = r.worst;
    *classes = r.st.classes;
    g_rows = r.grid[0];
    td_result_free(&r);
    return rc;
}

/* The int32-offset mutants fail far cases (an illegal address: a launch error) and
 * pass every ordinary one; the correct ports pass both.  The process stays small. */
static void test_int32_offset_mutants_killed(void **st) {
    (void)st;
    td_kernel_set set;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    assert_non_null(cx);
    const far_contract *muts[] = {&FAR[0], &FAR[2], &FAR[3]}; /* softmax, rms norm, cross entropy */
    for (size_t m = 0; m < 3; m++) {
        const td_kernel *mut = td_kernels_find(&set, muts[m]->id, "mut_offset_int32", TD_ABI_HOST);
        const td_kernel *port = td_kernels_find(&set, muts[m]->id, NULL, TD_ABI_HOST);
        assert_non_null(mut);
        assert_non_null(port);
        int killed = 0;
        for (uint64_t i = 0; i < 24; i++) {
            td_vclass w;
            uint64_t cl;
            assert_int_equal(run_case(cx, mut, i, 0, &w, &cl), TD_RUN_OK); /* ordinary cases: the port */
            assert_int_equal(run_case(cx, port, i, 1, &w, &cl), TD_RUN_OK);
            int rc = run_case(cx, mut, i, 1, &w, &cl);
            if (cl & TD_BC(TD_BC_OFFSET_2_31)) {
                assert_int_equal(rc, TD_RUN_FINDING);
                assert_int_equal(w, TD_VC_LAUNCH);
                killed++;
            } else {
                assert_int_equal(rc, TD_RUN_OK);
            }
        }
        assert_true(killed >= 6);
    }
    for (size_t f = MUT_SAMPLED; f < NFAR; f++) { /* a sample: 12 cases, not 24 */
        const td_kernel *mut = td_kernels_find(&set, FAR[f].id, "mut_offset_int32", TD_ABI_HOST);
        assert_non_null(mut);
        int killed = 0;
        for (uint64_t i = 0; i < 12; i++) {
            td_vclass w;
            uint64_t cl;
            assert_int_equal(run_case(cx, mut, i, 0, &w, &cl), TD_RUN_OK);
            int rc = run_case(cx, mut, i, 1, &w, &cl);
            if (!(cl & TD_BC(TD_BC_OFFSET_2_31))) {
                assert_int_equal(rc, TD_RUN_OK);
                continue;
            }
            assert_int_equal(rc, TD_RUN_FINDING);
            assert_int_equal(w, TD_VC_LAUNCH);
            killed++;
        }
        assert_true(killed >= 3);
    }
    /* 3 x 24 far cases of up to 24 GiB of address space each: a few pages committed */
    assert_true(maxrss_mib() < 1024);
    td_ctx_free(cx);
    td_kernels_close(&set);
}

/* Every correct port passes the far cases of its contract. */
static void test_ports_pass_far_cases(void **st) {
    (void)st;
    td_kernel_set set;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    for (size_t f = 0; f < NFAR; f++) {
        const td_kernel *port = td_kernels_find(&set, FAR[f].id, NULL, TD_ABI_HOST);
        assert_non_null(port);
        int far_cases = 0, n = f < NFAR_FULL ? 24 : 12;
        for (uint64_t i = 0; i < (uint64_t)n; i++) {
            td_vclass w;
            uint64_t cl;
            assert_int_equal(run_case(cx, port, i, 1, &w, &cl), TD_RUN_OK);
            far_cases += (cl & TD_BC(TD_BC_OFFSET_2_31)) != 0;
        }
        assert_true(far_cases >= n / 4);
    }
    td_ctx_free(cx);
    td_kernels_close(&set);
}

/* ---- the checks over a sparse image: kernels that run the softmax port, then
 * corrupt the far input region ---- */
static const td_kernel *g_port;
enum { BAD_HOLE, BAD_ZERO_ROW, BAD_GUARD };
static int bad_launch(const td_abi_launch *L, int how) {
    int rc = g_port->abi->launch(L);
    const td_abi_region *in = &L->regions[1];
    float *x = in->base;
    int64_t is = L->params[0].i, w = L->params[2].i < L->params[3].i ? L->params[2].i : L->params[3].i;
    if (in->len <= (uint64_t)TWO31) return rc; /* only far cases are corrupted (they are the ones checked) */
    if (how == BAD_HOLE) x[is / 2] = 1.0f;                                      /* between rows 0 and 1 */
    if (how == BAD_ZERO_ROW) { /* the pages of row 1 wiped (all zeros, as an untouched page reads) */
        uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), lo = (uintptr_t)(x + is) & ~(pg - 1);
        uintptr_t hi = ((uintptr_t)(x + is + w) + pg - 1) & ~(pg - 1), end = (uintptr_t)(x + in->len);
        memset((void *)lo, 0, (hi < end ? hi : end) - lo);
    }
    if (how == BAD_GUARD) x[in->len] = 1.0f;                                    /* one past the end */
    return rc;
}
static int bad_hole(const td_abi_launch *L) { return bad_launch(L, BAD_HOLE); }
static int bad_zero(const td_abi_launch *L) { return bad_launch(L, BAD_ZERO_ROW); }
static int bad_guard(const td_abi_launch *L) { return bad_launch(L, BAD_GUARD); }
#define BAD(name, fn)                                                                                           \
    {"softmax_triton1.softmax_kernel_correctness", name, TD_ABI_HOST, NULL, NULL, "corrupts its input", 4, 2, fn, NULL}
static const td_abi_kernel K_HOLE = BAD("writes_hole", bad_hole), K_ZERO = BAD("zeroes_row", bad_zero),
                           K_GUARD = BAD("writes_guard", bad_guard);
static const td_abi_kernel *const BADK[] = {&K_HOLE, &K_ZERO, &K_GUARD};
static const td_abi_table BAD_TABLE = {TD_KERNEL_ABI_VERSION, 3, BADK, "test_far"};

static void test_sparse_image_checks(void **st) {
    (void)st;
    td_kernel_set set, bad;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    assert_int_equal(td_kernels_bind(&BAD_TABLE, "test_far", &bad, err, sizeof err), TD_LOAD_OK);
    g_port = td_kernels_find(&set, FAR[0].id, NULL, TD_ABI_HOST);
    assert_non_null(g_port);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    const char *names[] = {"writes_hole", "zeroes_row", "writes_guard"};
    const td_vclass want[] = {TD_VC_INPUT, TD_VC_INPUT, TD_VC_GUARD};
    for (int b = 0; b < 3; b++) {
        const td_kernel *k = td_kernels_find(&bad, FAR[0].id, names[b], TD_ABI_HOST);
        assert_non_null(k);
        int far_cases = 0, inner = 0;
        for (uint64_t i = 0; i < 24; i++) {
            td_vclass w;
            uint64_t cl;
            int rc = run_case(cx, k, i, 1, &w, &cl);
            if (!(cl & TD_BC(TD_BC_OFFSET_2_31))) continue;
            far_cases++;
            inner += g_rows >= 3; /* row 1 is not the last: its wiped pages hold nothing else */
            assert_int_equal(rc, TD_RUN_FINDING);
            assert_int_equal(w, want[b]);
        }
        assert_true(far_cases >= 4);
        assert_true(inner >= 1);
    }
    td_ctx_free(cx);
    td_kernels_close(&bad);
    td_kernels_close(&set);
}

/* ---- a device backend (host memory standing in for the device's): a sparse image
 * goes over as its guards and written pages, and the checks on what comes back still
 * catch a wiped row and a guard written ---- */
typedef struct fake_dev {
    void *p[64];
    size_t n[64];
} fake_dev;
static int fd_alloc(void *st, size_t bytes, void **dev, char *err, size_t errlen) {
    fake_dev *f = st;
    for (int i = 0; i < 64; i++)
        if (!f->p[i]) {
            void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (m == MAP_FAILED) break;
            f->p[i] = *dev = m, f->n[i] = bytes;
            return 0;
        }
    snprintf(err, errlen, "fake device full");
    return -1;
}
static void fd_release(void *st, void *dev) {
    fake_dev *f = st;
    for (int i = 0; i < 64; i++)
        if (f->p[i] == dev) munmap(dev, f->n[i]), f->p[i] = NULL;
}
static int fd_upload(void *st, void *dev, const void *host, size_t bytes, char *err, size_t errlen) {
    (void)st, (void)err, (void)errlen;
    memcpy(dev, host, bytes);
    return 0;
}
static int fd_download(void *st, void *host, const void *dev, size_t bytes, char *err, size_t errlen) {
    (void)st, (void)err, (void)errlen;
    memcpy(host, dev, bytes);
    return 0;
}
static int fd_sync(void *st, char *err, size_t errlen) {
    (void)st, (void)err, (void)errlen;
    return 0;
}

static void test_device_staging_of_sparse_images(void **st) {
    (void)st;
    td_kernel_set set, bad;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    assert_int_equal(td_kernels_bind(&BAD_TABLE, "test_far", &bad, err, sizeof err), TD_LOAD_OK);
    g_port = td_kernels_find(&set, FAR[0].id, NULL, TD_ABI_HOST);
    fake_dev fd = {0};
    td_backend_ops ops = {"fake", &fd, fd_alloc, fd_release, fd_upload, fd_download, fd_sync, NULL};
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    td_ctx_set_backend(cx, &ops);
    const td_kernel *mut = td_kernels_find(&set, FAR[0].id, "mut_offset_int32", TD_ABI_HOST);
    const td_kernel *zero = td_kernels_find(&bad, FAR[0].id, "zeroes_row", TD_ABI_HOST);
    const td_kernel *guard = td_kernels_find(&bad, FAR[0].id, "writes_guard", TD_ABI_HOST);
    int far_cases = 0;
    for (uint64_t i = 0; i < 16; i++) {
        td_vclass w;
        uint64_t cl;
        int rc = run_case(cx, g_port, i, 1, &w, &cl);
        if (!(cl & TD_BC(TD_BC_OFFSET_2_31))) continue;
        far_cases++;
        assert_int_equal(rc, TD_RUN_OK);
        assert_int_equal(run_case(cx, mut, i, 1, &w, &cl), TD_RUN_FINDING);
        assert_int_equal(w, TD_VC_LAUNCH);
        assert_int_equal(run_case(cx, zero, i, 1, &w, &cl), TD_RUN_FINDING);
        assert_int_equal(w, TD_VC_INPUT);
        assert_int_equal(run_case(cx, guard, i, 1, &w, &cl), TD_RUN_FINDING);
        assert_int_equal(w, TD_VC_GUARD);
    }
    assert_true(far_cases >= 4);
    assert_true(maxrss_mib() < 1024); /* nothing staged the whole reservation */
    td_ctx_free(cx);
    for (int i = 0; i < 64; i++) assert_null(fd.p[i]); /* every device image released */
    td_kernels_close(&bad);
    td_kernels_close(&set);
}

/* td_far_axis: the slabs of every region land at the drawn stride, bit for bit, zeros in
 * between; the stride parameters follow; where one region's slabs interleave (a slab
 * wider than its stride) nothing moves. */
static void test_far_axis_moves_every_region(void **st) {
    (void)st;
    for (int rows = 2; rows <= 3; rows++)
        for (uint64_t seed = 0; seed < 8; seed++) {
            td_case c;
            memset(&c, 0, sizeof c);
            c.r[0].fmt = TD_F32, c.r[1].fmt = TD_F16;
            const int64_t from[2] = {40, 23}, w[2] = {37, 23}; /* region 1: slabs back to back */
            for (int k = 0; k < 2; k++) {
                td_case_alloc(&c, k, (size_t)((rows - 1) * from[k] + w[k]));
                c.p[k].i = from[k];
            }
            for (size_t i = 0; i < c.r[0].len; i++) ((float *)c.r[0].data)[i] = (float)i + 1;
            for (size_t i = 0; i < c.r[1].len; i++) ((uint16_t *)c.r[1].data)[i] = (uint16_t)(i + 7);
            uint8_t b[16];
            td_case_bytes(9, seed, b, sizeof b);
            td_producer p;
            td_prod_init(&p, b, sizeof b);
            const int reg[2] = {0, 1}, sp[2] = {0, 1};
            assert_int_equal(td_far_axis(&p, &c, 2, reg, sp, rows), 2);
            int64_t s = c.p[0].i;
            assert_int_equal(c.p[1].i, s);
            assert_true((rows - 1) * s >= TWO31);
            assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31));
            for (int k = 0; k < 2; k++) {
                assert_true(c.r[k].mapped > 0);
                assert_int_equal(c.r[k].len, (size_t)((rows - 1) * s + w[k]));
            }
            for (int64_t r = 0; r < rows; r++)
                for (int64_t e = 0; e < w[0]; e++) {
                    assert_true(((float *)c.r[0].data)[r * s + e] == (float)(r * from[0] + e) + 1);
                    if (e < w[1]) assert_int_equal(((uint16_t *)c.r[1].data)[r * s + e], (uint16_t)(r * from[1] + e + 7));
                }
            assert_true(((float *)c.r[0].data)[s / 2] == 0.0f); /* between the slabs: untouched zeros */
            td_case_free(&c);
        }
    /* region 1's slab is wider than its stride (an inner axis): nothing moves */
    td_case c;
    memset(&c, 0, sizeof c);
    c.r[0].fmt = c.r[1].fmt = TD_F32;
    td_case_alloc(&c, 0, 100), td_case_alloc(&c, 1, 100);
    c.p[0].i = 60, c.p[1].i = 30; /* region 0: 2 slabs of 40 at stride 60; region 1: of 70 at stride 30 */
    uint8_t b[16] = {0};
    td_producer p;
    td_prod_init(&p, b, sizeof b);
    const int reg[2] = {0, 1}, sp[2] = {0, 1};
    assert_int_equal(td_far_axis(&p, &c, 2, reg, sp, 2), 0);
    assert_int_equal(td_far_axis(&p, &c, 1, reg, sp, TD_FAR_MAX_ROWS + 1), 0); /* too many rows */
    for (int k = 0; k < 2; k++) {
        assert_int_equal(c.p[k].i, k ? 30 : 60);
        assert_int_equal(c.r[k].len, 100);
        assert_int_equal(c.r[k].mapped, 0);
    }
    assert_false(c.classes & TD_BC(TD_BC_OFFSET_2_31));
    assert_int_equal(td_far_axis(&p, &c, 1, reg, sp, 2), 1); /* region 0 alone moves */
    assert_true(c.p[0].i >= TWO31);
    assert_int_equal(c.r[0].len, (size_t)(c.p[0].i + 40));
    assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31));
    td_case_free(&c);
    /* two regions at one stride parameter (Acc and Acc2, q and k): both move from it */
    memset(&c, 0, sizeof c);
    c.r[0].fmt = c.r[1].fmt = TD_F32;
    for (int k = 0; k < 2; k++) {
        td_case_alloc(&c, k, 50);
        for (size_t i = 0; i < 50; i++) ((float *)c.r[k].data)[i] = (float)(100 * k + (int)i);
    }
    c.p[0].i = 30; /* 2 slabs of 20 */
    const int one[2] = {0, 0};
    assert_int_equal(td_far_axis(&p, &c, 2, reg, one, 2), 2);
    for (int k = 0; k < 2; k++)
        for (int64_t e = 0; e < 20; e++) {
            assert_true(((float *)c.r[k].data)[e] == (float)(100 * k + e));
            assert_true(((float *)c.r[k].data)[c.p[0].i + e] == (float)(100 * k + 30 + e));
        }
    td_case_free(&c);
}

/* ---- contracts whose far hook moves a batch or head axis of several regions at once
 * (td_far_axis; far-D: the attention forward kernels).  The moved axis is the batch or,
 * with one batch, the head axis: its stride is the larger of `stride` and `stride2`
 * after the move, its slab count (len - 1) / stride + 1 of the region `reg` (each slab
 * fits under the far stride). ---- */
typedef struct far_axis_contract {
    const char *id;
    int reg;             /* a region the hook always moves when the case reaches the class */
    const char *stride;  /* its batch stride */
    const char *stride2; /* its head stride, where a case of one batch moves the head axis (or NULL) */
    int no_mut;          /* 1: no mut_offset_int32 (the original forms this offset in int64, or the file's
                          * int32 mutant sits on a sibling contract) */
} far_axis_contract;
static const far_axis_contract FAR_AXIS[] = {
    {"attention_llama.attention_llama_fwd_closed_form_correct", 1, "stride_kz", "stride_kh", 0},
    {"attention_llama.attention_llama_fwd_causal_closed_form_correct", 1, "stride_kz", "stride_kh", 0},
    {"attention_score.attention_score_python_case1_output_summary_general", 0, "stride_qz", "stride_qh", 1},
    {"attention_score.attention_score_case1_io_correctness", 0, "stride_qz", "stride_qh", 1},
    {"block_sparse_attn.block_sparse_attn_output_stores_io_correctness", 0, "stride_acc_b", "stride_acc_h", 1},
    {"block_sparse_attn.block_sparse_attn_output_stores_io_correctnessR", 0, "stride_acc_b", "stride_acc_h", 1},
    {"block_sparse_attn.block_sparse_attn_output_closed_form_summary_general", 2, "skb", NULL, 0},
    {"mixed_sparse_attention.mixed_sparse_attention_output_closed_form_summary_general", 1, "stride_kz", "stride_kh", 0},
    {"parallel_attention.pa_fwd_o_exec_genuine", 0, "s_qk_h", NULL, 0},
    {"seed_fa1.fa1_boundaryD_refines_naive_reference_exec_views", 0, "stride_qb", "stride_qh", 1},
    {"seed_fa1.fa1_causal_boundaryD_refines_naive_reference_exec_views", 0, "stride_qb", "stride_qh", 1},
    {"seed_fa1.naive_reference_correctness", 0, "stride_qb", "stride_qh", 1},
    {"seed_fa1.naive_causal_reference_correctness", 0, "stride_qb", "stride_qh", 1},
    {"seed_fa1.naive_reference_overflow", 0, "stride_qb", "stride_qh", 1},
};
#define NFAR_AXIS (sizeof FAR_AXIS / sizeof FAR_AXIS[0])

static void test_far_axis_contracts_reach_the_class(void **st) {
    (void)st;
    for (size_t f = 0; f < NFAR_AXIS; f++) {
        const far_axis_contract *A = &FAR_AXIS[f];
        const td_contract *k = td_contract_find(A->id);
        assert_non_null(k);
        assert_non_null(k->far);
        assert_true(k->classes & TD_BC(TD_BC_OFFSET_2_31));
        int hits = 0;
        for (uint64_t i = 0; i < 64; i++) {
            uint8_t b[TD_FAR_MAGIC_LEN + NB];
            char err[512];
            td_case c;
            far_bytes(i, b, 0);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            assert_false(c.classes & TD_BC(TD_BC_OFFSET_2_31));
            td_case_free(&c);
            far_bytes(i, b, 1);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            if (c.classes & TD_BC(TD_BC_OFFSET_2_31)) {
                hits++;
                int64_t s = td_param_i(&c, A->stride, -1), s2 = A->stride2 ? td_param_i(&c, A->stride2, -1) : 0;
                if (s2 > s) s = s2;
                int64_t rows = (int64_t)(c.r[A->reg].len - 1) / s + 1;
                assert_true((rows - 1) * s >= TWO31);
                assert_true(rows >= 2 && rows <= TD_FAR_MAX_ROWS);
                assert_true(c.r[A->reg].mapped > 0);
                assert_true(c.r[A->reg].len > (size_t)TWO31);
            }
            td_case_free(&c);
        }
        assert_true(hits >= 16); /* most far inputs have two batches or heads */
    }
}

/* The correct ports pass 12 far cases each (3 of them far or more); each
 * mut_offset_int32 fails every far case (an illegal address) and passes ordinary ones. */
static void test_far_axis_ports_and_mutants(void **st) {
    (void)st;
    td_kernel_set set;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    assert_non_null(cx);
    for (size_t f = 0; f < NFAR_AXIS; f++) {
        const td_kernel *port = td_kernels_find(&set, FAR_AXIS[f].id, NULL, TD_ABI_HOST);
        const td_kernel *mut = td_kernels_find(&set, FAR_AXIS[f].id, "mut_offset_int32", TD_ABI_HOST);
        assert_non_null(port);
        if (FAR_AXIS[f].no_mut) assert_null(mut);
        else assert_non_null(mut);
        int far_cases = 0;
        for (uint64_t i = 0; i < 12; i++) {
            td_vclass w;
            uint64_t cl;
            assert_int_equal(run_case(cx, port, i, 1, &w, &cl), TD_RUN_OK);
            int far = (cl & TD_BC(TD_BC_OFFSET_2_31)) != 0;
            far_cases += far;
            if (!mut) continue;
            assert_int_equal(run_case(cx, mut, i, 0, &w, &cl), TD_RUN_OK);
            assert_int_equal(run_case(cx, mut, i, 1, &w, &cl), far ? TD_RUN_FINDING : TD_RUN_OK);
            if (far) assert_int_equal(w, TD_VC_LAUNCH);
        }
        assert_true(far_cases >= 3);
    }
    assert_true(maxrss_mib() < 1024);
    td_ctx_free(cx);
    td_kernels_close(&set);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_far_axis_moves_every_region),
        cmocka_unit_test(test_far_tier_reaches_the_class),
        cmocka_unit_test(test_campaign_far_cases),
        cmocka_unit_test(test_int32_offset_mutants_killed),
        cmocka_unit_test(test_ports_pass_far_cases),
        cmocka_unit_test(test_sparse_image_checks),
        cmocka_unit_test(test_device_staging_of_sparse_images),
        cmocka_unit_test(test_far_axis_contracts_reach_the_class),
        cmocka_unit_test(test_far_axis_ports_and_mutants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
