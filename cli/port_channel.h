/*
 * port_channel.h - how `stoke record -P` learns the port the server
 * listens on: the agent in the server (or in any process it starts) sends
 * it over a datagram socket pair whose one end the server inherits
 * (STOKE_PORT_FD, include/stoke_agent_env.h). With --port, stoke instead
 * tries to connect to that port on the loopback address until it answers.
 */
#ifndef STOKE_CLI_PORT_CHANNEL_H
#define STOKE_CLI_PORT_CHANNEL_H

#include <sys/types.h>

struct port_channel {
    int stoke_fd; /* stoke's end: poll it for reports */
    int agent_fd; /* the end the server inherits (launch_plan.port_fd) */
};

/* Returns 0, or -1 with errno set. Both ends are close-on-exec. */
int port_channel_open(struct port_channel *c);

/* After the launch: stoke keeps only its own end. */
void port_channel_close_agent_end(struct port_channel *c);
void port_channel_close(struct port_channel *c);

/* Reads one report; returns the port (and its process in *pid), or 0 when
 * there was none or it was not a report. */
unsigned port_channel_receive(const struct port_channel *c, pid_t *pid);

/* 1 when something accepts TCP connections on port of 127.0.0.1 or ::1. */
int port_answers(unsigned port);

#endif
