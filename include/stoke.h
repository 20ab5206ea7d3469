/*
 * stoke.h - the small API a program may call when it runs under stoke's
 * agent (libstoke.so, preloaded by `stoke record`).
 *
 * The symbols are weak: a program that includes this header links and runs
 * without the agent, and stoke_agent_loaded() tells whether it is there.
 */
#ifndef STOKE_H
#define STOKE_H

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

#ifdef __cplusplus
}
#endif

#endif
