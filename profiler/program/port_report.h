/*
 * port_report.h - tells `stoke record -P` the first TCP port the program
 * listens on, over the datagram socket named by STOKE_PORT_FD.
 */
#ifndef STOKE_AGENT_PORT_REPORT_H
#define STOKE_AGENT_PORT_REPORT_H

/* Takes the channel from the environment when it is there and is still the
 * socket stoke passed (it may have been closed or reused); marks it
 * close-on-exec. Call once at start, before the program runs.
 * Context: program. */
void port_report_init(void);

/* After a successful listen(fd): reports fd's port when it is the process's
 * first TCP listener. Never blocks, never raises SIGPIPE, keeps errno.
 * Context: program. */
void port_report_listening(int fd);

/* Around exec and spawn: the channel is inherited by the new program only
 * while it starts, so the program's own children of other kinds never see
 * it.
 * Context: program. */
void port_report_before_new_program(void);
void port_report_after_new_program(void);

#endif
