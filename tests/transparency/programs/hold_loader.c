/*
 * hold_loader.c - libhold_loader.so for exit_in_loader: its constructor
 * runs while dlopen holds the dynamic loader's lock, sends the process
 * SIGUSR1 and never returns.
 */
#include <signal.h>
#include <unistd.h>

__attribute__((constructor)) static void hold_the_loader(void)
{
    kill(getpid(), SIGUSR1);
    for (;;)
        pause();
}
