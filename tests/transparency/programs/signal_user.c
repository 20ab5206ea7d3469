/*
 * signal_user.c - a program that uses the signals, timers and blocking
 * calls a profiler also uses or interrupts, while a thread burns CPU (so
 * the agent samples at its highest rate). Each mode prints lines that
 * depend only on what the program saw, so a profiled run must print
 * exactly what a bare run prints; exit status 0 when every check held.
 *
 *   own_sigprof     its own SIGPROF handler fed by setitimer(ITIMER_PROF):
 *                   the ticks arrive, and nothing but them (no foreign
 *                   SIGPROF reaches the handler)
 *   real_itimer     setitimer(ITIMER_REAL) with a SIGALRM handler without
 *                   SA_RESTART: read on a pipe and nanosleep end with EINTR
 *                   once per alarm, as they must
 *   signalfd        SIGALRM and SIGUSR1 blocked in every thread and read
 *                   from a signalfd (ITIMER_REAL ticks and kill)
 *   prof_signalfd   the same with SIGPROF from ITIMER_PROF: blocked in every
 *                   thread, read from a signalfd
 *   blocking        threads blocked in accept, pthread_cond_timedwait, a
 *                   contended mutex, sem_wait, poll, nanosleep and read on a
 *                   pipe each end as without a profiler: no EINTR, full
 *                   timeouts; and a thread alternating CPU bursts and short
 *                   poll timeouts sees no EINTR either
 *   inherited_ignore  says how SIGPROF is disposed of (run it from a shell
 *                   that ignores SIGPROF: "trap '' PROF; exec ..."), raises
 *                   it and says it survived
 *   raw_mask_wait   blocks every signal with the raw rt_sigprocmask system
 *                   call through syscall(), burns CPU (burn_blocked), then
 *                   waits 200 ms in sigtimedwait for any signal: none comes
 *   asm_mask_wait   the same with the system call made by an instruction of
 *                   its own, which no library sees
 *   wait_for_sigint burns CPU (burn_until_sigint) for 200 ms, says so, and
 *                   burns on until SIGINT, whose default action ends it
 *   reset_sigint    the same after setting SIGINT as node does: the default
 *                   action (whatever it inherited), then a handler with
 *                   SA_RESETHAND that raises the signal again
 *
 * usage: signal_user MODE
 * Never writes files; uses 127.0.0.1 only.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define WAIT_MS 600
#define TICKS_WANTED 20

static atomic_int burning = 1;
static volatile uint64_t sink;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static __attribute__((noipa)) uint64_t burn_cpu_us(uint64_t x, unsigned us)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    uint64_t end = (uint64_t)t.tv_sec * 1000000 + (uint64_t)t.tv_nsec / 1000 + us;
    for (;;) {
        for (int i = 0; i < 4096; i++)
            x = (x * 6364136223846793005ull + 1442695040888963407ull) ^ (x >> 29);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        if ((uint64_t)t.tv_sec * 1000000 + (uint64_t)t.tv_nsec / 1000 >= end)
            return x;
    }
}

static void *burner(void *unused)
{
    uint64_t x = 1;
    while (atomic_load(&burning))
        x = burn_cpu_us(x, 2000);
    sink = x;
    return NULL;
}

static pthread_t start_burner(void)
{
    pthread_t t;
    pthread_create(&t, NULL, burner, NULL);
    return t;
}

static void stop_burner(pthread_t t)
{
    atomic_store(&burning, 0);
    pthread_join(t, NULL);
}

static void set_itimer(int which, long interval_us)
{
    struct itimerval v = {{0, interval_us}, {0, interval_us}};
    setitimer(which, &v, NULL);
}

static int block_in_this_thread(int how, int a, int b)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, a);
    if (b)
        sigaddset(&set, b);
    return pthread_sigmask(how, &set, NULL);
}

/* --- own_sigprof ---------------------------------------------------------- */

static atomic_int kernel_ticks, foreign_ticks;

static void on_prof(int signo, siginfo_t *info, void *context)
{
    if (info->si_code == SI_KERNEL)
        atomic_fetch_add(&kernel_ticks, 1);
    else
        atomic_fetch_add(&foreign_ticks, 1);
}

static int own_sigprof(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_prof;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(SIGPROF, &sa, NULL);
    pthread_t t = start_burner();
    set_itimer(ITIMER_PROF, 1000);
    uint64_t x = 3;
    while (atomic_load(&kernel_ticks) < TICKS_WANTED)
        x = burn_cpu_us(x, 1000);
    set_itimer(ITIMER_PROF, 0);
    stop_burner(t);
    sink = x;
    int foreign = atomic_load(&foreign_ticks);
    printf("own_sigprof: %d itimer ticks reached the handler, %d other SIGPROF\n",
           TICKS_WANTED, foreign);
    return foreign != 0;
}

/* --- real_itimer ---------------------------------------------------------- */

static atomic_int alarms;

static void on_alarm(int signo)
{
    atomic_fetch_add(&alarms, 1);
}

static int real_itimer(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART: slow calls end with EINTR */
    sigaction(SIGALRM, &sa, NULL);
    block_in_this_thread(SIG_BLOCK, SIGALRM, 0); /* the burner inherits the mask: */
    pthread_t t = start_burner();
    block_in_this_thread(SIG_UNBLOCK, SIGALRM, 0); /* the alarms interrupt main only */
    int quiet[2];
    pipe(quiet);
    set_itimer(ITIMER_REAL, 5000);
    int read_eintr = 0, sleep_eintr = 0, other = 0;
    char c;
    for (int i = 0; i < TICKS_WANTED; i++) {
        if (read(quiet[0], &c, 1) < 0 && errno == EINTR)
            read_eintr++;
        else
            other++;
        struct timespec long_sleep = {5, 0};
        if (nanosleep(&long_sleep, NULL) < 0 && errno == EINTR)
            sleep_eintr++;
        else
            other++;
    }
    set_itimer(ITIMER_REAL, 0);
    stop_burner(t);
    printf("real_itimer: read ended by EINTR %d times, nanosleep %d times, otherwise %d\n",
           read_eintr, sleep_eintr, other);
    return other != 0;
}

/* --- signalfd --------------------------------------------------------------- */

static int foreign_signals; /* read from the signalfd, but not sent by the program's means */

/* Reads signals until count of signo came; the others count as foreign. */
static int read_signals(int fd, int signo, int count)
{
    int seen = 0;
    struct signalfd_siginfo info;
    while (seen < count && read(fd, &info, sizeof info) == sizeof info) {
        int expected = info.ssi_code == (signo == SIGUSR1 ? SI_USER : SI_KERNEL);
        if ((int)info.ssi_signo == signo && expected)
            seen++;
        else
            foreign_signals++;
    }
    return seen;
}

static int signalfd_mode(void)
{
    block_in_this_thread(SIG_BLOCK, SIGALRM, SIGUSR1); /* before the burner: it inherits */
    pthread_t t = start_burner();
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGALRM);
    sigaddset(&set, SIGUSR1);
    int fd = signalfd(-1, &set, SFD_CLOEXEC);
    set_itimer(ITIMER_REAL, 3000);
    int alarms_read = read_signals(fd, SIGALRM, TICKS_WANTED);
    set_itimer(ITIMER_REAL, 0);
    int usr1_read = 0;
    for (int i = 0; i < 3; i++) {
        kill(getpid(), SIGUSR1);
        usr1_read += read_signals(fd, SIGUSR1, 1);
    }
    stop_burner(t);
    printf("signalfd: %d SIGALRM and %d SIGUSR1 read, %d other signals\n", alarms_read,
           usr1_read, foreign_signals);
    return alarms_read != TICKS_WANTED || usr1_read != 3 || foreign_signals;
}

static int prof_signalfd(void)
{
    block_in_this_thread(SIG_BLOCK, SIGPROF, 0); /* before the burner: it inherits */
    pthread_t t = start_burner();
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPROF);
    int fd = signalfd(-1, &set, SFD_CLOEXEC);
    set_itimer(ITIMER_PROF, 1000);
    int ticks = read_signals(fd, SIGPROF, TICKS_WANTED);
    set_itimer(ITIMER_PROF, 0);
    stop_burner(t);
    printf("prof_signalfd: %d SIGPROF of the itimer read, %d other signals\n", ticks,
           foreign_signals);
    return ticks != TICKS_WANTED || foreign_signals;
}

/* --- blocking --------------------------------------------------------------- */

enum { ACCEPT, COND, MUTEX, SEM, POLL, SLEEP, PIPE_READ, CALLS };
static const char *call_names[CALLS] = {"accept", "pthread_cond_timedwait", "pthread_mutex_lock",
                                        "sem_wait", "poll", "nanosleep", "read"};
static char results[CALLS][128];
static int listener, wake_pipe[2];
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER, cond_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static sem_t posted;
static pthread_barrier_t ready;

static atomic_int released; /* main has connected, unlocked, posted and written */

/* A call that waits for main must end after main released it; a timed one
 * after its whole timeout. */
static void judge(int call, int failed, int err, double elapsed)
{
    int timed = call == COND || call == POLL || call == SLEEP;
    if (failed)
        snprintf(results[call], sizeof results[call], "%s: failed with %s", call_names[call],
                 err == EINTR ? "EINTR" : strerror(err));
    else if (timed ? elapsed < WAIT_MS - 1 : !atomic_load(&released))
        snprintf(results[call], sizeof results[call], "%s: ended early", call_names[call]);
    else
        snprintf(results[call], sizeof results[call], "%s: ok", call_names[call]);
}

static void *blocked(void *which)
{
    int call = (int)(intptr_t)which, failed = 0, err = 0;
    pthread_barrier_wait(&ready);
    double start = now_ms();
    if (call == ACCEPT) {
        int fd = accept(listener, NULL, NULL);
        failed = fd < 0, err = errno;
    } else if (call == COND) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (WAIT_MS % 1000) * 1000000L;
        until.tv_sec += WAIT_MS / 1000 + until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_mutex_lock(&cond_lock);
        int r = pthread_cond_timedwait(&never, &cond_lock, &until);
        pthread_mutex_unlock(&cond_lock);
        failed = r != ETIMEDOUT, err = r;
    } else if (call == MUTEX) {
        int r = pthread_mutex_lock(&held);
        pthread_mutex_unlock(&held);
        failed = r != 0, err = r;
    } else if (call == SEM) {
        failed = sem_wait(&posted) != 0, err = errno;
    } else if (call == POLL) {
        struct pollfd p = {.fd = wake_pipe[1], .events = POLLPRI};
        failed = poll(&p, 1, WAIT_MS) != 0, err = errno;
    } else if (call == SLEEP) {
        struct timespec d = {WAIT_MS / 1000, (WAIT_MS % 1000) * 1000000L};
        failed = nanosleep(&d, NULL) != 0, err = errno;
    } else {
        char c;
        failed = read(wake_pipe[0], &c, 1) != 1, err = errno;
    }
    judge(call, failed, err, now_ms() - start);
    return NULL;
}

static int listen_locally(struct sockaddr_in *where)
{
    socklen_t len = sizeof *where;
    memset(where, 0, sizeof *where);
    where->sin_family = AF_INET;
    where->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)where, sizeof *where) || listen(fd, 1) ||
        getsockname(fd, (struct sockaddr *)where, &len))
        return -1;
    return fd;
}

/* CPU bursts between short poll timeouts: a sample signal that arrives as
 * the thread goes to sleep must not end the poll with EINTR. */
static void *burst_and_poll(void *out)
{
    int *eintr = out;
    uint64_t x = 5;
    for (int i = 0; i < 150; i++) {
        x = burn_cpu_us(x, 1500);
        if (poll(NULL, 0, 1) < 0 && errno == EINTR)
            (*eintr)++;
    }
    sink = x;
    return NULL;
}

static int blocking(void)
{
    struct sockaddr_in where;
    listener = listen_locally(&where);
    if (listener < 0 || pipe(wake_pipe) || sem_init(&posted, 0, 0)) {
        perror("signal_user: setup");
        return 1;
    }
    pthread_mutex_lock(&held);
    pthread_barrier_init(&ready, NULL, CALLS + 1);
    pthread_t burner_thread = start_burner(), threads[CALLS], poller;
    for (int i = 0; i < CALLS; i++)
        pthread_create(&threads[i], NULL, blocked, (void *)(intptr_t)i);
    int poll_eintr = 0;
    pthread_create(&poller, NULL, burst_and_poll, &poll_eintr);
    pthread_barrier_wait(&ready);
    struct timespec d = {WAIT_MS / 1000, (WAIT_MS % 1000) * 1000000L + 20000000L};
    while (nanosleep(&d, &d))
        ;
    atomic_store(&released, 1);
    int client = socket(AF_INET, SOCK_STREAM, 0);
    connect(client, (struct sockaddr *)&where, sizeof where);
    pthread_mutex_unlock(&held);
    sem_post(&posted);
    write(wake_pipe[1], "x", 1);
    int bad = 0;
    for (int i = 0; i < CALLS; i++) {
        pthread_join(threads[i], NULL);
        printf("%s\n", results[i]);
        bad |= strcmp(results[i] + strlen(call_names[i]), ": ok") != 0;
    }
    pthread_join(poller, NULL);
    stop_burner(burner_thread);
    printf("poll between CPU bursts: %d EINTR\n", poll_eintr);
    return bad || poll_eintr;
}

/* --- inherited_ignore, raw_mask_wait, asm_mask_wait, *_sigint ----------- */

static int inherited_ignore(void)
{
    struct sigaction sa;
    sigaction(SIGPROF, NULL, &sa);
    int ignored = !(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_IGN;
    printf("SIGPROF: %s\n", ignored ? "ignored" : sa.sa_handler == SIG_DFL ? "default" : "other");
    fflush(stdout);
    raise(SIGPROF);
    printf("raised SIGPROF and survived\n");
    return !ignored;
}

static __attribute__((noipa)) void burn_blocked(void)
{
    sink = burn_cpu_us(5, 300000); /* not a tail call: this frame stays */
}

static long asm_rt_sigprocmask(int how, const uint64_t *set, uint64_t *old)
{
    long ret;
    register long r10 __asm__("r10") = 8;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "0"((long)SYS_rt_sigprocmask), "D"((long)how), "S"(set), "d"(old),
                       "r"(r10)
                     : "rcx", "r11", "memory");
    return ret;
}

static int mask_and_wait(int through_libc)
{
    pthread_t burner_thread = start_burner(); /* before: it keeps its own mask */
    uint64_t all = ~0ull;
    long blocked = through_libc ? syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, NULL, 8)
                                : asm_rt_sigprocmask(SIG_BLOCK, &all, NULL);
    burn_blocked();
    sigset_t every;
    sigfillset(&every);
    struct timespec limit = {0, 200000000};
    siginfo_t info;
    int received = 0;
    while (sigtimedwait(&every, &info, &limit) > 0)
        received++;
    stop_burner(burner_thread);
    printf("every signal blocked (%s): %s, %d signals received in 200 ms\n",
           through_libc ? "syscall()" : "an instruction", blocked ? "failed" : "ok", received);
    return blocked || received;
}

static int raw_mask_wait(void) { return mask_and_wait(1); }
static int asm_mask_wait(void) { return mask_and_wait(0); }

/* 200 ms of CPU before it says so: the profile has samples by then. */
static __attribute__((noipa)) void burn_until_sigint(void)
{
    uint64_t x = burn_cpu_us(7, 200000);
    printf("burning until SIGINT\n");
    fflush(stdout);
    for (;;)
        x = burn_cpu_us(x, 1000);
}

static int wait_for_sigint(void)
{
    burn_until_sigint();
    return 1;
}

static void raise_again(int signo)
{
    raise(signo); /* SA_RESETHAND: the default action, once this returns */
}

static int reset_sigint(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = raise_again;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    burn_until_sigint();
    return 1;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(void);
    } modes[] = {{"own_sigprof", own_sigprof},     {"real_itimer", real_itimer},
                 {"signalfd", signalfd_mode},      {"prof_signalfd", prof_signalfd},
                 {"blocking", blocking},           {"inherited_ignore", inherited_ignore},
                 {"raw_mask_wait", raw_mask_wait}, {"asm_mask_wait", asm_mask_wait},
                 {"wait_for_sigint", wait_for_sigint}, {"reset_sigint", reset_sigint}};
    for (size_t i = 0; argc == 2 && i < sizeof modes / sizeof modes[0]; i++)
        if (!strcmp(argv[1], modes[i].name))
            return modes[i].run();
    fprintf(stderr, "usage: signal_user MODE (see signal_user.c)\n");
    return 2;
}
