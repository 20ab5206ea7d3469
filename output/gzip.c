/*
 * gzip.c - one-shot gzip compression with zlib's deflate; see gzip.h.
 * Never writes files.
 */
#include "gzip.h"

#include <stdlib.h>
#include <zlib.h>

#include "alloc.h"

#define GZIP_WINDOW (15 + 16) /* 2^15 window, gzip header and trailer */

int gzip_bytes(const uint8_t *data, size_t len, uint8_t **out, size_t *out_len)
{
    z_stream z = {0};
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, GZIP_WINDOW, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    size_t cap = deflateBound(&z, (uLong)len) + 32;
    uint8_t *buf = stoke_xmalloc(cap);
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)len;
    z.next_out = buf;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(buf);
        return -1;
    }
    *out = buf;
    *out_len = cap - z.avail_out;
    return 0;
}
