/*
 * sigusr2_counter.c - a shared library, as a program's own code that
 * handles SIGUSR2: a handler that counts the signals it gets. With
 * SIGUSR2_COUNTER_AT_LOAD=1 in the environment it installs the handler
 * when the library is loaded, before the program's main (and before any
 * preloaded library's constructor that runs after it).
 * Never does anything but count.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static volatile sig_atomic_t handled;
static int installed;

static void count(int signo)
{
    (void)signo;
    handled++;
}

int sigusr2_counter_install(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = count;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    installed = !sigaction(SIGUSR2, &action, NULL);
    return installed ? 0 : -1;
}

int sigusr2_counter_installed(void)
{
    return installed;
}

int sigusr2_counter_value(void)
{
    return handled;
}

__attribute__((constructor)) static void install_at_load(void)
{
    const char *at_load = getenv("SIGUSR2_COUNTER_AT_LOAD");
    if (at_load && !strcmp(at_load, "1"))
        sigusr2_counter_install();
}
