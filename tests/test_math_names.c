/* The math-model names a kernel may declare agree in the three places a kernel author
 * meets them: the registry the loader resolves them in (oracle/budget.c), the ABI
 * header's comment on `math` (kernels/kernel_abi.h) and the table in
 * docs/kernel-abi.md.  Each named model loads, an unknown name is refused, and a name
 * missing from either document (or documented but unknown) fails this test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "loader.h"

#define MAX_NAMES 32

typedef struct names {
    char v[MAX_NAMES][32];
    int n;
} names;

static char *slurp(const char *rel) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", TD_SOURCE_DIR, rel);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = 0;
    fclose(f);
    return b;
}

/* Every "quoted" word in [from, to) that looks like a model name (lower case, digits, '-'). */
static names quoted(const char *from, const char *to) {
    names r = {.n = 0};
    for (const char *p = from; p && p < to && (p = strchr(p, '"')) && p < to;) {
        const char *e = strchr(p + 1, '"');
        if (!e || e >= to) break;
        size_t l = (size_t)(e - p - 1);
        int ok = l > 0 && l < sizeof r.v[0];
        for (const char *c = p + 1; ok && c < e; c++) ok = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-';
        if (ok && r.n < MAX_NAMES) memcpy(r.v[r.n], p + 1, l), r.v[r.n++][l] = 0;
        p = e + 1;
    }
    return r;
}

static int has(const names *s, const char *n) {
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], n)) return 1;
    return 0;
}

/* Both directions: each registry model is documented, each documented name is a model. */
static void agree(const names *doc, const char *where) {
    for (int i = 0; i < td_math_model_count(); i++)
        if (!has(doc, td_math_model_at(i)->name))
            fail_msg("math model \"%s\" is not named in %s", td_math_model_at(i)->name, where);
    for (int i = 0; i < doc->n; i++)
        if (!td_math_model_get(doc->v[i])) fail_msg("%s names \"%s\", which is no math model", where, doc->v[i]);
}

static void test_header_names_the_models(void **st) {
    (void)st;
    char *h = slurp("kernels/kernel_abi.h");
    const char *field = strstr(h, "const char *math;");
    assert_non_null(field);
    const char *start = field; /* the comment right above the field */
    while (start > h && !(start[0] == '/' && start[1] == '*')) start--;
    names n = quoted(start, field);
    agree(&n, "kernels/kernel_abi.h (the comment on `math`)");
    free(h);
}

static void test_doc_names_the_models(void **st) {
    (void)st;
    char *d = slurp("docs/kernel-abi.md");
    const char *row = strstr(d, "| `math` |");
    assert_non_null(row);
    const char *end = strchr(row, '\n');
    names n = quoted(row, end ? end : row + strlen(row));
    agree(&n, "docs/kernel-abi.md (the `math` row)");
    free(d);
}

static int launch(const td_abi_launch *L) {
    (void)L;
    return 0;
}

static int bind_math(const char *math, td_kernel_set *set, char *err, size_t errlen) {
    static td_abi_kernel k;
    static const td_abi_kernel *list[1] = {&k};
    static td_abi_table t;
    k = (td_abi_kernel){"add_value.puzzle1_kernel_correctness", "v", TD_ABI_HOST, NULL, math, NULL, 3, 2, launch, NULL};
    t = (td_abi_table){TD_KERNEL_ABI_VERSION, 1, list, "test"};
    return td_kernels_bind(&t, "test", set, err, errlen);
}

static void test_loader_accepts_each_model(void **st) {
    (void)st;
    char err[512];
    td_kernel_set set;
    for (int i = 0; i < td_math_model_count(); i++) {
        const char *name = td_math_model_at(i)->name;
        if (bind_math(name, &set, err, sizeof err) != TD_LOAD_OK) fail_msg("the loader refuses \"%s\": %s", name, err);
        assert_string_equal(set.kernels[0].math->name, name);
        td_kernels_close(&set);
    }
    assert_int_equal(bind_math("cuda-fast", &set, err, sizeof err), TD_LOAD_INVALID);
    assert_non_null(strstr(err, "unknown math model 'cuda-fast'"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_names_the_models),
        cmocka_unit_test(test_doc_names_the_models),
        cmocka_unit_test(test_loader_accepts_each_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
