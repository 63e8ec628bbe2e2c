#ifndef TD_EMIT_PYTHON_H
#define TD_EMIT_PYTHON_H
#include "harness.h"
#include "loader.h"

/* Writes a standalone Python reproducer of one case of a Python kernel file's kernel
 * (the lanes of `r` are the ones it checks); 0, or -1 with a message. */
int td_emit_python(const char *path, const td_kernel *kern, const uint8_t *data, size_t size,
                   const td_case_result *r, char *err, size_t errlen);
#endif
