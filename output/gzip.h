/*
 * gzip.h - compresses a buffer into the gzip format (pprof files are
 * gzipped on disk and on the wire), with zlib.
 */
#ifndef STOKE_GZIP_H
#define STOKE_GZIP_H

#include <stddef.h>
#include <stdint.h>

/* Sets *out (malloc'ed) and *out_len to the gzip stream of data[0..len);
 * returns 0, or -1 when zlib fails. */
int gzip_bytes(const uint8_t *data, size_t len, uint8_t **out, size_t *out_len);

#endif
