/*
 * small_stack.c - threads whose stacks are nearly used up, and what a
 * program sees of its alternate signal stacks:
 *
 *   deep      a thread on a 64 KiB stack recurses until less than 2 KiB of
 *             it is left, then burns 300 ms of CPU there (burn_at_bottom),
 *             allocating and freeing as it goes. A profiler whose signal
 *             handler, or whose allocation hook, works on the program's
 *             stack overflows it.
 *   altstack  a thread asks for its alternate signal stack (none), sets
 *             its own, checks that a SIGUSR1 handler with SA_ONSTACK runs
 *             on it while CPU is burned, disables it and asks again.
 *   coroutine the main thread switches (swapcontext) to a coroutine on a
 *             stack of its own, mapped with a PROT_NONE guard page below
 *             and above, which burns CPU in run_coroutine: samples there
 *             are taken on a stack that is not the thread's, between
 *             pages that fault.
 *
 * Prints what it checked; exit status 0 when all held.
 * usage: small_stack deep|altstack|coroutine
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>

#include "cpu_time.h"

#define THREAD_STACK (64 * 1024)
#define LEFT_AT_BOTTOM 2048
#define FRAME_BYTES 512

static volatile uint64_t sink;

static __attribute__((noipa)) void burn_at_bottom(unsigned ms)
{
    uint64_t x = 1, end = thread_cpu_ms() + ms;
    while (thread_cpu_ms() < end) {
        void *p = malloc(64 + x % 256);
        for (int i = 0; i < 2000; i++)
            x = (x * 6364136223846793005ull + 1) ^ (x >> 31);
        free(p);
    }
    sink = x;
}

static uintptr_t stack_floor(void)
{
    pthread_attr_t attr;
    void *low;
    size_t size;
    pthread_getattr_np(pthread_self(), &attr);
    pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
    return (uintptr_t)low;
}

static __attribute__((noipa)) int descend(uintptr_t floor, int depth)
{
    volatile char frame[FRAME_BYTES];
    frame[0] = (char)depth;
    if ((uintptr_t)frame - floor < LEFT_AT_BOTTOM + FRAME_BYTES) {
        burn_at_bottom(300);
        return frame[0];
    }
    return descend(floor, depth + 1) + frame[0] - frame[0];
}

static void *deep_thread(void *unused)
{
    /* The first call of a function through the PLT binds it lazily, and the
     * dynamic linker saves the whole vector state (several KiB) on the
     * stack; the first malloc of a thread makes its arena. Both happen here,
     * not at the bottom, so the bare run never depends on them. */
    free(malloc(64));
    sink += thread_cpu_ms();
    descend(stack_floor(), 0);
    return NULL;
}

static int run_on_small_stack(void *(*fn)(void *))
{
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, THREAD_STACK);
    if (pthread_create(&t, &attr, fn, NULL))
        return 1;
    pthread_join(t, NULL);
    return 0;
}

static int deep(void)
{
    int failed = run_on_small_stack(deep_thread);
    printf("small_stack deep: %s\n", failed ? "no thread" : "reached the bottom and burned");
    return failed;
}

/* --- altstack ------------------------------------------------------------- */

static char own_stack[64 * 1024];
static volatile int handler_on_own_stack, handler_calls;

static void on_usr1(int signo)
{
    char here;
    handler_calls++;
    handler_on_own_stack = &here >= own_stack && &here < own_stack + sizeof own_stack;
}

static int none_set(void)
{
    stack_t st;
    return !sigaltstack(NULL, &st) && (st.ss_flags & SS_DISABLE) && !st.ss_sp && !st.ss_size;
}

static void *altstack_thread(void *result)
{
    int *ok = result;
    int none_at_start = none_set();
    stack_t mine = {.ss_sp = own_stack, .ss_size = sizeof own_stack, .ss_flags = 0}, old;
    int set = !sigaltstack(&mine, &old) && (old.ss_flags & SS_DISABLE);
    stack_t now;
    int reported = !sigaltstack(NULL, &now) && now.ss_sp == own_stack &&
                   now.ss_size == sizeof own_stack && !(now.ss_flags & SS_DISABLE);
    pthread_kill(pthread_self(), SIGUSR1);
    burn_at_bottom(100);
    stack_t off = {.ss_flags = SS_DISABLE};
    int disabled = !sigaltstack(&off, NULL) && none_set();
    printf("small_stack altstack: none at start %d, set %d, reported %d, handler on it %d, "
           "none after disabling %d\n",
           none_at_start, set, reported, handler_calls == 1 && handler_on_own_stack, disabled);
    *ok = none_at_start && set && reported && handler_on_own_stack && disabled;
    return NULL;
}

static int altstack(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGUSR1, &sa, NULL);
    int ok = 0;
    pthread_t t;
    if (pthread_create(&t, NULL, altstack_thread, &ok))
        return 1;
    pthread_join(t, NULL);
    return !ok;
}

/* --- coroutine ------------------------------------------------------------ */

#define COROUTINE_STACK (128 * 1024)
#define PAGE 4096

static ucontext_t main_context, coroutine_context;

static __attribute__((noipa)) void run_coroutine(void)
{
    burn_at_bottom(300);
    sink++; /* not a tail call: this frame stays */
}

static int coroutine(void)
{
    char *map = mmap(NULL, COROUTINE_STACK + 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
    if (map == MAP_FAILED || mprotect(map + PAGE, COROUTINE_STACK, PROT_READ | PROT_WRITE) ||
        getcontext(&coroutine_context))
        return 1;
    coroutine_context.uc_stack.ss_sp = map + PAGE;
    coroutine_context.uc_stack.ss_size = COROUTINE_STACK;
    coroutine_context.uc_link = &main_context;
    makecontext(&coroutine_context, run_coroutine, 0);
    int failed = swapcontext(&main_context, &coroutine_context);
    printf("small_stack coroutine: %s\n", failed ? "could not switch" : "ran and came back");
    return failed;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "deep"))
        return deep();
    if (argc == 2 && !strcmp(argv[1], "altstack"))
        return altstack();
    if (argc == 2 && !strcmp(argv[1], "coroutine"))
        return coroutine();
    fprintf(stderr, "usage: small_stack deep|altstack|coroutine\n");
    return 2;
}
