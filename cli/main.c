/*
 * main.c - stoke's entry point: picks the subcommand, answers --help and
 * --version. Exit codes: 0 ok, 1 runtime failure, 2 usage; `stoke record`
 * ends with the recorded command's own status. Never does a subcommand's
 * work itself.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    void (*usage)(FILE *out);
};

static const struct command commands[] = {
    {"record", record_main, record_usage},
    {"report", report_main, report_usage},
    {"diff", diff_main, diff_usage},
    {"heap", heap_main, heap_usage},
    {"merge", merge_main, merge_usage},
    {"push", push_main, push_usage},
    {"top", top_main, top_usage},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: stoke <command> [options]\n"
                 "\n"
                 "A sampling profiler and heap snapshot tool for any Linux program.\n"
                 "\n"
                 "commands:\n"
                 "  record [options] -- COMMAND [ARGS...]   run COMMAND and profile it\n"
                 "  report PATH [options]                   make a report from traces\n"
                 "  diff BEFORE AFTER [options]             compare two snapshots or traces\n"
                 "  heap PID [options]                      take a heap snapshot of PID now\n"
                 "  merge PATH... [options]                 combine traces into one report\n"
                 "  push --url URL --name APP PATH          send a profile to Pyroscope\n"
                 "  top PATH                                the hottest functions of traces\n"
                 "  help [COMMAND]                          show help\n"
                 "\n"
                 "`stoke COMMAND --help` shows a command's options; docs/usage.md has them all.\n"
                 "`stoke --version` prints the version.\n");
}

static const struct command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

static int help(const char *topic)
{
    if (!topic) {
        usage(stdout);
        return EXIT_OK;
    }
    const struct command *c = find_command(topic);
    if (!c) {
        fprintf(stderr, "stoke: no help for '%s'; the commands are record, report, diff, "
                        "heap, top, merge and push\n", topic);
        return EXIT_USAGE;
    }
    c->usage(stdout);
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "-h") || !strcmp(name, "--help"))
        return help(NULL);
    if (!strcmp(name, "help"))
        return help(argc > 2 ? argv[2] : NULL);
    if (!strcmp(name, "-V") || !strcmp(name, "--version")) {
        printf("stoke %s\n", STOKE_VERSION);
        return EXIT_OK;
    }
    const struct command *c = find_command(name);
    if (!c) {
        fprintf(stderr, "stoke: unknown command '%s'; see stoke --help\n", name);
        return EXIT_USAGE;
    }
    return c->run(argc - 1, argv + 1);
}
