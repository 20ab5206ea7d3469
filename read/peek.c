/*
 * peek.c - reads the first records of a trace to tell its kind; see peek.h.
 *
 * Owns: which records decide a file's kind: HEAP makes it a heap snapshot;
 * SAMPLES, END, or the end of the file before either make it a CPU trace
 * (the same rule the loader applies); and reading the heap settings a
 * PROCESS record carries since format 1.2, as HEAP_SIGNAL records change
 * them, and the last JS_HEAP record.
 * Never: reads past the deciding record (the settings: past END), or
 * symbolizes.
 */
#include "peek.h"

#include <string.h>
#include "fields.h"
#include "heap_record.h"
#include "reader.h"
#include "stoke_format.h"

/* The format version whose PROCESS record carries the heap settings. */
#define HEAP_SETTINGS_MINOR 2

struct peek {
    struct stoke_trace_info *info;
    int settings_only; /* read the heap settings, to the end */
    int settings_read; /* the PROCESS record's heap fields were there */
};

/* The PROCESS fields up to the heap settings, which follow them. */
static void on_process(struct peek *k, struct stoke_fields *f)
{
    size_t len;
    k->info->pid = (uint32_t)stoke_field_u(f);
    for (int i = 0; i < 7; i++) /* ppid, start times, clock, engine, rate, period */
        stoke_field_u(f);
    for (int i = 0; i < 3; i++) /* comm, exe, cmdline */
        stoke_field_bytes(f, &len);
    uint64_t interval = stoke_field_u(f), signal = stoke_field_u(f);
    k->settings_read = !f->bad;
    k->info->heap_interval = f->bad ? 0 : interval;
    k->info->heap_signal = f->bad ? 0 : (uint32_t)signal;
    if (!stoke_field_more(f))
        return;
    stoke_field_bytes(f, &len); /* cwd, since 1.3 */
    uint64_t js_signal = stoke_field_u(f);
    k->info->js_heap_signal = f->bad ? 0 : (uint32_t)js_signal;
}

/* A later HEAP_SIGNAL: the signal, and since 1.3 the thread to send it to. */
static void on_heap_signal(struct peek *k, struct stoke_fields *f)
{
    uint64_t signal = stoke_field_u(f);
    uint64_t tid = stoke_field_more(f) ? stoke_field_u(f) : 0;
    if (f->bad)
        return;
    k->info->heap_signal = (uint32_t)signal;
    k->info->heap_signal_tid = (uint32_t)tid;
}

static void on_js_heap(struct peek *k, struct stoke_fields *f)
{
    uint64_t seq = stoke_field_u(f);
    stoke_field_u(f); /* asked_us */
    uint64_t took_us = stoke_field_u(f);
    if (f->bad)
        return;
    k->info->js_heap_seq = (uint32_t)seq;
    k->info->js_heap_took_us = took_us;
}

/* Returns 1 (stop) once what is asked is known. */
static int on_record(void *ctx, unsigned type, const uint8_t *payload, size_t len)
{
    struct peek *k = ctx;
    struct stoke_fields f = stoke_fields_of(payload, len);
    if (k->settings_only) {
        if (type == STOKE_REC_PROCESS)
            on_process(k, &f);
        else if (type == STOKE_REC_HEAP_SIGNAL && k->settings_read)
            on_heap_signal(k, &f);
        else if (type == STOKE_REC_JS_HEAP)
            on_js_heap(k, &f);
        return type == STOKE_REC_END;
    }
    switch (type) {
    case STOKE_REC_PROCESS:
        on_process(k, &f);
        return 0;
    case STOKE_REC_HEAP:
        if (stoke_decode_heap(&f, &k->info->heap))
            return 0; /* damaged: the loader skips it too */
        k->info->kind = STOKE_PROFILE_HEAP;
        return 1;
    case STOKE_REC_SAMPLES:
    case STOKE_REC_END:
        return 1;
    default:
        return 0;
    }
}

static int peek(const char *path, struct stoke_trace_info *info, int settings_only, char *err,
                size_t errlen)
{
    struct peek k = {.info = info, .settings_only = settings_only};
    struct stoke_read_status st;
    memset(info, 0, sizeof *info);
    info->kind = STOKE_PROFILE_CPU;
    int rc = stoke_read_trace(path, on_record, &k, &st, err, errlen);
    if (rc == 0 && (st.major < 1 || (st.major == 1 && st.minor < HEAP_SETTINGS_MINOR)))
        info->heap_settings = STOKE_HEAP_SETTINGS_PREDATED;
    else
        info->heap_settings = k.settings_read ? STOKE_HEAP_SETTINGS_READ
                                              : STOKE_HEAP_SETTINGS_MISSING;
    return rc;
}

int stoke_peek_trace(const char *path, struct stoke_trace_info *info, char *err,
                     size_t errlen)
{
    return peek(path, info, 0, err, errlen);
}

int stoke_peek_process(const char *path, struct stoke_trace_info *info, char *err,
                       size_t errlen)
{
    return peek(path, info, 1, err, errlen);
}
