/*
 * registry.h - the output formats stoke writes, in one table: the name
 * --format gives, the file extensions that choose a format, the file a
 * report goes to by default, and the writer (every one a stoke_writer,
 * report.h). The command line learns formats only from here: a new format
 * is a writer and a row.
 *
 * Never: opens a file or decides where a report goes.
 */
#ifndef STOKE_REGISTRY_H
#define STOKE_REGISTRY_H

#include "report.h"

/* The formats, in the order they are listed to users. */
enum stoke_output {
    STOKE_OUTPUT_HTML = 0,   /* the interactive flame graph */
    STOKE_OUTPUT_FOLDED,     /* folded stacks */
    STOKE_OUTPUT_PPROF,      /* gzipped profile.proto */
    STOKE_OUTPUT_SPEEDSCOPE, /* speedscope's JSON */
    STOKE_OUTPUT_CPUPROFILE, /* Chrome DevTools' .cpuprofile */
    STOKE_NOUTPUTS,
};

#define STOKE_OUTPUT_MAX_EXTENSIONS 3

struct stoke_output_format {
    const char *name;      /* "pprof" */
    const char *file_name; /* the default file, "profile.pb.gz"; NULL: standard output */
    const char *extensions[STOKE_OUTPUT_MAX_EXTENSIONS]; /* ".pb.gz", ".pb", ".pprof" */
    stoke_writer *write;
};

/* Indexed by enum stoke_output. */
extern const struct stoke_output_format stoke_output_formats[STOKE_NOUTPUTS];

/* The format called name, or -1. */
int stoke_output_named(const char *name);

/* The format a file name's extension names, or -1. */
int stoke_output_of_path(const char *path);

#endif
