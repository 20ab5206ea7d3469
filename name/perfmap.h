/*
 * perfmap.h - names JIT code from a perf map file, the "START SIZE name"
 * text (hex START and SIZE) that JIT runtimes write to /tmp/perf-<pid>.map
 * (node --perf-basic-prof, the JVM with perf-map-agent, LuaJIT, ...).
 *
 * A map is read only when the user given (whose process it names) or root
 * owns it (process_perfmap.h says why), and only its first
 * STOKE_MAX_PERFMAP_BYTES, whatever its size (a sparse file of a terabyte
 * occupies nothing on disk). Lines longer than STOKE_MAX_PERFMAP_LINE bytes
 * are skipped.
 *
 * Never: guesses a name for an address outside every listed range, or
 * holds more of the file in memory than one line and the names it lists.
 */
#ifndef STOKE_PERFMAP_H
#define STOKE_PERFMAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define STOKE_MAX_PERFMAP_BYTES (UINT64_C(256) << 20)
#define STOKE_MAX_PERFMAP_LINE 4096

struct stoke_perfmap;

/* What loading a map found, for the caller to tell the user. */
struct stoke_perfmap_status {
    int untrusted;        /* 1: not read, it belongs to owner */
    uid_t owner;
    int cut_short;        /* 1: only the first bytes_read bytes were read */
    uint64_t bytes_read;
    uint64_t file_bytes;  /* its size */
};

/* Reads the map file at path when it is a regular file owned by
 * trusted_uid or root; NULL when it cannot be read, is not trusted or lists
 * nothing. status (zeroed first) says why it was not read, or how much of
 * it was. */
struct stoke_perfmap *stoke_perfmap_load(const char *path, uid_t trusted_uid,
                                         struct stoke_perfmap_status *status);

/* A map of the names a trace holds itself (JIT_MAP records): created
 * empty, given the text of each record in order (whole lines; a line longer
 * than STOKE_MAX_PERFMAP_LINE is skipped), then finished before lookups.
 * stoke_perfmap_finish returns m, or NULL (m freed) when it names nothing. */
struct stoke_perfmap *stoke_perfmap_new(void);
void stoke_perfmap_add_text(struct stoke_perfmap *m, const char *text, size_t len);
struct stoke_perfmap *stoke_perfmap_finish(struct stoke_perfmap *m);

/* The name of the code at addr, or NULL. Later lines of the file win over
 * earlier ones for the same start address (code regions get reused). */
const char *stoke_perfmap_lookup(const struct stoke_perfmap *m, uint64_t addr);

void stoke_perfmap_free(struct stoke_perfmap *m);

#endif
