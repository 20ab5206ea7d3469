/*
 * output_format.c - report format names, file extensions and default file
 * names; see output_format.h. Never writes a report.
 */
#include "output_format.h"

#include <stdio.h>
#include <string.h>

struct format_desc {
    const char *name;
    const char *file_name;   /* default output, NULL: standard output */
    const char *extensions[3];
};

static const struct format_desc formats[] = {
    [FORMAT_HTML] = {"html", "flamegraph.html", {".html", ".htm"}},
    [FORMAT_FOLDED] = {"folded", NULL, {".folded", ".collapsed"}},
    [FORMAT_PPROF] = {"pprof", "profile.pb.gz", {".pb.gz", ".pb", ".pprof"}},
    [FORMAT_SPEEDSCOPE] = {"speedscope", "profile.speedscope.json", {".speedscope.json"}},
    [FORMAT_CPUPROFILE] = {"cpuprofile", "profile.cpuprofile", {".cpuprofile"}},
};
#define NFORMATS (sizeof formats / sizeof formats[0])

int parse_format_option(const char *command, const char *text, int *format)
{
    for (size_t i = 0; i < NFORMATS; i++) {
        if (strcmp(text, formats[i].name) == 0) {
            *format = (int)i;
            return 0;
        }
    }
    fprintf(stderr, "stoke %s: unknown format '%s' for --format; the formats are %s\n", command,
            text, FORMAT_CHOICES);
    return -1;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t len = strlen(s), n = strlen(suffix);
    return len > n && strcmp(s + len - n, suffix) == 0;
}

int format_of_path(const char *path)
{
    for (size_t i = 0; path && i < NFORMATS; i++)
        for (size_t k = 0; k < 3 && formats[i].extensions[k]; k++)
            if (ends_with(path, formats[i].extensions[k]))
                return (int)i;
    return FORMAT_UNSET;
}

int chosen_format(int format_option, const char *output)
{
    if (format_option != FORMAT_UNSET)
        return format_option;
    int by_name = format_of_path(output);
    return by_name != FORMAT_UNSET ? by_name : FORMAT_HTML;
}

const char *format_name(int format)
{
    return formats[format].name;
}

const char *format_file_name(int format)
{
    return formats[format].file_name;
}
