/*
 * reader.c - the trace file reader; see reader.h.
 *
 * Owns: the file header check, streaming zstd decompression, splitting the
 * decompressed bytes into records, and measuring a damaged tail.
 * Never: interprets payloads, allocates per record, or stops at the first
 * damaged byte without handing over everything decoded before it.
 */
#include "reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include "alloc.h"
#include "regular_file.h"
#include "stoke_format.h"

/* A record longer than this is taken as corruption rather than buffered. */
#define MAX_RECORD_LEN (64u << 20)

struct reader {
    const char *path;
    FILE *file;
    ZSTD_DStream *zstd;
    stoke_record_fn on_record;
    void *ctx;
    struct stoke_read_status *status;
    /* compressed input */
    uint8_t *in;
    size_t in_cap;
    ZSTD_inBuffer input;
    uint64_t in_file_offset;  /* file offset of in[0] */
    uint64_t good_end;        /* file offset after the last frame read whole */
    /* decompressed bytes not yet handed over: decoded[start..len) */
    uint8_t *decoded;
    size_t decoded_cap, start, len;
    int stopped;              /* the callback asked to stop */
    int corrupt;              /* a record or frame could not be decoded */
};

/* --- file header ---------------------------------------------------------- */

static unsigned read_le16(const uint8_t *b)
{
    return (unsigned)b[0] | (unsigned)b[1] << 8;
}

static int check_header(struct reader *r, char *err, size_t errlen)
{
    uint8_t h[STOKE_FILE_HEADER_LEN];
    size_t got = fread(h, 1, sizeof h, r->file);
    if (ferror(r->file)) {
        snprintf(err, errlen, "%s: cannot read: %s", r->path, strerror(errno));
        return -1;
    }
    if (got == 0) {
        snprintf(err, errlen, "%s: file is empty, not a stoke trace; record again", r->path);
        return -1;
    }
    if (got < STOKE_MAGIC_LEN || memcmp(h, STOKE_MAGIC, STOKE_MAGIC_LEN) != 0) {
        snprintf(err, errlen, "%s: not a stoke trace", r->path);
        return -1;
    }
    if (got < sizeof h) {
        snprintf(err, errlen, "%s: trace is cut short inside its header; record again", r->path);
        return -1;
    }
    r->status->major = read_le16(h + 8);
    r->status->minor = read_le16(h + 10);
    if (r->status->major > STOKE_FORMAT_MAJOR) {
        snprintf(err, errlen, "%s: trace format version %u is newer than this stoke (%u); upgrade stoke",
                 r->path, r->status->major, STOKE_FORMAT_MAJOR);
        return -1;
    }
    r->in_file_offset = r->good_end = sizeof h;
    return 0;
}

/* --- records -------------------------------------------------------------- */

/* Hands over every complete record in decoded[start..len). */
static void deliver_records(struct reader *r)
{
    while (!r->stopped && !r->corrupt && r->start < r->len) {
        const uint8_t *p = r->decoded + r->start + 1;
        const uint8_t *end = r->decoded + r->len;
        uint64_t payload_len;
        if (stoke_get_u(&p, end, &payload_len)) {
            r->corrupt = end - p >= 10; /* a length never needs 10 bytes */
            return;
        }
        if (payload_len > MAX_RECORD_LEN) {
            r->corrupt = 1;
            return;
        }
        if ((uint64_t)(end - p) < payload_len)
            return; /* the rest of the record has not been decoded yet */
        unsigned type = r->decoded[r->start];
        r->start = (size_t)(p + payload_len - r->decoded);
        r->status->records++;
        r->stopped = r->on_record(r->ctx, type, p, (size_t)payload_len) != 0;
    }
}

/* Makes room for one more output chunk after decoded[len], moving the
 * undelivered bytes to the front first. */
static void make_room(struct reader *r, size_t chunk)
{
    if (r->start) {
        memmove(r->decoded, r->decoded + r->start, r->len - r->start);
        r->len -= r->start;
        r->start = 0;
    }
    r->decoded = stoke_grow(r->decoded, &r->decoded_cap, r->len + chunk, 1);
}

/* --- decompression -------------------------------------------------------- */

static int refill_input(struct reader *r)
{
    r->in_file_offset += r->input.pos;
    size_t keep = r->input.size - r->input.pos;
    memmove(r->in, r->in + r->input.pos, keep);
    size_t got = fread(r->in + keep, 1, r->in_cap - keep, r->file);
    r->input.size = keep + got;
    r->input.pos = 0;
    return got > 0;
}

/* Runs zstd once into a fresh output chunk and hands over the records it
 * completed. Returns the bytes produced, or -1 on a corrupted frame. */
static long decode_step(struct reader *r)
{
    size_t chunk = ZSTD_DStreamOutSize();
    make_room(r, chunk);
    ZSTD_outBuffer out = {r->decoded + r->len, chunk, 0};
    size_t ret = ZSTD_decompressStream(r->zstd, &out, &r->input);
    if (ZSTD_isError(ret))
        return -1;
    r->len += out.pos;
    deliver_records(r);
    if (ret == 0 && r->start == r->len)
        r->good_end = r->in_file_offset + r->input.pos;
    return (long)out.pos;
}

static int still_reading(const struct reader *r)
{
    return !r->stopped && !r->corrupt;
}

/* Decodes the whole input buffer, then, once the file has run out, what
 * zstd still holds. */
static void read_frames(struct reader *r)
{
    while (still_reading(r) && refill_input(r))
        while (still_reading(r) && r->input.pos < r->input.size)
            if (decode_step(r) < 0)
                r->corrupt = 1;
    while (still_reading(r)) {
        long produced = decode_step(r);
        if (produced <= 0)
            break;
    }
}

static void measure_damage(struct reader *r)
{
    struct stoke_read_status *s = r->status;
    if (r->stopped)
        return;
    s->damaged = r->good_end < s->file_bytes;
    s->corrupted = r->corrupt;
    s->bytes_lost = s->damaged ? s->file_bytes - r->good_end : 0;
}

/* --- entry point ---------------------------------------------------------- */

static int open_trace(struct reader *r, char *err, size_t errlen)
{
    struct stat st;
    int fd = stoke_open_regular(r->path);
    if (fd < 0 && (errno == EISDIR || errno == EINVAL)) {
        snprintf(err, errlen, "%s: is a %s, not a trace file", r->path,
                 errno == EISDIR ? "directory" : "FIFO, device or socket");
        return -1;
    }
    if (fd < 0 || !(r->file = fdopen(fd, "rb"))) {
        snprintf(err, errlen, "%s: cannot open: %s", r->path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (fstat(fileno(r->file), &st) != 0) {
        snprintf(err, errlen, "%s: cannot read: %s", r->path, strerror(errno));
        return -1;
    }
    r->status->file_bytes = (uint64_t)st.st_size;
    return check_header(r, err, errlen);
}

int stoke_read_trace(const char *path, stoke_record_fn on_record, void *ctx,
                     struct stoke_read_status *status, char *err, size_t errlen)
{
    struct reader r = {.path = path, .on_record = on_record, .ctx = ctx, .status = status};
    memset(status, 0, sizeof *status);
    int rc = open_trace(&r, err, errlen);
    if (rc == 0 && !(r.zstd = ZSTD_createDStream())) {
        snprintf(err, errlen, "%s: cannot start decompression (out of memory)", path);
        rc = -1;
    }
    if (rc == 0) {
        r.in_cap = ZSTD_DStreamInSize() * 4;
        r.in = stoke_xmalloc(r.in_cap);
        r.input.src = r.in;
        read_frames(&r);
        measure_damage(&r);
    }
    ZSTD_freeDStream(r.zstd);
    free(r.in);
    free(r.decoded);
    if (r.file)
        fclose(r.file);
    return rc;
}
