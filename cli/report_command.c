/*
 * report_command.c - `stoke report PATH [-o OUT] [--format F] [--folded]
 * [--measure M] [--threads]`: turns a trace, a heap snapshot, or a
 * directory of them (or a file of folded stacks, see folded_report.h) into
 * an HTML flame graph (by default next to PATH; tabs
 * when there are heap snapshots), folded stacks (by default on stdout), or
 * a pprof, speedscope or .cpuprofile file, offline. Never reads a trace or
 * formats a report itself: it hands the traces to export.c.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "export.h"
#include "folded_input.h"
#include "folded_report.h"
#include "measure.h"
#include "traces.h"

void report_usage(FILE *out)
{
    fprintf(out,
            "usage: stoke report PATH [options]\n"
            "\n"
            "Makes a report from the traces of a recording, offline. PATH is one .stoke\n"
            "trace or heap snapshot, a JavaScript heap snapshot (.heapsnapshot, from\n"
            "stoke heap, node or Chrome DevTools), or a directory of them (the output\n"
            "directory of stoke record). CPU traces and each heap snapshot get a tab each\n"
            "in the report.\n"
            "PATH may also be a file of folded stacks (\"a;b;c 42\" lines, from stoke,\n"
            "perf script | stackcollapse-perf.pl, py-spy or async-profiler).\n"
            "\n"
            "options:\n"
            "  -o, --output FILE   where the report goes (default: flamegraph.html next to\n"
            "                      PATH; profile.pb.gz, profile.speedscope.json or\n"
            "                      profile.cpuprofile for those formats; folded stacks go\n"
            "                      to standard output)\n"
            "      --format F      html (default), folded, pprof (gzipped profile.proto for\n"
            "                      go tool pprof, Pyroscope, Grafana), speedscope, or\n"
            "                      cpuprofile (Chrome DevTools, VS Code); without it, the\n"
            "                      -o file's extension chooses (.pb.gz, .speedscope.json...)\n"
            "      --folded        the same as --format folded. Formats other than html\n"
            "                      hold the CPU profile, or with --measure (or without CPU\n"
            "                      traces) the last heap snapshot of each process\n"
            "      --measure M     the heap value of text outputs: live-bytes (default for\n"
            "                      snapshots), live-objects, alloc-bytes, alloc-objects;\n"
            "                      of the JavaScript heap: js-shallow (each stack the\n"
            "                      bytes of the objects on that dominator path, so a\n"
            "                      frame's total is what it retains; also js-retained),\n"
            "                      js-objects\n"
            "      --threads       give each thread its own frame (CPU traces)\n"
            "      --lines         folded stacks name each frame 'function file:line', the\n"
            "                      line it was at when sampled (pprof and html hold lines\n"
            "                      always)\n"
            "      --from T        keep the CPU samples taken from T on: seconds since the\n"
            "                      recording started (1.5, 90s), or load-start / load-end\n"
            "                      for a recording made with -P\n"
            "      --until T       keep the CPU samples taken before T (same forms)\n"
            "  -h, --help          show this help\n");
}

/* Returns -1 to go on, or the exit status to end with. */
static int parse_options(int argc, char **argv, struct export_options *opt)
{
    int status = parse_export_options("report", argc, argv, report_usage, opt);
    if (status >= 0)
        return status;
    if (optind != argc - 1) {
        fprintf(stderr, "stoke report: give one trace or directory; "
                        "usage: stoke report PATH [options]\n");
        return EXIT_USAGE;
    }
    opt->input = argv[optind];
    return -1;
}

/* A heap measure needs a snapshot of its heap to measure. */
static int measure_applies(const struct recording *r, const struct export_options *opt)
{
    if (opt->measure == MEASURE_UNSET ||
        (is_js_measure(opt->measure) ? has_js_snapshots(r) : r->nsnapshots > 0))
        return 1;
    fprintf(stderr,
            is_js_measure(opt->measure)
                ? "stoke: '%s' holds no JavaScript heap snapshot; --measure %s needs one "
                  "(record node with stoke record --heap and take one with stoke heap PID)\n"
                : "stoke: '%s' holds no heap snapshot; --measure %s needs one (record with "
                  "stoke record --heap)\n",
            opt->input, measure_option(opt->measure));
    return 0;
}

int report_main(int argc, char **argv)
{
    struct export_options opt;
    int status = parse_options(argc, argv, &opt);
    if (status >= 0)
        return status;
    if (stoke_is_folded_file(opt.input)) {
        if (time_window_given(&opt.window)) {
            fprintf(stderr, "stoke: %s: '%s' holds folded stacks, which say nothing of when "
                            "each sample was taken; report the recording's traces instead\n",
                    time_window_option(&opt.window), opt.input);
            return EXIT_RUNTIME_FAILURE;
        }
        if (opt.lines) {
            fprintf(stderr, "stoke: --lines: '%s' holds folded stacks, which keep no lines; "
                            "report the recording's traces instead\n", opt.input);
            return EXIT_RUNTIME_FAILURE;
        }
        if (opt.measure == MEASURE_UNSET)
            return report_folded_stacks(opt.input, opt.output, opt.format);
        fprintf(stderr, "stoke: '%s' holds folded stacks of one value; --measure %s needs a heap "
                        "snapshot\n", opt.input, measure_option(opt.measure));
        return EXIT_RUNTIME_FAILURE;
    }

    struct recording r;
    char err[PATH_MAX + 256];
    int count = find_traces(opt.input, &r, err, sizeof err);
    if (count < 0)
        fprintf(stderr, "stoke: %s\n", err);
    else if (count == 0)
        fprintf(stderr, "stoke: no .stoke traces in '%s'; record some with: "
                        "stoke record -o %s -- COMMAND\n", opt.input, opt.input);
    if (count <= 0 || !measure_applies(&r, &opt))
        status = EXIT_RUNTIME_FAILURE;
    else
        status = export_recording(&r, &opt);
    free_recording(&r);
    return status;
}
