/*
 * data_block.c - deflates and base64-encodes the report's JSON document.
 *
 * Owns: the encoding of the data block (js/data.js and tools/report_data.py
 * undo it).
 * Never: changes the document itself (report_data.c writes it).
 */
#define _GNU_SOURCE /* open_memstream */
#include "data_block.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>

#include "report_data.h"

#define DEFLATE_LEVEL 6
#define RAW_DEFLATE_WINDOW (-15) /* negative: no zlib header, as 'deflate-raw' reads */

/* The whole document in memory; NULL when out of memory. */
static char *document(const struct stoke_report *r, size_t *len)
{
    char *text = NULL;
    FILE *mem = open_memstream(&text, len);
    if (!mem)
        return NULL;
    int failed = report_data_write(mem, r) < 0 || ferror(mem);
    if (fclose(mem) != 0 || failed) {
        free(text);
        return NULL;
    }
    return text;
}

/* in[0..len) deflated into a new buffer of *out_len bytes; NULL on failure. */
static unsigned char *deflate_raw(const char *in, size_t len, size_t *out_len)
{
    z_stream z = {0};
    if (deflateInit2(&z, DEFLATE_LEVEL, Z_DEFLATED, RAW_DEFLATE_WINDOW, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    uLong bound = deflateBound(&z, (uLong)len);
    unsigned char *out = malloc(bound ? bound : 1);
    int rc = Z_STREAM_ERROR;
    if (out) {
        z.next_in = (Bytef *)in;
        z.avail_in = (uInt)len;
        z.next_out = out;
        z.avail_out = (uInt)bound;
        rc = deflate(&z, Z_FINISH);
    }
    *out_len = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    return out;
}

static void write_base64(FILE *out, const unsigned char *b, size_t len)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char quad[4];
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)b[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)b[i + 1] << 8;
        if (i + 2 < len)
            v |= b[i + 2];
        quad[0] = alphabet[v >> 18];
        quad[1] = alphabet[(v >> 12) & 63];
        quad[2] = i + 1 < len ? alphabet[(v >> 6) & 63] : '=';
        quad[3] = i + 2 < len ? alphabet[v & 63] : '=';
        fwrite(quad, 1, sizeof quad, out);
    }
}

int data_block_write(FILE *out, const struct stoke_report *r)
{
    size_t text_len = 0, packed_len = 0;
    char *text = document(r, &text_len);
    unsigned char *packed = text && text_len <= UINT32_MAX ? deflate_raw(text, text_len, &packed_len)
                                                           : NULL;
    free(text);
    if (!packed) {
        errno = ENOMEM;
        return -1;
    }
    write_base64(out, packed, packed_len);
    free(packed);
    return 0;
}
