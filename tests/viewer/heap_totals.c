/*
 * heap_totals.c - test helper: what a --heap recording's CPU trace says of
 * its live heap over time, read by stoke's trace reader alone (no report
 * writer, no viewer), for the report's timeline to be checked against.
 *
 * heap_totals TRACE
 *   prints "moments N peak BYTES": how many HEAP_TOTALS records the trace
 *   holds and the most live bytes any of them gives. Exits 1 when the
 *   trace cannot be read or holds none.
 *
 * Never: part of stoke itself.
 */
#include <inttypes.h>
#include <stdio.h>

#include "heap_timeline.h"
#include "profile.h"
#include "trace_load.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: heap_totals TRACE\n");
        return 2;
    }
    char err[512];
    const struct stoke_load_options opt = {.heap_timeline = 1};
    struct stoke_profile *p = stoke_profile_new();
    int rc = stoke_load_trace(p, argv[1], &opt, err, sizeof err) == 0 && stoke_has_heap_timeline(p)
                 ? 0
                 : 1;
    uint64_t peak = 0;
    for (size_t i = 0; i < p->heap_timeline.nmoments; i++)
        if (p->heap_timeline.moments[i].live_bytes > peak)
            peak = p->heap_timeline.moments[i].live_bytes;
    if (rc == 0)
        printf("moments %zu peak %" PRIu64 "\n", p->heap_timeline.nmoments, peak);
    else
        fprintf(stderr, "heap_totals: %s holds no live heap over time\n", argv[1]);
    stoke_profile_free(p);
    return rc;
}
