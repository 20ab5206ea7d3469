/*
 * open_report.c - see open_report.h. The browser runs detached (its own
 * session, reparented to init), so stoke ends while the browser stays.
 */
#include "open_report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command_path.h"

static _Noreturn void run_opener(const char *browser, const char *path)
{
    setsid();
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
    }
    if (fork() != 0)
        _exit(0);
    if (browser)
        execl("/bin/sh", "sh", "-c", "$BROWSER \"$1\"", "sh", path, (char *)NULL);
    else
        execlp("xdg-open", "xdg-open", path, (char *)NULL);
    _exit(127);
}

int open_report(const char *path)
{
    const char *browser = getenv("BROWSER");
    if (browser && !*browser)
        browser = NULL;
    char file[4096];
    if (!browser && resolve_command("xdg-open", file, sizeof file)) {
        fprintf(stderr, "stoke: --open: no $BROWSER and no xdg-open; open %s yourself (or "
                        "set BROWSER to a browser command)\n", path);
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "stoke: --open: cannot start the browser: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0)
        run_opener(browser, path);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    fprintf(stderr, "stoke: opened the report with %s\n", browser ? browser : "xdg-open");
    return 0;
}
