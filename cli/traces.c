/*
 * traces.c - the trace files of a path: knows the names the agent gives
 * them, finds them (all of a directory, or those a recording made), tells
 * CPU traces from heap snapshots by their records (read/peek.h),
 * pairs each native snapshot with its JavaScript half by name, and loads
 * them through read/'s loaders, CPU traces into one profile and
 * snapshots into profiles of their own. Never parses traces itself and
 * never writes anything but stderr warnings.
 */
#define _GNU_SOURCE /* memrchr */
#include "traces.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "js_heap_load.h"
#include "js_heap_read.h"
#include "stoke_format.h"
#include "trace_parts.h"

#define TRACE_SUFFIX ".stoke"
#define JS_HEAP_SUFFIX ".heapsnapshot"

static int ends_with(const char *name, const char *suffix)
{
    size_t len = strlen(name), n = strlen(suffix);
    return len > n && !strcmp(name + len - n, suffix);
}

int is_trace_name(const char *name)
{
    return ends_with(name, TRACE_SUFFIX);
}

int is_js_heap_snapshot_name(const char *name)
{
    return ends_with(name, JS_HEAP_SUFFIX);
}

static int all_digits(const char *text, size_t len)
{
    return len > 0 && strspn(text, "0123456789") >= len;
}

/* 1 when name[0..len) is "<comm>.<pid>", comm not empty. */
static int names_process(const char *name, size_t len, pid_t pid)
{
    char infix[24];
    size_t n = (size_t)snprintf(infix, sizeof infix, ".%d", (int)pid);
    return len > n && !memcmp(name + len - n, infix, n);
}

int is_cpu_trace_of(const char *name, pid_t pid)
{
    if (!is_trace_name(name))
        return 0;
    size_t len = stoke_part_stem(name); /* <comm>.<pid>[.<n>] */
    const char *last_dot = memrchr(name, '.', len);
    size_t before_dot = last_dot ? (size_t)(last_dot - name) : 0;
    return names_process(name, len, pid) ||
           (last_dot && all_digits(last_dot + 1, len - before_dot - 1) &&
            names_process(name, before_dot, pid));
}

int is_snapshot_of(const char *name, pid_t pid)
{
    char infix[48];
    snprintf(infix, sizeof infix, ".%d.heap.", (int)pid);
    const char *at = strstr(name, infix);
    if (!at || !is_trace_name(name))
        return 0;
    const char *seq = at + strlen(infix);
    size_t digits = strspn(seq, "0123456789");
    return digits > 0 && seq[digits] == '.';
}

static int select_trace(const struct dirent *e)
{
    return is_trace_name(e->d_name);
}

static int select_recording_file(const struct dirent *e)
{
    return is_trace_name(e->d_name) || is_js_heap_snapshot_name(e->d_name);
}

/* 1 when path (named name in its directory) is one of earlier. */
static int is_earlier_file(const char *path, const char *name,
                           const struct output_files *earlier)
{
    struct stat st;
    return earlier && earlier->n && lstat(path, &st) == 0 &&
           find_output_file(earlier, name, (uint64_t)st.st_ino);
}

/* dir/name in path; "out/" names its files without a second '/'. */
static void path_in_dir(const char *dir, const char *name, char *path, size_t len)
{
    size_t dir_len = strlen(dir);
    snprintf(path, len, "%s%s%s", dir, dir_len && dir[dir_len - 1] == '/' ? "" : "/", name);
}

int count_run_traces(const char *dir, const struct output_files *earlier)
{
    struct dirent **names;
    int count = scandir(dir, &names, select_trace, NULL);
    int of_run = 0;
    for (int i = 0; i < count; i++) {
        char path[PATH_MAX];
        path_in_dir(dir, names[i]->d_name, path, sizeof path);
        of_run += !is_earlier_file(path, names[i]->d_name, earlier);
        free(names[i]);
    }
    if (count >= 0)
        free(names);
    return count < 0 ? -1 : of_run;
}

int is_peak_snapshot(const struct snapshot *s)
{
    return s->info.heap.trigger == STOKE_HEAP_PEAK;
}

int has_js_snapshots(const struct recording *r)
{
    for (size_t i = 0; i < r->nsnapshots; i++)
        if (r->snapshots[i].js_path)
            return 1;
    return r->njs_alone > 0;
}

/* --- sorting files by kind ------------------------------------------------ */

static void add_trace(struct recording *r, const char *path, const struct stoke_trace_info *info)
{
    if (info->kind == STOKE_PROFILE_HEAP) {
        r->snapshots = stoke_xrealloc(r->snapshots, (r->nsnapshots + 1) * sizeof *r->snapshots);
        r->snapshots[r->nsnapshots++] = (struct snapshot){stoke_xstrdup(path), *info, NULL};
    } else {
        r->cpu_traces = stoke_xrealloc(r->cpu_traces, (r->ncpu + 1) * sizeof *r->cpu_traces);
        r->cpu_traces[r->ncpu++] = stoke_xstrdup(path);
        r->nempty += info->pid == 0;
    }
}

/* The path of the JavaScript half of the native snapshot at path
 * (malloc'ed), whether or not it exists. */
static char *js_half_name(const char *path)
{
    size_t stem = strlen(path) - (is_trace_name(path) ? strlen(TRACE_SUFFIX) : 0);
    char *js = stoke_xmalloc(stem + strlen(JS_HEAP_SUFFIX) + 1);
    memcpy(js, path, stem);
    strcpy(js + stem, JS_HEAP_SUFFIX);
    return js;
}

/* Gives js (malloc'ed, taken) to the native snapshot it is the half of,
 * or to r's lone ones. */
static void add_js_snapshot(struct recording *r, char *js)
{
    for (size_t i = 0; i < r->nsnapshots; i++) {
        char *half = js_half_name(r->snapshots[i].path);
        int match = !r->snapshots[i].js_path && !strcmp(half, js);
        free(half);
        if (match) {
            r->snapshots[i].js_path = js;
            return;
        }
    }
    r->js_alone = stoke_xrealloc(r->js_alone, (r->njs_alone + 1) * sizeof *r->js_alone);
    r->js_alone[r->njs_alone++] = js;
}

static int by_pid_then_sequence(const void *a, const void *b)
{
    const struct snapshot *x = a, *y = b;
    if (x->info.pid != y->info.pid)
        return x->info.pid < y->info.pid ? -1 : 1;
    if (is_peak_snapshot(x) != is_peak_snapshot(y))
        return is_peak_snapshot(x) - is_peak_snapshot(y);
    return (x->info.heap.sequence > y->info.heap.sequence) -
           (x->info.heap.sequence < y->info.heap.sequence);
}

static void sort_snapshots(struct recording *r)
{
    if (r->nsnapshots)
        qsort(r->snapshots, r->nsnapshots, sizeof *r->snapshots, by_pid_then_sequence);
}

/* Sorts path into r, or says on stderr why it cannot; 1 when it could. A
 * .heapsnapshot is only kept in *js (taken later, once the native
 * snapshots are known). */
static int add_file(struct recording *r, const char *path, char ***js, size_t *njs)
{
    char why[PATH_MAX + 256];
    struct stoke_trace_info info;
    if (is_js_heap_snapshot_name(path)) {
        if (!stoke_is_js_heap_file(path)) {
            fprintf(stderr, "stoke: '%s' is not a V8 heap snapshot (it does not begin with "
                            "{\"snapshot\"); skipped\n", path);
            return 0;
        }
        *js = stoke_xrealloc(*js, (*njs + 1) * sizeof **js);
        (*js)[(*njs)++] = stoke_xstrdup(path);
        return 1;
    }
    if (stoke_peek_trace(path, &info, why, sizeof why) == 0) {
        add_trace(r, path, &info);
        return 1;
    }
    fprintf(stderr, "stoke: %s\n", why);
    return 0;
}

/* 1 when the part before the trace named name is in dir: reading that one
 * reads this one too (trace_parts.h). */
static int reached_from_earlier_part(const char *dir, const char *name)
{
    char previous[NAME_MAX + 1], path[PATH_MAX];
    struct stat st;
    if (stoke_previous_part_name(name, previous, sizeof previous))
        return 0;
    path_in_dir(dir, previous, path, sizeof path);
    return lstat(path, &st) == 0;
}

static void add_later_part(struct recording *r, const char *path)
{
    r->later_parts = stoke_xrealloc(r->later_parts, (r->nlater + 1) * sizeof *r->later_parts);
    r->later_parts[r->nlater++] = stoke_xstrdup(path);
}

/* The traces of dir but those of earlier (NULL: none). */
static int find_in_directory(const char *dir, const struct output_files *earlier,
                             struct recording *r, char *err, size_t errlen)
{
    struct dirent **names;
    int count = scandir(dir, &names, select_recording_file, alphasort);
    if (count < 0) {
        snprintf(err, errlen, "cannot read directory '%s': %s", dir, strerror(errno));
        return -1;
    }
    int found = 0, tried = 0;
    char **js = NULL;
    size_t njs = 0;
    for (int i = 0; i < count; i++) {
        char path[PATH_MAX];
        path_in_dir(dir, names[i]->d_name, path, sizeof path);
        int of_run = !is_earlier_file(path, names[i]->d_name, earlier);
        if (of_run && reached_from_earlier_part(dir, names[i]->d_name)) {
            add_later_part(r, path);
        } else if (of_run) {
            tried++;
            found += add_file(r, path, &js, &njs);
        }
        free(names[i]);
    }
    free(names);
    for (size_t i = 0; i < njs; i++)
        add_js_snapshot(r, js[i]);
    free(js);
    if (tried > 0 && found == 0) {
        snprintf(err, errlen, "no trace in '%s' could be read (%d tried); record again", dir,
                 tried);
        return -1;
    }
    return found;
}

/* A file named on the command line: a JavaScript heap snapshot (by its
 * text, whatever its name), or a trace; a native snapshot gets the half
 * beside it. 1, or -1 with err. */
static int add_named_file(const char *path, struct recording *r, char *err, size_t errlen)
{
    if (stoke_is_js_heap_file(path)) {
        add_js_snapshot(r, stoke_xstrdup(path));
        return 1;
    }
    struct stoke_trace_info info;
    if (stoke_peek_trace(path, &info, err, errlen))
        return -1;
    add_trace(r, path, &info);
    char *js = info.kind == STOKE_PROFILE_HEAP ? js_half_name(path) : NULL;
    if (js && stoke_is_js_heap_file(js))
        r->snapshots[r->nsnapshots - 1].js_path = js;
    else
        free(js);
    return 1;
}

/* Adds the traces of path to r; returns how many, or -1 with err. */
static int add_traces_of(const char *path, struct recording *r, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st)) {
        snprintf(err, errlen, "cannot open '%s': %s; give a .stoke trace, a .heapsnapshot or a "
                              "directory of them", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode))
        return find_in_directory(path, NULL, r, err, errlen);
    return add_named_file(path, r, err, errlen);
}

int find_run_traces(const char *dir, const struct output_files *earlier, struct recording *r,
                    char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    int found = find_in_directory(dir, earlier, r, err, errlen);
    sort_snapshots(r);
    return found;
}

int find_traces(const char *path, struct recording *r, char *err, size_t errlen)
{
    return find_traces_of_paths(&path, 1, r, err, errlen);
}

int find_traces_of_paths(const char *const *paths, size_t n, struct recording *r, char *err,
                         size_t errlen)
{
    int total = 0;
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < n && total >= 0; i++) {
        int found = add_traces_of(paths[i], r, err, errlen);
        total = found < 0 ? -1 : total + found;
    }
    sort_snapshots(r);
    return total;
}

void free_recording(struct recording *r)
{
    for (size_t i = 0; i < r->ncpu; i++)
        free(r->cpu_traces[i]);
    for (size_t i = 0; i < r->nsnapshots; i++) {
        free(r->snapshots[i].path);
        free(r->snapshots[i].js_path);
    }
    for (size_t i = 0; i < r->njs_alone; i++)
        free(r->js_alone[i]);
    for (size_t i = 0; i < r->nlater; i++)
        free(r->later_parts[i]);
    free(r->later_parts);
    free(r->cpu_traces);
    free(r->snapshots);
    free(r->js_alone);
    memset(r, 0, sizeof *r);
}

/* --- loading -------------------------------------------------------------- */

struct stoke_profile *load_cpu_profile(const struct recording *r,
                                       const struct stoke_load_options *opt, char *err,
                                       size_t errlen)
{
    struct stoke_profile *p = stoke_profile_new();
    size_t loaded = 0;
    for (size_t i = 0; i < r->ncpu; i++) {
        if (stoke_load_trace(p, r->cpu_traces[i], opt, err, errlen) == 0)
            loaded++;
        else if (r->ncpu > 1)
            fprintf(stderr, "stoke: %s\n", err);
    }
    if (loaded && !(r->window && apply_time_window(p, r->window, err, errlen)))
        return p;
    if (!loaded && r->ncpu > 1)
        snprintf(err, errlen, "none of the %zu CPU traces could be read; record again", r->ncpu);
    stoke_profile_free(p);
    return NULL;
}

struct stoke_profile *load_snapshots(const struct snapshot *const *snapshots, size_t n,
                                     char *err, size_t errlen)
{
    struct stoke_profile *p = stoke_profile_new();
    for (size_t i = 0; i < n; i++) {
        if (stoke_load_trace(p, snapshots[i]->path, NULL, err, errlen)) {
            stoke_profile_free(p);
            return NULL;
        }
    }
    return p;
}

size_t last_snapshots(const struct recording *r, const struct snapshot **out)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nsnapshots; i++) {
        const struct snapshot *s = &r->snapshots[i];
        if (!n || out[n - 1]->info.pid != s->info.pid)
            out[n++] = s; /* a process's first: its lowest sequence, or its only peak */
        else if (!is_peak_snapshot(s))
            out[n - 1] = s; /* a higher sequence of the same process */
    }
    return n;
}

size_t last_js_snapshots(const struct recording *r, const char **out)
{
    size_t n = 0;
    uint32_t last_pid = 0;
    for (size_t i = 0; i < r->nsnapshots; i++) {
        const struct snapshot *s = &r->snapshots[i];
        if (!s->js_path)
            continue;
        if (n && last_pid == s->info.pid)
            out[n - 1] = s->js_path; /* a higher sequence of the same process */
        else
            out[n++] = s->js_path;
        last_pid = s->info.pid;
    }
    for (size_t i = 0; i < r->njs_alone; i++)
        out[n++] = r->js_alone[i];
    return n;
}

struct stoke_profile *load_js_snapshots(const char *const *paths, size_t n, char *err,
                                        size_t errlen)
{
    struct stoke_profile *p = stoke_profile_new();
    for (size_t i = 0; i < n; i++) {
        if (stoke_js_heap_load(p, paths[i], err, errlen)) {
            stoke_profile_free(p);
            return NULL;
        }
    }
    return p;
}
