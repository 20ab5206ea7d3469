/*
 * thread_churn.c - threads created and joined in rounds, each spinning
 * briefly and allocating: every thread's sampling starts (and its first,
 * randomly short period runs out) while the thread is still in the agent's
 * start-up code, so a sampler that mishandles a sample landing there shows
 * up as a hang.
 *
 *   thread_churn [ROUNDS]   (default 100; 4 threads a round)
 *   -> thread_churn: 400 threads, checksum N
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 4
#define SPIN 200000

static __attribute__((noinline)) void *churn_worker(void *arg)
{
    uintptr_t seed = (uintptr_t)arg;
    volatile uint64_t sum = 0;
    for (int i = 0; i < SPIN; i++)
        sum += (uint64_t)i ^ seed;
    unsigned char *block = malloc(64 + seed % 64);
    if (!block)
        return NULL;
    block[0] = (unsigned char)sum;
    free(block);
    return (void *)(uintptr_t)(sum & 0xff);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 100;
    uint64_t checksum = 0;
    for (int r = 0; r < rounds; r++) {
        pthread_t threads[THREADS];
        for (int i = 0; i < THREADS; i++)
            if (pthread_create(&threads[i], NULL, churn_worker, (void *)(uintptr_t)(r * THREADS + i))) {
                fprintf(stderr, "thread_churn: pthread_create failed\n");
                return 1;
            }
        for (int i = 0; i < THREADS; i++) {
            void *result;
            pthread_join(threads[i], &result);
            checksum += (uintptr_t)result;
        }
    }
    printf("thread_churn: %d threads, checksum %llu\n", rounds * THREADS,
           (unsigned long long)checksum);
    return 0;
}
