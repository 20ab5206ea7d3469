/*
 * output_format.h - the report formats a user names with --format (or by
 * the -o file's extension), and where each goes by default.
 */
#ifndef STOKE_CLI_OUTPUT_FORMAT_H
#define STOKE_CLI_OUTPUT_FORMAT_H

enum output_format {
    FORMAT_UNSET = -1,
    FORMAT_HTML = 0,   /* the interactive flame graph */
    FORMAT_FOLDED,     /* folded stacks */
    FORMAT_PPROF,      /* gzipped profile.proto */
    FORMAT_SPEEDSCOPE, /* speedscope's JSON */
    FORMAT_CPUPROFILE, /* Chrome DevTools' .cpuprofile */
};

#define FORMAT_CHOICES "html, folded, pprof, speedscope or cpuprofile"

/* --format of `stoke command`: 0 and *format set, or -1 after a one-line
 * error naming the choices. */
int parse_format_option(const char *command, const char *text, int *format);

/* The format a file name's extension names (.html, .folded, .pb.gz, .pb,
 * .pprof, .speedscope.json, .cpuprofile), or FORMAT_UNSET. */
int format_of_path(const char *path);

/* The format asked for: --format, else the output's extension, else HTML. */
int chosen_format(int format_option, const char *output);

/* Its name ("pprof") and its file's default name ("profile.pb.gz"; NULL
 * for folded stacks, which go to standard output). */
const char *format_name(int format);
const char *format_file_name(int format);

#endif
