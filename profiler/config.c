/*
 * config.c - parses the agent's environment variables. Bad values are
 * reported once and leave the agent idle: the program itself always runs.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "stoke_agent_env.h"
#include "stoke_format.h"


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
    if (parse_hz(getenv(STOKE_ENV_HZ), &cfg->hz) || parse_clock(getenv(STOKE_ENV_CLOCK), &cfg->clock))
        return -1;
    return 0;
}
