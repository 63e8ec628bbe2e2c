/* `tilediff repro FINDING --emit-python repro.py`: a standalone Python script that
 * rebuilds the case's buffers, launches the user's Triton kernel on them (through the
 * same registered launch tilediff called) and prints the lanes tilediff reported, with
 * the reference value and tolerance tilediff derived for each.  What a kernel author
 * debugs with: numpy, triton, the kernel file and tilediff_triton's pure-Python package;
 * no tilediff binary. */
#include "emit_python.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *np_name(td_fmt f) {
    switch (f) {
    case TD_F64: return "float64";
    case TD_F32: return "float32";
    case TD_F16: return "float16";
    case TD_BF16: return "uint16";
    case TD_E4M3FN: case TD_E5M2: case TD_U8: return "uint8";
    case TD_I8: return "int8";
    case TD_I32: return "int32";
    case TD_I64: return "int64";
    default: return "bool";
    }
}

/* The region's initial bytes, hex-encoded (a case is at most a few MB: a simple,
 * dependency-free encoding; bytes.fromhex reads it back). */
static void emit_bytes(FILE *f, const uint8_t *b, size_t n) {
    fputs("bytes.fromhex(\n    \"", f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%02x", b[i]);
        if (i % 48 == 47 && i + 1 < n) fputs("\"\n    \"", f);
    }
    fputs("\")", f);
}

static void emit_regions(FILE *f, const td_case *c) {
    const td_contract *k = c->k;
    fputs("REGIONS = {}  # name -> (numpy array of the element bits, format code, role)\n", f);
    for (int i = 0; i < k->nregions; i++) {
        unsigned eb = td_fmt_get(c->r[i].fmt)->bytes;
        fprintf(f, "REGIONS[\"%s\"] = (np.frombuffer(", k->regions[i].name);
        if (k->regions[i].role == TD_R_OUT || !c->r[i].data) {
            /* outputs start as 0xff bytes: a NaN in every floating format, so an unwritten
             * lane of the write set shows */
            fprintf(f, "b\"\\xff\" * %zu", c->r[i].len * eb);
        } else
            emit_bytes(f, c->r[i].data, c->r[i].len * eb);
        fprintf(f, ", dtype=\"%s\").copy(), %d, %d)\n", np_name(c->r[i].fmt), (int)c->r[i].fmt,
                (int)k->regions[i].role);
    }
}

static void emit_lanes(FILE *f, const td_contract *k, const td_case_result *r) {
    fputs("# the lanes tilediff reported: (region, element, reference, tolerance, what tilediff saw)\n", f);
    fputs("LANES = [\n", f);
    for (int i = 0; i < r->nrep; i++) {
        const td_lane_report *l = &r->rep[i];
        if (!l->has_lane) continue;
        fprintf(f, "    (\"%s\", %" PRIu64 ", %.17g, %.17g, \"%s\"),\n", k->regions[l->region].name, l->off, l->ref,
                l->tol, td_vclass_name(l->cls));
    }
    fputs("]\n", f);
}

static const char *script_body =
    "\n\ndef main():\n"
    "    import tilediff_triton as td\n"
    "    from tilediff_triton import registry\n"
    "    from tilediff_triton.tensor import Tensor, BY_FMT\n"
    "    spec = importlib.util.spec_from_file_location(\"tilediff_user_kernels\", KERNELS)\n"
    "    mod = importlib.util.module_from_spec(spec)\n"
    "    sys.modules[\"tilediff_user_kernels\"] = mod\n"
    "    spec.loader.exec_module(mod)\n"
    "    e = next(x for x in registry.registered() if x.contract == CONTRACT and x.variant == VARIANT)\n"
    "    arrays = {n: a for n, (a, fmt, role) in REGIONS.items()}\n"
    "    r = registry.Names(list(REGIONS), [Tensor(a.ctypes.data, a.size, BY_FMT[REGIONS[n][1]])\n"
    "                                       for n, a in arrays.items()])\n"
    "    p = registry.Names(list(PARAMS), list(PARAMS.values()))\n"
    "    grid = tuple(GRID)\n"
    "    while len(grid) > 1 and grid[-1] == 1:\n"
    "        grid = grid[:-1]\n"
    "    if e.autotuner is not None:  # exactly this variant's config\n"
    "        e.autotuner.configs, e.autotuner.cache = [e.config], {}\n"
    "    e.fn(grid, p, r)\n"
    "    bad = 0\n"
    "    for name, off, ref, tol, saw in LANES:\n"
    "        a, fmt = arrays[name], REGIONS[name][1]\n"
    "        got = decode(a[off], fmt)\n"
    "        ok = got == ref or abs(got - ref) <= tol\n"
    "        bad += not ok\n"
    "        print(f\"{name}[{off}]: got {got!r} expected {ref!r} tol {tol:.3g} err {abs(got - ref):.3g}\"\n"
    "              f\" {'ok' if ok else 'DISAGREES'} (tilediff: {saw})\")\n"
    "    print(f\"{bad} of {len(LANES)} reported lanes disagree\")\n"
    "    return 1 if bad else 0\n\n\n"
    "def decode(bits, fmt):\n"
    "    \"\"\"An element's value as a Python float (bfloat16 and fp8 from their bits).\"\"\"\n"
    "    if fmt == 3:  # bfloat16: the high half of a binary32\n"
    "        return float(np.array([int(bits) << 16], dtype=np.uint32).view(np.float32)[0])\n"
    "    if fmt in (4, 5):  # fp8 e4m3fn / e5m2\n"
    "        b = int(bits)\n"
    "        s = (b >> 7) & 1\n"
    "        E, M, bias = (4, 3, 7) if fmt == 4 else (5, 2, 15)\n"
    "        e, m = (b >> M) & ((1 << E) - 1), b & ((1 << M) - 1)\n"
    "        if fmt == 4 and e == 15 and m == 7 or fmt == 5 and e == 31 and m:\n"
    "            return float(\"nan\")\n"
    "        if fmt == 5 and e == 31:\n"
    "            return -float(\"inf\") if s else float(\"inf\")\n"
    "        v = (m / (1 << M)) * 2.0 ** (1 - bias) if e == 0 else (1 + m / (1 << M)) * 2.0 ** (e - bias)\n"
    "        return -v if s else v\n"
    "    return float(bits)\n\n\n"
    "if __name__ == \"__main__\":\n"
    "    sys.exit(main())\n";

int td_emit_python(const char *path, const td_kernel *kern, const uint8_t *data, size_t size,
                   const td_case_result *r, char *err, size_t errlen) {
    const td_contract *k = kern->k;
    if (!kern->path || strlen(kern->path) < 3 || strcmp(kern->path + strlen(kern->path) - 3, ".py")) {
        snprintf(err, errlen, "--emit-python needs a Python kernel file (--kernels kernels.py), not %s",
                 kern->path ? kern->path : "the built-in kernels");
        return -1;
    }
    td_case c;
    if (td_decode_case(k, data, size, &c, err, errlen) != 0) return -1;
    for (int i = 0; i < k->nregions; i++)
        if (c.r[i].mapped) { /* numpy would hold the whole region, and the script spell out every byte */
            snprintf(err, errlen, "--emit-python: region %s is a sparse region of %zu elements (a case with offsets "
                     "beyond 2^31); a standalone script cannot hold it", k->regions[i].name, c.r[i].len);
            td_case_free(&c);
            return -1;
        }
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s", path);
        td_case_free(&c);
        return -1;
    }
    char kabs[PATH_MAX], pkg[PATH_MAX];
    if (!realpath(kern->path, kabs)) snprintf(kabs, sizeof kabs, "%s", kern->path);
    snprintf(pkg, sizeof pkg, "%s", TD_TRITON_PYTHONPATH_DEFAULT);
    fprintf(f, "#!/usr/bin/env python3\n\"\"\"tilediff repro: %s, kernel '%s' of %s.\n\n%s\n\"\"\"\n", k->id,
            kern->abi->variant, kabs, r->desc);
    fputs("import importlib.util\nimport os\nimport sys\n\n"
          "os.environ.setdefault(\"TRITON_INTERPRET\", \"1\")  # before triton is imported\n",
          f);
    fprintf(f, "sys.path.insert(0, os.environ.get(\"TILEDIFF_TRITON_PYTHONPATH\", \"%s\"))\n", pkg);
    fprintf(f, "KERNELS = \"%s\"\nsys.path.insert(0, os.path.dirname(KERNELS))\nimport numpy as np  # noqa: E402\n\n",
            kabs);
    fprintf(f, "CONTRACT = \"%s\"\nVARIANT = \"%s\"\nGRID = (%u, %u, %u)\nPARAMS = {\n", k->id, kern->abi->variant,
            c.grid[0], c.grid[1], c.grid[2]);
    for (int i = 0; i < k->nparams; i++) {
        if (k->params[i].kind == TD_P_REAL) fprintf(f, "    \"%s\": %.17g,\n", k->params[i].name, c.p[i].r);
        else if (k->params[i].kind == TD_P_BOOL)
            fprintf(f, "    \"%s\": %s,\n", k->params[i].name, c.p[i].i ? "True" : "False");
        else fprintf(f, "    \"%s\": %" PRId64 ",\n", k->params[i].name, c.p[i].i);
    }
    fputs("}\n", f);
    emit_regions(f, &c);
    emit_lanes(f, k, r);
    fputs(script_body, f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "writing %s failed", path);
        td_case_free(&c);
        return -1;
    }
    td_case_free(&c);
    return 0;
}
