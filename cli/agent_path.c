/*
 * agent_path.c - finds the agent relative to the running stoke executable
 * (/proc/self/exe): <prefix>/lib in the build tree, <prefix>/<libdir> after
 * cmake --install, where <prefix> is the parent of stoke's bin directory.
 * Never searches other places: a stoke must use its own agent.
 */
#include "agent_path.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Removes the last path component; returns -1 when there is none. */
static int strip_last_component(char *path)
{
    char *slash = strrchr(path, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    return 0;
}

/* The parent of the directory that holds the stoke executable. */
static int install_prefix(char *prefix, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", prefix, len - 1);
    if (n <= 0 || (size_t)n >= len - 1)
        return -1;
    prefix[n] = '\0';
    return strip_last_component(prefix) || strip_last_component(prefix) ? -1 : 0;
}

/* The agent location for one library directory: absolute libdirs are taken
 * as they are, relative ones are below the prefix. Returns -1 when the path
 * does not fit. */
static int candidate(char *out, size_t len, const char *prefix, const char *libdir,
                     const char *name)
{
    int n = libdir[0] == '/' ? snprintf(out, len, "%s/%s", libdir, name)
                             : snprintf(out, len, "%s/%s/%s", prefix, libdir, name);
    return n < (int)len ? 0 : -1;
}

/* LD_PRELOAD separates entries by spaces and colons, so a path holding one
 * cannot be preloaded. */
static int preloadable(const char *path)
{
    return strpbrk(path, " :") == NULL;
}

int find_agent(const char *name, char *path, size_t pathlen, char *err, size_t errlen)
{
    char prefix[PATH_MAX];
    if (install_prefix(prefix, sizeof prefix)) {
        snprintf(err, errlen, "cannot locate the stoke executable through /proc/self/exe; "
                              "is /proc mounted?");
        return -1;
    }
    char build_tree[PATH_MAX], installed[PATH_MAX];
    if (candidate(build_tree, sizeof build_tree, prefix, "lib", name) ||
        candidate(installed, sizeof installed, prefix, STOKE_INSTALL_LIBDIR, name)) {
        snprintf(err, errlen, "the path of the stoke executable is too long; install it "
                              "elsewhere");
        return -1;
    }
    const char *candidates[] = {build_tree, installed};
    for (size_t i = 0; i < 2; i++) {
        char resolved[PATH_MAX];
        if (!realpath(candidates[i], resolved) || access(resolved, R_OK))
            continue;
        if (!preloadable(resolved)) {
            snprintf(err, errlen, "the agent path '%s' holds a space or colon, which "
                                  "LD_PRELOAD cannot carry; install stoke elsewhere", resolved);
            return -1;
        }
        snprintf(path, pathlen, "%s", resolved);
        return 0;
    }
    if (strcmp(build_tree, installed))
        snprintf(err, errlen, "agent not found at %s or %s; rebuild or reinstall stoke",
                 build_tree, installed);
    else
        snprintf(err, errlen, "agent not found at %s; rebuild or reinstall stoke", build_tree);
    return -1;
}
