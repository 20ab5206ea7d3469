/*
 * folded_report.c - the report of a folded stacks file: read by read/'s
 * folded reader, written by the usual writers. Never parses
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

int report_folded_stacks(const char *input, const char *output, int format)
{
    char err[PATH_MAX + 640];
    struct stoke_profile *p = stoke_read_folded(input, err, sizeof err);
    if (!p) {
        fprintf(stderr, "stoke: %s\n", err);
        return EXIT_RUNTIME_FAILURE;
    }
    char path[PATH_MAX];
    const char *name = stoke_output_formats[format].file_name;
    if (output)
        snprintf(path, sizeof path, "%s", output);
    else if (name)
        report_path_for(input, name, path, sizeof path);
    int to_file = output || name;
    /* The HTML report's tab and title name the input; other formats keep
     * the profile's own. */
    struct stoke_report_tab tab;
    struct stoke_report report = stoke_report_of(p, 0, &tab);
    if (format == STOKE_OUTPUT_HTML) {
        tab.name = FOLDED_TAB_NAME;
        report.title = base_name(input);
    }
    int failed = write_report_file(format, &report, to_file ? path : NULL, err, sizeof err);
    if (!failed && to_file)
        fprintf(stderr, "stoke: report written to %s\n", path);
    if (failed)
        fprintf(stderr, "stoke: %s\n", err);
    stoke_profile_free(p);
    return failed ? EXIT_RUNTIME_FAILURE : EXIT_OK;
}
