/*
 * ender.c - programs that end or start others in the ways that skip the
 * usual exit path, each after burning CPU in a function of its own so its
 * trace has something to report:
 *
 *   exit_in_thread  main burns 300 ms in burn_before_exit while a second
 *                   thread burns too, then calls _exit(3) (no destructors)
 *   abort           burns 1200 ms in burn_before_abort, then abort()
 *   vfork           vfork + exec of "ender child" (burn_in_child, 200 ms),
 *                   and vfork + _exit(5) in the child; prints both statuses
 *   posix_spawn     posix_spawn of "ender child", twice; prints the statuses
 *   exit_group      burns 300 ms in burn_before_exit, then the raw exit_group
 *                   system call, status 4 (as Go's os.Exit leaves)
 *   raw_exit        the same, then the raw exit system call of the only
 *                   thread: the process ends with its status, 6
 *   main_pthread_exit
 *                   main starts a thread (burn_in_thread, 250 ms) and leaves
 *                   through pthread_exit; the thread's return ends the
 *                   process with exit(0), which runs an atexit handler
 *   close_loop, close_range, closefrom, close_range_syscall
 *                   a daemon's clean-up: every descriptor from 3 up closed
 *                   (a close loop to 1024, close_range, closefrom, or
 *                   close_range through syscall()), then burn_before_exit,
 *                   then a file opened must get descriptor 3
 *   open_loop       a thread waits in poll (the wall clock samples it from
 *                   the writer) while main opens and closes /dev/null
 *                   100000 times, burning a little CPU between opens:
 *                   every open must get descriptor 3, as alone (the agent
 *                   must never hold a low descriptor, even for a moment)
 *
 * usage: ender MODE
 * Never reads input or writes files.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpu_time.h"

extern char **environ;
static volatile uint64_t sink;
static const char *self;

static inline __attribute__((always_inline)) void spin_ms(unsigned ms)
{
    uint64_t x = ms, end = thread_cpu_ms() + ms;
    while (thread_cpu_ms() < end)
        for (int i = 0; i < 10000; i++)
            x = (x * 6364136223846793005ull + 1) ^ (x >> 31);
    sink = x;
}

static __attribute__((noipa)) void burn_before_exit(void) { spin_ms(300); }
static __attribute__((noipa)) void burn_before_abort(void) { spin_ms(1200); }
static __attribute__((noipa)) void burn_in_child(void) { spin_ms(200); }
static __attribute__((noipa)) void burn_in_thread(void) { spin_ms(250); }

static void *second_thread(void *unused)
{
    burn_in_thread();
    for (;;)
        pause();
    return NULL;
}

static int exit_in_thread(void)
{
    pthread_t t;
    pthread_create(&t, NULL, second_thread, NULL);
    burn_before_exit();
    printf("ender: _exit(3) while a thread runs\n");
    fflush(stdout);
    _exit(3);
}

static int abort_mode(void)
{
    burn_before_abort();
    printf("ender: abort\n");
    fflush(stdout);
    abort();
}

static int status_of(pid_t pid)
{
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int vfork_mode(void)
{
    char *child_argv[] = {(char *)self, "child", NULL};
    pid_t exec_child = vfork();
    if (exec_child == 0) {
        execv(self, child_argv);
        _exit(127);
    }
    pid_t exit_child = vfork();
    if (exit_child == 0)
        _exit(5);
    int exec_status = status_of(exec_child), exit_status = status_of(exit_child);
    printf("ender: vfork+exec child %d, vfork+_exit child %d\n", exec_status, exit_status);
    return exec_status != 0 || exit_status != 5;
}

static int posix_spawn_mode(void)
{
    char *child_argv[] = {(char *)self, "child", NULL};
    int statuses[2];
    for (int i = 0; i < 2; i++) {
        pid_t pid;
        statuses[i] = posix_spawn(&pid, self, NULL, NULL, child_argv, environ) ? -1
                                                                            : status_of(pid);
    }
    printf("ender: posix_spawn children %d %d\n", statuses[0], statuses[1]);
    return statuses[0] != 0 || statuses[1] != 0;
}

static int exit_group_mode(void)
{
    burn_before_exit();
    printf("ender: exit_group(4)\n");
    fflush(stdout);
    syscall(SYS_exit_group, 4);
    return 1;
}

static int raw_exit_mode(void)
{
    burn_before_exit();
    printf("ender: exit(6) of the only thread\n");
    fflush(stdout);
    syscall(SYS_exit, 6);
    return 1;
}

static void say_atexit(void)
{
    printf("ender: atexit handler ran\n");
}

static void *thread_then_return(void *unused)
{
    burn_in_thread();
    printf("ender: the last thread returns\n");
    return NULL;
}

static int main_pthread_exit(void)
{
    atexit(say_atexit);
    pthread_t t;
    pthread_create(&t, NULL, thread_then_return, NULL);
    pthread_exit(NULL);
}

/* Closes every descriptor from 3 up the way mode says, burns, and checks
 * that the next descriptor is 3, as it is for a program alone. */
static int close_everything(const char *mode)
{
    if (!strcmp(mode, "close_loop"))
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
    else if (!strcmp(mode, "close_range"))
        close_range(3, ~0u, 0);
    else if (!strcmp(mode, "closefrom"))
        closefrom(3);
    else
        syscall(SYS_close_range, 3, ~0u, 0);
    burn_before_exit();
    FILE *f = fopen("/dev/null", "r");
    printf("ender: %s, then a file on descriptor %d\n", mode, f ? fileno(f) : -1);
    return f == NULL;
}

static pthread_barrier_t started;

static void *wait_in_poll(void *fd)
{
    struct pollfd p = {.fd = *(int *)fd, .events = POLLIN};
    pthread_barrier_wait(&started);
    poll(&p, 1, -1);
    return NULL;
}

static __attribute__((noipa)) int open_files(int times)
{
    int others = 0;
    for (int i = 0; i < times; i++) {
        int fd = open("/dev/null", O_RDONLY);
        others += fd != 3;
        close(fd);
        for (int j = 0; j < 2000; j++)
            sink = (sink * 6364136223846793005ull + 1) ^ (sink >> 31);
    }
    return others;
}

/* The pipe the waiting thread polls moves to high numbers, so that 3 is
 * the lowest free descriptor for every open of main, which starts once the
 * thread runs (a thread's start is the one moment the agent opens a
 * descriptor of its own, its sampling clock, while others may run). */
static int open_loop(void)
{
    int pipe_fds[2], high[2];
    pthread_t waiter;
    if (pipe(pipe_fds))
        return 1;
    high[0] = fcntl(pipe_fds[0], F_DUPFD_CLOEXEC, 100);
    high[1] = fcntl(pipe_fds[1], F_DUPFD_CLOEXEC, 100);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    pthread_barrier_init(&started, NULL, 2);
    if (pthread_create(&waiter, NULL, wait_in_poll, &high[0]))
        return 1;
    pthread_barrier_wait(&started);
    int others = open_files(100000);
    if (write(high[1], "x", 1) != 1)
        return 1;
    pthread_join(waiter, NULL);
    printf("ender: open_loop, %d of 100000 opens got another descriptor than 3\n", others);
    return others != 0;
}

static int close_loop(void) { return close_everything("close_loop"); }
static int close_range_mode(void) { return close_everything("close_range"); }
static int closefrom_mode(void) { return close_everything("closefrom"); }
static int close_range_syscall(void) { return close_everything("close_range_syscall"); }

static int child(void)
{
    burn_in_child();
    printf("ender: child done\n");
    return 0;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(void);
    } modes[] = {{"exit_in_thread", exit_in_thread},
                 {"abort", abort_mode},
                 {"vfork", vfork_mode},
                 {"posix_spawn", posix_spawn_mode},
                 {"exit_group", exit_group_mode},
                 {"raw_exit", raw_exit_mode},
                 {"main_pthread_exit", main_pthread_exit},
                 {"close_loop", close_loop},
                 {"close_range", close_range_mode},
                 {"closefrom", closefrom_mode},
                 {"close_range_syscall", close_range_syscall},
                 {"open_loop", open_loop},
                 {"child", child}};
    self = argv[0];
    for (size_t i = 0; argc == 2 && i < sizeof modes / sizeof modes[0]; i++)
        if (!strcmp(argv[1], modes[i].name))
            return modes[i].run();
    fprintf(stderr, "usage: ender MODE (see ender.c)\n");
    return 2;
}
