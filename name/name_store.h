/*
 * name_store.h - the names a recording keeps of its code addresses: for
 * each (build-id, ELF virtual address) that a module's own file once named,
 * the functions debuginfo.h found there (the inline chain, innermost first,
 * each with its raw name, file and line, and the line it is at there).
 * Keyed by build-id, so a stored name is exactly the name that build gave;
 * a module without a build-id is never stored (its path alone cannot say
 * which build it was).
 *
 * Owns: the table in memory, its strings, and whether it grew since it was
 * last read or written (name_store_file.h reads and writes it).
 * Never: opens files, demangles, or replaces a name it already holds.
 */
#ifndef STOKE_NAME_STORE_H
#define STOKE_NAME_STORE_H

#include <stddef.h>
#include <stdint.h>
#include "debuginfo.h"

#define STOKE_NAME_STORE_MAX_BUILD_ID 64
#define STOKE_NAME_STORE_MAX_FRAMES 64 /* of one address: its inline chain */

struct stoke_name_store;

struct stoke_name_store *stoke_name_store_new(void);
void stoke_name_store_free(struct stoke_name_store *s);

/* The frames stored at addr of the build build_id[0..len), in out[0..max)
 * (their strings live as long as s). Returns how many (0: the build named
 * nothing there), or -1 when nothing is stored for that address. */
int stoke_name_store_find(const struct stoke_name_store *s, const uint8_t *build_id,
                          size_t len, uint64_t addr, struct stoke_debuginfo_frame *out,
                          size_t max);

/* 1 when s holds any address of the build build_id[0..len). */
int stoke_name_store_has_build(const struct stoke_name_store *s, const uint8_t *build_id,
                               size_t len);

/* Stores frames[0..n) (n may be 0: nothing names addr) at addr of the build;
 * an address already stored, an empty or too long build-id, and more than
 * STOKE_NAME_STORE_MAX_FRAMES frames are left as they are. A NULL name is a
 * function its DWARF leaves unnamed. */
void stoke_name_store_add(struct stoke_name_store *s, const uint8_t *build_id, size_t len,
                          uint64_t addr, const struct stoke_debuginfo_frame *frames, size_t n);

/* Addresses stored, and how many of them were added since the last
 * stoke_name_store_settle (those a write must keep). */
size_t stoke_name_store_count(const struct stoke_name_store *s);
size_t stoke_name_store_added(const struct stoke_name_store *s);
void stoke_name_store_settle(struct stoke_name_store *s);

/* For writing it out: its strings (ids 0, 1, ...), its builds (in the
 * order they were first stored) and its addresses, each with its build
 * and its frames as string ids. */
struct stoke_stored_frame {
    uint32_t name; /* 0: no name, else string id + 1 */
    uint32_t file; /* string id */
    uint32_t line;
    uint32_t at_file; /* string id: the file of the line it is at there */
    uint32_t at_line; /* that line, 0 when unknown */
};

size_t stoke_name_store_strings(const struct stoke_name_store *s);
const char *stoke_name_store_string(const struct stoke_name_store *s, size_t id);
size_t stoke_name_store_builds(const struct stoke_name_store *s);
size_t stoke_name_store_build_id(const struct stoke_name_store *s, size_t build,
                                 const uint8_t **id);

/* Address i (0 .. count): its build and address; returns its frames
 * (count in *n), valid until s changes. */
const struct stoke_stored_frame *stoke_name_store_entry(const struct stoke_name_store *s,
                                                        size_t i, size_t *build,
                                                        uint64_t *addr, size_t *n);

/* Sets where frame k of address i (0 .. count, the order of
 * stoke_name_store_entry) is at, for a reader of a store that keeps it
 * apart from the frames (name_store_file.c); k past the address's frames
 * is ignored. */
void stoke_name_store_set_line(struct stoke_name_store *s, size_t i, size_t k,
                               const char *at_file, uint32_t at_line);

#endif
