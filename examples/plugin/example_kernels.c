/* An example kernel library for tilediff, built outside the tilediff tree with only
 * the installed header <tilediff/kernel_abi.h> (see README.md).
 *
 * It implements two contracts of the catalogue:
 *   add_example.add_kernel_correctness   out[i] = x[i] + y[i]      (correct)
 *   add_value.puzzle1_kernel_correctness out[i] = x[i] + value     (with a bug: the
 *       tail mask uses <= N, so one lane past the end is written)
 * `tilediff certify --kernels ./libexample_kernels.so` passes the first, flags the
 * second, and lists every other contract as not covered. */
#include <tilediff/kernel_abi.h>

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

static const td_abi_kernel k_add = {"add_example.add_kernel_correctness", "example", TD_ABI_HOST, NULL, NULL, NULL,
                                    2, 3, add_kernel, NULL};
static const td_abi_kernel k_value = {"add_value.puzzle1_kernel_correctness", "example", TD_ABI_HOST, NULL, NULL,
                                      NULL, 3, 2, puzzle1_kernel, NULL};
static const td_abi_kernel *const kernels[] = {&k_add, &k_value};
static const td_abi_table table = {TD_KERNEL_ABI_VERSION, 2, kernels, "example kernels 1.0"};

const td_abi_table *td_kernel_table(void) { return &table; }
