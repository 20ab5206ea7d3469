/*
 * daemon.c - a program that daemonizes as classic daemons do: it forks,
 * the child calls setsid and forks again, and the grandchild (the daemon)
 * tells the first process its pid through a pipe, closes every descriptor
 * from 3 to 1023 that it did not open itself (the agent's trace among
 * them), puts /dev/null on 0, 1 and 2, spins MS milliseconds of CPU time
 * in daemon_work and exits 0; with "wait", it then waits for a signal
 * instead (SIGTERM ends it). The first process prints "daemon: pid <pid>"
 * and exits 0 as soon as the daemon has written it, so the daemon runs on
 * alone.
 *
 * usage: daemon MS [wait]
 * Never reads input or writes files.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_spin.h"

#define LAST_CLOSED_FD 1023

static volatile uint64_t sink;

static __attribute__((noipa)) void daemon_work(unsigned ms) { sink = spin_cpu_ms(ms, ms); }

/* What daemons do to the descriptors they were started with. */
static void detach_descriptors(void)
{
    for (int fd = 3; fd <= LAST_CLOSED_FD; fd++)
        close(fd);
    int null = open("/dev/null", O_RDWR);
    for (int fd = 0; fd <= 2 && null >= 0; fd++)
        if (fd != null)
            dup2(null, fd);
    if (null > 2)
        close(null);
}

static _Noreturn void run_daemon(int report_fd, unsigned ms, int wait_after)
{
    pid_t pid = getpid();
    if (write(report_fd, &pid, sizeof pid) != (ssize_t)sizeof pid)
        _exit(1);
    detach_descriptors();
    daemon_work(ms);
    while (wait_after)
        pause();
    exit(0);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "wait"))) {
        fprintf(stderr, "usage: daemon MS [wait]\n");
        return 2;
    }
    unsigned ms = (unsigned)atoi(argv[1]);
    int report[2];
    if (pipe(report)) {
        perror("daemon: pipe");
        return 1;
    }
    pid_t first = fork();
    if (first == 0) {
        setsid();
        if (fork() == 0)
            run_daemon(report[1], ms, argc == 3);
        _exit(0);
    }
    close(report[1]);
    pid_t daemon_pid;
    if (first < 0 || read(report[0], &daemon_pid, sizeof daemon_pid) != sizeof daemon_pid) {
        fprintf(stderr, "daemon: the daemon did not start\n");
        return 1;
    }
    printf("daemon: pid %d\n", (int)daemon_pid);
    return 0;
}
