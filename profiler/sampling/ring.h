/*
 * ring.h - a single-producer single-consumer ring of samples, lock-free.
 *
 * The producer is the sampling signal handler of one thread, the consumer
 * the writer thread. A push that does not fit fails (the caller counts the
 * sample as lost); it never blocks or allocates.
 */
#ifndef STOKE_AGENT_RING_H
#define STOKE_AGENT_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "stoke_format.h"

#define RING_WORDS 16384 /* 128 KiB: ~65 ms of 250-frame stacks at 997 Hz */

#define RING_MAX_WEIGHT STOKE_MAX_SAMPLE_WEIGHT /* what the trace format allows */

struct ring_sample {
    uint64_t time_ns;  /* CLOCK_MONOTONIC when the sample was taken */
    uint32_t nframes;
    uint32_t flags;    /* STOKE_STACK_* */
    uint32_t weight;   /* the periods it stands for, 1..RING_MAX_WEIGHT */
    const uint64_t *frames; /* leaf first; consumer side: valid until ring_pop */
};

struct ring {
    _Atomic uint64_t head; /* words written, producer-owned */
    _Atomic uint64_t tail; /* words consumed, consumer-owned */
    uint64_t words[RING_WORDS];
};

/* Producer: copies the sample in. Returns 0, or -1 when the ring is full.
 * Context: handler. */
int ring_push(struct ring *r, uint64_t time_ns, uint32_t flags, uint32_t weight,
              const uint64_t *frames, uint32_t nframes);

/* Consumer: reads the oldest sample into *s, copying its frames into
 * scratch (STOKE_MAX_FRAMES words). Returns 0, or -1 when empty.
 * Context: writer. */
int ring_pop(struct ring *r, struct ring_sample *s, uint64_t *scratch);

#endif
