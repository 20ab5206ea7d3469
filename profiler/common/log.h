/*
 * log.h - the agent's messages to the user: one line on stderr, prefixed
 * "stoke: ". Uses write(2) only, and allocates nothing; the sampling
 * signal handler never logs.
 */
#ifndef STOKE_AGENT_LOG_H
#define STOKE_AGENT_LOG_H

/* Writes one message, errno kept.
 * Context: program, hooks, writer. */
void agent_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Remembers which file stderr is, so that a message is never written into
 * a file the program opened later on descriptor 2.
 * Context: program. */
void log_init(void);

#endif
