/*
 * signal_name.h - signals as users name them on the command line.
 */
#ifndef STOKE_CLI_SIGNAL_NAME_H
#define STOKE_CLI_SIGNAL_NAME_H

#include <stddef.h>

/* The signal text names: "USR2", "SIGUSR2" (either case) or a number from
 * 1 to the highest signal. Returns 0 when text names no signal. */
int parse_signal(const char *text);

/* Writes "SIGSEGV (Segmentation fault)" into out, or "signal 40
 * (Real-time signal 6)" for a signal without a short name; returns out. */
const char *describe_signal(int signo, char *out, size_t cap);

#endif
