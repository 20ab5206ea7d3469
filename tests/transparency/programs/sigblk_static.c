/*
 * sigblk_static.c - prints "<argv[1]>: <SigBlk line of /proc/self/status>":
 * the signals blocked when it started. Linked statically so that no agent
 * runs in it: what it prints is exactly what it inherited.
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    char line[256];
    FILE *status = fopen("/proc/self/status", "r");
    while (status && fgets(line, sizeof line, status))
        if (!strncmp(line, "SigBlk:", 7))
            printf("%s: %s", argc > 1 ? argv[1] : "?", line);
    return 0;
}
