/*
 * diff.c - `stoke diff A B [-o OUT] [--folded] [--measure M]`: compares two
 * heap snapshots (or two CPU traces, or directories of either) as a
 * differential flame graph or difffolded.pl's two-column folded stacks, and
 * prints the stacks that changed most. Never compares a CPU profile with a
 * heap one, and never builds or formats the diff itself: the symbolizer's
 * diff model and the writers do.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "commands.h"
#include "diff.h"
#include "folded_input.h"
#include "measure.h"
#include "options.h"
#include "outputs.h"
#include "text_profile.h"
#include "traces.h"
#include "warn.h"

#define LARGEST_CHANGES_SHOWN 5
#define NAME_WIDTH_MAX 100

struct diff_options {
    const char *before, *after;
    const char *output; /* NULL: diff.html next to AFTER, or stdout with --folded */
    int folded;
    int measure;        /* enum stoke_heap_value, or MEASURE_UNSET */
};

void diff_usage(FILE *out)
{
    fprintf(out,
            "usage: stoke diff BEFORE AFTER [options]\n"
            "\n"
            "Compares two heap snapshots (what grew between them), or two CPU traces, as a\n"
            "differential flame graph: widths from AFTER, red where it grew, blue where it\n"
            "shrank. BEFORE and AFTER are .stoke files or directories of them; for a\n"
            "directory, its last heap snapshot (with a heap measure) or its CPU traces.\n"
            "Either may also be a file of folded stacks (\"a;b;c 42\" lines), compared\n"
            "with folded stacks or CPU traces.\n"
            "\n"
            "options:\n"
            "  -o, --output FILE   where the report goes (default: diff.html next to AFTER;\n"
            "                      with --folded, standard output)\n"
            "      --folded        write \"stack BEFORE AFTER\" lines (difffolded.pl's format)\n"
            "      --measure M     the heap value compared: live-bytes (default for\n"
            "                      snapshots), live-objects, alloc-bytes, alloc-objects\n"
            "  -h, --help          show this help\n");
}

enum { OPT_FOLDED = 256, OPT_MEASURE };

/* Returns -1 to go on, or the exit status to end with. */
static int parse_options(int argc, char **argv, struct diff_options *opt)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"folded", no_argument, NULL, OPT_FOLDED},
        {"measure", required_argument, NULL, OPT_MEASURE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *opt = (struct diff_options){.measure = MEASURE_UNSET};
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            opt->output = optarg;
            break;
        case OPT_FOLDED:
            opt->folded = 1;
            break;
        case OPT_MEASURE:
            if (parse_measure_option("diff", optarg, &opt->measure))
                return EXIT_USAGE;
            break;
        case 'h':
            diff_usage(stdout);
            return EXIT_OK;
        default:
            report_bad_option("diff", c, argv);
            return EXIT_USAGE;
        }
    }
    if (optind != argc - 2) {
        fprintf(stderr, "stoke diff: give two snapshots or traces; "
                        "usage: stoke diff BEFORE AFTER [options]\n");
        return EXIT_USAGE;
    }
    if (check_output_option("diff", opt->output))
        return EXIT_USAGE;
    opt->before = argv[optind];
    opt->after = argv[optind + 1];
    return -1;
}

/* --- the two sides -------------------------------------------------------- */

struct side {
    const char *path;
    int folded;             /* a file of folded stacks, not traces */
    struct recording traces;
    struct text_profile text;
};

static int find_side(struct side *s, const char *path)
{
    char err[PATH_MAX + 256];
    s->path = path;
    s->folded = stoke_is_folded_file(path);
    if (s->folded)
        return 0;
    int count = find_traces(path, &s->traces, err, sizeof err);
    if (count < 0)
        fprintf(stderr, "stoke: %s\n", err);
    else if (count == 0)
        fprintf(stderr, "stoke: no .stoke traces in '%s'; give a snapshot, a trace or a "
                        "recording's directory\n", path);
    return count > 0 ? 0 : -1;
}

/* What a side holds, for messages. */
static const char *describe(const struct side *s)
{
    if (s->folded)
        return "folded stacks";
    if (!s->traces.nsnapshots)
        return s->traces.ncpu == 1 ? "a CPU trace" : "CPU traces only";
    if (!s->traces.ncpu)
        return s->traces.nsnapshots == 1 ? "a heap snapshot" : "heap snapshots only";
    return "CPU traces and heap snapshots";
}

/* Without --measure: heap (live bytes) when either side holds snapshots
 * only, else CPU (folded stacks compare as CPU samples). Then both sides must hold what is compared. Returns 0,
 * or -1 (said why). */
static int choose_measure(int *measure, const struct side *a, const struct side *b)
{
    if (*measure == MEASURE_UNSET &&
        ((!a->folded && shows_heap_by_default(&a->traces)) ||
         (!b->folded && shows_heap_by_default(&b->traces))))
        *measure = STOKE_HEAP_LIVE_BYTES;
    int heap = *measure != MEASURE_UNSET;
    int a_fits = heap ? a->traces.nsnapshots > 0 : a->folded || a->traces.ncpu > 0;
    int b_fits = heap ? b->traces.nsnapshots > 0 : b->folded || b->traces.ncpu > 0;
    if (a_fits && b_fits)
        return 0;
    fprintf(stderr,
            "stoke diff: cannot compare %s (%s) with %s (%s); give two heap snapshots, or CPU "
            "traces or folded stacks on both sides\n",
            a->path, describe(a), b->path, describe(b));
    return -1;
}

static int load_side(struct side *s, int measure)
{
    char err[PATH_MAX + 640];
    struct stoke_load_options load = {0};
    if (s->folded) {
        s->text = (struct text_profile){stoke_read_folded(s->path, err, sizeof err), 0};
        if (s->text.profile)
            return 0;
    } else if (load_text_profile(s->path, &s->traces, measure, &load, &s->text, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "stoke: %s\n", err);
    return -1;
}

static void free_side(struct side *s)
{
    stoke_profile_free(s->text.profile);
    free_recording(&s->traces);
}

/* --- output --------------------------------------------------------------- */

struct ranked_change {
    int64_t change;
    uint32_t stack;
};

static int by_size_of_change(const void *a, const void *b)
{
    const struct ranked_change *x = a, *y = b;
    uint64_t cx = x->change < 0 ? -(uint64_t)x->change : (uint64_t)x->change;
    uint64_t cy = y->change < 0 ? -(uint64_t)y->change : (uint64_t)y->change;
    if (cx != cy)
        return cx < cy ? 1 : -1;
    return (x->stack > y->stack) - (x->stack < y->stack);
}

/* The stacks whose value changed most, by leaf function. */
static void print_largest_changes(const struct stoke_profile *diff, const char *what)
{
    struct ranked_change *c = stoke_xmalloc((diff->nrows ? diff->nrows : 1) * sizeof *c);
    size_t n = 0;
    for (size_t r = 0; r < diff->nrows; r++) {
        int64_t change = diff->rows[r].values[1] - diff->rows[r].values[0];
        if (change && diff->stack_len[diff->rows[r].stack])
            c[n++] = (struct ranked_change){change, diff->rows[r].stack};
    }
    qsort(c, n, sizeof *c, by_size_of_change);
    if (n)
        fprintf(stderr, "  largest changes in %s, by leaf function:\n", what);
    for (size_t i = 0; i < n && i < LARGEST_CHANGES_SHOWN; i++) {
        uint32_t s = c[i].stack;
        uint32_t leaf = diff->stack_frames[diff->stack_start[s] + diff->stack_len[s] - 1];
        char text[64];
        format_change(text, sizeof text, diff->value_units[1], c[i].change);
        fprintf(stderr, "  %12s  ", text);
        stoke_put_printable(stderr, diff->frames[leaf].name, NAME_WIDTH_MAX);
        fputc('\n', stderr);
    }
    if (!n)
        fprintf(stderr, "  no change in %s\n", what);
    free(c);
}

static int write_diff_html(const struct stoke_profile *diff, const struct diff_options *opt,
                           const char *what)
{
    char path[PATH_MAX], err[PATH_MAX + 256], title[2 * PATH_MAX + 64], name[128];
    if (opt->output)
        snprintf(path, sizeof path, "%s", opt->output);
    else
        report_path_for(opt->after, DIFF_FILE_NAME, path, sizeof path);
    snprintf(title, sizeof title, "stoke diff: %s -> %s", opt->before, opt->after);
    snprintf(name, sizeof name, "diff of %s", what);
    struct stoke_html_tab tab = {name, diff, 1};
    if (write_html_tabs_file(&tab, 1, title, NULL, path, err, sizeof err)) {
        fprintf(stderr, "stoke: %s\n", err);
        return -1;
    }
    fprintf(stderr, "stoke: differential report written to %s\n", path);
    return 0;
}

static int write_diff(const struct side *a, const struct side *b, int measure,
                      const struct diff_options *opt)
{
    const char *what = measure == MEASURE_UNSET ? "CPU samples" : measure_label(measure);
    struct stoke_profile *diff =
        stoke_profile_diff(a->text.profile, b->text.profile, a->text.value_index);
    char err[PATH_MAX + 256];
    int rc = 0;
    if (opt->folded) {
        rc = write_folded_diff_file(diff, opt->output, err, sizeof err);
        if (rc)
            fprintf(stderr, "stoke: %s\n", err);
    } else {
        rc = write_diff_html(diff, opt, what);
        print_largest_changes(diff, what);
    }
    stoke_profile_free(diff);
    return rc;
}

int diff_main(int argc, char **argv)
{
    struct diff_options opt;
    int status = parse_options(argc, argv, &opt);
    if (status >= 0)
        return status;
    struct side a = {0}, b = {0};
    int measure = opt.measure;
    int ok = find_side(&a, opt.before) == 0 && find_side(&b, opt.after) == 0 &&
             choose_measure(&measure, &a, &b) == 0 && load_side(&a, measure) == 0 &&
             load_side(&b, measure) == 0 && write_diff(&a, &b, measure, &opt) == 0;
    free_side(&a);
    free_side(&b);
    return ok ? EXIT_OK : EXIT_RUNTIME_FAILURE;
}
