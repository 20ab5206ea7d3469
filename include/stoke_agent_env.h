/*
 * stoke_agent_env.h - the environment contract between `stoke record` and
 * the agent: the variables the command runs with, and their limits. Both
 * cli/ and profiler/ include it; docs/usage.md documents it for users who
 * preload libstoke.so by hand.
 */
#ifndef STOKE_AGENT_ENV_H
#define STOKE_AGENT_ENV_H

#define STOKE_ENV_OUTPUT "STOKE_OUTPUT" /* directory for traces; unset: agent idle */
#define STOKE_ENV_HZ "STOKE_HZ"         /* samples per second of the clock */
#define STOKE_ENV_CLOCK "STOKE_CLOCK"   /* "cpu" or "wall" */

#define STOKE_DEFAULT_HZ 997
#define STOKE_MAX_HZ 100000

#endif
