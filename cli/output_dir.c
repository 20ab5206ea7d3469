/*
 * output_dir.c - readies the output directory of a recording: names the
 * default one, creates it (mkdir -p), makes sure it is writable and clears
 * what an earlier recording left there, so the directory holds one run.
 * Never touches files other than *.stoke traces and flamegraph.html.
 */
#include "output_dir.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outputs.h"
#include "traces.h"

void default_output_dir(char *dir, size_t len, pid_t pid)
{
    snprintf(dir, len, "stoke-%d", (int)pid);
}

/* mkdir -p: creates every missing component of dir. */
static int make_directories(const char *dir)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return ENAMETOOLONG;
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(path, 0777) && errno != EEXIST)
            return errno;
        *p = saved;
        if (!saved)
            break;
    }
    struct stat st;
    if (stat(path, &st))
        return errno;
    return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

/* Removes the files an earlier recording wrote; says so when there were any. */
static void remove_earlier_run(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!is_trace_name(e->d_name) && strcmp(e->d_name, REPORT_FILE_NAME))
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        removed += unlink(path) == 0;
    }
    closedir(d);
    if (removed)
        fprintf(stderr, "stoke: removed %d file%s of an earlier recording from %s/\n", removed,
                removed == 1 ? "" : "s", dir);
}

int prepare_output_dir(const char *dir)
{
    int error = make_directories(dir);
    if (error)
        return error;
    if (access(dir, W_OK | X_OK))
        return errno;
    remove_earlier_run(dir);
    return 0;
}
