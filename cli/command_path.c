/*
 * command_path.c - resolves a command name to the file to execute, as a
 * shell does: a name with a '/' is a path, any other name is searched in
 * PATH (an empty entry is the current directory). Never executes anything.
 */
#define _GNU_SOURCE /* strchrnul */
#include "command_path.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 0 if path is an executable regular file, else why not. */
static int runnable(const char *path)
{
    struct stat st;
    if (stat(path, &st))
        return errno;
    if (S_ISDIR(st.st_mode))
        return EISDIR;
    if (!S_ISREG(st.st_mode) || access(path, X_OK))
        return EACCES;
    return 0;
}

/* The search path: PATH, or the system default when it is unset. */
static const char *search_path(char *buf, size_t len)
{
    const char *path = getenv("PATH");
    if (path)
        return path;
    size_t needed = confstr(_CS_PATH, buf, len);
    return needed == 0 || needed > len ? "/bin:/usr/bin" : buf;
}

int resolve_command(const char *name, char *path, size_t pathlen)
{
    if (!*name)
        return ENOENT;
    if (strchr(name, '/')) {
        snprintf(path, pathlen, "%s", name);
        return runnable(path);
    }
    char fallback[256];
    const char *dirs = search_path(fallback, sizeof fallback);
    int found_unrunnable = 0;
    for (const char *dir = dirs;; dir++) {
        const char *end = strchrnul(dir, ':');
        int dirlen = (int)(end - dir);
        if (dirlen == 0)
            snprintf(path, pathlen, "./%s", name);
        else
            snprintf(path, pathlen, "%.*s/%s", dirlen, dir, name);
        int why = runnable(path);
        if (!why)
            return 0;
        if (why == EACCES)
            found_unrunnable = 1;
        if (!*end)
            break;
        dir = end;
    }
    return found_unrunnable ? EACCES : ENOENT;
}

int cannot_run_status(int error)
{
    return error == ENOENT ? 127 : 126;
}
