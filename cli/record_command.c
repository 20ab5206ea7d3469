/*
 * record_command.c - `stoke record [options] -- COMMAND [ARGS...]`: checks the
 * options and the command, runs it under the agent (alone, or as a server
 * session with -P or --duration), then turns the traces the run left into
 * the report and prints the summary. Ends with the command's own exit
 * status, or the session's. Never samples or reads traces itself: the
 * agent and read/ do.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent_path.h"
#include "command_path.h"
#include "commands.h"
#include "elf_check.h"
#include "stoke_agent_env.h"
#include "keep_names.h"
#include "launch.h"
#include "left_running.h"
#include "load_output.h"
#include "load_marks.h"
#include "manifest.h"
#include "measure.h"
#include "options.h"
#include "open_report.h"
#include "continuous_push.h"
#include "outputs.h"
#include "recording_report.h"
#include "runtime_leftovers.h"
#include "server_session.h"
#include "signal_name.h"
#include "summary.h"
#include "traces.h"
#include "units.h"


struct record_options {
    unsigned hz;
    const char *clock;      /* "cpu" or "wall" */
    const char *output_dir; /* NULL: stoke-<pid> */
    int collect_only;
    int split_threads;
    int runtime_names;      /* ask JIT runtimes (node, the JVM) to name their code */
    uint64_t max_size;      /* --max-size: bytes of each process's CPU trace; 0: no bound */
    struct heap_plan heap;
    struct session_plan session;
    struct push_plan push;  /* --push: windows sent while the command runs */
    char push_name[INGEST_NAME_MAX + 1]; /* its application name by default */
    int open_report;
    char **command;         /* NULL-terminated */
};

#define DEFAULT_WAIT_MS 30000
#define DEFAULT_STOP_TIMEOUT_MS 5000

void record_usage(FILE *out)
{
    fprintf(out,
            "usage: stoke record [options] -- COMMAND [ARGS...]\n"
            "\n"
            "Runs COMMAND with stoke's agent, samples its stacks and writes a flame graph.\n"
            "\n"
            "options:\n"
            "  -F, --freq HZ       samples per second of the clock (default %d, at most %d)\n"
            "      --clock CLOCK   cpu: time on CPU (default); wall: also time blocked\n"
            "  -o, --output DIR    where traces and the report go (default stoke-<pid>)\n"
            "      --collect-only  write the traces only, no flamegraph.html\n"
            "      --threads       give each thread its own frame in the report\n"
            "      --max-size BYTES\n"
            "                      bound each process's CPU trace on disk (K, M, G\n"
            "                      suffixes, at least 64K): a long recording keeps its\n"
            "                      newest part and removes the oldest\n"
            "      --heap          also track the heap: sampled allocation stacks, snapshots\n"
            "                      on a signal and at exit\n"
            "      --heap-interval BYTES\n"
            "                      mean bytes allocated between heap samples (default 512K;\n"
            "                      K and M suffixes; 1 tracks every allocation)\n"
            "      --heap-signal SIG|none\n"
            "                      the signal that takes a heap snapshot (default USR2)\n"
            "      --heap-peak     also keep the snapshot at the highest live heap\n"
            "      --no-runtime-names\n"
            "                      leave NODE_OPTIONS and JAVA_TOOL_OPTIONS alone: node and\n"
            "                      the JVM then do not name their JavaScript and Java code\n"
            "\n"
            "servers:\n"
            "  -P, --load CMD      when COMMAND listens on a TCP port, run CMD with the\n"
            "                      shell ($PORT and ${PORT} replaced by the port), then\n"
            "                      stop COMMAND; CMD's output goes into the report\n"
            "      --port N        the port COMMAND listens on (skips detection)\n"
            "      --wait TIME     how long to wait for the port (default 30s)\n"
            "      --duration TIME record for TIME, then stop COMMAND (and CMD)\n"
            "      --stop-timeout TIME\n"
            "                      wait this long after SIGINT, then SIGTERM, then\n"
            "                      SIGKILL (default 5s)\n"
            "      --open          open the report with $BROWSER or xdg-open\n"
            "\n"
            "continuous profiles:\n"
            "      --push URL      while COMMAND runs, send each window of its CPU samples\n"
            "                      to a Pyroscope-compatible server as pprof (see stoke push)\n"
            "      --push-every TIME\n"
            "                      the length of a window (default 15s)\n"
            "      --push-name APP the application's name (default: COMMAND's name)\n"
            "      --push-label KEY=VALUE\n"
            "                      a label of every window (host, region...); repeatable\n"
            "  -h, --help          show this help\n"
            "\n"
            "TIME is a number with ms, s (the default) or m. Any --heap-* option implies\n"
            "--heap. When COMMAND exits and leaves processes running (a daemon), stoke\n"
            "waits for them before it reports; Ctrl-C or SIGTERM stops the wait and leaves\n"
            "them running. stoke exits with COMMAND's exit status (128 + N if a signal N\n"
            "ended it); with -P, 0 when the load command succeeded, 1 when it or the server\n"
            "failed, 130 after Ctrl-C (128 + N after signal N: SIGTERM, SIGHUP); a second\n"
            "Ctrl-C stops at once, without a report.\n",
            STOKE_DEFAULT_HZ, STOKE_MAX_HZ);
}

static int parse_hz(const char *text, unsigned *hz)
{
    char *end;
    errno = 0;
    unsigned long value = strtoul(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || value < 1 || value > STOKE_MAX_HZ) {
        fprintf(stderr, "stoke record: -F/--freq '%s' is not a rate from 1 to %d Hz\n", text,
                STOKE_MAX_HZ);
        return -1;
    }
    *hz = (unsigned)value;
    return 0;
}

static int parse_clock(const char *text, const char **clock)
{
    if (strcmp(text, "cpu") && strcmp(text, "wall")) {
        fprintf(stderr, "stoke record: --clock '%s' is neither cpu nor wall\n", text);
        return -1;
    }
    *clock = text;
    return 0;
}

/* "out/" and "out" name the same directory; messages add the '/' back. */
static void drop_trailing_slashes(char *path)
{
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        path[--len] = '\0';
}

static int parse_output_dir(char *text, const char **dir)
{
    if (!*text) {
        fprintf(stderr, "stoke record: -o/--output needs a directory name\n");
        return -1;
    }
    if (strlen(text) > PATH_MAX / 2) {
        fprintf(stderr, "stoke record: -o/--output: the directory name is too long\n");
        return -1;
    }
    drop_trailing_slashes(text);
    *dir = text;
    return 0;
}

static int parse_max_size(const char *text, uint64_t *max_size)
{
    if (parse_bytes(text, max_size) || *max_size < STOKE_MIN_MAX_SIZE) {
        fprintf(stderr, "stoke record: --max-size '%s' is not a size of at least 64K (K, M and G "
                        "suffixes allowed, e.g. 100M)\n", text);
        return -1;
    }
    return 0;
}

static int parse_heap_interval(const char *text, struct heap_plan *heap)
{
    uint64_t bytes;
    if (parse_bytes(text, &bytes) || bytes < 1 || bytes > STOKE_MAX_HEAP_INTERVAL) {
        fprintf(stderr, "stoke record: --heap-interval '%s' is not a number of bytes from 1 to "
                        "1048576M (K and M suffixes allowed, e.g. 512K)\n", text);
        return -1;
    }
    heap->interval = bytes;
    return 0;
}

/* A dump signal the agent can receive and does not need for itself. */
static int parse_heap_signal(const char *text, struct heap_plan *heap)
{
    heap->signal = strcmp(text, "none") ? parse_signal(text) : 0;
    if (strcmp(text, "none") && !heap->signal) {
        fprintf(stderr, "stoke record: --heap-signal '%s' is not a signal name (like USR2), "
                        "a signal number, or none\n", text);
        return -1;
    }
    if (heap->signal == SIGKILL || heap->signal == SIGSTOP || heap->signal == SIGPROF) {
        fprintf(stderr, "stoke record: --heap-signal '%s': %s; choose another, like USR1\n",
                text, heap->signal == SIGPROF ? "stoke samples with that signal"
                                              : "that signal cannot be caught");
        return -1;
    }
    return 0;
}

static int parse_time(const char *option, const char *text, uint64_t *ms, int zero_ok)
{
    if (parse_duration(text, ms) || (!zero_ok && *ms == 0)) {
        fprintf(stderr, "stoke record: %s '%s' is not a duration (like 30s, 500ms or 2m)\n",
                option, text);
        return -1;
    }
    return 0;
}

static int parse_port(const char *text, unsigned *port)
{
    char *end;
    errno = 0;
    unsigned long value = strtoul(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || value < 1 || value > 65535) {
        fprintf(stderr, "stoke record: --port '%s' is not a TCP port from 1 to 65535\n", text);
        return -1;
    }
    *port = (unsigned)value;
    return 0;
}

static int parse_load(const char *text, const char **load)
{
    if (!text[strspn(text, " \t\n")]) {
        fprintf(stderr, "stoke record: -P/--load needs a command, like "
                        "-P 'wrk -d 10s http://127.0.0.1:$PORT/'\n");
        return -1;
    }
    *load = text;
    return 0;
}

enum {
    OPT_CLOCK = 256,
    OPT_COLLECT_ONLY,
    OPT_THREADS,
    OPT_MAX_SIZE,
    OPT_HEAP,
    OPT_HEAP_INTERVAL,
    OPT_HEAP_SIGNAL,
    OPT_HEAP_PEAK,
    OPT_PORT,
    OPT_WAIT,
    OPT_DURATION,
    OPT_STOP_TIMEOUT,
    OPT_OPEN,
    OPT_NO_RUNTIME_NAMES,
    OPT_PUSH,
    OPT_PUSH_EVERY,
    OPT_PUSH_NAME,
    OPT_PUSH_LABEL,
};

/* The --push options; returns -1 on a bad value. */
static int parse_push_option(int c, const char *value, struct push_plan *push)
{
    struct ingest_options *in = &push->ingest;
    switch (c) {
    case OPT_PUSH:
        in->url = value;
        return 0;
    case OPT_PUSH_EVERY:
        return parse_time("--push-every", value, &push->every_ms, 0);
    case OPT_PUSH_NAME:
        in->name = value;
        return ingest_check_name("stoke record", "--push-name", value);
    default:
        if (in->nlabels == INGEST_MAX_LABELS) {
            fprintf(stderr, "stoke record: at most %d --push-label options\n", INGEST_MAX_LABELS);
            return -1;
        }
        in->labels[in->nlabels++] = value;
        return ingest_check_label("stoke record", "--push-label", value);
    }
}

/* The application's name by default: the command's file name, less what
 * a Pyroscope name may not hold. */
static void default_push_name(struct record_options *opt)
{
    char *name = opt->push_name;
    size_t len = sizeof opt->push_name;
    const char *slash = strrchr(opt->command[0], '/');
    snprintf(name, len, "%s", slash ? slash + 1 : opt->command[0]);
    for (char *c = name; *c; c++)
        if (strchr("{},=\"", *c))
            *c = '_';
    if (!*name)
        snprintf(name, len, "stoke");
    opt->push.ingest.name = name;
}

/* --push-* options without --push would do nothing: -1 after saying so. */
static int check_push_options(const struct record_options *opt)
{
    const struct push_plan *push = &opt->push;
    if (push->ingest.url || (!push->ingest.name && !push->ingest.nlabels &&
                             push->every_ms == PUSH_EVERY_DEFAULT_MS))
        return 0;
    fprintf(stderr, "stoke record: --push-every, --push-name and --push-label go with --push URL "
                    "(the server to send windows to)\n");
    return -1;
}

/* The server options; returns -1 on a bad value. */
static int parse_session_option(int c, const char *value, struct record_options *opt)
{
    struct session_plan *s = &opt->session;
    switch (c) {
    case 'P':
        return parse_load(value, &s->load);
    case OPT_PORT:
        return parse_port(value, &s->port);
    case OPT_WAIT:
        return parse_time("--wait", value, &s->wait_ms, 0);
    case OPT_DURATION:
        return parse_time("--duration", value, &s->duration_ms, 0);
    case OPT_STOP_TIMEOUT:
        return parse_time("--stop-timeout", value, &s->stop_timeout_ms, 1);
    default:
        opt->open_report = 1;
        return 0;
    }
}

/* The --heap options; returns -1 on a bad value. Each turns heap tracking on. */
static int parse_heap_option(int c, const char *value, struct heap_plan *heap)
{
    if (!heap->interval)
        heap->interval = STOKE_DEFAULT_HEAP_INTERVAL;
    switch (c) {
    case OPT_HEAP_INTERVAL:
        return parse_heap_interval(value, heap);
    case OPT_HEAP_SIGNAL:
        return parse_heap_signal(value, heap);
    case OPT_HEAP_PEAK:
        heap->peak = 1;
        return 0;
    default:
        return 0;
    }
}

/* Returns -1 to go on, or the exit status to end with. */
static int parse_options(int argc, char **argv, struct record_options *opt)
{
    static const struct option longopts[] = {
        {"freq", required_argument, NULL, 'F'},
        {"clock", required_argument, NULL, OPT_CLOCK},
        {"output", required_argument, NULL, 'o'},
        {"collect-only", no_argument, NULL, OPT_COLLECT_ONLY},
        {"threads", no_argument, NULL, OPT_THREADS},
        {"max-size", required_argument, NULL, OPT_MAX_SIZE},
        {"heap", no_argument, NULL, OPT_HEAP},
        {"heap-interval", required_argument, NULL, OPT_HEAP_INTERVAL},
        {"heap-signal", required_argument, NULL, OPT_HEAP_SIGNAL},
        {"heap-peak", no_argument, NULL, OPT_HEAP_PEAK},
        {"load", required_argument, NULL, 'P'},
        {"port", required_argument, NULL, OPT_PORT},
        {"wait", required_argument, NULL, OPT_WAIT},
        {"duration", required_argument, NULL, OPT_DURATION},
        {"stop-timeout", required_argument, NULL, OPT_STOP_TIMEOUT},
        {"open", no_argument, NULL, OPT_OPEN},
        {"no-runtime-names", no_argument, NULL, OPT_NO_RUNTIME_NAMES},
        {"push", required_argument, NULL, OPT_PUSH},
        {"push-every", required_argument, NULL, OPT_PUSH_EVERY},
        {"push-name", required_argument, NULL, OPT_PUSH_NAME},
        {"push-label", required_argument, NULL, OPT_PUSH_LABEL},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *opt = (struct record_options){
        .hz = STOKE_DEFAULT_HZ,
        .clock = "cpu",
        .runtime_names = 1,
        .heap = {.signal = STOKE_DEFAULT_HEAP_SIGNAL},
        .session = {.wait_ms = DEFAULT_WAIT_MS, .stop_timeout_ms = DEFAULT_STOP_TIMEOUT_MS},
        .push = {.every_ms = PUSH_EVERY_DEFAULT_MS,
                 .ingest = {.timeout_s = INGEST_TIMEOUT_S,
                            .connect_timeout_s = INGEST_CONNECT_TIMEOUT_S}},
    };
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+:F:o:P:h", longopts, NULL)) != -1) {
        int bad = 0;
        switch (c) {
        case 'F':
            bad = parse_hz(optarg, &opt->hz);
            break;
        case OPT_CLOCK:
            bad = parse_clock(optarg, &opt->clock);
            break;
        case 'o':
            bad = parse_output_dir(optarg, &opt->output_dir);
            break;
        case OPT_COLLECT_ONLY:
            opt->collect_only = 1;
            break;
        case OPT_THREADS:
            opt->split_threads = 1;
            break;
        case OPT_MAX_SIZE:
            bad = parse_max_size(optarg, &opt->max_size);
            break;
        case OPT_NO_RUNTIME_NAMES:
            opt->runtime_names = 0;
            break;
        case OPT_HEAP:
        case OPT_HEAP_INTERVAL:
        case OPT_HEAP_SIGNAL:
        case OPT_HEAP_PEAK:
            bad = parse_heap_option(c, optarg, &opt->heap);
            break;
        case 'P':
        case OPT_PORT:
        case OPT_WAIT:
        case OPT_DURATION:
        case OPT_STOP_TIMEOUT:
        case OPT_OPEN:
            bad = parse_session_option(c, optarg, opt);
            break;
        case OPT_PUSH:
        case OPT_PUSH_EVERY:
        case OPT_PUSH_NAME:
        case OPT_PUSH_LABEL:
            bad = parse_push_option(c, optarg, &opt->push);
            break;
        case 'h':
            record_usage(stdout);
            return EXIT_OK;
        default:
            report_bad_option("record", c, argv);
            return EXIT_USAGE;
        }
        if (bad)
            return EXIT_USAGE;
    }
    if (optind >= argc) {
        fprintf(stderr, "stoke record: no command given; "
                        "usage: stoke record [options] -- COMMAND [ARGS...]\n");
        return EXIT_USAGE;
    }
    opt->command = argv + optind;
    if (check_push_options(opt))
        return EXIT_USAGE;
    if (opt->push.ingest.url && !opt->push.ingest.name)
        default_push_name(opt);
    return -1;
}

static uint64_t monotonic_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* Whether the program runs with privileges other than the user's (setuid,
 * setgid, file capabilities): stoke refuses to start it. */
static int changes_privileges(enum preload_verdict verdict)
{
    return verdict == PRELOAD_SETUID || verdict == PRELOAD_SETGID ||
           verdict == PRELOAD_CAPABILITIES;
}

static void refuse_privileged(const char *file, enum preload_verdict verdict)
{
    fprintf(stderr, "stoke: %s %s; stoke does not run programs that change privileges: run "
                    "stoke as the user the program becomes, or profile a copy without the bit "
                    "(docs/usage.md)\n",
            file, preload_problem(verdict));
}

/* Warns when the loader will not preload the agent into the command; the
 * command still runs. Returns 1 when it warned. */
static int warn_if_unprofilable(const char *file, enum preload_verdict verdict)
{
    if (verdict == PRELOAD_WORKS)
        return 0;
    fprintf(stderr, "stoke: warning: %s %s; it runs, but nothing will be recorded "
                    "(docs/usage.md explains what to do)\n",
            file, preload_problem(verdict));
    return 1;
}

/* What became of the report of a run. */
enum run_report {
    REPORT_FAILED = -1,         /* none could be made (stoke said why) */
    REPORT_WRITTEN = 0,         /* or, with --collect-only, the traces are there */
    REPORT_NOTHING_RECORDED = 1 /* every trace the run left holds no record */
};

/* Says why a run left no trace. */
static void explain_missing_traces(const char *dir, int warned_unprofilable)
{
    if (warned_unprofilable)
        fprintf(stderr, "stoke: nothing was recorded, as warned above\n");
    else
        fprintf(stderr, "stoke: the command left no trace in %s/; it may have ended before "
                        "the agent started, or cleared its environment\n", dir);
}

/* --collect-only: stores the traces' names while their binaries are
 * there, and tells where the traces are. */
static enum run_report point_to_traces(const struct launched *child, int warned_unprofilable)
{
    const char *dir = child->output_dir;
    struct recording r;
    char err[PATH_MAX + 256];
    int count = count_run_traces(dir, &child->earlier);
    if (count <= 0) {
        explain_missing_traces(dir, warned_unprofilable);
        return REPORT_FAILED;
    }
    if (find_run_traces(dir, &child->earlier, &r, err, sizeof err) > 0)
        keep_recording_names(&r); /* else stoke report will say what it cannot read */
    free_recording(&r);
    fprintf(stderr, "stoke: %d trace%s in %s/; make the report with: stoke report %s\n", count,
            count == 1 ? "" : "s", dir, dir);
    return REPORT_WRITTEN;
}

/* stoke's exit status: the command's, or 1 when the command succeeded but
 * stoke made no report (unless it warned before the run that it could not
 * profile it, or the run recorded nothing at all). */
static int record_status(int command_status, enum run_report reported, int warned)
{
    return reported == REPORT_FAILED && command_status == 0 && !warned ? EXIT_RUNTIME_FAILURE
                                                                       : command_status;
}

/* What node could not clean up itself (a process killed) goes once its
 * names are in the traces. */
static void remove_leftovers(const struct record_options *opt, const struct launched *child)
{
    struct recording r;
    char err[PATH_MAX + 256];
    if (!launch_asks_node_for_names(opt->runtime_names) ||
        find_run_traces(child->output_dir, &child->earlier, &r, err, sizeof err) <= 0)
        return;
    remove_runtime_leftovers(&r, 1);
    free_recording(&r);
}

/* The files the run made stay listed for the next recording to remove. */
static void finish_output_dir(struct launched *child)
{
    leave_manifest(child->output_dir, &child->earlier);
    free_output_files(&child->earlier);
}

/* Warns about a run whose traces hold nothing to report: the program ended
 * (or closed its trace) before the agent wrote a frame, or the agent could
 * not write one. */
static void warn_nothing_recorded(const struct recording *r)
{
    for (size_t i = 0; i < r->ncpu; i++)
        fprintf(stderr, "stoke: warning: %s holds no records (the process ended or closed it "
                        "before the agent wrote one, or the agent could not write); nothing "
                        "to report\n",
                r->cpu_traces[i]);
}

/* Writes the report of the run's traces (not those that were in its output
 * directory before it) and prints the summary, then opens it with --open.
 * with_load_output: the run saved the load command's output, which goes
 * into the report. */
static enum run_report report_run(const struct record_options *opt,
                                  const struct launched *child, const struct run_measures *run,
                                  int warned_unprofilable, int with_load_output)
{
    if (opt->collect_only)
        return point_to_traces(child, warned_unprofilable);
    const char *dir = child->output_dir;
    struct recording r;
    struct stoke_load_options load = {.split_threads = opt->split_threads};
    char err[PATH_MAX + 256];
    enum run_report result = REPORT_FAILED;
    int count = find_run_traces(dir, &child->earlier, &r, err, sizeof err);
    if (count < 0) {
        fprintf(stderr, "stoke: %s\n", err);
    } else if (count == 0) {
        explain_missing_traces(dir, warned_unprofilable);
    } else if (r.nempty == r.ncpu && !r.nsnapshots) {
        warn_nothing_recorded(&r);
        result = REPORT_NOTHING_RECORDED;
    } else {
        char report[PATH_MAX];
        report_path_for(dir, stoke_output_formats[STOKE_OUTPUT_HTML].file_name, report,
                        sizeof report);
        char *load_output = with_load_output ? load_output_read(dir) : NULL;
        struct load_marks marks;
        int marked = load_marks_read(dir, &marks) == 0;
        result = report_recording(&r, &load, MEASURE_UNSET, load_output, marked ? &marks : NULL,
                                  report, run);
        free(load_output);
        if (result == REPORT_WRITTEN && opt->open_report)
            open_report(report);
    }
    free_recording(&r);
    return result;
}

static int is_session(const struct record_options *opt)
{
    return opt->session.load || opt->session.port || opt->session.duration_ms;
}

/* -P, --port or --duration: the command runs as a server session. */
static int record_session(const struct record_options *opt, struct launch_plan *plan,
                          int warned)
{
    struct launched child;
    struct session_result result;
    char err[PATH_MAX + 256];
    int status;
    struct session_plan session = opt->session;
    session.heap = opt->heap.interval != 0 && opt->heap.signal != 0;
    session.push = opt->push.ingest.url ? &opt->push : NULL;
    if (run_server_session(&session, plan, &child, &result, err, sizeof err, &status)) {
        fprintf(stderr, "stoke: %s\n", err);
        return status;
    }
    int saved_load = result.ran_load &&
                     load_output_save(child.output_dir, result.output.text, result.output.len,
                                      result.output.dropped) == 0;
    if (result.marks.start_ns)
        load_marks_save(child.output_dir, &result.marks);
    free(result.output.text);
    enum run_report reported = REPORT_WRITTEN;
    remove_leftovers(opt, &child);
    if (result.write_report) {
        struct run_measures run = {.wall_us = result.wall_us};
        reported = report_run(opt, &child, &run, warned, saved_load);
    } else {
        fprintf(stderr, "stoke: stopped at once; no report written (stoke report %s makes "
                        "it from the traces)\n", child.output_dir);
    }
    finish_output_dir(&child);
    return record_status(result.status, reported, 0);
}

/* The command alone: stoke waits for it, and for the processes it leaves
 * running, then reports. */
static int record_alone(const struct record_options *opt, const struct launch_plan *plan,
                        int warned)
{
    struct adoption adoption;
    struct launched child;
    char err[PATH_MAX + 256];
    int status;
    adopt_left_running(&adoption);
    uint64_t start_us = monotonic_us();
    if (launch(plan, &child, err, sizeof err, &status)) {
        fprintf(stderr, "stoke: %s\n", err);
        return status;
    }
    struct continuous_push *pusher =
        opt->push.ingest.url ? continuous_push_start(&opt->push, child.output_dir, &child.earlier)
                             : NULL;
    int wait_status = wait_for_child(&child, &adoption.stop_signals);
    struct left_running left;
    wait_for_left_running(&adoption, &left);
    continuous_push_stop(pusher);
    struct run_measures run = {.wall_us = monotonic_us() - start_us,
                               .cpu_us = child.cpu_us + left.cpu_us,
                               .running = left.running,
                               .nrunning = left.nrunning};
    remove_leftovers(opt, &child);
    enum run_report reported = report_run(opt, &child, &run, warned, 0);
    free_left_running(&left);
    finish_output_dir(&child);
    pass_on_interrupt(wait_status);
    return record_status(shell_status(wait_status), reported, warned);
}

int record_main(int argc, char **argv)
{
    struct record_options opt;
    int status = parse_options(argc, argv, &opt);
    if (status >= 0)
        return status;

    char agent[PATH_MAX], err[PATH_MAX + 256];
    if (find_agent(opt.heap.interval ? AGENT_HEAP_FILE : AGENT_CPU_FILE, agent, sizeof agent, err,
                   sizeof err)) {
        fprintf(stderr, "stoke: %s\n", err);
        return EXIT_RUNTIME_FAILURE;
    }
    char file[PATH_MAX];
    int error = resolve_command(opt.command[0], file, sizeof file);
    if (error) {
        fprintf(stderr, "stoke: cannot run '%s': %s\n", opt.command[0], strerror(error));
        return cannot_run_status(error);
    }
    enum preload_verdict verdict = check_preload(file);
    if (changes_privileges(verdict)) {
        refuse_privileged(file, verdict);
        return EXIT_RUNTIME_FAILURE;
    }
    int warned = warn_if_unprofilable(file, verdict);

    struct launch_plan plan = {
        .file = file,
        .argv = opt.command,
        .output_dir = opt.output_dir,
        .agent = agent,
        .hz = opt.hz,
        .clock = opt.clock,
        .runtime_names = opt.runtime_names,
        .max_size = opt.max_size,
        .heap = opt.heap,
    };
    return is_session(&opt) ? record_session(&opt, &plan, warned)
                            : record_alone(&opt, &plan, warned);
}
