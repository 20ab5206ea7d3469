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

/* Every process of /proc (malloc'ed, *n entries). */
static struct proc_stat *read_processes(size_t *n)
{
    DIR *dir = opendir("/proc");
    struct proc_stat *all = NULL;
    size_t cap = 0;
    *n = 0;
    struct dirent *d;
    while (dir && (d = readdir(dir)) != NULL) {
        if (!isdigit((unsigned char)d->d_name[0]))
            continue;
        if (*n == cap) {
            struct proc_stat *bigger = realloc(all, (cap = cap ? 2 * cap : 256) * sizeof *all);
            if (!bigger)
                break;
            all = bigger;
        }
        if (read_proc_stat(d->d_name, &all[*n]) == 0)
            (*n)++;
    }
    if (dir)
        closedir(dir);
    return all;
}

static int descends_from(const struct proc_stat *all, size_t n, pid_t pid, pid_t ancestor)
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

/* Signals (sig > 0) or counts (sig 0) the live descendants outside spare;
 * with found, also lists them there (malloc'ed, as many as counted). */
static int visit_descendants(int sig, pid_t spare, struct proc_stat **found)
{
    size_t n;
    struct proc_stat *all = read_processes(&n);
    struct proc_stat *list = found ? calloc(n ? n : 1, sizeof *list) : NULL;
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        const struct proc_stat *e = &all[i];
        if (e->state == 'Z' || (spare && e->pgid == spare) ||
            !descends_from(all, n, e->pid, getpid()))
            continue;
        if (sig && kill(e->pid, sig))
            continue;
        if (list)
            list[count] = *e;
        count++;
    }
    free(all);
    if (found)
        *found = list;
    return count;
}

int signal_descendants(int sig, pid_t spare)
{
    return visit_descendants(sig, spare, NULL);
}

int count_descendants(pid_t spare)
{
    return visit_descendants(0, spare, NULL);
}

size_t list_descendants(struct proc_stat **found)
{
    int count = visit_descendants(0, 0, found);
    return *found ? (size_t)count : 0;
}
