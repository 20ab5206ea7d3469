/*
 * perfmap.h - names JIT code from a perf map file, the "START SIZE name"
 * text (hex START and SIZE) that JIT runtimes write to /tmp/perf-<pid>.map
 * (node --perf-basic-prof, the JVM with perf-map-agent, LuaJIT, ...).
 *
 * Never: guesses a name for an address outside every listed range.
 */
#ifndef STOKE_PERFMAP_H
#define STOKE_PERFMAP_H

#include <stdint.h>

struct stoke_perfmap;

/* Reads the map file at path; NULL when it cannot be read, is not a regular
 * file or lists nothing. */
struct stoke_perfmap *stoke_perfmap_load(const char *path);

/* The name of the code at addr, or NULL. Later lines of the file win over
 * earlier ones for the same start address (code regions get reused). */
const char *stoke_perfmap_lookup(const struct stoke_perfmap *m, uint64_t addr);

void stoke_perfmap_free(struct stoke_perfmap *m);

#endif
