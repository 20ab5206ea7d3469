/*
 * commands.h - the subcommands of stoke. Each takes its own argv (argv[0] is
 * the subcommand's name) and returns stoke's exit status.
 */
#ifndef STOKE_CLI_COMMANDS_H
#define STOKE_CLI_COMMANDS_H

#include <stdio.h>

/* Exit statuses of stoke itself (record passes the command's own on). */
enum { EXIT_OK = 0, EXIT_RUNTIME_FAILURE = 1, EXIT_USAGE = 2 };

int record_main(int argc, char **argv);
int report_main(int argc, char **argv);
int diff_main(int argc, char **argv);
int heap_main(int argc, char **argv);
int merge_main(int argc, char **argv);
int push_main(int argc, char **argv);
int top_main(int argc, char **argv);

void record_usage(FILE *out);
void report_usage(FILE *out);
void diff_usage(FILE *out);
void heap_usage(FILE *out);
void merge_usage(FILE *out);
void push_usage(FILE *out);
void top_usage(FILE *out);

#endif
