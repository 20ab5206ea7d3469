/*
 * hooks.c - every function of the malloc family used the way programs use
 * it, corner cases included, each mode checking what the C library
 * promises (contents kept, alignment, errno, usable size). Each mode also
 * leaks a known amount through a function named leak_<mode>, so the exit
 * snapshot of an exact recording can be checked against it:
 *
 *   realloc       chains from realloc(NULL, n), growing and shrinking with
 *                 contents kept, realloc(p, 0), a failing realloc that must
 *                 keep the block; leaks 2000 bytes in 1 block
 *   aligned       posix_memalign, aligned_alloc, memalign, valloc, pvalloc at
 *                 many alignments, a bad alignment; leaks 16660 bytes in 5
 *   calloc        zeroed memory, overflowing and huge requests fail with
 *                 ENOMEM; leaks 10000 bytes in 1 block
 *   reallocarray  grows an array, an overflowing count fails with ENOMEM and
 *                 keeps the block; leaks 2000 bytes in 1 block
 *   free_null     free(NULL) and malloc(0); leaks 0 bytes in 3 blocks
 *   usable_size   malloc_usable_size >= the size asked for every block, all
 *                 of it writable; leaks 777 bytes in 1 block
 *   threads       4 threads, each freeing the blocks the previous one
 *                 allocated; leaks 262144 bytes in 256 blocks
 *   helper_thread a thread the program never started with pthread_create (a
 *                 SIGEV_THREAD timer's, made inside the C library) allocates
 *                 and frees 20200 blocks beside the main thread, which frees
 *                 the 200 it hands over; then the main thread leaks 64000
 *                 bytes in 64 blocks
 *   signal_in_switch  a SIGUSR1 handler that allocates and frees, then a
 *                 second thread (run with signal_in_switch.so preloaded, the
 *                 signal comes while the agent's tables turn shared); leaks
 *                 5000 bytes in 10 blocks
 *   seccomp       a seccomp filter that kills the process on membarrier and
 *                 on sleeping, system calls the program never makes, then a
 *                 second thread; leaks 3000 bytes in 10 blocks
 *   failed_exec   a C library thread (an unarmed SIGEV_THREAD timer's), 100
 *                 blocks, an exec that fails, the blocks freed; leaks 700
 *                 bytes in 7 blocks
 *   fork_filtered 10 blocks of 1000 bytes, a seccomp filter installed with the
 *                 raw system call (not prctl), a fork: the child frees the
 *                 blocks and leaks 300 bytes in 3 blocks; the parent frees
 *                 them too
 *   fork_switching  forks for 20 ms while a C library thread (a SIGEV_THREAD
 *                 timer's, under a seccomp filter) may be switching the
 *                 agent's tables to shared; every child must exit at once
 *   fork          allocates 3 MiB (keep_before_fork, never freed), forks; the
 *                 child allocates 1 MiB more (leak_fork_child) and exits 0
 *
 * Prints "<mode>: ok" on stdout and exits 0, or prints each failed check
 * and exits 1. Anything that differs between runs (pids) goes to stderr
 * prefixed "note: ".
 *
 * usage: hooks MODE
 * Never reads input or writes files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAILED: %s\n", what);
        failures++;
    }
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(seed + i * 7);
}

static int filled(const unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(seed + i * 7))
            return 0;
    return 1;
}

static int aligned_to(const void *p, size_t alignment)
{
    return ((uintptr_t)p & (alignment - 1)) == 0;
}

static void *volatile keep; /* what a leak_ function leaves behind stays reachable */

/* Sizes no allocator can give; volatile, so the compiler cannot see them. */
static volatile size_t size_max = SIZE_MAX;
static volatile size_t two_to_the_40 = (size_t)1 << 40;

/* --- realloc ---------------------------------------------------------------- */

static __attribute__((noipa)) void realloc_chain(void)
{
    static const size_t sizes[] = {100, 1000, 10000, 100000, 1 << 20, 5000, 50, 70000, 10};
    unsigned char *p = realloc(NULL, sizes[0]);
    check(p != NULL, "realloc(NULL, 100) allocates");
    fill(p, sizes[0], 1);
    for (size_t i = 1; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t kept = sizes[i] < sizes[i - 1] ? sizes[i] : sizes[i - 1];
        p = realloc(p, sizes[i]);
        check(p != NULL, "realloc to a new size succeeds");
        check(filled(p, kept, 1), "realloc keeps the contents");
        fill(p, sizes[i], 1);
    }
    errno = 0;
    check(realloc(p, 0) == NULL, "realloc(p, 0) frees and returns NULL");
}

static __attribute__((noipa)) void leak_realloc(void)
{
    unsigned char *p = realloc(NULL, 16);
    p = realloc(p, 3000);
    fill(p, 3000, 2);
    p = realloc(p, 2000);
    errno = 0;
    unsigned char *too_large = realloc(p, size_max - 4096);
    check(too_large == NULL && errno == ENOMEM, "a realloc too large fails with ENOMEM");
    if (too_large)
        p = too_large;
    check(filled(p, 2000, 2), "a failed realloc keeps the block");
    keep = p;
}

static void mode_realloc(void)
{
    for (int i = 0; i < 100; i++)
        realloc_chain();
    leak_realloc();
}

/* --- aligned ---------------------------------------------------------------- */

static __attribute__((noipa)) void aligned_roundtrip(void)
{
    for (size_t alignment = sizeof(void *); alignment <= 65536; alignment *= 2) {
        size_t size = alignment * 3 + 5;
        void *p = NULL;
        check(posix_memalign(&p, alignment, size) == 0 && aligned_to(p, alignment),
              "posix_memalign aligns");
        fill(p, size, 3);
        free(p);
        p = aligned_alloc(alignment, alignment * 2);
        check(p && aligned_to(p, alignment), "aligned_alloc aligns");
        fill(p, alignment * 2, 3);
        free(p);
        p = memalign(alignment, size);
        check(p && aligned_to(p, alignment), "memalign aligns");
        fill(p, size, 3);
        free(p);
    }
    long page = sysconf(_SC_PAGESIZE);
    void *v = valloc(5000);
    check(v && aligned_to(v, (size_t)page), "valloc aligns to a page");
    fill(v, 5000, 4);
    free(v);
    void *pv = pvalloc(100);
    check(pv && aligned_to(pv, (size_t)page), "pvalloc aligns to a page");
    check(malloc_usable_size(pv) >= (size_t)page, "pvalloc rounds up to a whole page");
    fill(pv, (size_t)page, 4);
    free(pv);
    void *untouched = &failures;
    void *out = untouched;
    check(posix_memalign(&out, 3, 64) == EINVAL && out == untouched,
          "posix_memalign with a bad alignment fails with EINVAL and leaves *out alone");
}

static __attribute__((noipa)) void leak_aligned(void)
{
    static void *blocks[5];
    check(posix_memalign(&blocks[0], 4096, 10000) == 0, "posix_memalign(4096, 10000)");
    blocks[1] = aligned_alloc(256, 2560);
    blocks[2] = memalign(128, 1000);
    blocks[3] = valloc(3000);
    blocks[4] = pvalloc(100);
    for (int i = 1; i < 5; i++)
        check(blocks[i] != NULL, "an aligned allocation succeeds");
    keep = blocks;
}

static void mode_aligned(void)
{
    for (int i = 0; i < 20; i++)
        aligned_roundtrip();
    leak_aligned();
}

/* --- calloc ----------------------------------------------------------------- */

static __attribute__((noipa)) void calloc_cases(void)
{
    for (int i = 0; i < 50; i++) { /* dirty memory that calloc may reuse */
        unsigned char *dirty = malloc(100000);
        memset(dirty, 0xff, 100000);
        free(dirty);
        unsigned char *zeroed = calloc(1000, 100);
        check(zeroed != NULL, "calloc(1000, 100) allocates");
        for (int j = 0; zeroed && j < 100000; j++)
            if (zeroed[j]) {
                check(0, "calloc returns zeroed memory");
                break;
            }
        free(zeroed);
    }
    errno = 0;
    check(calloc(size_max / 2 + 1, 2) == NULL && errno == ENOMEM,
          "calloc whose size overflows fails with ENOMEM");
    errno = 0;
    check(calloc(two_to_the_40, two_to_the_40) == NULL && errno == ENOMEM,
          "calloc(2^40, 2^40) fails with ENOMEM");
    errno = 0;
    check(malloc(size_max) == NULL && errno == ENOMEM, "malloc(SIZE_MAX) fails with ENOMEM");
    free(calloc(0, 8));
    free(calloc(8, 0));
}

static __attribute__((noipa)) void leak_calloc(void)
{
    keep = calloc(1000, 10);
    check(keep != NULL, "calloc(1000, 10) allocates");
}

static void mode_calloc(void)
{
    calloc_cases();
    leak_calloc();
}

/* --- reallocarray ------------------------------------------------------------ */

static __attribute__((noipa)) void leak_reallocarray(void)
{
    unsigned char *p = reallocarray(NULL, 10, 100);
    check(p != NULL, "reallocarray(NULL, 10, 100) allocates");
    fill(p, 1000, 5);
    errno = 0;
    unsigned char *overflowed = reallocarray(p, size_max / 2, 4);
    check(overflowed == NULL && errno == ENOMEM,
          "reallocarray whose size overflows fails with ENOMEM");
    if (overflowed)
        p = overflowed;
    check(filled(p, 1000, 5), "a failed reallocarray keeps the block");
    p = reallocarray(p, 20, 100);
    check(p && filled(p, 1000, 5), "reallocarray grows, keeping the contents");
    keep = p;
}

static void mode_reallocarray(void)
{
    for (int i = 0; i < 100; i++)
        free(reallocarray(reallocarray(NULL, 4, 1000), 8, 1000));
    leak_reallocarray();
}

/* --- free_null ---------------------------------------------------------------- */

static __attribute__((noipa)) void leak_free_null(void)
{
    static void *empty[3];
    for (int i = 0; i < 3; i++) {
        empty[i] = malloc(0);
        check(empty[i] != NULL, "malloc(0) returns a block");
    }
    keep = empty;
}

static void mode_free_null(void)
{
    for (int i = 0; i < 1000; i++) {
        free(NULL);
        free(malloc(0));
    }
    leak_free_null();
}

/* --- usable_size --------------------------------------------------------------- */

static void check_usable(void *p, size_t asked)
{
    size_t usable = malloc_usable_size(p);
    check(p && usable >= asked, "malloc_usable_size >= the size asked for");
    if (p)
        memset(p, 0xab, usable); /* every usable byte is the program's */
}

static __attribute__((noipa)) void usable_sizes(void)
{
    for (size_t size = 0; size < 70000; size = size * 3 / 2 + 1) {
        void *p = malloc(size);
        check_usable(p, size);
        p = realloc(p, size * 2 + 1);
        check_usable(p, size * 2 + 1);
        free(p);
        p = calloc(size, 3);
        check_usable(p, size * 3);
        free(p);
        p = memalign(64, size);
        check_usable(p, size);
        free(p);
    }
    check(malloc_usable_size(NULL) == 0, "malloc_usable_size(NULL) is 0");
}

static __attribute__((noipa)) void leak_usable_size(void)
{
    keep = malloc(777);
    check_usable(keep, 777);
}

static void mode_usable_size(void)
{
    usable_sizes();
    leak_usable_size();
}

/* --- threads ---------------------------------------------------------------------- */

#define THREADS 4
#define BLOCKS_PER_THREAD 20000
#define INBOX 64

struct inbox {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    unsigned char *blocks[INBOX];
    size_t sizes[INBOX];
    int count;
};

static struct inbox inboxes[THREADS];

static void post(struct inbox *box, unsigned char *block, size_t size)
{
    pthread_mutex_lock(&box->lock);
    while (box->count == INBOX)
        pthread_cond_wait(&box->changed, &box->lock);
    box->blocks[box->count] = block;
    box->sizes[box->count++] = size;
    pthread_cond_broadcast(&box->changed);
    pthread_mutex_unlock(&box->lock);
}

static int take_and_free(struct inbox *box)
{
    pthread_mutex_lock(&box->lock);
    while (box->count == 0)
        pthread_cond_wait(&box->changed, &box->lock);
    unsigned char *block = box->blocks[--box->count];
    size_t size = box->sizes[box->count];
    pthread_cond_broadcast(&box->changed);
    pthread_mutex_unlock(&box->lock);
    int intact = filled(block, size, (unsigned)size);
    free(block);
    return intact;
}

static __attribute__((noipa)) unsigned char *pass_block(size_t size)
{
    unsigned char *p = malloc(size);
    fill(p, size, (unsigned)size);
    return p;
}

static __attribute__((noipa)) void leak_threads(void)
{
    for (int i = 0; i < 64; i++)
        keep = malloc(1024);
}

static void *hand_over(void *arg)
{
    int me = (int)(intptr_t)arg;
    struct inbox *mine = &inboxes[me], *next = &inboxes[(me + 1) % THREADS];
    int corrupt = 0, sent = 0, freed = 0;
    while (sent < BLOCKS_PER_THREAD || freed < BLOCKS_PER_THREAD) {
        if (sent < BLOCKS_PER_THREAD && (sent - freed < INBOX / 2 || freed == BLOCKS_PER_THREAD)) {
            size_t size = 16 + (size_t)((sent * 37 + me * 101) % 2000);
            post(next, pass_block(size), size);
            sent++;
        } else {
            corrupt += !take_and_free(mine);
            freed++;
        }
    }
    leak_threads();
    return (void *)(intptr_t)corrupt;
}

static void mode_threads(void)
{
    pthread_t ids[THREADS];
    for (int i = 0; i < THREADS; i++) {
        pthread_mutex_init(&inboxes[i].lock, NULL);
        pthread_cond_init(&inboxes[i].changed, NULL);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_create(&ids[i], NULL, hand_over, (void *)(intptr_t)i);
    int corrupt = 0;
    for (int i = 0; i < THREADS; i++) {
        void *result;
        pthread_join(ids[i], &result);
        corrupt += (int)(intptr_t)result;
    }
    check(corrupt == 0, "blocks freed by another thread arrive intact");
}

/* --- helper_thread ------------------------------------------------------------------ */

#define HELPER_ROUNDS 200
#define HELPER_LEAKS 64

static pthread_mutex_t handoff_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *handed[HELPER_ROUNDS];
static int handed_count;
static _Atomic int ticks, ticks_done;

static __attribute__((noipa)) void leak_after_helper(void)
{
    static unsigned char *blocks[HELPER_LEAKS];
    for (int i = 0; i < HELPER_LEAKS; i++) {
        blocks[i] = malloc(1000);
        fill(blocks[i], 1000, (unsigned)i);
    }
    keep = blocks;
}

static void on_tick(union sigval unused)
{
    (void)unused;
    if (atomic_fetch_add(&ticks, 1) >= HELPER_ROUNDS)
        return;
    for (size_t i = 0; i < 100; i++) {
        unsigned char *p = malloc(64 + i);
        fill(p, 64 + i, (unsigned)i);
        free(p);
    }
    unsigned char *block = pass_block(500);
    pthread_mutex_lock(&handoff_lock);
    handed[handed_count++] = block;
    pthread_mutex_unlock(&handoff_lock);
    atomic_fetch_add(&ticks_done, 1);
}

/* Frees what the helper handed over; returns how many blocks were intact. */
static int free_handed(void)
{
    int intact = 0;
    pthread_mutex_lock(&handoff_lock);
    for (int i = 0; i < handed_count; i++) {
        intact += filled(handed[i], 500, 500);
        free(handed[i]);
    }
    handed_count = 0;
    pthread_mutex_unlock(&handoff_lock);
    return intact;
}

static void mode_helper_thread(void)
{
    struct sigevent event = {.sigev_notify = SIGEV_THREAD, .sigev_notify_function = on_tick};
    struct itimerspec every_ms = {{0, 1000000}, {0, 1000000}};
    timer_t timer;
    if (timer_create(CLOCK_MONOTONIC, &event, &timer) || timer_settime(timer, 0, &every_ms, NULL)) {
        check(0, "a SIGEV_THREAD timer starts");
        return;
    }
    int intact = 0;
    unsigned char *ring[256] = {0};
    for (unsigned i = 0; atomic_load(&ticks_done) < HELPER_ROUNDS; i++) {
        free(ring[i % 256]);
        ring[i % 256] = malloc(16 + i % 3000);
        fill(ring[i % 256], 16 + i % 3000, i);
        if (i % 1000 == 0)
            intact += free_handed();
    }
    timer_delete(timer);
    intact += free_handed();
    for (int i = 0; i < 256; i++)
        free(ring[i]);
    check(intact == HELPER_ROUNDS, "blocks from the helper thread arrive intact");
    leak_after_helper();
}

/* --- signal_in_switch, seccomp, failed_exec ----------------------------------------- */

static _Atomic int handler_runs;

static void allocate_in_handler(int signo)
{
    (void)signo;
    unsigned char *p = malloc(64);
    fill(p, 64, 1);
    free(p);
    atomic_fetch_add(&handler_runs, 1);
}

static void *return_arg(void *arg)
{
    return arg;
}

static void churn(int blocks)
{
    for (int i = 0; i < blocks; i++) {
        unsigned char *p = malloc(16 + (size_t)i % 500);
        fill(p, 16 + (size_t)i % 500, (unsigned)i);
        free(p);
    }
}

static void second_thread(void)
{
    pthread_t id;
    check(!pthread_create(&id, NULL, return_arg, NULL) && !pthread_join(id, NULL),
          "a second thread starts and ends");
}

static inline __attribute__((always_inline)) void leak_blocks(int n, size_t size)
{
    static unsigned char *blocks[16];
    for (int i = 0; i < n; i++) {
        blocks[i] = malloc(size);
        fill(blocks[i], size, (unsigned)i);
    }
    keep = blocks;
}

static __attribute__((noipa)) void leak_signal_in_switch(void)
{
    leak_blocks(10, 500);
}

static void mode_signal_in_switch(void)
{
    signal(SIGUSR1, allocate_in_handler);
    churn(1000);
    second_thread();
    churn(1000);
    leak_signal_in_switch();
    fprintf(stderr, "note: the handler ran %d times\n", atomic_load(&handler_runs));
}

static __attribute__((noipa)) void leak_seccomp(void)
{
    leak_blocks(10, 300);
}

static void mode_seccomp(void)
{
    struct sock_filter kill_barrier_and_sleep[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_membarrier, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_nanosleep, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clock_nanosleep, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    };
    struct sock_fprog filter = {sizeof kill_barrier_and_sleep / sizeof kill_barrier_and_sleep[0],
                                kill_barrier_and_sleep};
    churn(1000);
    check(!prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) &&
          !prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter), "the seccomp filter is in");
    second_thread();
    churn(1000);
    leak_seccomp();
}

static __attribute__((noipa)) unsigned char **make_blocks(int n)
{
    unsigned char **blocks = malloc((size_t)n * sizeof *blocks);
    for (int i = 0; i < n; i++) {
        blocks[i] = malloc(1000);
        fill(blocks[i], 1000, (unsigned)i);
    }
    return blocks;
}

/* Frees what make_blocks made; 1 when all of it was intact. */
static int free_blocks(unsigned char **blocks, int n)
{
    int intact = 0;
    for (int i = 0; i < n; i++) {
        intact += filled(blocks[i], 1000, (unsigned)i);
        free(blocks[i]);
    }
    free(blocks);
    return intact == n;
}

static __attribute__((noipa)) void leak_failed_exec(void)
{
    leak_blocks(7, 100);
}

static void mode_failed_exec(void)
{
    struct sigevent event = {.sigev_notify = SIGEV_THREAD, .sigev_notify_function = on_tick};
    timer_t timer; /* never armed: the C library's thread waits, and is there */
    check(!timer_create(CLOCK_MONOTONIC, &event, &timer), "a SIGEV_THREAD timer is made");
    unsigned char **blocks = make_blocks(100);
    char *argv[] = {"/nonexistent/program", NULL};
    execv(argv[0], argv);
    check(errno == ENOENT, "the exec fails with ENOENT");
    check(free_blocks(blocks, 100), "the blocks survive the failed exec");
    timer_delete(timer);
    leak_failed_exec();
}

/* --- fork_filtered ------------------------------------------------------------------ */

static __attribute__((noipa)) void leak_fork_filtered(void)
{
    leak_blocks(3, 100);
}

static void mode_fork_filtered(void)
{
    unsigned char **blocks = make_blocks(10);
    struct sock_filter allow_all[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
    struct sock_fprog filter = {1, allow_all};
    check(!prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) &&
          !syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &filter), "the seccomp filter is in");
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        check(free_blocks(blocks, 10), "the child's copies of the blocks are intact");
        leak_fork_filtered();
        printf("child: %s\n", failures ? "failed" : "ok");
        exit(failures != 0);
    }
    fprintf(stderr, "note: child %d\n", (int)child);
    int status;
    check(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
          WEXITSTATUS(status) == 0, "the child exits 0");
    check(free_blocks(blocks, 10), "the blocks are intact");
}

/* --- fork_switching ------------------------------------------------------------------ */

#define MAX_CHILDREN 4096

static void allocate_on_tick(union sigval unused)
{
    (void)unused;
    churn(10);
}

static long elapsed_ns(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000000000L + now.tv_nsec - since->tv_nsec;
}

/* Waits up to 10 s for every child; returns how many never exited. */
static int reap(const pid_t *children, int n)
{
    int left = n, status;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (left && elapsed_ns(&start) < 10000000000L) {
        pid_t done = waitpid(-1, &status, WNOHANG);
        if (done > 0)
            left--;
        else
            sched_yield();
    }
    for (int i = 0; left && i < n; i++)
        if (!kill(children[i], SIGKILL))
            waitpid(children[i], &status, 0);
    return left;
}

static void mode_fork_switching(void)
{
    static pid_t children[MAX_CHILDREN];
    churn(100);
    struct sock_filter allow_all[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
    struct sock_fprog filter = {1, allow_all}; /* raw: the agent's switch is slow under it */
    check(!prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) &&
          !syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &filter), "the seccomp filter is in");
    struct sigevent event = {.sigev_notify = SIGEV_THREAD,
                             .sigev_notify_function = allocate_on_tick};
    struct itimerspec in_2ms = {{0, 0}, {0, 2000000}};
    timer_t timer;
    check(!timer_create(CLOCK_MONOTONIC, &event, &timer) && !timer_settime(timer, 0, &in_2ms, NULL),
          "a SIGEV_THREAD timer is armed");
    fflush(stdout);
    int n = 0;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (n < MAX_CHILDREN && elapsed_ns(&start) < 20000000L) {
        pid_t child = fork();
        if (child == 0)
            _exit(0);
        if (child > 0)
            children[n++] = child;
    }
    check(reap(children, n) == 0, "every child exits");
    timer_delete(timer);
}

/* --- fork --------------------------------------------------------------------------- */

static __attribute__((noipa)) void keep_before_fork(void)
{
    static unsigned char *blocks[48];
    for (int i = 0; i < 48; i++) {
        blocks[i] = malloc(64 * 1024);
        fill(blocks[i], 64 * 1024, (unsigned)i);
    }
    keep = blocks;
}

static __attribute__((noipa)) void leak_fork_child(void)
{
    static unsigned char *blocks[16];
    for (int i = 0; i < 16; i++) {
        blocks[i] = malloc(64 * 1024);
        fill(blocks[i], 64 * 1024, (unsigned)i);
    }
    keep = blocks;
}

static void mode_fork(void)
{
    keep_before_fork();
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) {
        check(0, "fork succeeds");
        return;
    }
    if (child == 0) {
        leak_fork_child();
        printf("child: ok\n");
        exit(0);
    }
    fprintf(stderr, "note: child %d\n", (int)child);
    int status;
    check(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "the child exits 0");
}

/* ------------------------------------------------------------------------------------- */

static const struct {
    const char *name;
    void (*run)(void);
} modes[] = {
    {"realloc", mode_realloc},         {"aligned", mode_aligned},
    {"calloc", mode_calloc},           {"reallocarray", mode_reallocarray},
    {"free_null", mode_free_null},     {"usable_size", mode_usable_size},
    {"threads", mode_threads},         {"helper_thread", mode_helper_thread},
    {"signal_in_switch", mode_signal_in_switch},
    {"seccomp", mode_seccomp},         {"failed_exec", mode_failed_exec},
    {"fork_filtered", mode_fork_filtered}, {"fork_switching", mode_fork_switching},
    {"fork", mode_fork},
};

int main(int argc, char **argv)
{
    for (size_t i = 0; argc == 2 && i < sizeof modes / sizeof modes[0]; i++)
        if (!strcmp(argv[1], modes[i].name)) {
            modes[i].run();
            if (!failures)
                printf("%s: ok\n", argv[1]);
            return failures != 0;
        }
    fprintf(stderr, "usage: hooks realloc|aligned|calloc|reallocarray|free_null|usable_size|"
                    "threads|helper_thread|signal_in_switch|seccomp|failed_exec|"
                    "fork_filtered|fork_switching|fork\n");
    return 2;
}
