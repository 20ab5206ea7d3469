/*
 * agent_fds.c - see agent_fds.h. One bit per descriptor number of the
 * program's table, set and cleared atomically; the agent's descriptors are
 * few, so looking for the next one scans words of 64. The thread with a
 * table of its own is known by pthread_self (no system call: it is asked
 * in signal handlers, under seccomp filters).
 */
#define _GNU_SOURCE
#include "agent_fds.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "real_libc.h"

#define TRACKED_FDS 65536
#define WORDS (TRACKED_FDS / 64)

static _Atomic uint64_t owned[WORDS];
static int high_floor; /* where adopted descriptors go; 0: not moved */
static _Atomic int own_table_taken;
static pthread_t own_table_thread;

void agent_fds_init(void)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit))
        return;
    rlim_t soft = limit.rlim_cur < TRACKED_FDS ? limit.rlim_cur : TRACKED_FDS;
    high_floor = (int)(soft / 2);
}

/* No descriptor of the program's is copied into the new table: the
 * range closed reaches past the last one (see close_range(2)). Numbers 0
 * to 2 then hold /dev/null, so that library code writing to stderr on
 * this thread (glibc's fatal messages) never writes into one of its files. */
int agent_fds_take_own_table(void)
{
    if (REAL(syscall)(SYS_close_range, 0, ~0u, CLOSE_RANGE_UNSHARE))
        return -1;
    for (int fd = 0; fd <= STDERR_FILENO; fd++)
        open("/dev/null", O_RDWR | O_CLOEXEC);
    own_table_thread = pthread_self();
    atomic_store(&own_table_taken, 1);
    return 0;
}

void agent_fds_own_table_ended(void)
{
    atomic_store(&own_table_taken, 0);
}

int agent_fds_in_own_table(void)
{
    return atomic_load(&own_table_taken) && pthread_equal(pthread_self(), own_table_thread);
}

static void mark(int fd, int on)
{
    if (fd < 0 || fd >= TRACKED_FDS)
        return;
    uint64_t bit = 1ull << (fd % 64);
    if (on)
        atomic_fetch_or(&owned[fd / 64], bit);
    else
        atomic_fetch_and(&owned[fd / 64], ~bit);
}

int agent_fds_owned(int fd)
{
    return fd >= 0 && fd < TRACKED_FDS && !agent_fds_in_own_table() &&
           (atomic_load_explicit(&owned[fd / 64], memory_order_relaxed) >> (fd % 64)) & 1;
}

/* The close system call itself, past the agent's interposers. */
static void close_now(int fd)
{
    REAL(syscall)(SYS_close, fd);
}

int agent_fds_adopt(int fd)
{
    if (fd < 0 || agent_fds_in_own_table())
        return fd;
    if (high_floor > fd) {
        int high = fcntl(fd, F_DUPFD_CLOEXEC, high_floor);
        if (high >= 0) {
            close_now(fd);
            fd = high;
        }
    }
    mark(fd, 1);
    return fd;
}

/* Beyond the numbers kept track of, the caller's word is trusted. */
void agent_fds_close(int fd)
{
    if (agent_fds_in_own_table() || fd >= TRACKED_FDS) {
        close_now(fd);
    } else if (agent_fds_owned(fd)) {
        mark(fd, 0);
        close_now(fd);
    }
}

void agent_fds_forget(int fd)
{
    if (!agent_fds_in_own_table())
        mark(fd, 0);
}

/* The next agent descriptor at or above fd, or -1. */
static int next_owned(unsigned fd)
{
    for (unsigned word = fd / 64; word < WORDS; word++) {
        uint64_t bits = atomic_load_explicit(&owned[word], memory_order_relaxed);
        if (word == fd / 64)
            bits &= ~0ull << (fd % 64);
        if (bits)
            return (int)(word * 64 + (unsigned)__builtin_ctzll(bits));
    }
    return -1;
}

/* One range of the program's call; the first real call unshares the
 * descriptor table when asked, the later ones work on it. */
static int close_part(unsigned from, unsigned to, int *flags,
                      int (*real_close_range)(unsigned, unsigned, int))
{
    int ret = real_close_range(from, to, *flags);
    *flags &= ~CLOSE_RANGE_UNSHARE;
    return ret;
}

int agent_fds_program_close_range(unsigned first, unsigned last, int flags,
                                  int (*real_close_range)(unsigned, unsigned, int))
{
    if (first > last)
        return real_close_range(first, last, flags); /* the kernel's EINVAL */
    unsigned from = first;
    int next;
    while ((next = next_owned(from)) >= 0 && (unsigned)next <= last) {
        if ((unsigned)next > from && close_part(from, (unsigned)next - 1, &flags, real_close_range))
            return -1;
        from = (unsigned)next + 1;
        if (from > last) /* nothing of the program's was left to close */
            return flags & CLOSE_RANGE_UNSHARE ? (int)syscall(SYS_unshare, CLONE_FILES) : 0;
    }
    return close_part(from, last, &flags, real_close_range);
}
