/*
 * traces.c - loads a trace file, or all the traces of a directory (one per
 * profiled process), into one profile through the symbolizer's loader.
 * Never parses traces itself and never writes anything but stderr warnings.
 */
#include "traces.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TRACE_SUFFIX ".stoke"

int is_trace_name(const char *name)
{
    size_t len = strlen(name), suffix = strlen(TRACE_SUFFIX);
    return len > suffix && !strcmp(name + len - suffix, TRACE_SUFFIX);
}

static int select_trace(const struct dirent *e)
{
    return is_trace_name(e->d_name);
}

int count_traces(const char *dir)
{
    struct dirent **names;
    int count = scandir(dir, &names, select_trace, NULL);
    for (int i = 0; i < count; i++)
        free(names[i]);
    if (count >= 0)
        free(names);
    return count;
}

static int load_directory(struct stoke_profile *p, const char *dir,
                          const struct stoke_load_options *opt, char *err, size_t errlen)
{
    struct dirent **names;
    int count = scandir(dir, &names, select_trace, alphasort);
    if (count < 0) {
        snprintf(err, errlen, "cannot read directory '%s': %s", dir, strerror(errno));
        return -1;
    }
    int loaded = 0;
    for (int i = 0; i < count; i++) {
        char path[PATH_MAX], why[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (stoke_load_trace(p, path, opt, why, sizeof why) == 0)
            loaded++;
        else
            fprintf(stderr, "stoke: %s\n", why);
        free(names[i]);
    }
    free(names);
    if (count > 0 && loaded == 0) {
        snprintf(err, errlen, "no trace in '%s' could be read (%d tried); record again", dir,
                 count);
        return -1;
    }
    return loaded;
}

int load_traces(struct stoke_profile *p, const char *path,
                const struct stoke_load_options *opt, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st)) {
        snprintf(err, errlen, "cannot open '%s': %s; give a .stoke trace or a directory of them",
                 path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode))
        return load_directory(p, path, opt, err, errlen);
    return stoke_load_trace(p, path, opt, err, errlen) == 0 ? 1 : -1;
}
