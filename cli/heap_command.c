/*
 * heap_command.c - `stoke heap PID [--timeout SECONDS]`: asks a running process
 * that stoke's agent tracks to write a heap snapshot, and prints the
 * snapshot's path on stdout once it is written. Checks, in order, that the
 * process exists, is ours (or we are root), has not exited, runs the
 * agent, has its trace open (which names the output directory), and, by
 * that trace's PROCESS record (the environment for a trace older than
 * format 1.2), has heap tracking on and a dump signal; then sends the
 * signal and waits for a new <comm>.<pid>.heap.<seq>.<time>.stoke in the
 * output directory.
 * For node, the V8 heap snapshot node writes with it too (its path on a
 * second line). heap_request (heap_request.h) is the same request for
 * stoke record, which takes snapshots when a load starts and ends.
 * Never writes the snapshot itself (the agent does) and never sends any
 * signal but the dump signal the trace names.
 */
#define _GNU_SOURCE /* strsignal */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "agent_path.h"
#include "commands.h"
#include "heap_request.h"
#include "options.h"
#include "peek.h"
#include "stoke_agent_env.h"
#include "target_process.h"
#include "traces.h"

#define DEFAULT_TIMEOUT_S 10.0
#define MAX_TIMEOUT_S 86400.0
#define POLL_INTERVAL_NS 20000000L /* 20 ms */

struct heap_options {
    pid_t pid;
    double timeout_s;
};

void heap_usage(FILE *out)
{
    fprintf(out,
            "usage: stoke heap PID [options]\n"
            "\n"
            "Makes a process started with `stoke record --heap` write a heap snapshot now,\n"
            "and prints the snapshot's path once it is written.\n"
            "\n"
            "options:\n"
            "      --timeout SECONDS  how long to wait for the snapshot (default %.0f)\n"
            "  -h, --help             show this help\n"
            "\n"
            "exit status: 0 written, 1 not possible or timed out, 2 usage\n",
            DEFAULT_TIMEOUT_S);
}

static int parse_pid(const char *text, pid_t *pid)
{
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno || end == text || *end || value < 1 || value > INT_MAX) {
        fprintf(stderr, "stoke heap: '%s' is not a process id\n", text);
        return -1;
    }
    *pid = (pid_t)value;
    return 0;
}

static int parse_timeout(const char *text, double *seconds)
{
    char *end;
    double value = strtod(text, &end);
    if (end == text || *end || !(value > 0) || value > MAX_TIMEOUT_S) {
        fprintf(stderr, "stoke heap: --timeout '%s' is not a number of seconds above 0\n",
                text);
        return -1;
    }
    *seconds = value;
    return 0;
}

enum { OPT_TIMEOUT = 256 };

/* Returns -1 to go on, or the exit status to end with. */
static int parse_options(int argc, char **argv, struct heap_options *opt)
{
    static const struct option longopts[] = {
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *opt = (struct heap_options){.timeout_s = DEFAULT_TIMEOUT_S};
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_TIMEOUT:
            if (parse_timeout(optarg, &opt->timeout_s))
                return EXIT_USAGE;
            break;
        case 'h':
            heap_usage(stdout);
            return EXIT_OK;
        default:
            report_bad_option("heap", c, argv);
            return EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "stoke heap: give one process id; usage: stoke heap PID [options]\n");
        return EXIT_USAGE;
    }
    return parse_pid(argv[optind], &opt->pid) ? EXIT_USAGE : -1;
}

/* --- what the process allows ---------------------------------------------- */

/* The dump signal and output directory of a process the agent tracks, and
 * the trace it writes (in that directory). */
struct dump_target {
    int signal;
    pid_t thread;     /* the thread to send it to, 0: the process */
    int js_heap;      /* node writes the JavaScript half too */
    char *trace;
    char output_dir[PATH_MAX];
};

static int check_access(pid_t pid)
{
    switch (check_target(pid)) {
    case TARGET_MISSING:
        fprintf(stderr, "stoke heap: no process %d\n", (int)pid);
        return -1;
    case TARGET_FOREIGN:
        fprintf(stderr, "stoke heap: not allowed: process %d belongs to another user\n",
                (int)pid);
        return -1;
    default:
        return 0;
    }
}

static int check_running(pid_t pid)
{
    pid_t parent = 0;
    if (target_exited(pid, &parent) <= 0)
        return 0;
    fprintf(stderr, "stoke heap: process %d has exited: it is a zombie waiting for its parent "
                    "(process %d) to reap it, and can take no snapshot\n",
            (int)pid, (int)parent);
    return -1;
}

static int check_agent(pid_t pid)
{
    int mapped = target_maps_file(pid, AGENT_HEAP_FILE);
    if (mapped == 0) /* the agent without heap tracking: the trace says so */
        mapped = target_maps_file(pid, AGENT_CPU_FILE);
    if (mapped > 0)
        return 0;
    if (mapped < 0)
        fprintf(stderr, "stoke heap: not allowed: cannot read the memory map of process %d\n",
                (int)pid);
    else
        fprintf(stderr, "stoke heap: process %d does not run with stoke's agent; start it with "
                        "stoke record --heap\n", (int)pid);
    return -1;
}

/* The trace the process writes, and so its output directory. */
static int find_trace(pid_t pid, struct dump_target *t)
{
    int error;
    t->trace = target_open_trace(pid, &error);
    if (t->trace) { /* an absolute path: its directory is "/" at least */
        int dir_len = (int)(strrchr(t->trace, '/') - t->trace);
        snprintf(t->output_dir, sizeof t->output_dir, "%.*s", dir_len ? dir_len : 1, t->trace);
        return 0;
    }
    if (error)
        fprintf(stderr, "stoke heap: not allowed: cannot read the open files of process %d: "
                        "%s\n", (int)pid, strerror(error));
    else
        fprintf(stderr, "stoke heap: process %d runs stoke's agent but has no trace open (the "
                        "agent could not write one, or stopped profiling: its stderr says "
                        "why), so it takes no snapshot on a signal; record it again\n",
                (int)pid);
    return -1;
}

/* The heap settings of a process whose trace predates format 1.2: those
 * of the environment it started with. */
static void read_environment_settings(pid_t pid, struct stoke_trace_info *info)
{
    char *interval = target_environ_value(pid, STOKE_ENV_HEAP_INTERVAL);
    char *signal_text = target_environ_value(pid, STOKE_ENV_HEAP_SIGNAL);
    info->heap_interval = interval ? strtoull(interval, NULL, 10) : 0;
    info->heap_signal = signal_text ? (uint32_t)atoi(signal_text) : STOKE_DEFAULT_HEAP_SIGNAL;
    free(interval);
    free(signal_text);
}

/* Reads the heap settings the process runs with from its trace's PROCESS
 * record (from its environment for a trace older than format 1.2). */
static int read_dump_target(pid_t pid, struct dump_target *t)
{
    struct stoke_trace_info info;
    char err[PATH_MAX + 256];
    if (stoke_peek_process(t->trace, &info, err, sizeof err)) {
        fprintf(stderr, "stoke heap: cannot read the trace of process %d: %s\n", (int)pid, err);
        return -1;
    }
    if (info.heap_settings == STOKE_HEAP_SETTINGS_MISSING) {
        fprintf(stderr, "stoke heap: the trace of process %d, %s, does not hold its heap "
                        "settings yet (the agent writes them as the process starts); try again "
                        "in a moment\n", (int)pid, t->trace);
        return -1;
    }
    if (info.heap_settings == STOKE_HEAP_SETTINGS_PREDATED)
        read_environment_settings(pid, &info);
    t->signal = (int)info.heap_signal;
    t->thread = (pid_t)info.heap_signal_tid;
    t->js_heap = info.js_heap_signal != 0;
    if (!info.heap_interval)
        fprintf(stderr, "stoke heap: process %d runs stoke's agent without heap tracking; "
                        "start it with stoke record --heap\n", (int)pid);
    else if (t->signal <= 0 || t->signal >= NSIG)
        fprintf(stderr, "stoke heap: process %d has no heap snapshot signal (recorded with "
                        "--heap-signal none, or the program took the signal over); record it "
                        "with --heap-signal and a signal it leaves alone, or call "
                        "stoke_heap_dump() in the program\n",
                (int)pid);
    else
        return 0;
    return -1;
}

/* --- waiting for the snapshot --------------------------------------------- */

/* The names of pid's snapshots in dir, as a NULL-terminated list. */
static char **list_snapshots(const char *dir, pid_t pid)
{
    size_t n = 0;
    char **names = calloc(1, sizeof *names);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (names && d && (e = readdir(d))) {
        if (!is_snapshot_of(e->d_name, pid))
            continue;
        char **bigger = realloc(names, (n + 2) * sizeof *names);
        char *copy = strdup(e->d_name);
        if (bigger)
            names = bigger;
        if (!bigger || !copy) {
            free(copy);
            break;
        }
        names[n++] = copy;
        names[n] = NULL;
    }
    if (d)
        closedir(d);
    return names;
}

static void free_list(char **names)
{
    for (size_t i = 0; names && names[i]; i++)
        free(names[i]);
    free(names);
}

static int listed(char *const *names, const char *name)
{
    for (size_t i = 0; names && names[i]; i++)
        if (!strcmp(names[i], name))
            return 1;
    return 0;
}

/* The first of pid's snapshots in dir that is not in before (malloc'ed). */
static char *new_snapshot(const char *dir, pid_t pid, char *const *before)
{
    char **now = list_snapshots(dir, pid);
    char *found = NULL;
    for (size_t i = 0; now && now[i] && !found; i++)
        if (!listed(before, now[i]))
            found = strdup(now[i]);
    free_list(now);
    return found;
}

static double monotonic_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void pause_poll(void)
{
    struct timespec pause = {0, POLL_INTERVAL_NS};
    nanosleep(&pause, NULL);
}

static long long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) ? -1 : (long long)st.st_size;
}

/* Waits until the file stops growing (the agent has finished writing). */
static int wait_until_written(const char *path, double deadline)
{
    long long last = -1, size;
    while ((size = file_size(path)) != last || size <= 0) {
        if (monotonic_s() > deadline)
            return -1;
        last = size;
        pause_poll();
        pause_poll();
    }
    return 0;
}

/* The pause node reported for the JavaScript half of snapshot seq, once
 * its JS_HEAP record is in the trace (within deadline); -1 when not. */
static double node_pause_ms(const struct dump_target *t, unsigned seq, double deadline)
{
    struct stoke_trace_info info;
    char err[PATH_MAX + 256];
    do {
        if (!stoke_peek_process(t->trace, &info, err, sizeof err) && info.js_heap_seq == seq)
            return (double)info.js_heap_took_us / 1000.0;
        pause_poll();
    } while (monotonic_s() < deadline);
    return -1;
}

/* Node's JavaScript half of the snapshot in out->native: waits for it,
 * into out->js (and how long node took). */
static int wait_for_js_half(const struct dump_target *t, struct heap_request *out,
                            double deadline)
{
    const char *seq = strstr(out->native, ".heap.");
    size_t stem = strlen(out->native) - strlen(".stoke");
    snprintf(out->js, sizeof out->js, "%.*s.heapsnapshot", (int)stem, out->native);
    while (file_size(out->js) < 0 && monotonic_s() < deadline)
        pause_poll();
    if (file_size(out->js) < 0) {
        fprintf(stderr, "stoke heap: node wrote no JavaScript heap snapshot (%s) in time; try a "
                        "longer --timeout (a heap of gigabytes takes seconds)\n", out->js);
        out->js[0] = 0;
        return -1;
    }
    out->node_pause_ms =
        seq ? node_pause_ms(t, (unsigned)atoi(seq + strlen(".heap.")), deadline) : -1;
    return 0;
}

/* Sends the dump signal to the process (or the thread the trace names). */
static int send_signal(pid_t pid, const struct dump_target *t)
{
    return t->thread ? (int)syscall(SYS_tgkill, pid, t->thread, t->signal) : kill(pid, t->signal);
}

/* Sends the dump signal and waits for the new snapshot (and its
 * JavaScript half, for node). */
static int take_snapshot(pid_t pid, const struct dump_target *t, double timeout_s,
                         struct heap_request *out)
{
    char **before = list_snapshots(t->output_dir, pid);
    if (send_signal(pid, t)) {
        fprintf(stderr, "stoke heap: cannot signal process %d: %s\n", (int)pid, strerror(errno));
        free_list(before);
        return -1;
    }
    double deadline = monotonic_s() + timeout_s;
    char *name = NULL;
    while (!(name = new_snapshot(t->output_dir, pid, before)) && monotonic_s() < deadline &&
           kill(pid, 0) == 0)
        pause_poll();
    free_list(before);
    if (name)
        snprintf(out->native, sizeof out->native, "%s/%s", t->output_dir, name);
    if (name && wait_until_written(out->native, deadline) == 0) {
        free(name);
        return t->js_heap ? wait_for_js_half(t, out, deadline) : 0;
    }
    free(name);
    if (kill(pid, 0) && errno == ESRCH)
        fprintf(stderr, "stoke heap: process %d ended before writing a snapshot\n", (int)pid);
    else
        fprintf(stderr, "stoke heap: no snapshot from process %d in %s/ within %g s after "
                        "signal %d (%s); its stderr may say why\n",
                (int)pid, t->output_dir, timeout_s, t->signal, strsignal(t->signal));
    return -1;
}

int heap_request(pid_t pid, double timeout_s, struct heap_request *out)
{
    struct dump_target target = {0};
    *out = (struct heap_request){.node_pause_ms = -1};
    int ok = check_access(pid) == 0 && check_running(pid) == 0 && check_agent(pid) == 0 &&
             find_trace(pid, &target) == 0 && read_dump_target(pid, &target) == 0 &&
             take_snapshot(pid, &target, timeout_s, out) == 0;
    free(target.trace);
    return ok ? 0 : -1;
}

int heap_main(int argc, char **argv)
{
    struct heap_options opt;
    struct heap_request taken;
    int status = parse_options(argc, argv, &opt);
    if (status >= 0)
        return status;
    int failed = heap_request(opt.pid, opt.timeout_s, &taken);
    if (taken.native[0] && (!failed || !taken.js[0]))
        printf("%s\n", taken.native);
    if (taken.js[0])
        printf("%s\n", taken.js);
    if (taken.node_pause_ms >= 0)
        fprintf(stderr, "stoke heap: node paused its JavaScript about %.0f ms to write it\n",
                taken.node_pause_ms);
    return failed ? EXIT_RUNTIME_FAILURE : EXIT_OK;
}
