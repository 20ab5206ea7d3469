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
 *
 * usage: ender MODE
 * Never reads input or writes files.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;
static volatile uint64_t sink;
static const char *self;

static uint64_t thread_cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

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
    } modes[] = {{"exit_in_thread", exit_in_thread}, {"abort", abort_mode},
                 {"vfork", vfork_mode},            {"posix_spawn", posix_spawn_mode},
                 {"child", child}};
    self = argv[0];
    for (size_t i = 0; argc == 2 && i < sizeof modes / sizeof modes[0]; i++)
        if (!strcmp(argv[1], modes[i].name))
            return modes[i].run();
    fprintf(stderr, "usage: ender exit_in_thread|abort|vfork|posix_spawn\n");
    return 2;
}
