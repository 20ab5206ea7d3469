/*
 * merge_command.c - `stoke merge PATH... [-o OUT] [--format F] [--measure M]
 * [--threads]`: combines the traces of many processes or hosts into one
 * report in any format. Each trace is symbolized against its own binaries
 * (its own build-ids), so code of builds that differ is never mixed. Never
 * reads a trace or formats a report itself: it hands the traces to
 * export.c.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>

#include "commands.h"
#include "export.h"
#include "traces.h"

void merge_usage(FILE *out)
{
    fprintf(out,
            "usage: stoke merge PATH... [options]\n"
            "\n"
            "Combines traces (.stoke files, or directories of them) from many processes or\n"
            "hosts into one report, offline. Each trace is symbolized against the binaries\n"
            "its own build-ids name; stacks of all traces add up.\n"
            "\n"
            "options:\n"
            "  -o, --output FILE   where the report goes (default: flamegraph.html, or the\n"
            "                      format's own file name, in the current directory)\n"
            "      --format F      html (default), folded, pprof, speedscope or cpuprofile;\n"
            "                      without it, the -o file's extension chooses\n"
            "      --folded        the same as --format folded\n"
            "      --measure M     the heap value of single-value formats: live-bytes\n"
            "                      (default for snapshots), live-objects, alloc-bytes,\n"
            "                      alloc-objects\n"
            "      --threads       give each thread its own frame (CPU traces)\n"
            "      --lines         folded stacks name each frame 'function file:line'\n"
            "      --from T        keep the CPU samples taken from T on: seconds since the\n"
            "                      first process started (1.5, 90s)\n"
            "      --until T       keep the CPU samples taken before T\n"
            "  -h, --help          show this help\n");
}

/* "a.stoke, b.stoke and 3 more": how messages name the inputs. */
static void name_inputs(char **paths, int n, char *name, size_t len)
{
    if (n == 1)
        snprintf(name, len, "%s", paths[0]);
    else if (n == 2)
        snprintf(name, len, "%s and %s", paths[0], paths[1]);
    else
        snprintf(name, len, "%s, %s and %d more", paths[0], paths[1], n - 2);
}

int merge_main(int argc, char **argv)
{
    struct export_options opt;
    int status = parse_export_options("merge", argc, argv, merge_usage, &opt);
    if (status >= 0)
        return status;
    if (optind >= argc) {
        fprintf(stderr, "stoke merge: give the traces to merge; "
                        "usage: stoke merge PATH... [options]\n");
        return EXIT_USAGE;
    }
    opt.default_dir = ".";
    char **paths = argv + optind, inputs[2 * PATH_MAX], err[PATH_MAX + 256];
    int npaths = argc - optind;
    name_inputs(paths, npaths, inputs, sizeof inputs);
    opt.input = inputs;

    struct recording r;
    int count = find_traces_of_paths((const char *const *)paths, (size_t)npaths, &r, err,
                                     sizeof err);
    if (count < 0)
        fprintf(stderr, "stoke: %s\n", err);
    else if (count == 0)
        fprintf(stderr, "stoke: no .stoke traces in %s; give trace files or directories "
                        "of them\n", inputs);
    status = count > 0 ? export_recording(&r, &opt) : EXIT_RUNTIME_FAILURE;
    free_recording(&r);
    return status;
}
