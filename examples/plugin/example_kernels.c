/* An example kernel library for tilediff, built outside the tilediff tree with only
 * the headers <tilediff/kernel_abi.h> and <tilediff/numfmt.h> of an install or of a
 * build tree (see README.md).
 *
 * It implements three contracts of the catalogue:
 *   add_example.add_kernel_correctness   out[i] = x[i] + y[i]      (correct, in two
 *       variants: "example" runs the programs in order, "example-reverse" last to
 *       first, as a GPU may schedule them; certify checks each on its own row)
 *   add_value.puzzle1_kernel_correctness out[i] = x[i] + value     (with a bug: the
 *       tail mask uses <= N, so one lane past the end is written)
 *   f8_conversion_utils.f16_to_f8_io_correctness  Y[i] = e5m2(X[i]) (correct): the
 *       conversion is tilediff's own (<tilediff/numfmt.h>), under the contract's
 *       default cast profile e5m2:rne:sat, so it is bit-exact by construction
 * `tilediff certify --kernels ./libexample_kernels.so` passes add_example (both
 * variants) and f8_conversion_utils, flags add_value, and lists every other contract
 * as not covered. */
#include <tilediff/kernel_abi.h>
#include <tilediff/numfmt.h>

#include <stddef.h>
#include <stdint.h>

/* add_example: parameters (n_elements, BLOCK_SIZE); regions (in_ptr0, in_ptr1, out_ptr), binary32. */
static int add_kernel(const td_abi_launch *L) {
    const float *x = (const float *)L->regions[0].base, *y = (const float *)L->regions[1].base;
    float *out = (float *)L->regions[2].base;
    int64_t n = L->params[0].i, block = L->params[1].i;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < block; j++) {
            int64_t off = (int64_t)pid * block + j;
            if (off < n) out[off] = x[off] + y[off];
        }
    return 0;
}

/* The same contract, the programs in reverse order. */
static int add_kernel_reverse(const td_abi_launch *L) {
    const float *x = (const float *)L->regions[0].base, *y = (const float *)L->regions[1].base;
    float *out = (float *)L->regions[2].base;
    int64_t n = L->params[0].i, block = L->params[1].i;
    for (uint32_t p = L->grid[0]; p-- > 0;)
        for (int64_t j = 0; j < block; j++) {
            int64_t off = (int64_t)p * block + j;
            if (off < n) out[off] = x[off] + y[off];
        }
    return 0;
}

/* add_value: parameters (N, BLOCK_SIZE, value); regions (x_ptr, output_ptr). */
static int puzzle1_kernel(const td_abi_launch *L) {
    const float *x = (const float *)L->regions[0].base;
    float *out = (float *)L->regions[1].base;
    int64_t n = L->params[0].i, block = L->params[1].i;
    float value = (float)L->params[2].r;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < block; j++) {
            int64_t off = (int64_t)pid * block + j;
            if (off <= n) out[off] = x[off] + value; /* BUG: should be off < n */
        }
    return 0;
}

/* f8_conversion_utils.f16_to_f8: parameters (N, BLOCK_SIZE); regions (Y: e5m2 out, X: fp16 in). */
static int f16_to_f8_kernel(const td_abi_launch *L) {
    uint8_t *y = (uint8_t *)L->regions[0].base;
    const uint16_t *x = (const uint16_t *)L->regions[1].base;
    int64_t n = L->params[0].i, block = L->params[1].i;
    td_profile store;
    if (td_profile_parse("e5m2:rne:sat", &store) != 0) return 1;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < block; j++) {
            int64_t off = (int64_t)pid * block + j;
            if (off < n) y[off] = (uint8_t)td_encode_f64(store, td_decode(TD_F16, x[off]));
        }
    return 0;
}

static const td_abi_kernel k_add = {"add_example.add_kernel_correctness", "example", TD_ABI_HOST, NULL, NULL, NULL,
                                    2, 3, add_kernel, NULL};
static const td_abi_kernel k_add_rev = {"add_example.add_kernel_correctness", "example-reverse", TD_ABI_HOST, NULL,
                                        NULL, NULL, 2, 3, add_kernel_reverse, NULL};
static const td_abi_kernel k_value = {"add_value.puzzle1_kernel_correctness", "example", TD_ABI_HOST, NULL, NULL,
                                      NULL, 3, 2, puzzle1_kernel, NULL};
static const td_abi_kernel k_f8 = {"f8_conversion_utils.f16_to_f8_io_correctness", "example", TD_ABI_HOST, NULL,
                                   NULL, NULL, 2, 2, f16_to_f8_kernel, NULL};
static const td_abi_kernel *const kernels[] = {&k_add, &k_add_rev, &k_value, &k_f8};
static const td_abi_table table = {TD_KERNEL_ABI_VERSION, 4, kernels, "example kernels 1.0"};

const td_abi_table *td_kernel_table(void) { return &table; }
