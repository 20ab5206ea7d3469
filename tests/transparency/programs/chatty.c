/*
 * chatty.c - a program whose every visible effect a test compares with and
 * without stoke: it spins ~200 ms of CPU in chatter (so the agent is
 * sampling while it talks), then, by mode:
 *   mixed CODE ARGS...  interleaves stdout and stderr (binary bytes, a
 *                       partial line, its arguments) and exits with CODE
 *   signal NUM          writes to both, then kills itself with signal NUM
 *   stdin               copies standard input to stdout, a byte count and
 *                       a checksum to stderr
 * Its output depends only on its arguments and input.
 *
 * usage: chatty mixed CODE [ARGS...] | chatty signal NUM | chatty stdin
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_spin.h"

#define SPIN_MS 200

static volatile uint64_t sink;

static __attribute__((noipa)) void chatter(void)
{
    sink = spin_cpu_ms(1, SPIN_MS);
}

static int mixed(int code, int argc, char **argv)
{
    static const char binary[] = {'b', 'i', 'n', 0, (char)0xff, (char)0x80, '\n'};
    for (int i = 0; i < 50; i++) {
        printf("out line %d\n", i);
        fprintf(stderr, "err line %d\n", i);
    }
    fwrite(binary, 1, sizeof binary, stdout);
    fwrite(binary, 1, sizeof binary, stderr);
    for (int i = 0; i < argc; i++)
        printf("arg %d [%s]\n", i, argv[i]);
    fflush(stdout);
    chatter();
    printf("no newline at the end");
    fprintf(stderr, "exiting with %d", code);
    return code;
}

static int kill_self(int signo)
{
    printf("about to die by signal %d\n", signo);
    fprintf(stderr, "stderr before signal %d\n", signo);
    fflush(stdout);
    chatter();
    kill(getpid(), signo);
    return 99; /* not reached with a fatal signal */
}

static int copy_stdin(void)
{
    char buf[65536];
    uint64_t total = 0, checksum = 0;
    ssize_t n;
    chatter();
    while ((n = read(STDIN_FILENO, buf, sizeof buf)) > 0) {
        fwrite(buf, 1, (size_t)n, stdout);
        for (ssize_t i = 0; i < n; i++)
            checksum = checksum * 31 + (unsigned char)buf[i];
        total += (uint64_t)n;
    }
    fprintf(stderr, "read %llu bytes, checksum %016llx\n", (unsigned long long)total,
            (unsigned long long)checksum);
    return n < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "mixed"))
        return mixed(atoi(argv[2]), argc - 3, argv + 3);
    if (argc == 3 && !strcmp(argv[1], "signal"))
        return kill_self(atoi(argv[2]));
    if (argc == 2 && !strcmp(argv[1], "stdin"))
        return copy_stdin();
    fprintf(stderr, "usage: chatty mixed CODE [ARGS...] | chatty signal NUM | chatty stdin\n");
    return 2;
}
