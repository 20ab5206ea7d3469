/*
 * load_snapshots.h - the heap snapshots `stoke record -P --heap` takes of
 * the server as its load starts and as it ends, named in the output
 * directory (load-snapshots.txt) so that the report, made then or later
 * with `stoke report DIR`, shows what grew during the load.
 */
#ifndef STOKE_CLI_LOAD_SNAPSHOTS_H
#define STOKE_CLI_LOAD_SNAPSHOTS_H

#include <limits.h>

#define LOAD_SNAPSHOTS_FILE "load-snapshots.txt"

/* File names (in the output directory) of the native snapshots; "" for
 * one not taken. Each one's JavaScript half, if any, is beside it. */
struct load_snapshots {
    char start[NAME_MAX + 1];
    char end[NAME_MAX + 1];
};

/* Writes dir/load-snapshots.txt ("start NAME" and "end NAME" lines).
 * Returns 0, or -1 after saying why on stderr. */
int load_snapshots_save(const char *dir, const struct load_snapshots *s);

/* Reads dir/load-snapshots.txt into s. Returns 0 when it names both
 * snapshots, else -1 (s then names none). */
int load_snapshots_read(const char *dir, struct load_snapshots *s);

#endif
