/*
 * title.c - a program that sets its process title the way setproctitle
 * does (redis, nginx, postgres): it writes the title over the memory of
 * its arguments and environment strings, in place, so /proc/<pid>/environ
 * no longer shows the environment it started with. It holds 1 MiB through
 * hold_title, prints "ready <pid>", and exits 0 at the end of its input.
 *
 * usage: title < /dev/stdin
 * Never writes files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HELD_BYTES (1 << 20)
#define TITLE "title: serving"

extern char **environ;

static char *held;

static __attribute__((noipa)) void hold_title(void)
{
    held = malloc(HELD_BYTES);
    memset(held, 1, HELD_BYTES);
}

/* The area from argv[0] to the end of the last environment string, as
 * setproctitle takes it over (both are laid out together by the kernel). */
static void set_title(char **argv)
{
    char *start = argv[0], *end = argv[0] + strlen(argv[0]) + 1;
    for (int i = 0; argv[i]; i++)
        end = argv[i] + strlen(argv[i]) + 1;
    for (int i = 0; environ[i]; i++)
        if (environ[i] == end)
            end = environ[i] + strlen(environ[i]) + 1;
    memset(start, 0, (size_t)(end - start));
    strncpy(start, TITLE, (size_t)(end - start) - 1);
}

int main(int argc, char **argv)
{
    (void)argc;
    hold_title();
    set_title(argv);
    printf("ready %d\n", (int)getpid());
    fflush(stdout);
    char line[64];
    while (fgets(line, sizeof line, stdin))
        ;
    free(held);
    return 0;
}
