/*
 * exit_in_loader.c - a signal handler that calls _exit while another
 * thread holds the dynamic loader's lock: a second thread dlopens
 * libhold_loader.so, whose constructor (run under that lock) sends the
 * process SIGUSR1 and then waits forever; the main thread's handler calls
 * _exit(7). The process must end with status 7 at once, as it does bare:
 * anything in _exit that waits for the loader (a dlsym) hangs it.
 *
 * usage: exit_in_loader LIBRARY
 * Never reads input or writes files.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static void exit_now(int signo)
{
    _exit(7);
}

static void *load(void *path)
{
    if (!dlopen(path, RTLD_NOW))
        fprintf(stderr, "exit_in_loader: %s\n", dlerror());
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: exit_in_loader LIBRARY\n");
        return 2;
    }
    struct sigaction sa = {.sa_handler = exit_now};
    sigaction(SIGUSR1, &sa, NULL);
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr1, NULL); /* the loading thread never takes it */
    pthread_t loader;
    if (pthread_create(&loader, NULL, load, argv[1]))
        return 1;
    pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
    for (;;)
        pause();
}
