/* libtilediff_triton.so: serves a Python kernel file through the kernel ABI by
 * embedding CPython (see bridge.h).  The Python half is python/tilediff_triton/_bridge.py;
 * this file only initialises the interpreter, converts a launch record into Python
 * values and a Python outcome into the ABI's return code and message. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "bridge.h"
#include "rounding.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_KERNELS 256

static PyObject *g_bridge;         /* the tilediff_triton._bridge module */
static td_abi_kernel g_k[MAX_KERNELS];
static const td_abi_kernel *g_kp[MAX_KERNELS];
static td_abi_table g_table;
static td_tb_signature g_sig[MAX_KERNELS];
static char g_library[256];

static void set_err(char *err, size_t errlen, const char *what) {
    PyObject *t = NULL, *v = NULL, *tb = NULL;
    PyErr_Fetch(&t, &v, &tb);
    PyObject *s = v ? PyObject_Str(v) : NULL;
    const char *m = s ? PyUnicode_AsUTF8(s) : NULL;
    snprintf(err, errlen, "%s%s%s", what, m ? ": " : "", m ? m : "");
    Py_XDECREF(s);
    Py_XDECREF(t);
    Py_XDECREF(v);
    Py_XDECREF(tb);
    PyErr_Clear();
}

/* Extension modules (numpy, triton) are not linked against libpython: its symbols must
 * be global, but the loader opens this library RTLD_LOCAL. */
static void promote_libpython(void) {
    Dl_info info;
    if (dladdr((void *)&Py_InitializeFromConfig, &info) && info.dli_fname)
        dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

static const char *venv_dir(void) {
    const char *v = getenv("TILEDIFF_TRITON_VENV");
    return v && *v ? v : TD_TRITON_VENV;
}

/* tilediff_triton: TILEDIFF_TRITON_PYTHONPATH, else the source tree this bridge was
 * built from, else the installed copy (<prefix>/share/tilediff/python next to
 * <prefix>/lib/tilediff/libtilediff_triton.so). */
static const char *package_dir(void) {
    static char installed[4096];
    const char *v = getenv("TILEDIFF_TRITON_PYTHONPATH");
    if (v && *v) return v;
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/tilediff_triton/__init__.py", TD_TRITON_PYTHONPATH);
    Dl_info info;
    if (access(probe, R_OK) != 0 && dladdr((void *)&package_dir, &info) && info.dli_fname) {
        snprintf(installed, sizeof installed, "%s", info.dli_fname);
        char *slash = strrchr(installed, '/');
        if (slash) {
            *slash = 0; /* <libdir>/tilediff: libdir is lib or lib/<multiarch> */
            size_t n = strlen(installed);
            const char *up[] = {"/../../share/tilediff/python", "/../../../share/tilediff/python"};
            for (size_t i = 0; i < sizeof up / sizeof up[0]; i++) {
                snprintf(installed + n, sizeof installed - n, "%s", up[i]);
                snprintf(probe, sizeof probe, "%s/tilediff_triton/__init__.py", installed);
                if (access(probe, R_OK) == 0) return installed;
            }
        }
    }
    return TD_TRITON_PYTHONPATH;
}

/* _tilediff_rounding.encode(profile, x): tilediff's own fp32 -> format cast (rounding/),
 * the reference the interpreter's casts are measured against at start-up. */
static PyObject *py_encode(PyObject *self, PyObject *args) {
    const char *prof;
    float x;
    if (!PyArg_ParseTuple(args, "sf", &prof, &x)) return NULL;
    td_profile p;
    char perr[128];
    if (td_profile_parse(prof, &p) != 0 || td_profile_check(p, perr, sizeof perr) != 0) {
        PyErr_Format(PyExc_ValueError, "bad cast profile '%s'", prof);
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(td_encode_f32(p, x));
}

static PyMethodDef rounding_methods[] = {
    {"encode", py_encode, METH_VARARGS, "encode(profile, x): tilediff's cast of binary32 x, as bits"},
    {NULL, NULL, 0, NULL}};
static struct PyModuleDef rounding_module = {PyModuleDef_HEAD_INIT, "_tilediff_rounding", NULL, -1, rounding_methods,
                                             NULL, NULL, NULL, NULL};
static PyObject *rounding_init(void) { return PyModule_Create(&rounding_module); }

/* Progress: the host (certify's row child, run's worker) hands the bridge a counter in
 * memory its parent watches; the interpreter ticks it once per program instance
 * (tilediff_triton.compat), so a deadline can follow the kernel's progress instead of
 * a guess of how long a launch of that grid takes (~1-3 ms per program, far more for a
 * program with a long loop).  A program that never finishes stops the ticks. */
static volatile uint64_t *g_beat;
void td_triton_progress(volatile uint64_t *beat) { g_beat = beat; }

static PyObject *py_tick(PyObject *self, PyObject *args) {
    if (g_beat) ++*g_beat;
    Py_RETURN_NONE;
}

static PyMethodDef progress_methods[] = {
    {"tick", py_tick, METH_NOARGS, "tick(): one more program instance began (progress for tilediff's deadlines)"},
    {NULL, NULL, 0, NULL}};
static struct PyModuleDef progress_module = {PyModuleDef_HEAD_INIT, "_tilediff_progress", NULL, -1, progress_methods,
                                             NULL, NULL, NULL, NULL};
static PyObject *progress_init(void) { return PyModule_Create(&progress_module); }

static int py_start(int backend, char *err, size_t errlen) {
    /* the interpreter mode is read when triton is imported: set it first */
    setenv("TRITON_INTERPRET", backend == TD_ABI_HOST ? "1" : "0", 1);
    promote_libpython();
    if (PyImport_AppendInittab("_tilediff_rounding", rounding_init) != 0 ||
        PyImport_AppendInittab("_tilediff_progress", progress_init) != 0) {
        snprintf(err, errlen, "cannot register the bridge's builtin modules");
        return -1;
    }
    char exe[4096];
    snprintf(exe, sizeof exe, "%s/bin/python3", venv_dir());
    PyConfig cfg;
    PyConfig_InitPythonConfig(&cfg);
    cfg.install_signal_handlers = 0; /* tilediff's watchdog and certify own the signals */
    cfg.parse_argv = 0;
    cfg.buffered_stdio = 0;
    /* the executable's pyvenv.cfg makes the venv's site-packages the ones imported */
    PyStatus st = PyConfig_SetBytesString(&cfg, &cfg.executable, exe);
    if (!PyStatus_Exception(st)) st = PyConfig_SetBytesString(&cfg, &cfg.program_name, exe);
    if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(&cfg);
    PyConfig_Clear(&cfg);
    if (PyStatus_Exception(st)) {
        snprintf(err, errlen, "cannot start Python (venv %s): %s", venv_dir(), st.err_msg ? st.err_msg : "?");
        return -1;
    }
    PyObject *path = PySys_GetObject("path"); /* borrowed */
    PyObject *pkg = PyUnicode_DecodeFSDefault(package_dir());
    if (!path || !pkg || PyList_Insert(path, 0, pkg) != 0) {
        Py_XDECREF(pkg);
        set_err(err, errlen, "cannot extend sys.path");
        return -1;
    }
    Py_DECREF(pkg);
    g_bridge = PyImport_ImportModule("tilediff_triton._bridge");
    if (!g_bridge) {
        set_err(err, errlen, "cannot import tilediff_triton (is the Triton venv installed? ci/deps.sh --triton)");
        return -1;
    }
    return 0;
}

static PyObject *names_tuple(const char *const *names, uint32_t n) {
    PyObject *t = PyTuple_New(n);
    for (uint32_t i = 0; t && i < n; i++) PyTuple_SET_ITEM(t, i, PyUnicode_FromString(names[i]));
    return t;
}

/* The launch record does not say which registered kernel it is for, so each of the
 * MAX_KERNELS slots gets its own entry point.  They are named by four base-4 digits
 * after a leading 1..4 (launch_1000 .. launch_4333); tramp_index maps a name back to
 * its slot, 0 .. 255, in the order g_tramp lists them. */
static int do_launch(int idx, const td_abi_launch *L);
static int tramp_index(int n) { return (n / 1000 - 1) * 64 + (n / 100 % 10) * 16 + (n / 10 % 10) * 4 + n % 10; }
#define TRAMP(n) \
    static int launch_##n(const td_abi_launch *L) { return do_launch(tramp_index(n), L); }
#define T4(n) TRAMP(n##0) TRAMP(n##1) TRAMP(n##2) TRAMP(n##3)
#define T16(n) T4(n##0) T4(n##1) T4(n##2) T4(n##3)
#define T64(n) T16(n##0) T16(n##1) T16(n##2) T16(n##3)
T64(1) T64(2) T64(3) T64(4)
#define R4(n) launch_##n##0, launch_##n##1, launch_##n##2, launch_##n##3
#define R16(n) R4(n##0), R4(n##1), R4(n##2), R4(n##3)
#define R64(n) R16(n##0), R16(n##1), R16(n##2), R16(n##3)
static const td_abi_launch_fn g_tramp[MAX_KERNELS] = {R64(1), R64(2), R64(3), R64(4)};
/* the slot each entry point passes, in g_tramp's order: checked to be 0, 1, ... 255 */
#define I4(n) tramp_index(n##0), tramp_index(n##1), tramp_index(n##2), tramp_index(n##3)
#define I16(n) I4(n##0), I4(n##1), I4(n##2), I4(n##3)
#define I64(n) I16(n##0), I16(n##1), I16(n##2), I16(n##3)
static int tramp_table_ok(void) {
    const int idx[MAX_KERNELS] = {I64(1), I64(2), I64(3), I64(4)};
    for (int i = 0; i < MAX_KERNELS; i++)
        if (idx[i] != i) return 0;
    return 1;
}

static const char *opt_str(PyObject *o) {
    if (o == Py_None) return NULL;
    const char *s = PyUnicode_AsUTF8(o);
    return s ? strdup(s) : NULL;
}

/* One registered entry (contract, variant, mutant, declares, casts, math) -> g_k[i]. */
static int bind_entry(int i, PyObject *e, int backend, td_tb_describe_fn describe, char *err, size_t errlen) {
    td_abi_kernel *k = &g_k[i];
    memset(k, 0, sizeof *k);
    k->contract_id = opt_str(PyTuple_GetItem(e, 0));
    k->variant = opt_str(PyTuple_GetItem(e, 1));
    k->mutant = opt_str(PyTuple_GetItem(e, 2));
    k->declares = opt_str(PyTuple_GetItem(e, 3));
    k->casts = opt_str(PyTuple_GetItem(e, 4));
    k->math = opt_str(PyTuple_GetItem(e, 5));
    k->backend = (uint32_t)backend;
    k->launch = g_tramp[i];
    if (!k->contract_id || !k->variant) {
        set_err(err, errlen, "a registered kernel has no contract id or variant");
        return -1;
    }
    td_tb_signature *s = &g_sig[i];
    if (describe(k->contract_id, s) != 0) { /* listed, never launched: say so, a typo is likely */
        fprintf(stderr, "tilediff: %s/%s: no contract '%s' in this tilediff (tilediff list shows the ids)\n",
                k->contract_id, k->variant, k->contract_id);
        return 0;
    }
    k->nparams = s->nparams;
    k->nregions = s->nregions;
    PyObject *pk = PyTuple_New(s->nparams);
    for (uint32_t j = 0; pk && j < s->nparams; j++) PyTuple_SET_ITEM(pk, j, PyLong_FromLong(s->pkinds[j]));
    /* bind returns the cast profiles the kernel runs with on this backend */
    PyObject *r = PyObject_CallMethod(g_bridge, "bind", "iNNNNN", i, names_tuple(s->pnames, s->nparams), pk,
                                      names_tuple(s->rnames, s->nregions), names_tuple(s->cslots, s->ncasts),
                                      names_tuple(s->cdefaults, s->ncasts));
    if (!r) {
        set_err(err, errlen, "binding the contract's argument names failed");
        return -1;
    }
    free((char *)k->casts);
    k->casts = opt_str(r);
    Py_DECREF(r);
    return 0;
}

const td_abi_table *td_triton_open(const char *script, int backend, td_tb_describe_fn describe, char *err,
                                   size_t errlen) {
    if (g_bridge) {
        snprintf(err, errlen, "one Python kernel file per process (%s is already loaded)", g_library);
        return NULL;
    }
    if (!tramp_table_ok()) {
        snprintf(err, errlen, "internal error: the bridge's launch entry points are misnumbered");
        return NULL;
    }
    if (py_start(backend, err, errlen) != 0) return NULL;
    PyObject *lst = PyObject_CallMethod(g_bridge, "load", "si", script, backend);
    if (!lst) {
        set_err(err, errlen, script);
        return NULL;
    }
    Py_ssize_t n = PyList_Size(lst);
    if (n > MAX_KERNELS) {
        snprintf(err, errlen, "%s registers %zd kernels, the bridge serves at most %d", script, n, MAX_KERNELS);
        Py_DECREF(lst);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (bind_entry((int)i, PyList_GetItem(lst, i), backend, describe, err, errlen) != 0) {
            Py_DECREF(lst);
            return NULL;
        }
        g_kp[i] = &g_k[i];
    }
    Py_DECREF(lst);
    snprintf(g_library, sizeof g_library, "%s (triton %s)", script, backend == TD_ABI_HOST ? "interpreter" : "cuda");
    g_table.abi_version = TD_KERNEL_ABI_VERSION;
    g_table.nkernels = (uint32_t)n;
    g_table.kernels = g_kp;
    g_table.library = g_library;
    return &g_table;
}

static PyObject *launch_args(int idx, const td_abi_launch *L) {
    const td_tb_signature *s = &g_sig[idx];
    PyObject *params = PyTuple_New(L->nparams), *regs = PyTuple_New(L->nregions);
    for (uint32_t j = 0; params && j < L->nparams; j++) {
        int kind = j < s->nparams ? s->pkinds[j] : 0;
        PyObject *v = kind == 1   ? PyFloat_FromDouble(L->params[j].r)
                      : kind == 2 ? PyBool_FromLong(L->params[j].i != 0)
                                  : PyLong_FromLongLong(L->params[j].i);
        PyTuple_SET_ITEM(params, j, v);
    }
    for (uint32_t j = 0; regs && j < L->nregions; j++) {
        const td_abi_region *r = &L->regions[j];
        PyTuple_SET_ITEM(regs, j,
                         Py_BuildValue("(KKI)", (unsigned long long)(uintptr_t)r->base, (unsigned long long)r->len,
                                       r->fmt));
    }
    return Py_BuildValue("(i(III)NNK)", idx, L->grid[0], L->grid[1], L->grid[2], params, regs,
                         (unsigned long long)(uintptr_t)L->stream);
}

/* _bridge.launch returns (code, message): 0 done, 1 the kernel failed, TD_TB_UNSUPPORTED. */
static int do_launch(int idx, const td_abi_launch *L) {
    PyGILState_STATE gs = PyGILState_Ensure();
    int code = 1;
    PyObject *args = launch_args(idx, L);
    PyObject *fn = args ? PyObject_GetAttrString(g_bridge, "launch") : NULL;
    PyObject *r = fn ? PyObject_CallObject(fn, args) : NULL;
    if (r && PyTuple_Check(r) && PyTuple_Size(r) == 2) {
        code = (int)PyLong_AsLong(PyTuple_GetItem(r, 0));
        const char *m = PyUnicode_AsUTF8(PyTuple_GetItem(r, 1));
        if (code && L->err && L->errlen) snprintf(L->err, L->errlen, "%s", m ? m : "?");
    } else if (L->err && L->errlen) {
        set_err(L->err, L->errlen, "the Triton bridge failed");
        code = 1;
    }
    Py_XDECREF(r);
    Py_XDECREF(fn);
    Py_XDECREF(args);
    PyErr_Clear();
    PyGILState_Release(gs);
    return code;
}
