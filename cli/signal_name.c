/*
 * signal_name.c - reads a signal's name or number; see signal_name.h. The
 * names are the C library's (sigabbrev_np), so every signal the system
 * knows is accepted. Never decides which signals a command allows.
 */
#define _GNU_SOURCE /* sigabbrev_np, strcasecmp, strsignal */
#include "signal_name.h"

#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int parse_number(const char *text)
{
    char *end;
    long n = strtol(text, &end, 10);
    return *end || n < 1 || n >= NSIG ? 0 : (int)n;
}

int parse_signal(const char *text)
{
    if (isdigit((unsigned char)text[0]))
        return parse_number(text);
    if (!strncasecmp(text, "SIG", 3))
        text += 3;
    for (int s = 1; s < NSIG; s++) {
        const char *name = sigabbrev_np(s);
        if (name && !strcasecmp(name, text))
            return s;
    }
    return 0;
}

const char *describe_signal(int signo, char *out, size_t cap)
{
    const char *name = sigabbrev_np(signo);
    if (name)
        snprintf(out, cap, "SIG%s (%s)", name, strsignal(signo));
    else
        snprintf(out, cap, "signal %d (%s)", signo, strsignal(signo));
    return out;
}
