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
#include "stoke_agent_env.h"
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

/* 1 when descriptor fd of thread tid of pid is pid's CPU trace; its path
 * in path. */
static int is_open_trace(pid_t pid, int tid, int fd, char *path, size_t len)
{
    char link[96];
    snprintf(link, sizeof link, "/proc/%d/task/%d/fd/%d", (int)pid, tid, fd);
    ssize_t n = readlink(link, path, len - 1);
    if (n <= 0)
        return 0;
    path[n] = '\0';
    const char *slash = strrchr(path, '/');
    return path[0] == '/' && is_cpu_trace_of(slash + 1, pid);
}

/* pid's CPU trace among the descriptors of its thread tid, malloc'ed, or
 * NULL (*error the errno when they cannot be read). */
static char *trace_among(pid_t pid, int tid, int *error)
{
    char fd_dir[64], path[PATH_MAX];
    snprintf(fd_dir, sizeof fd_dir, "/proc/%d/task/%d/fd", (int)pid, tid);
    DIR *fds = opendir(fd_dir);
    if (!fds) {
        *error = errno;
        return NULL;
    }
    char *found = NULL;
    struct dirent *e;
    while (!found && (e = readdir(fds)))
        if (e->d_name[0] != '.' && is_open_trace(pid, tid, atoi(e->d_name), path, sizeof path))
            found = strdup(path);
    closedir(fds);
    return found;
}

/* 1 when thread tid of pid is the agent's writer. */
static int is_writer(pid_t pid, int tid)
{
    char path[64], name[32];
    snprintf(path, sizeof path, "/proc/%d/task/%d/comm", (int)pid, tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    if (!fgets(name, sizeof name, f))
        name[0] = '\0';
    fclose(f);
    name[strcspn(name, "\n")] = '\0';
    return !strcmp(name, STOKE_WRITER_THREAD_NAME);
}

/* The writer keeps the trace in a descriptor table of its own, which only
 * its thread's fd directory lists (/proc/<pid>/fd lists the main
 * thread's). */
char *target_open_trace(pid_t pid, int *error)
{
    char tasks_path[64];
    snprintf(tasks_path, sizeof tasks_path, "/proc/%d/task", (int)pid);
    DIR *tasks = opendir(tasks_path);
    *error = tasks ? 0 : errno;
    char *found = NULL;
    struct dirent *e;
    while (tasks && !found && (e = readdir(tasks)))
        if (e->d_name[0] != '.' && is_writer(pid, atoi(e->d_name)))
            found = trace_among(pid, atoi(e->d_name), error);
    if (tasks)
        closedir(tasks);
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
