/*
 * signal_name.h - signals as users name them on the command line.
 */
#ifndef STOKE_CLI_SIGNAL_NAME_H
#define STOKE_CLI_SIGNAL_NAME_H

/* The signal text names: "USR2", "SIGUSR2" (either case) or a number from
 * 1 to the highest signal. Returns 0 when text names no signal. */
int parse_signal(const char *text);

#endif
