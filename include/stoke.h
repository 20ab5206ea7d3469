/*
 * stoke.h - the small API a program may call when it runs under stoke's
 * agent (libstoke.so, preloaded by `stoke record`).
 *
 * The symbols are weak: a program that includes this header links and runs
 * without the agent, and stoke_agent_loaded() tells whether it is there.
 */
#ifndef STOKE_H
#define STOKE_H

#include <errno.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Pauses (0) or resumes (1) CPU sampling of the whole process. Returns the
 * previous state (0 or 1). Only call it when stoke_agent_loaded(). */
int stoke_sampling_enable(int on) __attribute__((weak));

/* 1 when the process runs with stoke's agent, 0 otherwise. */
static inline int stoke_agent_loaded(void)
{
    return stoke_sampling_enable != 0;
}

/* The agent's side of stoke_heap_dump; call stoke_heap_dump instead. */
const char *stoke_agent_heap_dump(const char *path) __attribute__((weak));

/* Writes a heap snapshot now (live bytes and objects by allocation stack):
 * to path, or with path NULL next to the process's trace under the usual
 * name. Returns the path written (valid until the thread's next call), or
 * NULL with errno set: ENOSYS when the agent is not loaded, ENOTSUP when
 * heap tracking is off (record with --heap), or why the file could not be
 * written. */
static inline const char *stoke_heap_dump(const char *path)
{
    if (!stoke_agent_heap_dump) {
        errno = ENOSYS;
        return 0;
    }
    return stoke_agent_heap_dump(path);
}

#ifdef __cplusplus
}
#endif

#endif
