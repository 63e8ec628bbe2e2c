/* The CUDA backend: device memory for a case's regions (with their guard zones) and
 * copies between host and device.  Built with the CUDA runtime when CMake finds the
 * toolkit (TD_WITH_CUDA); otherwise it reports that the backend was not built. */
#include <stdio.h>
#include <string.h>

#include "backend.h"

#ifdef TD_WITH_CUDA
#include <cuda_runtime_api.h>

static int fail(cudaError_t e, const char *what, char *err, size_t errlen) {
    snprintf(err, errlen, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
    return -1;
}

static int c_alloc(void *st, size_t bytes, void **dev, char *err, size_t errlen) {
    (void)st;
    cudaError_t e = cudaMalloc(dev, bytes ? bytes : 1);
    return e == cudaSuccess ? 0 : fail(e, "cudaMalloc", err, errlen);
}
static void c_release(void *st, void *dev) {
    (void)st;
    cudaFree(dev);
}
static int c_upload(void *st, void *dev, const void *host, size_t bytes, char *err, size_t errlen) {
    (void)st;
    cudaError_t e = cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice);
    return e == cudaSuccess ? 0 : fail(e, "copy to the device", err, errlen);
}
static int c_download(void *st, void *host, const void *dev, size_t bytes, char *err, size_t errlen) {
    (void)st;
    cudaError_t e = cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost);
    return e == cudaSuccess ? 0 : fail(e, "copy from the device", err, errlen);
}
static int c_sync(void *st, char *err, size_t errlen) {
    (void)st;
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return fail(e, "kernel launch", err, errlen);
    e = cudaDeviceSynchronize();
    return e == cudaSuccess ? 0 : fail(e, "kernel execution", err, errlen);
}

int td_backend_cuda_open(td_backend_ops *ops, char *err, size_t errlen) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        snprintf(err, errlen, "no CUDA device (%s)", e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        return -1;
    }
    memset(ops, 0, sizeof *ops);
    ops->name = "cuda";
    ops->alloc = c_alloc;
    ops->release = c_release;
    ops->upload = c_upload;
    ops->download = c_download;
    ops->sync = c_sync;
    ops->stream = NULL; /* the default stream */
    return 0;
}

void td_backend_cuda_close(td_backend_ops *ops) { memset(ops, 0, sizeof *ops); }

#else

int td_backend_cuda_open(td_backend_ops *ops, char *err, size_t errlen) {
    (void)ops;
    snprintf(err, errlen, "no CUDA device: this tilediff was built without the CUDA toolkit");
    return -1;
}

void td_backend_cuda_close(td_backend_ops *ops) { (void)ops; }

#endif
