/*
 * sampler.h - the sampling signal handler: on each tick of a thread's
 * clock it unwinds that thread's stack into the thread's ring.
 */
#ifndef STOKE_AGENT_SAMPLER_H
#define STOKE_AGENT_SAMPLER_H

/* Installs the handler for a free signal: SIGPROF unless the program already
 * handles it, else a free real-time signal. Returns the signal, or -1. */
int sampler_install(void);

/* Turns sampling on or off for the whole process; returns the old state. */
int sampler_set_active(int on);

#endif
