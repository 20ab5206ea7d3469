/*
 * registry.c - the table of output formats; see registry.h.
 *
 * Owns: each format's name, extensions, default file and writer.
 * Never: writes anything itself.
 */
#include "registry.h"

#include <string.h>

#include "cpuprofile.h"
#include "folded.h"
#include "html.h"
#include "pprof.h"
#include "speedscope.h"

const struct stoke_output_format stoke_output_formats[STOKE_NOUTPUTS] = {
    [STOKE_OUTPUT_HTML] = {"html", "flamegraph.html", {".html", ".htm"}, stoke_write_html},
    [STOKE_OUTPUT_FOLDED] = {"folded", NULL, {".folded", ".collapsed"}, stoke_write_folded},
    [STOKE_OUTPUT_PPROF] = {"pprof", "profile.pb.gz", {".pb.gz", ".pb", ".pprof"},
                            stoke_write_pprof},
    [STOKE_OUTPUT_SPEEDSCOPE] = {"speedscope", "profile.speedscope.json", {".speedscope.json"},
                                 stoke_write_speedscope},
    [STOKE_OUTPUT_CPUPROFILE] = {"cpuprofile", "profile.cpuprofile", {".cpuprofile"},
                                 stoke_write_cpuprofile},
};

int stoke_output_named(const char *name)
{
    for (int i = 0; i < STOKE_NOUTPUTS; i++)
        if (strcmp(name, stoke_output_formats[i].name) == 0)
            return i;
    return -1;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t len = strlen(s), n = strlen(suffix);
    return len > n && strcmp(s + len - n, suffix) == 0;
}

static int has_extension_of(const char *path, const struct stoke_output_format *f)
{
    for (size_t k = 0; k < STOKE_OUTPUT_MAX_EXTENSIONS && f->extensions[k]; k++)
        if (ends_with(path, f->extensions[k]))
            return 1;
    return 0;
}

int stoke_output_of_path(const char *path)
{
    for (int i = 0; path && i < STOKE_NOUTPUTS; i++)
        if (has_extension_of(path, &stoke_output_formats[i]))
            return i;
    return -1;
}
