/*
 * target_process.c - reads /proc/<pid> for `stoke heap`; see
 * target_process.h. Never signals or changes the process.
 */
#define _GNU_SOURCE /* getline */
#include "target_process.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc_stat.h"
#include "traces.h"

enum target_access check_target(pid_t pid)
{
    char path[64];
    struct stat st;
    snprintf(path, sizeof path, "/proc/%d", (int)pid);
    if (stat(path, &st))
        return TARGET_MISSING;
    if (kill(pid, 0))
        return errno == ESRCH ? TARGET_MISSING : TARGET_FOREIGN;
    return geteuid() == 0 || st.st_uid == geteuid() ? TARGET_OURS : TARGET_FOREIGN;
}

int target_exited(pid_t pid, pid_t *parent)
{
    char name[24];
    struct proc_stat st;
    snprintf(name, sizeof name, "%d", (int)pid);
    if (read_proc_stat(name, &st))
        return -1;
    *parent = st.ppid;
    return st.state == 'Z' || st.state == 'X';
}

/* 1 when the descriptor named fd_name in /proc/<pid>/fd is pid's CPU
 * trace; its path in path. */
static int is_open_trace(pid_t pid, const char *fd_name, char *path, size_t len)
{
    char link[PATH_MAX];
    snprintf(link, sizeof link, "/proc/%d/fd/%s", (int)pid, fd_name);
    ssize_t n = readlink(link, path, len - 1);
    if (n <= 0)
        return 0;
    path[n] = '\0';
    const char *slash = strrchr(path, '/');
    return path[0] == '/' && is_cpu_trace_of(slash + 1, pid);
}

char *target_open_trace(pid_t pid, int *error)
{
    char dir_path[64], path[PATH_MAX];
    snprintf(dir_path, sizeof dir_path, "/proc/%d/fd", (int)pid);
    DIR *fds = opendir(dir_path);
    *error = fds ? 0 : errno;
    char *found = NULL;
    struct dirent *e;
    while (fds && !found && (e = readdir(fds)))
        if (e->d_name[0] != '.' && is_open_trace(pid, e->d_name, path, sizeof path))
            found = strdup(path);
    if (fds)
        closedir(fds);
    return found;
}

static int ends_with(const char *text, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len >= n && !memcmp(text + len - n, suffix, n) && (len == n || text[len - n - 1] == '/');
}

int target_maps_file(pid_t pid, const char *file_name)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    FILE *maps = fopen(path, "r");
    if (!maps)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int found = 0;
    while (!found && (len = getline(&line, &cap, maps)) > 0) {
        if (line[len - 1] == '\n')
            line[--len] = '\0';
        found = ends_with(line, (size_t)len, file_name);
    }
    free(line);
    fclose(maps);
    return found;
}

/* The whole of /proc/<pid>/environ (NUL-separated "NAME=value" entries). */
static char *read_environ(pid_t pid, size_t *len)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            char *bigger = realloc(text, cap = cap ? cap * 2 : 4096);
            if (!bigger)
                break;
            text = bigger;
        }
        got = fread(text + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return text;
}

char *target_environ_value(pid_t pid, const char *name)
{
    size_t len, name_len = strlen(name);
    char *env = read_environ(pid, &len);
    char *value = NULL;
    for (size_t i = 0; env && i < len && !value; i += strnlen(env + i, len - i) + 1) {
        size_t entry = strnlen(env + i, len - i);
        if (entry > name_len && !memcmp(env + i, name, name_len) && env[i + name_len] == '=')
            value = strndup(env + i + name_len + 1, entry - name_len - 1);
    }
    free(env);
    return value;
}
