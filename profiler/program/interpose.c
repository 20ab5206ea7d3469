/*
 * interpose.c - the libc functions the agent wraps, each a thin shim that
 * calls the agent and then the real function (common/real_libc.h).
 *
 *   pthread_create, new threads get their own sampling clock; the heap
 *   thrd_create     tables are shared from then on (heap_threads_coming)
 *   prctl           before a seccomp filter (or no_new_privs, which comes
 *                   first), the agent stops its optional system calls and
 *                   the heap tables are shared
 *   dlclose         unwinding pauses while code may be unmapped
 *   exec*           the trace is finished before the image is replaced, and
 *                   an environment without stoke's variables gets them back
 *   _exit, _Exit    the trace is finished (no destructor runs)
 *   close,          the agent's own descriptors are not the program's to
 *   close_range,    close (common/agent_fds.h)
 *   closefrom
 *   listen          the first TCP port is reported to stoke record -P
 *   sigprocmask,    keep the heap dump signal blocked in the program's
 *   pthread_sigmask threads while reporting the program's own wish, and
 *                   skip libunwind's calls while the agent unwinds
 *   sigaction,      notice when the program takes the dump signal over;
 *   signal          the program's actions for the sampling and exit
 *                   signals (sampling/sampler.h, exit_signals.h)
 *   posix_spawn(p), new programs start with the program's own mask
 *   system, popen
 *   sigsetmask,     the same for the old BSD and System V mask calls
 *   sigblock,
 *   sighold, sigrelse
 *   pselect, ppoll, the agent's signals keep their roles in temporary masks
 *   epoll_pwait(2),
 *   sigsuspend
 *   sigtimedwait,   the agent's samples left pending by a program that
 *   sigwaitinfo,    blocked every signal with the raw system call are
 *   sigwait         never handed to it
 *   sigaltstack     a thread shows only the alternate stack the program
 *                   set itself, never the agent's (sampling/signal_stack.h)
 *   vfprintf,       the JVM announces JAVA_TOOL_OPTIONS as the user set
 *   __vfprintf_chk  it, without stoke's flags (runtime_names.h)
 *
 * dlopen is deliberately not wrapped: the loader uses its caller's address
 * to find RUNPATH and the namespace, so a wrapper would change what loads.
 * New objects are noticed by the writer instead (modules_refresh).
 * Must never: change arguments, results or errno of the real functions.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <spawn.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "dump_signal.h"
#include "exec_env.h"
#include "exit_signals.h"
#include "port_report.h"
#include "runtime_names.h"
#include "signal_view.h"
#include "common/agent_export.h"
#include "common/agent_fds.h"
#include "common/agent_threads.h"
#include "common/real_libc.h"
#include "common/sandbox.h"
#include "heap/heap.h"
#include "sampling/modules.h"
#include "sampling/sampler.h"
#include "sampling/signal_stack.h"
#include "sampling/threads.h"
#include "sampling/unwind.h"
#include "writer/writer.h"

/* --- threads ------------------------------------------------------------ */

struct thread_start {
    void *(*fn)(void *);
    void *arg;
    unsigned signal_view; /* the creator's view of the agent's signals */
};

/* The start block is the agent's allocation, not the program's. */
static void *agent_malloc(size_t size)
{
    agent_work_begin();
    void *p = malloc(size);
    agent_work_end();
    return p;
}

static void agent_free(void *p)
{
    agent_work_begin();
    free(p);
    agent_work_end();
}

static void *start_sampled_thread(void *p)
{
    struct thread_start start = *(struct thread_start *)p;
    agent_free(p);
    signal_view_set(start.signal_view);
    agent_thread_begin();
    return start.fn(start.arg);
}

AGENT_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                                void *(*fn)(void *), void *arg)
{
    heap_threads_coming();
    struct thread_start *start = agent_active() ? agent_malloc(sizeof *start) : NULL;
    if (!start)
        return REAL(pthread_create)(thread, attr, fn, arg);
    start->fn = fn;
    start->arg = arg;
    start->signal_view = signal_view_get();
    int err = REAL(pthread_create)(thread, attr, start_sampled_thread, start);
    if (err)
        agent_free(start);
    return err;
}

/* C11 threads: glibc creates them without going through pthread_create. */
struct thrd_start_args {
    thrd_start_t fn;
    void *arg;
    unsigned signal_view;
};

static int start_sampled_thrd(void *p)
{
    struct thrd_start_args start = *(struct thrd_start_args *)p;
    agent_free(p);
    signal_view_set(start.signal_view);
    agent_thread_begin();
    return start.fn(start.arg);
}

AGENT_EXPORT int thrd_create(thrd_t *thread, thrd_start_t fn, void *arg)
{
    heap_threads_coming();
    struct thrd_start_args *start = agent_active() ? agent_malloc(sizeof *start) : NULL;
    if (!start)
        return REAL(thrd_create)(thread, fn, arg);
    *start = (struct thrd_start_args){fn, arg, signal_view_get()};
    int ret = REAL(thrd_create)(thread, start_sampled_thrd, start);
    if (ret != thrd_success)
        agent_free(start);
    return ret;
}

/* --- seccomp ---------------------------------------------------------------- */

/* Before the program asks for no_new_privs or a seccomp filter (no_new_privs
 * comes first): the agent stops its optional system calls, and shares the
 * heap tables now (a filter may forbid the membarrier the switch makes).
 * Before strict mode: the thread's sampling clock stops (agent.h). */
static void before_seccomp(int strict)
{
    if (strict) {
        agent_thread_going_strict();
    } else {
        sandbox_expect_filter();
        agent_before_filter();
        heap_threads_coming();
    }
}

static void before_prctl(long option, unsigned long mode)
{
    if (option == PR_SET_NO_NEW_PRIVS)
        before_seccomp(0);
    else if (option == PR_SET_SECCOMP)
        before_seccomp(mode == SECCOMP_MODE_STRICT);
}

/* prctl takes up to four more arguments, all passed on as they came. */
AGENT_EXPORT int prctl(int option, ...)
{
    va_list ap;
    va_start(ap, option);
    unsigned long a2 = va_arg(ap, unsigned long), a3 = va_arg(ap, unsigned long);
    unsigned long a4 = va_arg(ap, unsigned long), a5 = va_arg(ap, unsigned long);
    va_end(ap);
    before_prctl(option, a2);
    return REAL(prctl)(option, a2, a3, a4, a5);
}

/* --- dynamic loading ------------------------------------------------------ */

AGENT_EXPORT int dlclose(void *handle)
{
    if (!agent_active())
        return REAL(dlclose)(handle);
    return modules_dlclose(handle, REAL(dlclose));
}

/* --- exec ------------------------------------------------------------------ */

/* Runs an exec function: finishes the trace first, and starts a new one if
 * the exec failed (the process goes on). */
#define AROUND_EXEC(call)                       \
    do {                                        \
        agent_before_exec();                    \
        signal_view_before_new_program();       \
        sampler_before_new_program();           \
        port_report_before_new_program();       \
        int ret_ = (call);                      \
        int errno_ = errno;                     \
        port_report_after_new_program();        \
        sampler_after_new_program();            \
        signal_view_after_new_program();        \
        agent_after_failed_exec();              \
        errno = errno_;                         \
        return ret_;                            \
    } while (0)

/* The environment an exec passes on: envp, with stoke's variables added if
 * the program dropped them. Declares a stack array, so no allocation. */
#define EXEC_ENV(envp, name)                                               \
    char *name##_room[exec_env_count(envp) + EXEC_ENV_EXTRA + 1];          \
    char *const *name = exec_env_fill((envp), name##_room)

AGENT_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    EXEC_ENV(envp, env);
    AROUND_EXEC(REAL(execve)(path, argv, env));
}

AGENT_EXPORT int execv(const char *path, char *const argv[])
{
    EXEC_ENV(environ, env);
    AROUND_EXEC(REAL(execve)(path, argv, env));
}

AGENT_EXPORT int execvp(const char *file, char *const argv[])
{
    EXEC_ENV(environ, env);
    AROUND_EXEC(REAL(execvpe)(file, argv, env));
}

AGENT_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    EXEC_ENV(envp, env);
    AROUND_EXEC(REAL(execvpe)(file, argv, env));
}

AGENT_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
    EXEC_ENV(envp, env);
    AROUND_EXEC(REAL(fexecve)(fd, argv, env));
}

/* Collects the variadic arguments of execl/execlp/execle into argv. */
static size_t count_args(va_list ap)
{
    size_t n = 1;
    while (va_arg(ap, char *))
        n++;
    return n;
}

#define COLLECT_ARGS(first, argv, envp_out)              \
    va_list ap;                                          \
    va_start(ap, first);                                 \
    size_t n_ = count_args(ap);                          \
    va_end(ap);                                          \
    char *argv[n_ + 1];                                  \
    argv[0] = (char *)(first);                           \
    va_start(ap, first);                                 \
    for (size_t i_ = 1; i_ <= n_; i_++)                  \
        argv[i_] = va_arg(ap, char *);                   \
    envp_out;                                            \
    va_end(ap)

AGENT_EXPORT int execl(const char *path, const char *arg, ...)
{
    COLLECT_ARGS(arg, argv, (void)0);
    EXEC_ENV(environ, env);
    AROUND_EXEC(REAL(execve)(path, argv, env));
}

AGENT_EXPORT int execlp(const char *file, const char *arg, ...)
{
    COLLECT_ARGS(arg, argv, (void)0);
    EXEC_ENV(environ, env);
    AROUND_EXEC(REAL(execvpe)(file, argv, env));
}

AGENT_EXPORT int execle(const char *path, const char *arg, ...)
{
    char *const *envp;
    COLLECT_ARGS(arg, argv, envp = va_arg(ap, char *const *));
    EXEC_ENV(envp, env);
    AROUND_EXEC(REAL(execve)(path, argv, env));
}

/* --- signal masks ----------------------------------------------------------
 * libunwind guards its caches with a lock that blocks all signals first:
 * two sigprocmask system calls per unwound frame, most of the cost of a
 * sample. It blocks them so that a signal handler unwinding on the same
 * thread cannot deadlock on the lock; stoke's handler instead returns at
 * once when it lands inside an unwind (unwind_busy), so while the agent
 * unwinds these calls are answered without the kernel and change nothing.
 * Everywhere else the real function runs. */

AGENT_EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    if (unwind_busy()) {
        if (old)
            sigfillset(old);
        return 0;
    }
    sigset_t actual;
    if (set) {
        signal_view_filter(how, set, &actual);
        set = &actual;
    }
    int ret = REAL(sigprocmask)(how, set, old);
    if (!ret && old)
        signal_view_present(old);
    return ret;
}

AGENT_EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    sigset_t actual;
    if (set) {
        signal_view_filter(how, set, &actual);
        set = &actual;
    }
    int err = REAL(pthread_sigmask)(how, set, old);
    if (!err && old)
        signal_view_present(old);
    return err;
}

/* The signal mask through the raw system call (the kernel's 8-byte set). */
static long raw_sigprocmask(long how, const void *set, void *old, long size)
{
    sigset_t wish, actual;
    if (set && size == 8) {
        memset(&wish, 0, sizeof wish);
        memcpy(&wish, set, 8);
        signal_view_filter((int)how, &wish, &actual);
        set = &actual;
    }
    long ret = REAL(syscall)(SYS_rt_sigprocmask, how, set, old, size);
    if (!ret && old && size == 8) {
        sigset_t was;
        memset(&was, 0, sizeof was);
        memcpy(&was, old, 8);
        signal_view_present(&was);
        memcpy(old, &was, 8);
    }
    return ret;
}

/* close_range as the raw system call does it, for the program's syscall(). */
static int raw_close_range(unsigned first, unsigned last, int flags)
{
    return (int)REAL(syscall)(SYS_close_range, first, last, flags);
}

/* libc's syscall(): what a C program does without a libc wrapper goes
 * past the agent's other interposers, so the calls they exist for are
 * looked at here too. Six arguments are passed on, as libc's own does. */
AGENT_EXPORT long syscall(long number, ...)
{
    va_list ap;
    va_start(ap, number);
    long a[6];
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    switch (number) {
    case SYS_rt_sigprocmask:
        return raw_sigprocmask(a[0], (const void *)a[1], (void *)a[2], a[3]);
    case SYS_prctl:
        before_prctl(a[0], (unsigned long)a[1]);
        break;
    case SYS_seccomp:
        if (a[0] == SECCOMP_SET_MODE_STRICT || a[0] == SECCOMP_SET_MODE_FILTER)
            before_seccomp(a[0] == SECCOMP_SET_MODE_STRICT);
        break;
    case SYS_exit_group:
        agent_before_exit();
        break;
    case SYS_exit:
        agent_thread_vanishing();
        break;
    case SYS_close:
        if (agent_fds_owned((int)a[0])) {
            errno = EBADF;
            return -1;
        }
        break;
    case SYS_close_range:
        return agent_fds_program_close_range((unsigned)a[0], (unsigned)a[1], (int)a[2],
                                             raw_close_range);
    }
    return REAL(syscall)(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* The old BSD and System V mask calls: glibc implements them without going
 * through sigprocmask, so they are expressed here as sigprocmask calls
 * (shells such as dash use sigsetmask). Signal n is bit n-1 of a BSD mask. */
static int bsd_mask_call(int how, int mask)
{
    sigset_t set, old;
    sigemptyset(&set);
    for (int signo = 1; signo < 32; signo++)
        if (mask & (1 << (signo - 1)))
            sigaddset(&set, signo);
    if (sigprocmask(how, &set, &old))
        return -1;
    int result = 0;
    for (int signo = 1; signo < 32; signo++)
        if (sigismember(&old, signo))
            result |= 1 << (signo - 1);
    return result;
}

AGENT_EXPORT int sigsetmask(int mask)
{
    return bsd_mask_call(SIG_SETMASK, mask);
}

AGENT_EXPORT int sigblock(int mask)
{
    return bsd_mask_call(SIG_BLOCK, mask);
}

static int one_signal_call(int how, int signo)
{
    sigset_t set;
    if (sigemptyset(&set) || sigaddset(&set, signo))
        return -1;
    return sigprocmask(how, &set, NULL);
}

AGENT_EXPORT int sighold(int signo)
{
    return one_signal_call(SIG_BLOCK, signo);
}

AGENT_EXPORT int sigrelse(int signo)
{
    return one_signal_call(SIG_UNBLOCK, signo);
}

/* Calls that wait with a temporary mask of the program's: the agent's two
 * signals keep their roles there too (the dump signal never interrupts the
 * wait, the sampling signal is never held back). */
static const sigset_t *wait_mask(const sigset_t *mask, sigset_t *actual)
{
    if (!mask)
        return NULL;
    signal_view_filter_temporary(mask, actual);
    return actual;
}

AGENT_EXPORT int pselect(int n, fd_set *r, fd_set *w, fd_set *e, const struct timespec *timeout,
                         const sigset_t *mask)
{
    sigset_t actual;
    return REAL(pselect)(n, r, w, e, timeout, wait_mask(mask, &actual));
}

AGENT_EXPORT int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *timeout,
                       const sigset_t *mask)
{
    sigset_t actual;
    return REAL(ppoll)(fds, n, timeout, wait_mask(mask, &actual));
}

AGENT_EXPORT int epoll_pwait(int fd, struct epoll_event *events, int max, int timeout,
                             const sigset_t *mask)
{
    sigset_t actual;
    return REAL(epoll_pwait)(fd, events, max, timeout, wait_mask(mask, &actual));
}

AGENT_EXPORT int epoll_pwait2(int fd, struct epoll_event *events, int max,
                              const struct timespec *timeout, const sigset_t *mask)
{
    sigset_t actual;
    return REAL(epoll_pwait2)(fd, events, max, timeout, wait_mask(mask, &actual));
}

AGENT_EXPORT int sigsuspend(const sigset_t *mask)
{
    sigset_t actual;
    return REAL(sigsuspend)(wait_mask(mask, &actual));
}

/* --- waiting for signals --------------------------------------------------
 * A thread that blocked every signal with the raw system call leaves the
 * agent's samples pending; a sigwait-family call of the program must not
 * receive them: it drops them and waits on, for what is left of its time. */

static uint64_t monotonic_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int wait_for_program_signal(const sigset_t *set, siginfo_t *info,
                                   const struct timespec *timeout)
{
    siginfo_t own;
    info = info ? info : &own;
    uint64_t limit = timeout ? (uint64_t)timeout->tv_sec * 1000000000ull + (uint64_t)timeout->tv_nsec : 0;
    uint64_t deadline = monotonic_now_ns() + limit;
    struct timespec left_ts, *left = timeout ? &left_ts : NULL;
    for (;;) {
        if (timeout) {
            uint64_t now = monotonic_now_ns(), left_ns = now < deadline ? deadline - now : 0;
            left_ts = (struct timespec){(time_t)(left_ns / 1000000000ull),
                                        (long)(left_ns % 1000000000ull)};
        }
        int signo = REAL(sigtimedwait)(set, info, left);
        if (signo < 0 || !sampler_signal_is_a_sample(signo, info))
            return signo;
    }
}

AGENT_EXPORT int sigtimedwait(const sigset_t *set, siginfo_t *info,
                              const struct timespec *timeout)
{
    return wait_for_program_signal(set, info, timeout);
}

AGENT_EXPORT int sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
    return wait_for_program_signal(set, info, NULL);
}

/* As glibc's: EINTR is waited through, an error is returned (and left in
 * errno). */
AGENT_EXPORT int sigwait(const sigset_t *set, int *sig)
{
    int signo;
    while ((signo = wait_for_program_signal(set, NULL, NULL)) < 0 && errno == EINTR)
        ;
    if (signo < 0)
        return errno;
    *sig = signo;
    return 0;
}

/* --- signal handlers ------------------------------------------------------ */

AGENT_EXPORT int sigaction(int signo, const struct sigaction *sa, struct sigaction *old)
{
    int ret;
    if (sampler_program_sigaction(signo, sa, old, &ret) ||
        exit_signals_program_sigaction(signo, sa, old, &ret))
        return ret;
    ret = REAL(sigaction)(signo, sa, old);
    if (!ret && sa && dump_signal_program_handles(signo))
        writer_await_heap_signal();
    return ret;
}

AGENT_EXPORT int sigaltstack(const stack_t *ss, stack_t *old)
{
    return signal_stack_program_call(current_thread, ss, old);
}

/* signal() as glibc defines it: BSD semantics, through sigaction. */
AGENT_EXPORT sighandler_t signal(int signo, sighandler_t handler)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, signo);
    return sigaction(signo, &sa, &old) ? SIG_ERR : old.sa_handler;
}

/* --- starting other programs without exec in this process ----------------- */

#define AROUND_NEW_PROGRAM(type, call)          \
    do {                                        \
        signal_view_before_new_program();       \
        sampler_before_new_program();           \
        port_report_before_new_program();       \
        type ret_ = (call);                     \
        int errno_ = errno;                     \
        port_report_after_new_program();        \
        sampler_after_new_program();            \
        signal_view_after_new_program();        \
        errno = errno_;                         \
        return ret_;                            \
    } while (0)

AGENT_EXPORT int posix_spawn(pid_t *pid, const char *path,
                             const posix_spawn_file_actions_t *actions,
                             const posix_spawnattr_t *attr, char *const argv[],
                             char *const envp[])
{
    AROUND_NEW_PROGRAM(int, REAL(posix_spawn)(pid, path, actions, attr, argv, envp));
}

AGENT_EXPORT int posix_spawnp(pid_t *pid, const char *file,
                              const posix_spawn_file_actions_t *actions,
                              const posix_spawnattr_t *attr, char *const argv[],
                              char *const envp[])
{
    AROUND_NEW_PROGRAM(int, REAL(posix_spawnp)(pid, file, actions, attr, argv, envp));
}

AGENT_EXPORT int system(const char *command)
{
    AROUND_NEW_PROGRAM(int, REAL(system)(command));
}

AGENT_EXPORT FILE *popen(const char *command, const char *type)
{
    AROUND_NEW_PROGRAM(FILE *, REAL(popen)(command, type));
}

/* --- listening sockets ---------------------------------------------------- */

AGENT_EXPORT int listen(int fd, int backlog)
{
    int ret = REAL(listen)(fd, backlog);
    if (ret == 0)
        port_report_listening(fd);
    return ret;
}

/* --- the JVM's announcement of its options ------------------------------- */

AGENT_EXPORT int vfprintf(FILE *stream, const char *format, va_list ap)
{
    int result;
    if (runtime_names_quiet_notice(stream, format, ap, &result))
        return result;
    return REAL(vfprintf)(stream, format, ap);
}

AGENT_EXPORT int __vfprintf_chk(FILE *stream, int flag, const char *format, va_list ap)
{
    int result;
    if (runtime_names_quiet_notice(stream, format, ap, &result))
        return result;
    return REAL(__vfprintf_chk)(stream, flag, format, ap);
}

/* --- the agent's descriptors ---------------------------------------------- */

AGENT_EXPORT int close(int fd)
{
    if (agent_fds_owned(fd)) {
        errno = EBADF; /* as for a descriptor that is not open: without stoke it is not */
        return -1;
    }
    return REAL(close)(fd);
}

static int real_close_range(unsigned first, unsigned last, int flags)
{
    return REAL(close_range)(first, last, flags);
}

AGENT_EXPORT int close_range(unsigned first, unsigned last, int flags)
{
    return agent_fds_program_close_range(first, last, flags, real_close_range);
}

/* A kernel without close_range (before 5.9) gets libc's own, which may
 * close the agent's descriptors too (its trace then stops, safely). */
AGENT_EXPORT void closefrom(int lowfd)
{
    int saved_errno = errno;
    if (lowfd >= 0 && agent_fds_program_close_range((unsigned)lowfd, ~0u, 0, real_close_range) &&
        errno == ENOSYS)
        REAL(closefrom)(lowfd);
    errno = saved_errno;
}

/* --- exit without destructors ------------------------------------------- */

AGENT_EXPORT void _exit(int status)
{
    agent_before_exit();
    REAL(_exit)(status);
    __builtin_unreachable();
}

AGENT_EXPORT void _Exit(int status)
{
    agent_before_exit();
    REAL(_Exit)(status);
    __builtin_unreachable();
}
