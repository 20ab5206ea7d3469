/*
 * real_libc.h - the libc functions under the agent's interposers
 * (program/interpose.c), each found once with dlsym(RTLD_NEXT) as the agent
 * starts: never on a call, so never in a signal handler, where dlsym could
 * wait for the dynamic loader's lock that the interrupted code holds (a
 * program calling _exit or close from its handler would hang).
 *
 * The table is resolved by the agent's constructor, first thing. An
 * interposer that runs earlier (another library's constructor, which the
 * loader may run before the agent's) resolves it then, in that normal
 * context. A function this libc lacks stays NULL; the program cannot have
 * called it through libc either.
 */
#ifndef STOKE_AGENT_REAL_LIBC_H
#define STOKE_AGENT_REAL_LIBC_H

#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <threads.h>
#include <unistd.h>

/* What vfprintf becomes in programs built with _FORTIFY_SOURCE (the JVM). */
int __vfprintf_chk(FILE *stream, int flag, const char *format, va_list ap);

#define REAL_LIBC_FUNCTIONS(X)                                                      \
    X(pthread_create) X(thrd_create) X(prctl) X(dlclose) X(execve) X(execvpe)       \
    X(fexecve) X(sigprocmask) X(pthread_sigmask) X(pselect) X(ppoll) X(epoll_pwait) \
    X(epoll_pwait2) X(sigsuspend) X(sigtimedwait) X(sigaction) X(posix_spawn)      \
    X(posix_spawnp) X(system) X(popen) X(listen) X(vfprintf) X(__vfprintf_chk)     \
    X(close) X(close_range) X(closefrom) X(_exit) X(_Exit) X(syscall)

struct real_libc {
#define REAL_LIBC_FIELD(name) __typeof__(&name) name;
    REAL_LIBC_FUNCTIONS(REAL_LIBC_FIELD)
#undef REAL_LIBC_FIELD
};

/* Looks every function up, once.
 * Context: program. */
void real_libc_resolve(void);

/* The table; resolved now if the agent has not started yet (an
 * interposer called before the constructor, in the program's context).
 * Context: any. */
const struct real_libc *real_libc(void);

#define REAL(name) (real_libc()->name)

#endif
