/*
 * runtime_leftovers.c - removes what node was asked to write for stoke and
 * could not clean up itself; see runtime_leftovers.h.
 *
 * Owns: which of the run's traces are node's with their JIT names saved,
 * and the files of theirs that may go.
 * Never: removes a file of a process still running, of another user, older
 * than the process, or one its command line asked for.
 */
#define _GNU_SOURCE
#include "runtime_leftovers.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fields.h"
#include "reader.h"
#include "stoke_format.h"

/* What a trace says of its process, as far as its leftovers go. */
struct node_trace {
    uint32_t pid;
    int is_node, asked_itself, has_names;
    time_t started;
    char cwd[PATH_MAX];
};

static const char *const own_flags[] = {"--perf-basic-prof", "--perf-prof", "--prof", "--log",
                                        NULL};

static int names_a_flag(const uint8_t *cmdline, size_t len)
{
    for (size_t at = 0; at < len; at += strnlen((const char *)cmdline + at, len - at) + 1)
        for (const char *const *f = own_flags; *f; f++)
            if (len - at >= strlen(*f) && !strncmp((const char *)cmdline + at, *f, strlen(*f)))
                return 1;
    return 0;
}

static void on_process(struct node_trace *t, struct stoke_fields *f)
{
    size_t len;
    t->pid = (uint32_t)stoke_field_u(f);
    stoke_field_u(f); /* ppid */
    t->started = (time_t)(stoke_field_u(f) / 1000000000u);
    for (int i = 0; i < 5; i++) /* monotonic start, clock, engine, rate, period */
        stoke_field_u(f);
    stoke_field_bytes(f, &len); /* comm */
    const uint8_t *exe = stoke_field_bytes(f, &len);
    const char *slash = memrchr(exe, '/', len);
    const char *name = slash ? slash + 1 : (const char *)exe;
    size_t name_len = len - (size_t)(name - (const char *)exe);
    t->is_node = (name_len == 4 && !memcmp(name, "node", 4)) ||
                 (name_len == 6 && !memcmp(name, "nodejs", 6));
    const uint8_t *cmdline = stoke_field_bytes(f, &len);
    t->asked_itself = names_a_flag(cmdline, len);
    stoke_field_u(f); /* heap interval */
    stoke_field_u(f); /* heap signal */
    const uint8_t *cwd = stoke_field_more(f) ? stoke_field_bytes(f, &len) : NULL;
    if (cwd && !f->bad && len < sizeof t->cwd) {
        memcpy(t->cwd, cwd, len);
        t->cwd[len] = 0;
    }
}

static int on_record(void *ctx, unsigned type, const uint8_t *payload, size_t len)
{
    struct node_trace *t = ctx;
    struct stoke_fields f = stoke_fields_of(payload, len);
    if (type == STOKE_REC_PROCESS)
        on_process(t, &f);
    else if (type == STOKE_REC_JIT_MAP)
        t->has_names = 1;
    return t->has_names || (t->pid && !t->is_node);
}

/* A regular file of ours, written since the process started. */
static int removable(const char *path, time_t started)
{
    struct stat st;
    return !lstat(path, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
           st.st_mtime >= started;
}

/* isolate-0x<address>-<pid>-...v8.log */
static int is_isolate_log(const char *name, uint32_t pid)
{
    char pid_part[32];
    size_t len = strlen(name);
    snprintf(pid_part, sizeof pid_part, "-%" PRIu32 "-", pid);
    return !strncmp(name, "isolate-0x", 10) && strstr(name, pid_part) && len > 7 &&
           !strcmp(name + len - 7, "-v8.log");
}

static void remove_isolate_logs(const struct node_trace *t)
{
    char path[2 * PATH_MAX];
    DIR *d = t->cwd[0] ? opendir(t->cwd) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (is_isolate_log(e->d_name, t->pid) &&
            snprintf(path, sizeof path, "%s/%s", t->cwd, e->d_name) < (int)sizeof path &&
            removable(path, t->started))
            unlink(path);
    if (d)
        closedir(d);
}

static void clean_after(const char *trace)
{
    struct node_trace t = {0};
    struct stoke_read_status st;
    char err[PATH_MAX + 256], map[64];
    if (stoke_read_trace(trace, on_record, &t, &st, err, sizeof err) || !t.is_node ||
        !t.has_names || t.asked_itself || (kill((pid_t)t.pid, 0) == 0 || errno != ESRCH))
        return;
    snprintf(map, sizeof map, "/tmp/perf-%" PRIu32 ".map", t.pid);
    if (removable(map, t.started))
        unlink(map);
    remove_isolate_logs(&t);
}

void remove_runtime_leftovers(const struct recording *r, int asked_node)
{
    if (!asked_node)
        return;
    for (size_t i = 0; i < r->ncpu; i++)
        clean_after(r->cpu_traces[i]);
}
