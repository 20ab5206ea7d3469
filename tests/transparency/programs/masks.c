/*
 * masks.c - prints the signal mask it sees for SIGPROF and SIGUSR2, then
 * starts a program (argv[1], which prints its own blocked-signal mask)
 * through system, posix_spawn, popen, a shell and fork+exec. Under stoke
 * every line must read as in a bare run: the agent's use of those two
 * signals stays invisible to the program and to what it starts.
 */
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void print_view(const char *who)
{
    sigset_t set;
    sigprocmask(SIG_BLOCK, NULL, &set);
    printf("%s: SIGPROF blocked %d, SIGUSR2 blocked %d\n", who, sigismember(&set, SIGPROF),
           sigismember(&set, SIGUSR2));
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    const char *child = argv[1];
    char command[4096], line[256];
    print_view("main");

    snprintf(command, sizeof command, "%s system", child);
    system(command);

    char *spawn_argv[] = {(char *)child, "posix_spawn", NULL};
    pid_t pid;
    if (!posix_spawn(&pid, child, NULL, NULL, spawn_argv, environ))
        waitpid(pid, NULL, 0);

    snprintf(command, sizeof command, "%s popen", child);
    FILE *from = popen(command, "r");
    while (from && fgets(line, sizeof line, from))
        fputs(line, stdout);
    if (from)
        pclose(from);

    snprintf(command, sizeof command, "sh -c '%s shell; true'", child);
    system(command);

    fflush(stdout);
    if (fork() == 0) {
        char *exec_argv[] = {(char *)child, "fork+exec", NULL};
        execv(child, exec_argv);
        _exit(127);
    }
    wait(NULL);
    print_view("main at end");
    return 0;
}
