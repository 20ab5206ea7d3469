/*
 * process_tree.c - walks /proc/<pid>/stat for parent links; see
 * process_tree.h. A process that ends while it is read is skipped.
 */
#include "process_tree.h"

#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct proc_entry {
    pid_t pid, ppid, pgid;
    char state;
};

/* Reads pid, state, ppid and pgid from /proc/<pid>/stat. */
static int read_entry(const char *name, struct proc_entry *e)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%s/stat", name);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = '\0';
    char *after_comm = strrchr(line, ')');
    int ppid, pgid;
    if (!after_comm || sscanf(after_comm + 1, " %c %d %d", &e->state, &ppid, &pgid) != 3)
        return -1;
    e->pid = (pid_t)atoi(name);
    e->ppid = ppid;
    e->pgid = pgid;
    return 0;
}

/* Every process of /proc (malloc'ed, *n entries). */
static struct proc_entry *read_processes(size_t *n)
{
    DIR *dir = opendir("/proc");
    struct proc_entry *all = NULL;
    size_t cap = 0;
    *n = 0;
    struct dirent *d;
    while (dir && (d = readdir(dir)) != NULL) {
        if (!isdigit((unsigned char)d->d_name[0]))
            continue;
        if (*n == cap) {
            struct proc_entry *bigger = realloc(all, (cap = cap ? 2 * cap : 256) * sizeof *all);
            if (!bigger)
                break;
            all = bigger;
        }
        if (read_entry(d->d_name, &all[*n]) == 0)
            (*n)++;
    }
    if (dir)
        closedir(dir);
    return all;
}

static int descends_from(const struct proc_entry *all, size_t n, pid_t pid, pid_t ancestor)
{
    for (size_t depth = 0; depth < n && pid > 1; depth++) {
        size_t i = 0;
        while (i < n && all[i].pid != pid)
            i++;
        if (i == n)
            return 0;
        if (all[i].ppid == ancestor)
            return 1;
        pid = all[i].ppid;
    }
    return 0;
}

/* Signals (sig > 0) or counts (sig 0) the live descendants outside spare. */
static int visit_descendants(int sig, pid_t spare)
{
    size_t n;
    struct proc_entry *all = read_processes(&n);
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        const struct proc_entry *e = &all[i];
        if (e->state == 'Z' || (spare && e->pgid == spare) ||
            !descends_from(all, n, e->pid, getpid()))
            continue;
        if (sig == 0 || kill(e->pid, sig) == 0)
            count++;
    }
    free(all);
    return count;
}

int signal_descendants(int sig, pid_t spare)
{
    return visit_descendants(sig, spare);
}

int count_descendants(pid_t spare)
{
    return visit_descendants(0, spare);
}
