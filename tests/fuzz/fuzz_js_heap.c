/*
 * fuzz_js_heap.c - libFuzzer target: the input is a V8 heap snapshot
 * (.heapsnapshot JSON, from a program or anyone who can write a file),
 * read, analysed (dominators, DevTools' groups, plain objects' interfaces),
 * made a profile written in every output format, and compared with itself.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "fuzz_file.h"
#include "js_heap_analysis.h"
#include "js_heap_diff.h"
#include "js_heap_profile.h"
#include "js_heap_read.h"
#include "js_heap_summary.h"
#include "load_and_write.h"

static void analyse(const struct stoke_js_heap *h)
{
    struct stoke_js_heap_analysis *a = stoke_js_heap_analyze(h, NULL);
    uint32_t *order;
    stoke_js_heap_by_constructor(a, &order);
    free(order);
    struct stoke_profile *p = stoke_profile_new();
    stoke_js_heap_add_to_profile(p, a);
    write_every_format(p);
    stoke_profile_free(p);
    struct stoke_js_census *c = stoke_js_census_of(a);
    stoke_js_heap_diff_free(stoke_js_heap_diff(c, c));
    stoke_js_census_free(c);
    stoke_js_heap_analysis_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    const char *path = fuzz_file(data, size);
    stoke_is_js_heap_file(path);
    struct stoke_js_heap *h = stoke_js_heap_read(path, err, sizeof err);
    if (h)
        analyse(h);
    stoke_js_heap_free(h);
    return 0;
}
