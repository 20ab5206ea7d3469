/*
 * port_report.c - see port_report.h. The channel is one end of a datagram
 * socket pair that `stoke record` created; STOKE_PORT_FD names its
 * descriptor and inode ("FD:INODE"), so a descriptor the program closed and
 * reused for a file of its own is never written to. Each message is one
 * datagram, "port N pid P\n", sent without waiting: if stoke is gone or the
 * socket is full, the port is simply not reported.
 *
 * Must never: change the result or errno of listen, block the program, or
 * leave the descriptor open across an exec the agent did not see.
 */
#define _GNU_SOURCE
#include "port_report.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stoke_agent_env.h"

static int channel_fd = -1;
static unsigned long long channel_inode;
static atomic_int reported;

/* 1 when fd is still the socket stoke passed. */
static int channel_is_ours(int fd, unsigned long long inode)
{
    struct stat st;
    return fd >= 0 && !fstat(fd, &st) && S_ISSOCK(st.st_mode) &&
           (unsigned long long)st.st_ino == inode;
}

static void set_close_on_exec(int on)
{
    if (channel_fd < 0)
        return;
    int flags = fcntl(channel_fd, F_GETFD);
    if (flags >= 0)
        fcntl(channel_fd, F_SETFD, on ? flags | FD_CLOEXEC : flags & ~FD_CLOEXEC);
}

void port_report_init(void)
{
    int saved_errno = errno;
    const char *value = getenv(STOKE_ENV_PORT_FD);
    int fd;
    unsigned long long inode;
    if (value && sscanf(value, "%d:%llu", &fd, &inode) == 2 && channel_is_ours(fd, inode)) {
        channel_fd = fd;
        channel_inode = inode;
        set_close_on_exec(1);
    }
    errno = saved_errno;
}

/* The local TCP port of a listening socket, or 0. */
static unsigned listening_tcp_port(int fd)
{
    struct sockaddr_storage addr;
    socklen_t len = sizeof addr;
    int protocol;
    socklen_t protocol_len = sizeof protocol;
    if (getsockname(fd, (struct sockaddr *)&addr, &len) ||
        getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &protocol, &protocol_len) ||
        protocol != IPPROTO_TCP)
        return 0;
    if (addr.ss_family == AF_INET)
        return ntohs(((struct sockaddr_in *)&addr)->sin_port);
    if (addr.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *)&addr)->sin6_port);
    return 0;
}

void port_report_listening(int fd)
{
    if (channel_fd < 0 || atomic_load(&reported))
        return;
    int saved_errno = errno;
    unsigned port = listening_tcp_port(fd);
    if (port && !atomic_exchange(&reported, 1) && channel_is_ours(channel_fd, channel_inode)) {
        char message[64];
        int len = snprintf(message, sizeof message, "port %u pid %ld\n", port, (long)getpid());
        send(channel_fd, message, (size_t)len, MSG_DONTWAIT | MSG_NOSIGNAL);
    }
    errno = saved_errno;
}

void port_report_before_new_program(void)
{
    int saved_errno = errno;
    if (channel_is_ours(channel_fd, channel_inode))
        set_close_on_exec(0);
    errno = saved_errno;
}

void port_report_after_new_program(void)
{
    int saved_errno = errno;
    if (channel_is_ours(channel_fd, channel_inode))
        set_close_on_exec(1);
    errno = saved_errno;
}
