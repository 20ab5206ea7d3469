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
 *   open_churn      main opens and closes /dev/null again and again, burning
 *                   a little CPU between opens, while a second thread starts
 *                   short threads, four at a time (400 in all), each waiting
 *                   5 ms in poll, and asks for a heap snapshot every fifth
 *                   time (stoke_heap_dump; nothing without the agent or
 *                   --heap): each open must get descriptor 3, as alone, while
 *                   the agent opens files of its own (a waiting thread's
 *                   /proc file under the wall clock, a heap snapshot); main
 *                   pauses while threads start, the one moment the agent
 *                   still takes the lowest free number (a thread's sampling
 *                   clock, docs/reliability.md), and opens until the last
 *                   thread ended
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
#include "stoke.h"

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

#define CHURN_ROUNDS 100
#define CHURN_AT_ONCE 4
#define CHURN_WAIT_MS 5
#define CHURN_DUMP_EVERY 5

/* Main opens while opening is set; the churner clears it and waits until
 * main says it stopped (paused) before it starts threads. Main starts
 * paused: the churner's own start is a thread's start too. */
static pthread_mutex_t churn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t churn_changed = PTHREAD_COND_INITIALIZER;
static int opening, paused, churn_done;
static pthread_barrier_t churn_started;

static void set_opening(int on)
{
    pthread_mutex_lock(&churn_lock);
    opening = on;
    pthread_cond_broadcast(&churn_changed);
    while (!on && !paused)
        pthread_cond_wait(&churn_changed, &churn_lock);
    pthread_mutex_unlock(&churn_lock);
}

/* Returns 1 once the churner is done. */
static int wait_while_paused(void)
{
    pthread_mutex_lock(&churn_lock);
    paused = 1;
    pthread_cond_broadcast(&churn_changed);
    while (!opening && !churn_done)
        pthread_cond_wait(&churn_changed, &churn_lock);
    paused = 0;
    int done = churn_done;
    pthread_mutex_unlock(&churn_lock);
    return done;
}

static void *wait_a_moment(void *unused)
{
    pthread_barrier_wait(&churn_started);
    poll(NULL, 0, CHURN_WAIT_MS);
    return NULL;
}

static void *churn(void *unused)
{
    pthread_t running[CHURN_AT_ONCE];
    pthread_barrier_init(&churn_started, NULL, CHURN_AT_ONCE + 1);
    for (int round = 0; round < CHURN_ROUNDS; round++) {
        set_opening(0);
        for (int i = 0; i < CHURN_AT_ONCE; i++)
            if (pthread_create(&running[i], NULL, wait_a_moment, NULL))
                abort();
        pthread_barrier_wait(&churn_started);
        set_opening(1);
        if (round % CHURN_DUMP_EVERY == 0)
            stoke_heap_dump(NULL);
        for (int i = 0; i < CHURN_AT_ONCE; i++)
            pthread_join(running[i], NULL);
    }
    pthread_mutex_lock(&churn_lock);
    churn_done = 1;
    pthread_cond_broadcast(&churn_changed);
    pthread_mutex_unlock(&churn_lock);
    return NULL;
}

static int open_churn(void)
{
    pthread_t churner;
    int others = 0;
    if (pthread_create(&churner, NULL, churn, NULL))
        return 1;
    for (;;) {
        pthread_mutex_lock(&churn_lock);
        int open_now = opening, done = churn_done;
        pthread_mutex_unlock(&churn_lock);
        if (done || (!open_now && wait_while_paused()))
            break;
        others += open_files(10);
    }
    pthread_join(churner, NULL);
    printf("ender: open_churn, %d opens got another descriptor than 3\n", others);
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
                 {"open_churn", open_churn},
                 {"child", child}};
    self = argv[0];
    for (size_t i = 0; argc == 2 && i < sizeof modes / sizeof modes[0]; i++)
        if (!strcmp(argv[1], modes[i].name))
            return modes[i].run();
    fprintf(stderr, "usage: ender MODE (see ender.c)\n");
    return 2;
}
