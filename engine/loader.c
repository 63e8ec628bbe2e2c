#include "loader.h"

#include "triton/bridge.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert((int)TD_ABI_F64 == (int)TD_F64 && (int)TD_ABI_F32 == (int)TD_F32 && (int)TD_ABI_F16 == (int)TD_F16 && (int)TD_ABI_BF16 == (int)TD_BF16 &&
                   (int)TD_ABI_E4M3FN == (int)TD_E4M3FN && (int)TD_ABI_E5M2 == (int)TD_E5M2 && (int)TD_ABI_I8 == (int)TD_I8 &&
                   (int)TD_ABI_U8 == (int)TD_U8 && (int)TD_ABI_I32 == (int)TD_I32 && (int)TD_ABI_I64 == (int)TD_I64 && (int)TD_ABI_BOOL == (int)TD_BOOL,
               "kernel ABI format codes follow td_fmt");

/* A declaration may not change what the contract requires: a cast slot keeps the
 * contract's format, rounding and flush-to-zero.  Only the overflow policy of the fp8
 * formats is left open (e4m3fn has no infinity and real stacks disagree: PyTorch
 * eager gives NaN, Triton and CUDA's satfinite saturate; e5m2 likewise). */
static int cast_narrows(const td_contract *k, int slot, td_profile p, td_profile dflt, char *err, size_t errlen) {
    const char *what = p.fmt != dflt.fmt ? "format" : p.rnd != dflt.rnd ? "rounding" : p.ftz != dflt.ftz ? "flush-to-zero"
                       : (p.ovf != dflt.ovf && dflt.fmt != TD_E4M3FN && dflt.fmt != TD_E5M2) ? "overflow policy"
                                                                                              : NULL;
    if (!what) return 0;
    char want[48];
    td_profile_str(dflt, want, sizeof want);
    snprintf(err, errlen,
             "cast slot %s: contract %s requires %s; a kernel may not declare another %s (declarations narrow "
             "the bound, never what the contract requires)",
             k->casts[slot].slot, k->id, want, what);
    return -1;
}

/* "slot=fmt:rnd:ovf[:ftz];slot=..." -> profiles per declared slot */
static int parse_casts(const td_contract *k, const char *spec, td_profile *out, char *err, size_t errlen) {
    for (int i = 0; i < k->ncasts; i++) {
        if (td_profile_parse(k->casts[i].dflt, &out[i]) != 0) {
            snprintf(err, errlen, "contract %s: bad default profile '%s' for cast slot %s", k->id, k->casts[i].dflt,
                     k->casts[i].slot);
            return -1;
        }
    }
    if (!spec || !*spec) return 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", spec);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            snprintf(err, errlen, "cast profile '%s' is not slot=profile", tok);
            return -1;
        }
        *eq = 0;
        int slot = -1;
        for (int i = 0; i < k->ncasts; i++)
            if (!strcmp(k->casts[i].slot, tok)) slot = i;
        if (slot < 0) {
            snprintf(err, errlen, "contract %s has no cast slot '%s'", k->id, tok);
            return -1;
        }
        td_profile p;
        char perr[128];
        if (td_profile_parse(eq + 1, &p) != 0 || td_profile_check(p, perr, sizeof perr) != 0) {
            snprintf(err, errlen, "cast slot %s: invalid profile '%s'", tok, eq + 1);
            return -1;
        }
        if (cast_narrows(k, slot, p, out[slot], err, errlen) != 0) return -1;
        out[slot] = p;
    }
    return 0;
}

static int parse_order(const char *v, td_decl *d) {
    if (!strcmp(v, "any")) d->order = TD_ORDER_ANY;
    else if (!strcmp(v, "seq")) d->order = TD_ORDER_SEQ;
    else if (!strcmp(v, "tree")) d->order = TD_ORDER_TREE;
    else if (!strncmp(v, "blocked:", 8)) {
        char *end;
        long b = strtol(v + 8, &end, 10);
        if (*end || b < 1 || b > (1L << 30)) return -1;
        d->order = TD_ORDER_BLOCKED;
        d->block = b;
    } else
        return -1;
    return 0;
}

static int parse_flag(const char *v, const char *any, const char *narrow, int *out) {
    if (!strcmp(v, any)) *out = 0;
    else if (!strcmp(v, narrow)) *out = 1;
    else return -1;
    return 0;
}

int td_decl_parse(const char *s, td_decl *d, char *err, size_t errlen) {
    memset(d, 0, sizeof *d);
    if (!s || !*s) return 0;
    if (strlen(s) >= sizeof d->text) {
        snprintf(err, errlen, "declarations '%.40s...' are longer than %zu characters", s, sizeof d->text - 1);
        return -1;
    }
    snprintf(d->text, sizeof d->text, "%s", s);
    char buf[sizeof d->text];
    snprintf(buf, sizeof buf, "%s", s);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(tok, '=');
        int bad = !eq;
        if (eq) {
            *eq = 0;
            if (!strcmp(tok, "order")) bad = parse_order(eq + 1, d);
            else if (!strcmp(tok, "div")) bad = parse_flag(eq + 1, "any", "ieee", &d->div_ieee);
            else bad = 1;
        }
        if (bad) {
            snprintf(err, errlen,
                     "declaration '%s%s%s' is not one of order=any|seq|tree|blocked:B, div=any|ieee", tok,
                     eq ? "=" : "", eq ? eq + 1 : "");
            return -1;
        }
    }
    return 0;
}

int td_kernels_bind(const td_abi_table *t, const char *name, td_kernel_set *set, char *err, size_t errlen) {
    memset(set, 0, sizeof *set);
    if (!t) {
        snprintf(err, errlen, "%s: td_kernel_table() returned NULL", name);
        return TD_LOAD_INVALID;
    }
    if (t->abi_version < TD_KERNEL_ABI_VERSION_MIN || t->abi_version > TD_KERNEL_ABI_VERSION) {
        snprintf(err, errlen, "%s: built for kernel ABI v%u, this tilediff speaks v%u to v%u", name, t->abi_version,
                 TD_KERNEL_ABI_VERSION_MIN, TD_KERNEL_ABI_VERSION);
        return TD_LOAD_VERSION;
    }
    if (t->nkernels && !t->kernels) {
        snprintf(err, errlen, "%s: table lists %u kernels but no array", name, t->nkernels);
        return TD_LOAD_INVALID;
    }
    set->table = t;
    set->kernels = calloc(t->nkernels ? t->nkernels : 1, sizeof *set->kernels);
    if (!set->kernels) {
        snprintf(err, errlen, "out of memory");
        return TD_LOAD_INVALID;
    }
    for (uint32_t i = 0; i < t->nkernels; i++) {
        const td_abi_kernel *a = t->kernels[i];
        if (!a || !a->contract_id || !a->variant || !a->launch) {
            snprintf(err, errlen, "%s: kernel #%u has a NULL contract id, variant or launch function", name, i);
            free(set->kernels);
            set->kernels = NULL;
            return TD_LOAD_INVALID;
        }
        if (a->backend != TD_ABI_HOST && a->backend != TD_ABI_CUDA) {
            snprintf(err, errlen, "%s: kernel %s/%s declares unknown backend %u", name, a->contract_id, a->variant,
                     a->backend);
            free(set->kernels);
            set->kernels = NULL;
            return TD_LOAD_INVALID;
        }
        const td_contract *k = td_contract_find(a->contract_id);
        if (!k) {
            set->n_unknown++;
            continue;
        }
        if (a->nparams != (uint32_t)k->nparams || a->nregions != (uint32_t)k->nregions) {
            snprintf(err, errlen,
                     "%s: kernel %s/%s expects %u parameters and %u regions, contract %s declares %d and %d", name,
                     a->contract_id, a->variant, a->nparams, a->nregions, k->id, k->nparams, k->nregions);
            free(set->kernels);
            set->kernels = NULL;
            return TD_LOAD_INVALID;
        }
        td_kernel *kk = &set->kernels[set->n];
        kk->abi = a;
        kk->abi_version = t->abi_version;
        kk->k = k;
        kk->library = t->library ? t->library : name;
        /* a kernel that names no math library is judged by the union of those real
         * kernels use (budget.c "any"), whatever its backend */
        const char *math = a->math ? a->math : TD_MATH_DEFAULT;
        kk->math = td_math_model_get(math);
        if (!kk->math) {
            snprintf(err, errlen, "%s: kernel %s/%s declares unknown math model '%s'", name, a->contract_id,
                     a->variant, math);
            free(set->kernels);
            set->kernels = NULL;
            return TD_LOAD_INVALID;
        }
        char cerr[256];
        /* a v1 kernel record ends before `declares`: it declares nothing */
        const char *decl = t->abi_version >= 2 ? a->declares : NULL;
        if (parse_casts(k, a->casts, kk->casts, cerr, sizeof cerr) != 0 ||
            td_decl_parse(decl, &kk->decl, cerr, sizeof cerr) != 0) {
            snprintf(err, errlen, "%s: kernel %s/%s: %s", name, a->contract_id, a->variant, cerr);
            free(set->kernels);
            set->kernels = NULL;
            return TD_LOAD_INVALID;
        }
        set->n++;
    }
    return TD_LOAD_OK;
}

/* The Triton bridge learns a contract's argument names and kinds from the registry. */
static int describe_contract(const char *id, td_tb_signature *out) {
    const td_contract *k = td_contract_find(id);
    if (!k || k->nparams > TD_TB_MAX_ARGS || k->nregions > TD_TB_MAX_ARGS) return -1;
    out->nparams = (uint32_t)k->nparams;
    out->nregions = (uint32_t)k->nregions;
    for (int i = 0; i < k->nparams; i++) {
        out->pnames[i] = k->params[i].name;
        out->pkinds[i] = (int)k->params[i].kind;
    }
    for (int i = 0; i < k->nregions; i++) out->rnames[i] = k->regions[i].name;
    out->ncasts = 0;
    for (int i = 0; i < k->ncasts && i < TD_TB_MAX_ARGS; i++) {
        out->cslots[i] = k->casts[i].slot;
        out->cdefaults[i] = k->casts[i].dflt;
        out->ncasts++;
    }
    return 0;
}

/* the Triton bridge's progress entry point, once it is loaded (one per process) */
static td_tb_progress_fn g_progress;

/* A Python kernel file: the bridge library embeds CPython and returns its table. */
static int open_python(const char *path, int backend, void **h, const td_abi_table **t, char *err, size_t errlen) {
    char lib[4096];
    if (td_triton_bridge_path(lib, sizeof lib) != 0) {
        snprintf(err, errlen,
                 "%s is a Python kernel file, but this tilediff was built without the Triton bridge (%s not found; "
                 "ci/deps.sh --triton, then rebuild)",
                 path, TD_TB_LIBRARY);
        return TD_LOAD_OPEN;
    }
    *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!*h) {
        snprintf(err, errlen, "cannot load the Triton bridge %s: %s", lib, dlerror());
        return TD_LOAD_OPEN;
    }
    void *psym = dlsym(*h, TD_TB_PROGRESS_SYMBOL);
    memcpy(&g_progress, &psym, sizeof g_progress);
    td_tb_open_fn fn;
    void *sym = dlsym(*h, TD_TB_OPEN_SYMBOL);
    memcpy(&fn, &sym, sizeof fn);
    char perr[1024] = "";
    *t = sym ? fn(path, backend, describe_contract, perr, sizeof perr) : NULL;
    if (!*t) {
        snprintf(err, errlen, "cannot load Python kernel file %s: %s", path, sym ? perr : "the bridge has no entry point");
        /* Python stays initialised: unloading libpython is not supported */
        return TD_LOAD_OPEN;
    }
    return TD_LOAD_OK;
}

void td_kernels_set_progress(volatile uint64_t *beat) {
    if (g_progress) g_progress(beat);
}

static int has_suffix(const char *s, const char *suf) {
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

int td_kernels_open(const char *path, td_kernel_set *set, char *err, size_t errlen) {
    return td_kernels_open_for(path, TD_ABI_HOST, set, err, errlen);
}

int td_kernels_open_for(const char *path, int backend, td_kernel_set *set, char *err, size_t errlen) {
    memset(set, 0, sizeof *set);
    if (has_suffix(path, ".py")) {
        void *ph = NULL;
        const td_abi_table *t = NULL;
        int prc = open_python(path, backend, &ph, &t, err, errlen);
        if (prc == TD_LOAD_OK) prc = td_kernels_bind(t, path, set, err, errlen);
        if (prc != TD_LOAD_OK) return prc; /* the bridge stays loaded with Python */
        set->handle = NULL;
        set->path = strdup(path);
        for (int i = 0; i < set->n; i++) set->kernels[i].path = set->path;
        return TD_LOAD_OK;
    }
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(err, errlen, "cannot load kernel library %s: %s", path, dlerror());
        return TD_LOAD_OPEN;
    }
    td_kernel_table_fn fn;
    void *sym = dlsym(h, TD_KERNEL_TABLE_SYMBOL);
    memcpy(&fn, &sym, sizeof fn);
    if (!sym) {
        snprintf(err, errlen, "kernel library %s does not export %s() (not a tilediff kernel library?)", path,
                 TD_KERNEL_TABLE_SYMBOL);
        dlclose(h);
        return TD_LOAD_SYMBOL;
    }
    int rc = td_kernels_bind(fn(), path, set, err, errlen);
    if (rc != TD_LOAD_OK) {
        dlclose(h);
        return rc;
    }
    set->handle = h;
    set->path = strdup(path);
    for (int i = 0; i < set->n; i++) set->kernels[i].path = set->path;
    return TD_LOAD_OK;
}

void td_kernels_close(td_kernel_set *set) {
    free(set->kernels);
    free(set->path);
    if (set->handle) dlclose(set->handle);
    memset(set, 0, sizeof *set);
}

const td_kernel *td_kernels_find(const td_kernel_set *set, const char *contract, const char *variant, int backend) {
    for (int i = 0; i < set->n; i++) {
        const td_kernel *k = &set->kernels[i];
        if ((int)k->abi->backend != backend || strcmp(k->k->id, contract)) continue;
        if (variant ? !strcmp(k->abi->variant, variant) : k->abi->mutant == NULL) return k;
    }
    return NULL;
}

/* `lib` next to the running executable (a build tree) or in <prefix>/lib/tilediff/ (an
 * install): 0 with its path in out, or -1 (out then holds the first candidate). */
static int find_beside_exe(const char *lib, char *out, size_t n) {
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return -1;
    exe[len] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = 0;
    const char *cands[] = {"%s/%s", "%s/../" TD_LIBDIR "/tilediff/%s", "%s/../lib/tilediff/%s"};
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++) {
        snprintf(out, n, cands[i], exe, lib);
        if (access(out, R_OK) == 0) return 0;
    }
    snprintf(out, n, "%s/%s", exe, lib);
    return -1;
}

int td_builtin_library_path(int backend, char *out, size_t n) {
    const char *lib = backend == TD_ABI_CUDA ? "libtilediff_kernels_cuda.so" : "libtilediff_kernels.so";
    const char *env = getenv(backend == TD_ABI_CUDA ? "TILEDIFF_CUDA_KERNELS" : "TILEDIFF_KERNELS");
    if (env && *env) {
        snprintf(out, n, "%s", env);
        return 0;
    }
    return find_beside_exe(lib, out, n);
}

int td_triton_bridge_path(char *out, size_t n) {
    const char *env = getenv("TILEDIFF_TRITON_BRIDGE");
    if (env && *env) {
        snprintf(out, n, "%s", env);
        return access(out, R_OK) == 0 ? 0 : -1;
    }
    return find_beside_exe(TD_TB_LIBRARY, out, n);
}

int td_kernel_large_only(const td_kernel *k) {
    return k->abi->mutant && !strncmp(k->abi->variant, "mut_large_", 10);
}
