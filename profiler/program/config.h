/*
 * config.h - the agent's settings, read once from the environment that
 * `stoke record` sets (STOKE_OUTPUT, STOKE_HZ, STOKE_CLOCK).
 */
#ifndef STOKE_AGENT_CONFIG_H
#define STOKE_AGENT_CONFIG_H

#include <stdint.h>

struct agent_config {
    char output_dir[4096]; /* where traces go; empty: the agent stays idle */
    uint32_t hz;           /* requested samples per second of the clock */
    int clock;             /* enum stoke_clock */
    uint64_t heap_interval; /* mean bytes per heap sample; 0: heap tracking off */
    int heap_signal;        /* snapshot signal; 0: none */
    int heap_peak;          /* keep the snapshot at the highest live heap */
    uint64_t heap_seed;     /* 0: random; else every thread's sampling starts from it */
    uint64_t max_size;      /* bytes the CPU trace may take on disk; 0: no bound */
};

/* Fills cfg from the environment (STOKE_OUTPUT, STOKE_HZ, STOKE_CLOCK,
 * STOKE_HEAP_INTERVAL, STOKE_HEAP_SIGNAL, STOKE_HEAP_PEAK, STOKE_HEAP_SEED,
 * STOKE_MAX_SIZE). Returns 0, or -1 when the agent should
 * stay idle (no STOKE_OUTPUT, or a bad value, already reported).
 * Context: program. */
int config_from_env(struct agent_config *cfg);

#endif
