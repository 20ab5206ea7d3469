/*
 * port_channel.c - see port_channel.h. Never blocks: the socket is read
 * with MSG_DONTWAIT, and the loopback probe connects to a local address,
 * which is answered or refused at once.
 */
#define _GNU_SOURCE
#include "port_channel.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int port_channel_open(struct port_channel *c)
{
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, fds))
        return -1;
    c->stoke_fd = fds[0];
    c->agent_fd = fds[1];
    return 0;
}

void port_channel_close_agent_end(struct port_channel *c)
{
    if (c->agent_fd >= 0)
        close(c->agent_fd);
    c->agent_fd = -1;
}

void port_channel_close(struct port_channel *c)
{
    port_channel_close_agent_end(c);
    if (c->stoke_fd >= 0)
        close(c->stoke_fd);
    c->stoke_fd = -1;
}

unsigned port_channel_receive(const struct port_channel *c, pid_t *pid)
{
    char message[64];
    ssize_t n = recv(c->stoke_fd, message, sizeof message - 1, MSG_DONTWAIT);
    if (n <= 0)
        return 0;
    message[n] = '\0';
    unsigned port;
    long sender;
    if (sscanf(message, "port %u pid %ld", &port, &sender) != 2 || port == 0 || port > 65535)
        return 0;
    *pid = (pid_t)sender;
    return port;
}

static int connects(int family, const struct sockaddr *addr, socklen_t len)
{
    int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    int ok = connect(fd, addr, len) == 0;
    close(fd);
    return ok;
}

int port_answers(unsigned port)
{
    struct sockaddr_in v4 = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    v4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct sockaddr_in6 v6 = {.sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port),
                              .sin6_addr = IN6ADDR_LOOPBACK_INIT};
    return connects(AF_INET, (struct sockaddr *)&v4, sizeof v4) ||
           connects(AF_INET6, (struct sockaddr *)&v6, sizeof v6);
}
