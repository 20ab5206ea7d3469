/*
 * proc_stat.c - parses /proc/<pid>/stat; see proc_stat.h. The command name
 * is read between the first '(' and the last ')', since it may hold both.
 * Never writes to /proc or signals a process.
 */
#include "proc_stat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void copy_comm(const char *line, const char *after_comm, char *comm, size_t len)
{
    const char *open = strchr(line, '(');
    size_t n = open && open < after_comm ? (size_t)(after_comm - open - 1) : 0;
    if (n >= len)
        n = len - 1;
    memcpy(comm, open ? open + 1 : "", n);
    comm[n] = '\0';
}

int read_proc_stat(const char *pid, struct proc_stat *out)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = '\0';
    const char *after_comm = strrchr(line, ')');
    int ppid, pgid;
    unsigned long long user_ticks, system_ticks;
    if (!after_comm ||
        sscanf(after_comm + 1, " %c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
               &out->state, &ppid, &pgid, &user_ticks, &system_ticks) != 5)
        return -1;
    out->pid = (pid_t)atoi(pid);
    out->ppid = ppid;
    out->pgid = pgid;
    copy_comm(line, after_comm, out->comm, sizeof out->comm);
    out->cpu_us = (uint64_t)(user_ticks + system_ticks) * 1000000 /
                  (uint64_t)sysconf(_SC_CLK_TCK);
    return 0;
}
