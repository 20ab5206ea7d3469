/*
 * traces.h - finds the trace files of a path, sorts them into CPU traces,
 * heap snapshots and JavaScript heap snapshots (node's .heapsnapshot files,
 * each the JavaScript half of the native snapshot of the same name, or a
 * file of its own), and loads them into profiles (one profile holds one
 * kind).
 */
#ifndef STOKE_CLI_TRACES_H
#define STOKE_CLI_TRACES_H

#include <stddef.h>
#include <sys/types.h>

#include "output_files.h"
#include "peek.h"
#include "profile.h"
#include "time_window.h"
#include "trace_load.h"

/* 1 if a file name is a trace's (ends in ".stoke"). */
int is_trace_name(const char *name);

/* 1 when name ends with .heapsnapshot: a V8 heap snapshot, the JavaScript
 * half of a node process's heap snapshot. */
int is_js_heap_snapshot_name(const char *name);

/* 1 if a file name is the agent's name for the CPU trace of process pid:
 * <comm>.<pid>.stoke, or <comm>.<pid>.<n>.stoke when that was taken, or
 * a later part of either (<stem>.part-N.stoke). */
int is_cpu_trace_of(const char *name, pid_t pid);

/* 1 if a file name is a numbered heap snapshot of process pid:
 * <comm>.<pid>.heap.<seq>.<time>.stoke */
int is_snapshot_of(const char *name, pid_t pid);

/* The number of traces in directory dir but those of earlier (NULL:
 * none), or -1 if it cannot be read. */
int count_run_traces(const char *dir, const struct output_files *earlier);

struct snapshot {
    char *path;
    struct stoke_trace_info info;
    char *js_path; /* its JavaScript half: <name>.heapsnapshot beside <name>.stoke, or NULL */
};

/* The traces of a path (one file, or the .stoke files of a directory). */
struct recording {
    char **cpu_traces;          /* in name order; of a trace in parts, the oldest */
    size_t ncpu;
    char **later_parts;         /* the parts of those that reading them reads too */
    size_t nlater;
    size_t nempty;              /* CPU traces without a PROCESS record: nothing to report */
    struct snapshot *snapshots; /* by pid, then sequence; a pid's peak snapshot last */
    size_t nsnapshots;
    char **js_alone;            /* .heapsnapshot files no native snapshot has as its
                                 * half (a heapdump file, DevTools'), in name order */
    size_t njs_alone;
    const struct time_window *window; /* the span CPU profiles keep; NULL: all */
};

/* 1 when r holds a JavaScript heap snapshot. */
int has_js_snapshots(const struct recording *r);

/* 1 when s holds the peak snapshot (--heap-peak), not a numbered one. */
int is_peak_snapshot(const struct snapshot *s);

/* Sorts the traces at path by kind into r: a .stoke trace, a
 * .heapsnapshot, or a directory of them. A native snapshot given alone
 * gets the JavaScript half beside it. A trace of a directory that
 * cannot be read is reported on stderr and skipped. Returns the number of
 * traces found (0: a directory without traces), or -1 with a one-line
 * message in err. */
int find_traces(const char *path, struct recording *r, char *err, size_t errlen);

/* The traces of a recording into directory dir: all but those of earlier
 * (the files that were there before it). */
int find_run_traces(const char *dir, const struct output_files *earlier, struct recording *r,
                    char *err, size_t errlen);

/* The same for several paths, their traces together in one recording; -1
 * with err at the first path that cannot be read. */
int find_traces_of_paths(const char *const *paths, size_t n, struct recording *r, char *err,
                         size_t errlen);
void free_recording(struct recording *r);

/* Loads all CPU traces of r into a new profile, the samples of r->window
 * only when it is given. A trace that cannot be loaded is reported and
 * skipped; NULL with err when none could be, or when the window cannot be
 * kept. */
struct stoke_profile *load_cpu_profile(const struct recording *r,
                                       const struct stoke_load_options *opt, char *err,
                                       size_t errlen);

/* Loads snapshots[0..n) into one new heap profile; NULL with err when one
 * cannot be loaded. */
struct stoke_profile *load_snapshots(const struct snapshot *const *snapshots, size_t n,
                                     char *err, size_t errlen);

/* The last snapshot of each process of r (the highest sequence; the peak
 * snapshot only for a process that has no other), in out (room for
 * r->nsnapshots); returns how many. */
size_t last_snapshots(const struct recording *r, const struct snapshot **out);

/* The last JavaScript heap snapshot of each process of r (the half of its
 * latest native snapshot that has one), then every one alone, in out
 * (room for r->nsnapshots + r->njs_alone); returns how many. */
size_t last_js_snapshots(const struct recording *r, const char **out);

/* Loads the JavaScript heap snapshots paths[0..n) into one new profile
 * (STOKE_PROFILE_JS_HEAP); NULL with err when one cannot be read. */
struct stoke_profile *load_js_snapshots(const char *const *paths, size_t n, char *err,
                                        size_t errlen);

#endif
