/* Fuzzing coverage instrumentation off for the oracle's code (clang's attribute;
 * nothing with other compilers).
 *
 * A coverage-guided engine learns from the comparisons of the code an input steers:
 * the decoding of the bytes (generators, harness) and the kernel.  The oracle's loops
 * (the spec, the shadow and MPFR arithmetic, a value fill, a precondition scan) run the
 * same way for every input of a shape, so tracing their comparisons guides nothing, and
 * under libFuzzer every traced comparison is a call: a K = 2^23 integer matmul lane and
 * an O(n^2) cumulative-sum summary ran ~10x slower, past the fuzz targets' 10 s guard.
 *   TD_NOCOV_BEGIN ... TD_NOCOV_END  every function defined (or declared) between them
 *   TD_NO_COVERAGE                   one function, never inlined into instrumented code
 * A function with the attribute that is inlined into an instrumented caller is
 * instrumented there; one inlined into an uninstrumented caller is not. */
#ifndef TD_NOCOV_H
#define TD_NOCOV_H

#if defined(__clang__)
#define TD_NOCOV_BEGIN _Pragma("clang attribute push(__attribute__((no_sanitize(\"coverage\"))), apply_to = function)")
#define TD_NOCOV_END _Pragma("clang attribute pop")
#define TD_NO_COVERAGE __attribute__((noinline, no_sanitize("coverage")))
#else
#define TD_NOCOV_BEGIN
#define TD_NOCOV_END
#define TD_NO_COVERAGE
#endif

#endif
