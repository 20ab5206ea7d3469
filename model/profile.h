/*
 * profile.h - the offline profile model: a frame table and a list of
 * (stack, values) rows. Every output (folded, HTML, pprof, speedscope,
 * cpuprofile) is a small writer over this model; no writer re-reads a trace.
 *
 * Owns: interning of frames and stacks, per-process summaries.
 * Never: reads files, symbolizes, or formats output.
 */
#ifndef STOKE_PROFILE_H
#define STOKE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

/* What kind of code a frame is; the viewer colours by it. */
enum stoke_frame_kind {
    STOKE_KIND_PROGRAM = 0, /* the main executable */
    STOKE_KIND_LIBRARY = 1, /* a shared library other than libc */
    STOKE_KIND_LIBC = 2,    /* libc, libm, libpthread, ld.so, vdso */
    STOKE_KIND_JIT = 3,     /* named from a perf map file */
    STOKE_KIND_UNKNOWN = 4, /* could not be named: "module+0xoffset" */
    STOKE_KIND_PROCESS = 5, /* synthetic root: "comm (pid)" */
    STOKE_KIND_THREAD = 6,  /* synthetic: "thread name (tid)" */
    /* JavaScript (named from node's perf map), by whose code it is: */
    STOKE_KIND_JS_APP = 7,        /* the application's own files */
    STOKE_KIND_JS_DEPENDENCY = 8, /* a package under node_modules/ */
    STOKE_KIND_JS_CORE = 9,       /* node's own modules (node:...) */
    STOKE_KIND_RUNTIME = 10, /* the VM's own generated code: V8 builtins,
                              * bytecode handlers, stubs, regexp code */
    STOKE_KIND_GC = 11,      /* the garbage collector's native functions */
    STOKE_KIND_IDLE = 12,    /* waiting for events (epoll_wait, poll, ...) */
    STOKE_KIND_JS_HEAP = 13, /* objects of a JavaScript heap snapshot, by
                              * constructor as DevTools groups them (Leak,
                              * (string), {id, name}), or one of V8's roots
                              * ((GC roots)); a stack is a path down the
                              * dominator tree (js_heap_profile.h) */
};

/* The tier of V8 that compiled a JavaScript frame's code (the mark before
 * its name in node's perf map); 0 for every other frame. */
enum stoke_js_tier {
    STOKE_TIER_NONE = 0,
    STOKE_TIER_INTERPRETED = '~', /* Ignition's bytecode */
    STOKE_TIER_BASELINE = '^',    /* Sparkplug */
    STOKE_TIER_MID = '+',         /* Maglev */
    STOKE_TIER_OPTIMIZED = '*',   /* TurboFan */
};

/* The name of the synthetic frame that stands for the callers a stack is
 * missing (the agent cut it short, or it was deeper than a reader keeps). */
#define STOKE_INCOMPLETE_STACK "[incomplete stack]"

struct stoke_frame {
    const char *name;   /* function (demangled), or module+0xoffset */
    const char *module; /* basename of the module, "" for none */
    const char *file;   /* source file, "" when unknown */
    uint32_t line;      /* 0 when unknown */
    uint8_t kind;       /* enum stoke_frame_kind */
    uint8_t inlined;    /* 1 if this frame was inlined into its caller */
    const char *build_id; /* the module's build-id in hex, "" when unknown:
                           * code of different builds is never one frame */
    uint32_t column;    /* 0 when unknown (JavaScript frames know it) */
    uint8_t tier;       /* enum stoke_js_tier: frames of one function that
                         * differ only here are one function, compiled twice */
};

/* What a profile measures; one profile never mixes them. */
enum stoke_profile_kind {
    STOKE_PROFILE_CPU = 0,  /* value 0 "samples"/"count" (from CPU traces) */
    STOKE_PROFILE_HEAP = 1, /* the four heap values below (from heap snapshots) */
    STOKE_PROFILE_JS_HEAP = 2, /* the two JS heap values below (from V8
                                * .heapsnapshot files) */
};

/* The values of a heap profile, in this order (nvalues = 4). */
enum stoke_heap_value {
    STOKE_HEAP_LIVE_BYTES = 0,    /* "live_bytes"/"bytes": allocated, not yet freed */
    STOKE_HEAP_LIVE_OBJECTS = 1,  /* "live_objects"/"count" */
    STOKE_HEAP_ALLOC_BYTES = 2,   /* "alloc_bytes"/"bytes": since the process started */
    STOKE_HEAP_ALLOC_OBJECTS = 3, /* "alloc_objects"/"count" */
    STOKE_HEAP_NVALUES = 4,
};

/* The values of a JS heap profile, in this order (nvalues = 2): each
 * object's DevTools shallow size and a count of 1, on the stack of its
 * dominators, so a frame's total is what the objects under it retain. */
enum stoke_js_heap_value {
    STOKE_JS_HEAP_SHALLOW_BYTES = 0, /* "js_shallow"/"bytes" */
    STOKE_JS_HEAP_OBJECTS = 1,       /* "js_objects"/"count" */
    STOKE_JS_HEAP_NVALUES = 2,
};

/* A heap snapshot's own account (its HEAP record). */
struct stoke_heap_summary {
    uint64_t sequence;        /* 1, 2, ... per process */
    int trigger;              /* enum stoke_heap_trigger */
    uint64_t time_us;         /* since the process started */
    uint64_t realtime_ns;     /* wall-clock time of the snapshot */
    uint64_t sample_interval; /* mean bytes per sample; 1 = every allocation */
    uint64_t live_bytes, live_objects, alloc_bytes, alloc_objects; /* totals */
    uint64_t untracked;       /* allocations the agent could not record */
};

/* One profiled process as the summary and the report show it. */
struct stoke_process_summary {
    uint32_t pid;
    uint32_t ppid;
    uint32_t root_frame;      /* its "comm (pid)" frame; UINT32_MAX: none */
    uint64_t start_realtime_ns; /* wall-clock time the recording started, 0 unknown */
    char *comm;
    char *trace_path;
    int clock;                /* enum stoke_clock */
    int engine;               /* enum stoke_engine */
    uint32_t requested_hz;
    uint64_t period_ns;
    uint64_t duration_us;
    uint64_t samples;         /* samples read from the trace */
    uint64_t samples_lost;    /* from the END record (0 if absent) */
    uint64_t handler_ns;
    uint64_t cpu_ns;          /* samples x period, CPU clock only */
    int ended_cleanly;        /* 1 if the END record was present */
    uint64_t bytes_lost;      /* compressed bytes after the first damage */
    uint32_t parts;           /* files its trace was read from (trace_parts.h) */
    uint32_t first_part;      /* the oldest part read: > 1 when the older ones were
                               * removed (--max-size) */
    uint64_t kept_from_us;    /* when that part starts, since the process started */
    struct stoke_heap_summary heap; /* heap profiles only; a JS heap snapshot
                                     * sets live_bytes and live_objects */
};

#define STOKE_MAX_VALUES 4

struct stoke_row {
    uint32_t stack;                    /* index into stacks */
    int64_t values[STOKE_MAX_VALUES];
};

/* One CPU sample with the moment it was taken (sample_times.h). */
struct stoke_sample {
    uint64_t time_ns; /* wall-clock time, ns since the Unix epoch */
    uint32_t stack;   /* index into stacks */
    uint32_t process; /* index into procs */
    uint32_t tid;     /* the thread sampled */
    uint32_t weight;  /* periods it stands for, >= 1 */
    uint32_t site;    /* index into sites + 1; 0: none */
};

/* Where one frame of a sampled stack was (code_sites.h). */
struct stoke_position {
    uint64_t address;  /* an ELF virtual address in module, else an absolute
                        * one (JIT code); 0: none (synthetic frames) */
    uint32_t module;   /* index into sites.modules + 1; 0: none */
    uint32_t line;     /* the source line it was at, 0 when unknown */
    const char *file;  /* that line's file (interned), "" when unknown */
};

/* A binary holding sampled code, as pprof's mappings describe one. */
struct stoke_code_module {
    const char *path;     /* interned */
    const char *build_id; /* interned hex, "" when unknown */
    uint64_t start, limit; /* its mapped code, as ELF virtual addresses */
    uint64_t file_offset;  /* where start is in the file */
    int own_names;         /* 1: named from its own file (the run's build), so the
                            * source files its debug information names are the
                            * ones it was built from; 0: from the recording's
                            * stored names, or not named */
};

/* The stacks of a profile read from traces as they were in the code: each
 * site is a stack of the profile with a position for each of its frames,
 * and values like a row's (code_sites.h). Empty in a profile made of
 * anything else (folded stacks, a diff, a JS heap snapshot). */
struct stoke_site_table {
    uint32_t *stack;     /* by site: its stack (index into stacks) */
    uint32_t *start;     /* by site: its frames' positions in at, stack_len[stack] */
    int64_t *values;     /* by site: STOKE_MAX_VALUES values */
    size_t n;
    uint32_t *at;        /* the sites' frames' positions: indices into positions */
    size_t nat;
    struct stoke_position *positions; /* interned: each distinct one once */
    size_t npositions;
    struct stoke_code_module *modules;
    size_t nmodules;
    void *impl;          /* capacities and indexes (code_sites.c) */
};

/* The samples of a CPU profile in the order they were added; a profile
 * made of totals only (folded stacks, a diff, a heap snapshot) has none. */
struct stoke_sample_list {
    struct stoke_sample *at;
    size_t n, cap;
};

/* A process's live heap at a moment (heap_timeline.h). */
struct stoke_heap_moment {
    uint64_t time_ns; /* wall clock, ns since the Unix epoch */
    uint32_t process; /* index into procs */
    uint64_t live_bytes, live_objects, alloc_bytes, alloc_objects;
};

/* How the live heap of one allocation stack changed, up to a moment. */
struct stoke_heap_change {
    uint64_t time_ns;
    uint32_t stack; /* index into stacks */
    int64_t live_bytes, live_objects;
};

/* The live heap over time of a --heap recording's CPU traces, read into a
 * heap profile; empty for any other profile. */
struct stoke_heap_timeline {
    struct stoke_heap_moment *moments;
    size_t nmoments, moments_cap;
    struct stoke_heap_change *changes;
    size_t nchanges, changes_cap;
};

/* How a differential profile (profile_diff.h) was made from its two sides,
 * before (0) and after (1); all zero in any other profile. */
struct stoke_diff_sides {
    int shares;          /* 1: the side of the smaller total was scaled to the
                          * other's, so values compare as shares of each
                          * side's own total; 0: as recorded */
    int64_t total[2];    /* each side's total as recorded */
    size_t nprocs[2];    /* procs[0 .. nprocs[0]) are before's, the rest after's */
};

struct stoke_profile {
    int kind;                    /* enum stoke_profile_kind */
    /* value types, e.g. {"samples","count"}; nvalues >= 1 */
    size_t nvalues;
    const char *value_names[STOKE_MAX_VALUES];
    const char *value_units[STOKE_MAX_VALUES];
    uint64_t period_ns;          /* ns one sample stands for (0 if n/a) */

    struct stoke_frame *frames;  /* interned, unique */
    size_t nframes;

    /* stack i is stack_frames[stack_start[i] .. stack_start[i]+stack_len[i]),
     * root first (process frame, optional thread frame, then callers..leaf) */
    uint32_t *stack_frames;
    uint32_t *stack_start;
    uint32_t *stack_len;
    size_t nstacks;

    struct stoke_row *rows;      /* one row per distinct stack */
    size_t nrows;

    struct stoke_process_summary *procs;
    size_t nprocs;

    struct stoke_sample_list samples; /* CPU profiles read from traces */
    struct stoke_site_table sites;    /* profiles read from traces */
    struct stoke_heap_timeline heap_timeline;
    struct stoke_diff_sides diff;

    void *impl;                  /* interning tables, string arena */
};

struct stoke_profile *stoke_profile_new(void);
void stoke_profile_free(struct stoke_profile *p);

/* Sets value type i (0-based); the first call with i == nvalues grows it. */
void stoke_profile_set_value_type(struct stoke_profile *p, size_t i,
                                  const char *name, const char *unit);

/* Returns the index of a frame equal to f (strings are copied). */
uint32_t stoke_profile_frame(struct stoke_profile *p, const struct stoke_frame *f);

/* Adds values to the row of the stack frames[0..n) (root first). */
void stoke_profile_add(struct stoke_profile *p, const uint32_t *frames, size_t n,
                       const int64_t *values);

/* Returns the index of the stack frames[0..n) (root first), creating it and
 * its row (all values zero) if new. Row i always belongs to stack i, so
 * nrows == nstacks. */
uint32_t stoke_profile_stack(struct stoke_profile *p, const uint32_t *frames, size_t n);

/* Adds values (nvalues of them) to the row of stack index stack: the fast
 * path for a caller that has already interned the stack. */
void stoke_profile_add_to_stack(struct stoke_profile *p, uint32_t stack,
                                const int64_t *values);

/* Returns the profile's own copy of s (interned; NULL reads as ""), valid
 * until stoke_profile_free. */
const char *stoke_profile_string(struct stoke_profile *p, const char *s);

/* Appends a process summary and returns it (zeroed but for root_frame
 * UINT32_MAX, strings owned: comm and
 * trace_path are malloc'ed by the caller and freed with the profile). The
 * pointer is valid until the next call. */
struct stoke_process_summary *stoke_profile_add_process(struct stoke_profile *p);

/* Removes the last process summary added (and frees its strings). */
void stoke_profile_remove_last_process(struct stoke_profile *p);

/* Total of value i over all rows. */
int64_t stoke_profile_total(const struct stoke_profile *p, size_t i);

#endif
