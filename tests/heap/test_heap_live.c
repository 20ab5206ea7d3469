/*
 * test_heap_live.c - the agent's table of live sampled allocations
 * (profiler/heap/heap_live.c) against a plain reference: random inserts and
 * removes of addresses shaped as allocators hand them out (16-byte aligned,
 * clustered, many in one shard), so that probe runs wrap and removals shift
 * entries back; every address must be found exactly while live, never
 * after, and the free filter must never say "certainly not" of a live one.
 * Then the same in exact mode, with one thread working alone (the nursery
 * in front of the tables), switched to shared tables halfway, where an
 * entry whose free was never seen must come out of the switch reported.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "heap_live.h"
#include "heap_sharing.h"

#define ADDRESSES 60000
#define STEPS 600000

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Half clustered in one region, half sharing the low bits that pick a shard. */
static uintptr_t address_of(uint32_t i)
{
    return i % 2 ? 0x7f0000000000ull + (uintptr_t)i * 16 : 0x560000000000ull + (uintptr_t)i * 1024;
}

static void check_insert(uint32_t i, int *live)
{
    struct live_allocation a = {.address = address_of(i), .size = i, .stack_id = i % 1000};
    struct live_allocation replaced;
    int found = heap_live_insert(&a, &replaced);
    CHECK(found == live[i]);
    if (found == 1)
        CHECK(replaced.address == a.address && replaced.size == i);
    live[i] = 1;
}

static void check_remove(uint32_t i, int *live)
{
    struct live_allocation out;
    int ret = heap_live_remove(address_of(i), &out);
    CHECK(ret == (live[i] ? 0 : -1));
    if (!ret)
        CHECK(out.address == address_of(i) && out.size == i && out.stack_id == i % 1000);
    live[i] = 0;
}

/* Exact mode: an address is inserted only while not live (a block the
 * program holds cannot be allocated again), so every answer is exact. */
static void exact_steps(int *live, uint32_t steps)
{
    for (uint32_t step = 0; step < steps; step++) {
        uint32_t i = (uint32_t)(next_random() % ADDRESSES);
        if (!live[i] && next_random() % 3)
            check_insert(i, live);
        else
            check_remove(i, live);
    }
}

static int drops, lost_drops;
static struct live_allocation last_drop;

static void count_drop(const struct live_allocation *a, int lost)
{
    drops++;
    lost_drops += lost;
    last_drop = *a;
}

static void flush_nursery(void)
{
    heap_live_nursery_flush(count_drop);
}

/* Address a is allocated, its free is never seen, many others come (it
 * moves from the nursery to the tables), and it is allocated again: the
 * switch to shared tables finds the old entry and reports it dropped. */
static void stale_entry(int *live, uint32_t a)
{
    check_insert(a, live);
    for (uint32_t i = 0, moved = 0; moved < 10000; i++)
        if (i != a && !live[i]) {
            check_insert(i, live);
            moved++;
        }
    struct live_allocation again = {.address = address_of(a), .size = 7, .stack_id = 7}, out;
    CHECK(heap_live_insert(&again, &out) == 0); /* in the nursery; the old one in the tables */
    drops = 0;
    heap_sharing_share();
    CHECK(drops == 1 && !lost_drops && last_drop.address == address_of(a) && last_drop.size == a);
    CHECK(heap_live_remove(address_of(a), &out) == 0 && out.size == 7 && out.stack_id == 7);
    live[a] = 0;
}

static void exact_mode(int *live)
{
    heap_sharing_prepare();
    heap_sharing_start(0, flush_nursery);
    heap_live_exact();
    int alone = atomic_load(&heap_sharing_mode) == HEAP_ALONE;
    if (!alone) /* a seccomp filter (a container's): the tables start shared */
        printf("test_heap_live: this process cannot work alone; the nursery is not tested\n");
    CHECK(heap_live_maybe(address_of(1)));
    exact_steps(live, STEPS / 2);
    uint32_t a = 0;
    while (live[a])
        a++;
    if (alone)
        stale_entry(live, a); /* and the switch to shared tables */
    exact_steps(live, STEPS / 2);
    for (uint32_t i = 0; i < ADDRESSES; i++)
        check_remove(i, live);
}

int main(void)
{
    int *live = calloc(ADDRESSES, sizeof *live);
    for (uint32_t step = 0; step < STEPS; step++) {
        uint32_t i = (uint32_t)(next_random() % ADDRESSES);
        if (next_random() % 3)
            check_insert(i, live);
        else
            check_remove(i, live);
    }
    for (uint32_t i = 0; i < ADDRESSES; i++) {
        if (live[i])
            CHECK(heap_live_maybe(address_of(i)));
        check_remove(i, live);
    }
    for (uint32_t i = 0; i < ADDRESSES; i++)
        CHECK(!heap_live_maybe(address_of(i)));
    exact_mode(live);
    free(live);
    return check_report("test_heap_live");
}
