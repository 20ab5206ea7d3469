/*
 * ring.c - the sample ring. Layout of one entry, in 64-bit words:
 *   [time_ns] [nframes | weight << 16 | flags << 32] [frame 0] ... [frame n-1]
 * Entries may wrap around the end of the array word by word.
 * Async-signal-safe on the producer side: no calls, only atomics and stores.
 */
#include "ring.h"

#include "stoke_format.h"

#define HEADER_WORDS 2

int ring_push(struct ring *r, uint64_t time_ns, uint32_t flags, uint32_t weight,
              const uint64_t *frames, uint32_t nframes)
{
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
    uint64_t need = HEADER_WORDS + nframes;
    if (RING_WORDS - (head - tail) < need)
        return -1;
    r->words[head % RING_WORDS] = time_ns;
    weight = weight < 1 ? 1 : weight > RING_MAX_WEIGHT ? RING_MAX_WEIGHT : weight;
    r->words[(head + 1) % RING_WORDS] = nframes | (uint64_t)weight << 16 | (uint64_t)flags << 32;
    for (uint32_t i = 0; i < nframes; i++)
        r->words[(head + HEADER_WORDS + i) % RING_WORDS] = frames[i];
    atomic_store_explicit(&r->head, head + need, memory_order_release);
    return 0;
}

int ring_pop(struct ring *r, struct ring_sample *s, uint64_t *scratch)
{
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    if (head == tail)
        return -1;
    s->time_ns = r->words[tail % RING_WORDS];
    uint64_t meta = r->words[(tail + 1) % RING_WORDS];
    s->nframes = (uint32_t)meta & 0xffff;
    s->weight = (uint32_t)(meta >> 16) & 0xffff;
    s->flags = (uint32_t)(meta >> 32);
    if (s->nframes > STOKE_MAX_FRAMES)
        s->nframes = STOKE_MAX_FRAMES; /* cannot happen: the producer caps */
    for (uint32_t i = 0; i < s->nframes; i++)
        scratch[i] = r->words[(tail + HEADER_WORDS + i) % RING_WORDS];
    s->frames = scratch;
    atomic_store_explicit(&r->tail, tail + HEADER_WORDS + (meta & 0xffff), memory_order_release);
    return 0;
}
