/*
 * peek.c - reads the first records of a trace to tell its kind; see peek.h.
 *
 * Owns: which records decide a file's kind: HEAP makes it a heap snapshot;
 * SAMPLES, END, or the end of the file before either make it a CPU trace
 * (the same rule the loader applies).
 * Never: reads past the deciding record, or symbolizes.
 */
#include "peek.h"

#include <string.h>
#include "fields.h"
#include "heap_record.h"
#include "reader.h"
#include "stoke_format.h"

/* Returns 1 (stop) once the kind is known. */
static int on_record(void *ctx, unsigned type, const uint8_t *payload, size_t len)
{
    struct stoke_trace_info *info = ctx;
    struct stoke_fields f = stoke_fields_of(payload, len);
    switch (type) {
    case STOKE_REC_PROCESS:
        info->pid = (uint32_t)stoke_field_u(&f);
        return 0;
    case STOKE_REC_HEAP:
        if (stoke_decode_heap(&f, &info->heap))
            return 0; /* damaged: the loader skips it too */
        info->kind = STOKE_PROFILE_HEAP;
        return 1;
    case STOKE_REC_SAMPLES:
    case STOKE_REC_END:
        return 1;
    default:
        return 0;
    }
}

int stoke_peek_trace(const char *path, struct stoke_trace_info *info, char *err,
                     size_t errlen)
{
    struct stoke_read_status st;
    memset(info, 0, sizeof *info);
    info->kind = STOKE_PROFILE_CPU;
    return stoke_read_trace(path, on_record, info, &st, err, errlen);
}
