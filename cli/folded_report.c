/*
 * folded_report.c - the report of a folded stacks file: read by the
 * symbolizer's folded reader, written by the usual writers. Never parses
 * the text itself.
 */
#include "folded_report.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "folded_input.h"
#include "outputs.h"

#define FOLDED_TAB_NAME "samples"

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

int report_folded_stacks(const char *input, const char *output, int as_folded)
{
    char err[PATH_MAX + 640];
    struct stoke_profile *p = stoke_read_folded(input, err, sizeof err);
    if (!p) {
        fprintf(stderr, "stoke: %s\n", err);
        return EXIT_RUNTIME_FAILURE;
    }
    int failed;
    char path[PATH_MAX];
    if (as_folded) {
        failed = write_folded_file(p, 0, output, err, sizeof err);
    } else {
        if (output)
            snprintf(path, sizeof path, "%s", output);
        else
            report_path_for(input, REPORT_FILE_NAME, path, sizeof path);
        struct stoke_html_tab tab = {FOLDED_TAB_NAME, p, 0};
        failed = write_html_tabs_file(&tab, 1, base_name(input), path, err, sizeof err);
        if (!failed)
            fprintf(stderr, "stoke: report written to %s\n", path);
    }
    if (failed)
        fprintf(stderr, "stoke: %s\n", err);
    stoke_profile_free(p);
    return failed ? EXIT_RUNTIME_FAILURE : EXIT_OK;
}
