/*
 * name_store_file.h - a name store (name_store.h) on disk
 * (docs/trace-format.md, "The name store"): a 16-byte header, then one zstd
 * frame with its checksum.
 *
 * Never: trusts a count, index or size the file gives before checking it
 * against the bytes there are (a damaged or hostile store costs at most
 * what its bytes justify), or leaves a half-written file under the name.
 */
#ifndef STOKE_NAME_STORE_FILE_H
#define STOKE_NAME_STORE_FILE_H

#include <stddef.h>
#include "name_store.h"

/* Adds the names of the store file at path to s (nothing when any part of
 * it is damaged). Returns 0, 1 when there is no such file, or -1 with
 * why[0..len) saying what is wrong with it. */
int stoke_name_store_read(const char *path, struct stoke_name_store *s, char *why, size_t len);

/* Writes all of s to path: a new file beside it, then renamed over it.
 * Returns 0, or -1 with why[0..len) saying what failed (errno's words). */
int stoke_name_store_write(const char *path, const struct stoke_name_store *s, char *why,
                           size_t len);

#endif
