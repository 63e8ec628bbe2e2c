/* Device backends: how the harness moves a case's regions to a device and back.
 * The host backend needs none of this (kernels read the harness's buffers).  The
 * CUDA backend (backend_cuda.c) is built when CMake finds the CUDA toolkit. */
#ifndef TD_BACKEND_H
#define TD_BACKEND_H

#include <stddef.h>

typedef struct td_backend_ops {
    const char *name;
    void *state;
    /* each returns 0, or -1 with a message in err */
    int (*alloc)(void *state, size_t bytes, void **dev, char *err, size_t errlen);
    void (*release)(void *state, void *dev);
    int (*upload)(void *state, void *dev, const void *host, size_t bytes, char *err, size_t errlen);
    int (*download)(void *state, void *host, const void *dev, size_t bytes, char *err, size_t errlen);
    int (*sync)(void *state, char *err, size_t errlen);
    void *stream;
} td_backend_ops;

/* The CUDA backend: 0 and *ops filled; -1 with "no CUDA device" / "CUDA backend not
 * built" / the driver's message.  The CLI maps -1 to exit 2. */
int td_backend_cuda_open(td_backend_ops *ops, char *err, size_t errlen);
void td_backend_cuda_close(td_backend_ops *ops);

#endif
