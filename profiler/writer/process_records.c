/*
 * process_records.c - see process_records.h. Writer thread only.
 */
#define _GNU_SOURCE
#include "process_records.h"

#include <string.h>
#include <unistd.h>

#include "stoke_format.h"
#include "common/procfs.h"
#include "sampling/modules.h"

void process_read_identity(struct process_description *d)
{
    if (!getcwd(d->cwd, sizeof d->cwd))
        d->cwd[0] = 0;
    d->cmdline_len = procfs_read("/proc/self/cmdline", d->cmdline, sizeof d->cmdline);
    if (d->cmdline_len && !d->cmdline[d->cmdline_len - 1])
        d->cmdline_len--;
    char comm[64];
    procfs_read_line("/proc/self/comm", comm, sizeof comm);
    size_t j = 0;
    for (size_t i = 0; comm[i] && j + 1 < sizeof d->comm; i++) {
        char c = comm[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '.' || c == '_' || c == '-';
        d->comm[j++] = ok ? c : '_';
    }
    if (!j)
        d->comm[j++] = '_';
    d->comm[j] = 0;
}

void records_process(struct records *r, const struct process_description *d)
{
    char exe[4096] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    records_begin(r, STOKE_REC_PROCESS);
    records_u(r, (uint64_t)getpid());
    records_u(r, (uint64_t)getppid());
    records_u(r, d->start_realtime_ns);
    records_u(r, d->start_ns);
    records_u(r, (uint64_t)d->clock);
    records_u(r, (uint64_t)d->engine);
    records_u(r, d->hz);
    records_u(r, d->period_ns);
    records_str(r, d->comm);
    records_str(r, exe);
    records_bytes(r, d->cmdline, d->cmdline_len);
    records_u(r, d->heap_interval);
    records_u(r, (uint64_t)d->heap_signal);
    records_str(r, d->cwd);
    records_u(r, (uint64_t)d->js_heap_signal);
    records_end(r);
}

void records_note(struct records *r, const char *text)
{
    records_begin(r, STOKE_REC_NOTE);
    records_u(r, 1);
    records_str(r, text);
    records_end(r);
}

struct map_visit {
    struct records *r;
    uint64_t time_us;
};

static void record_map(void *arg, const struct module_description *m)
{
    struct map_visit *v = arg;
    records_begin(v->r, STOKE_REC_MAP);
    records_u(v->r, m->id);
    records_u(v->r, m->lo);
    records_u(v->r, m->hi);
    records_u(v->r, m->bias);
    records_bytes(v->r, m->build_id, m->build_id_len);
    records_str(v->r, m->path);
    records_u(v->r, v->time_us);
    records_u(v->r, m->alias_of);
    records_end(v->r);
}

uint32_t records_new_maps(struct records *r, uint32_t after_id, uint64_t time_us)
{
    struct map_visit v = {r, time_us};
    return modules_visit_new(after_id, record_map, &v);
}

void records_stack(struct records *r, uint32_t id, uint32_t flags, uint32_t n,
                   const uint32_t *modules, const uint64_t *offsets)
{
    records_begin(r, STOKE_REC_STACK);
    records_u(r, id);
    records_u(r, flags);
    records_u(r, n);
    uint32_t prev_module = UINT32_MAX;
    uint64_t prev_offset = 0;
    for (uint32_t i = 0; i < n; i++) {
        records_u(r, modules[i]);
        records_s(r, modules[i] == prev_module ? (int64_t)(offsets[i] - prev_offset)
                                               : (int64_t)offsets[i]);
        prev_module = modules[i];
        prev_offset = offsets[i];
    }
    records_end(r);
}
