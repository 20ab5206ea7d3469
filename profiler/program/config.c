/*
 * config.c - parses the agent's environment variables. Bad values are
 * reported once and leave the agent idle: the program itself always runs.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "stoke_agent_env.h"
#include "stoke_format.h"
#include "common/log.h"


static int parse_hz(const char *s, uint32_t *hz)
{
    if (!s || !*s) {
        *hz = STOKE_DEFAULT_HZ;
        return 0;
    }
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || v == 0 || v > STOKE_MAX_HZ) {
        agent_log("STOKE_HZ='%s' is not a rate from 1 to %d; not profiling", s, STOKE_MAX_HZ);
        return -1;
    }
    *hz = (uint32_t)v;
    return 0;
}

static int parse_clock(const char *s, int *clock)
{
    if (!s || !*s || !strcmp(s, "cpu")) {
        *clock = STOKE_CLOCK_CPU;
        return 0;
    }
    if (!strcmp(s, "wall")) {
        *clock = STOKE_CLOCK_WALL;
        return 0;
    }
    agent_log("STOKE_CLOCK='%s' is neither 'cpu' nor 'wall'; not profiling", s);
    return -1;
}

static int parse_number(const char *name, const char *s, uint64_t max, uint64_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end || v > max) {
        agent_log("%s='%s' is not a number from 0 to %llu; not profiling", name, s,
                  (unsigned long long)max);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_heap(struct agent_config *cfg)
{
    const char *interval = getenv(STOKE_ENV_HEAP_INTERVAL);
    const char *signo = getenv(STOKE_ENV_HEAP_SIGNAL);
    const char *peak = getenv(STOKE_ENV_HEAP_PEAK);
    uint64_t v;
    cfg->heap_interval = 0;
    cfg->heap_signal = STOKE_DEFAULT_HEAP_SIGNAL;
    cfg->heap_peak = peak && !strcmp(peak, "1");
    if (interval && *interval) {
        if (parse_number(STOKE_ENV_HEAP_INTERVAL, interval, STOKE_MAX_HEAP_INTERVAL, &v))
            return -1;
        if (!v) {
            agent_log("STOKE_HEAP_INTERVAL must be at least 1 byte; not profiling");
            return -1;
        }
        cfg->heap_interval = v;
    }
    if (signo && *signo) {
        if (parse_number(STOKE_ENV_HEAP_SIGNAL, signo, 64, &v))
            return -1;
        cfg->heap_signal = (int)v;
    }
    const char *seed = getenv(STOKE_ENV_HEAP_SEED);
    cfg->heap_seed = 0;
    if (seed && *seed && parse_number(STOKE_ENV_HEAP_SEED, seed, UINT64_MAX, &cfg->heap_seed))
        return -1;
    return 0;
}

static int parse_max_size(const char *s, uint64_t *max_size)
{
    *max_size = 0;
    if (!s || !*s)
        return 0;
    if (parse_number(STOKE_ENV_MAX_SIZE, s, UINT64_MAX, max_size))
        return -1;
    if (*max_size && *max_size < STOKE_MIN_MAX_SIZE) {
        agent_log("STOKE_MAX_SIZE='%s' is below %llu bytes; not profiling", s,
                  (unsigned long long)STOKE_MIN_MAX_SIZE);
        return -1;
    }
    return 0;
}

int config_from_env(struct agent_config *cfg)
{
    const char *dir = getenv(STOKE_ENV_OUTPUT);
    if (!dir || !*dir)
        return -1;
    if (strlen(dir) >= sizeof cfg->output_dir) {
        agent_log("STOKE_OUTPUT is too long; not profiling");
        return -1;
    }
    strcpy(cfg->output_dir, dir);
    if (parse_hz(getenv(STOKE_ENV_HZ), &cfg->hz) ||
        parse_clock(getenv(STOKE_ENV_CLOCK), &cfg->clock) || parse_heap(cfg) ||
        parse_max_size(getenv(STOKE_ENV_MAX_SIZE), &cfg->max_size))
        return -1;
    return 0;
}
