/*
 * exec_env.c - see exec_env.h. The saved variables are copied into static
 * storage at start, so later changes to the environment by the program do
 * not matter and nothing is allocated at exec time.
 */
#define _GNU_SOURCE
#include "exec_env.h"

#include <stdlib.h>
#include <string.h>

#include "stoke_agent_env.h"

static const char *const names[EXEC_ENV_EXTRA] = {
    STOKE_ENV_OUTPUT,        STOKE_ENV_HZ,          STOKE_ENV_CLOCK,
    STOKE_ENV_PORT_FD,       STOKE_ENV_HEAP_INTERVAL, STOKE_ENV_HEAP_SIGNAL,
    STOKE_ENV_HEAP_PEAK,     STOKE_ENV_HEAP_SEED,   STOKE_ENV_RUNTIME_NAMES,
    STOKE_ENV_MAX_SIZE,      "LD_PRELOAD"};
static char saved[EXEC_ENV_EXTRA][4200];
static int nsaved;

void exec_env_save(void)
{
    nsaved = 0;
    for (int i = 0; i < EXEC_ENV_EXTRA; i++) {
        const char *value = getenv(names[i]);
        size_t len = strlen(names[i]);
        if (!value || len + 1 + strlen(value) >= sizeof saved[0])
            continue;
        memcpy(saved[nsaved], names[i], len);
        saved[nsaved][len] = '=';
        strcpy(saved[nsaved] + len + 1, value);
        nsaved++;
    }
}

size_t exec_env_count(char *const envp[])
{
    size_t n = 0;
    while (envp && envp[n])
        n++;
    return n;
}

static int has_variable(char *const envp[], const char *entry)
{
    size_t len = strcspn(entry, "=") + 1;
    for (size_t i = 0; envp && envp[i]; i++)
        if (!strncmp(envp[i], entry, len))
            return 1;
    return 0;
}

char *const *exec_env_fill(char *const envp[], char **out)
{
    if (!nsaved || has_variable(envp, STOKE_ENV_OUTPUT "="))
        return envp;
    size_t n = exec_env_count(envp);
    memcpy(out, envp, n * sizeof *out);
    for (int i = 0; i < nsaved; i++)
        if (!has_variable(envp, saved[i]))
            out[n++] = saved[i];
    out[n] = NULL;
    return out;
}
