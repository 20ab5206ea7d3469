/*
 * own_handler.c - a program that handles SIGUSR2 itself (through
 * libsigusr2_counter): the handler is installed when the library loads
 * (SIGUSR2_COUNTER_AT_LOAD=1) or else first thing in main. Then it prints
 * "ready <pid>" and, for each line "count" on stdin, "handled <signals its
 * handler got>"; at the end of input it prints the same and exits 0.
 *
 * usage: own_handler < commands
 * Never writes files.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sigusr2_counter_install(void);
int sigusr2_counter_installed(void);
int sigusr2_counter_value(void);

int main(void)
{
    if (!sigusr2_counter_installed() && sigusr2_counter_install()) {
        perror("own_handler: sigaction");
        return 1;
    }
    printf("ready %d\n", (int)getpid());
    fflush(stdout);
    char line[64];
    while (fgets(line, sizeof line, stdin))
        if (!strcmp(line, "count\n")) {
            printf("handled %d\n", sigusr2_counter_value());
            fflush(stdout);
        }
    printf("handled %d\n", sigusr2_counter_value());
    return 0;
}
