/*
 * toy_server.c - a server whose misbehaviours stoke record -P must handle.
 * Burns CPU in busy_before_listen until it listens (so every run has
 * samples), answers each connection with "ok" and closes it.
 *
 *   --delay-ms N          listen only after N ms
 *   --never-listen        never listen
 *   --exit-before-listen  exit 3 instead of listening
 *   --ignore-sigint       ignore SIGINT (SIGTERM still ends it)
 *   --daemonize           fork, let the parent exit 0, go on in the child
 *   --crash-on-request    abort() on the first connection
 *
 * Prints "toy_server: listening on port N (pid P)" and, in its SIGINT
 * handler, "toy_server: SIGINT, stopping". Also checks that listen's
 * failure is reported as it would be without the agent, and says whether
 * stoke's port channel (STOKE_PORT_FD), if any, is open here and
 * close-on-exec: "toy_server: port channel open, close-on-exec".
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;

static void on_sigint(int sig)
{
    (void)sig;
    static const char message[] = "toy_server: SIGINT, stopping\n";
    ssize_t ignored = write(STDOUT_FILENO, message, sizeof message - 1);
    (void)ignored;
    stopping = 1;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static volatile unsigned long sink;

static void busy_before_listen(double ms)
{
    double end = now_ms() + ms;
    while (!stopping && now_ms() < end)
        for (int i = 0; i < 10000; i++)
            sink += (unsigned long)i * i;
}

static int listen_anywhere(void)
{
    if (listen(-1, 1) != -1 || errno != EBADF) {
        printf("toy_server: listen(-1) did not fail with EBADF\n");
        exit(4);
    }
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof addr;
    if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof addr) || listen(fd, 64) ||
        getsockname(fd, (struct sockaddr *)&addr, &len)) {
        perror("toy_server");
        exit(1);
    }
    printf("toy_server: listening on port %d (pid %d)\n", ntohs(addr.sin_port), (int)getpid());
    fflush(stdout);
    return fd;
}

static int crash_on_request;

static void answer(int listener)
{
    while (!stopping) {
        int fd = accept(listener, NULL, NULL);
        if (fd < 0)
            continue;
        if (crash_on_request)
            abort();
        char request[2048];
        ssize_t ignored = read(fd, request, sizeof request);
        static const char reply[] = "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok";
        ignored = write(fd, reply, sizeof reply - 1);
        (void)ignored;
        close(fd);
    }
}

static void describe_port_channel(void)
{
    const char *channel = getenv("STOKE_PORT_FD");
    if (!channel)
        return;
    int flags = fcntl(atoi(channel), F_GETFD);
    printf("toy_server: port channel %s\n", flags < 0               ? "closed"
                                            : flags & FD_CLOEXEC ? "open, close-on-exec"
                                                                 : "open, inherited by exec");
}

int main(int argc, char **argv)
{
    double delay_ms = 0;
    int never = 0, exit_early = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    describe_port_channel();
    struct sigaction sa = {.sa_handler = on_sigint};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--delay-ms") && i + 1 < argc)
            delay_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--never-listen"))
            never = 1;
        else if (!strcmp(argv[i], "--exit-before-listen"))
            exit_early = 1;
        else if (!strcmp(argv[i], "--ignore-sigint"))
            signal(SIGINT, SIG_IGN);
        else if (!strcmp(argv[i], "--crash-on-request"))
            crash_on_request = 1;
        else if (!strcmp(argv[i], "--daemonize") && (fork() > 0 || setsid() < 0))
            return 0;
    }
    busy_before_listen(never ? 1e9 : delay_ms);
    if (exit_early)
        return 3;
    if (!stopping)
        answer(listen_anywhere());
    printf("toy_server: done\n");
    return 0;
}
