/*
 * load_marks.h - when `stoke record -P` ran its load, and the heap
 * snapshots it took of the server as the load started and as it ended
 * (with --heap), kept in the output directory (load-marks.txt) so that the
 * report, made then or later with `stoke report DIR`, can show the load's
 * span on its timeline, keep a window of it (--from load-start), and show
 * what grew during the load.
 */
#ifndef STOKE_CLI_LOAD_MARKS_H
#define STOKE_CLI_LOAD_MARKS_H

#include <limits.h>
#include <stdint.h>

#define LOAD_MARKS_FILE "load-marks.txt"

struct load_marks {
    uint64_t start_ns, end_ns;            /* wall clock, ns since the epoch; 0: unknown */
    char start_snapshot[NAME_MAX + 1];    /* file names of the native snapshots in the */
    char end_snapshot[NAME_MAX + 1];      /* output directory; "" for one not taken */
};

/* Writes dir/load-marks.txt. Returns 0, or -1 after saying why on stderr. */
int load_marks_save(const char *dir, const struct load_marks *m);

/* Reads dir/load-marks.txt into m. Returns 0 when it names when the load
 * started and ended, else -1 (m then says nothing). */
int load_marks_read(const char *dir, struct load_marks *m);

/* 1 when m names a snapshot taken as the load started and one as it ended. */
int load_marks_have_snapshots(const struct load_marks *m);

#endif
