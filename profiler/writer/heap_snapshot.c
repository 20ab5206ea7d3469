/*
 * heap_snapshot.c - see heap_snapshot.h.
 */
#define _GNU_SOURCE
#include "heap_snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "records.h"
#include "stoke_format.h"
#include "trace_file.h"
#include "heap/heap.h"
#include "heap/heap_stacks.h"
#include "heap/heap_tally.h"

#define FRAME_BYTES (1u << 20)

struct stack_values {
    uint32_t id;
    uint64_t live_bytes, live_objects, alloc_bytes, alloc_objects;
};

static uint32_t sequence;
static struct records recs;

void heap_snapshot_reset(void)
{
    sequence = 0;
}

static uint64_t now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t clamp(int64_t v)
{
    return v > 0 ? (uint64_t)v : 0;
}

static void name_file(const struct process_description *d, const char *dir, int trigger,
                      uint32_t seq, char *out, size_t cap)
{
    if (trigger == STOKE_HEAP_PEAK) {
        snprintf(out, cap, "%s/%s.%d.heap.peak.stoke", dir, d->comm, (int)getpid());
        return;
    }
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    snprintf(out, cap, "%s/%s.%d.heap.%u.%04d%02d%02d-%02d%02d%02d.stoke", dir, d->comm,
             (int)getpid(), seq, utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
             utc.tm_hour, utc.tm_min, utc.tm_sec);
}

/* Writes the records gathered so far as one frame when they grow large. */
static int spill(struct trace_file *f, size_t threshold)
{
    if (recs.len < threshold)
        return 0;
    int ret = recs.failed ? -1 : trace_file_write_frame(f, recs.data, recs.len);
    records_clear(&recs);
    recs.failed = 0;
    return ret;
}

/* STACK records for every stack with heap activity; their values in *out. */
static int write_stacks(struct trace_file *f, struct stack_values **out, size_t *count)
{
    uint32_t n = heap_stacks_count();
    struct stack_values *values = malloc((n ? n : 1) * sizeof *values);
    if (!values)
        return -1;
    size_t kept = 0;
    for (uint32_t id = 0; id < n; id++) {
        struct heap_stack *s = heap_stacks_get(id);
        if (!s)
            continue;
        struct stack_values v = {
            .id = id,
            .live_bytes = clamp(atomic_load(&s->live_bytes)),
            .live_objects = heap_objects(clamp(atomic_load(&s->live_objects))),
            .alloc_bytes = clamp(atomic_load(&s->alloc_bytes)),
            .alloc_objects = heap_objects(clamp(atomic_load(&s->alloc_objects))),
        };
        if (!atomic_load(&s->alloc_objects) && !atomic_load(&s->live_objects))
            continue; /* (objects, not bytes: malloc(0) blocks count too) */
        records_stack(&recs, id, s->flags, s->nframes, s->modules, s->offsets);
        values[kept++] = v;
        if (spill(f, FRAME_BYTES)) {
            free(values);
            return -1;
        }
    }
    *out = values;
    *count = kept;
    return 0;
}

static void write_heap_record(const struct process_description *d, int trigger, uint32_t seq)
{
    struct heap_totals t;
    heap_read_totals(&t);
    records_begin(&recs, STOKE_REC_HEAP);
    records_u(&recs, seq);
    records_u(&recs, (uint64_t)trigger);
    records_u(&recs, (now_ns(CLOCK_MONOTONIC) - d->start_ns) / 1000);
    records_u(&recs, now_ns(CLOCK_REALTIME));
    records_u(&recs, heap_interval());
    records_u(&recs, clamp(t.live_bytes));
    records_u(&recs, clamp(t.live_objects));
    records_u(&recs, t.alloc_bytes);
    records_u(&recs, t.alloc_objects);
    records_u(&recs, t.untracked);
    records_end(&recs);
}

static int write_contents(struct trace_file *f, const struct process_description *d,
                          int trigger, uint32_t seq)
{
    records_clear(&recs);
    recs.failed = 0;
    records_process(&recs, d);
    if (d->heap_note)
        records_note(&recs, d->heap_note);
    records_new_maps(&recs, 0, (now_ns(CLOCK_MONOTONIC) - d->start_ns) / 1000);
    struct stack_values *values;
    size_t n;
    if (write_stacks(f, &values, &n))
        return -1;
    write_heap_record(d, trigger, seq);
    int ret = 0;
    for (size_t i = 0; i < n && !ret; i++) {
        records_begin(&recs, STOKE_REC_HEAP_STACK);
        records_u(&recs, values[i].id);
        records_u(&recs, values[i].live_bytes);
        records_u(&recs, values[i].live_objects);
        records_u(&recs, values[i].alloc_bytes);
        records_u(&recs, values[i].alloc_objects);
        records_end(&recs);
        ret = spill(f, FRAME_BYTES);
    }
    free(values);
    return ret ? ret : spill(f, 0);
}

static int publish(const char *temporary, const char *target, int replace)
{
    if (replace)
        return rename(temporary, target);
    if (!renameat2(AT_FDCWD, temporary, AT_FDCWD, target, RENAME_NOREPLACE))
        return 0;
    return errno == EINVAL ? link(temporary, target) : -1; /* a file system without it */
}

int heap_snapshot_write(const struct process_description *d, const char *dir,
                        const char *path, int trigger, char *written, size_t cap)
{
    char target[4096], temporary[4096 + 32];
    uint32_t seq = trigger == STOKE_HEAP_PEAK ? 0 : ++sequence;
    if (path)
        snprintf(target, sizeof target, "%s", path);
    else
        name_file(d, dir, trigger, seq, target, sizeof target);
    /* an earlier image of this process (before an exec) may have used the
     * name in the same second: the next number is this snapshot's */
    while (!path && trigger != STOKE_HEAP_PEAK && !access(target, F_OK))
        name_file(d, dir, trigger, seq = ++sequence, target, sizeof target);
    /* written under a temporary name, then linked to its name (which must
     * not exist) or, for the peak, renamed over the previous one: a
     * snapshot appears whole, and never replaces a file it did not write */
    snprintf(temporary, sizeof temporary, "%s.%d.tmp", target, (int)getpid());
    const char *create = temporary;
    struct trace_file f;
    if (trace_file_create(&f, create))
        return -1;
    int ret = write_contents(&f, d, trigger, seq);
    int err = errno;
    trace_file_close(&f);
    if (!ret && publish(create, target, trigger == STOKE_HEAP_PEAK))
        ret = -1, err = errno;
    unlink(create);
    if (ret) {
        errno = err ? err : EIO;
        return -1;
    }
    snprintf(written, cap, "%s", target);
    return 0;
}
