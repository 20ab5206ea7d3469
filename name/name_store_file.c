/*
 * name_store_file.c - reads and writes a name store file; see
 * name_store_file.h and docs/trace-format.md ("The name store").
 *
 * Owns: the file's header, its one zstd frame and the layout inside it
 * (strings, then each build's addresses in ascending order with their
 * frames), what counts as damage, and replacing the file atomically.
 * Never: adds anything of a damaged file to the store, or decompresses
 * more than the frame says it holds (at most MAX_CONTENT).
 */
#define _GNU_SOURCE /* qsort_r */
#include "name_store_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include "alloc.h"
#include "regular_file.h"
#include "stoke_format.h"

#define MAGIC "STOKENAM"
#define MAGIC_LEN 8
#define HEADER_LEN 16
#define MAJOR 1
#define MINOR 1 /* 1: the lines frames are at, after the builds */
#define MAX_FILE ((size_t)64 << 20)     /* compressed */
#define MAX_CONTENT ((size_t)256 << 20) /* decompressed */
#define ZSTD_LEVEL 6

/* --- writing -------------------------------------------------------------- */

struct out {
    uint8_t *data;
    size_t len, cap;
};

static void put_u(struct out *o, uint64_t v)
{
    o->data = stoke_grow(o->data, &o->cap, o->len + 10, 1);
    o->len += stoke_put_u(o->data + o->len, v);
}

static void put_bytes(struct out *o, const void *bytes, size_t n)
{
    put_u(o, n);
    o->data = stoke_grow(o->data, &o->cap, o->len + n, 1);
    memcpy(o->data + o->len, bytes, n);
    o->len += n;
}

/* The store's addresses ordered by build, then address. */
static int by_build_and_address(const void *a, const void *b, void *store)
{
    size_t build_a, build_b, n;
    uint64_t addr_a, addr_b;
    stoke_name_store_entry(store, *(const size_t *)a, &build_a, &addr_a, &n);
    stoke_name_store_entry(store, *(const size_t *)b, &build_b, &addr_b, &n);
    if (build_a != build_b)
        return build_a < build_b ? -1 : 1;
    return addr_a < addr_b ? -1 : addr_a > addr_b;
}

static size_t *sorted_entries(const struct stoke_name_store *s)
{
    size_t count = stoke_name_store_count(s);
    size_t *order = stoke_xmalloc((count ? count : 1) * sizeof *order);
    for (size_t i = 0; i < count; i++)
        order[i] = i;
    qsort_r(order, count, sizeof *order, by_build_and_address, (void *)s);
    return order;
}

/* Writes the addresses of build, order[*next ..] while they are its. */
static void encode_build(struct out *o, const struct stoke_name_store *s, size_t build,
                         const size_t *order, size_t *next)
{
    size_t count = stoke_name_store_count(s), first = *next, b, n;
    uint64_t addr, previous = 0;
    while (*next < count && (stoke_name_store_entry(s, order[*next], &b, &addr, &n), b == build))
        (*next)++;
    const uint8_t *id;
    size_t id_len = stoke_name_store_build_id(s, build, &id);
    put_bytes(o, id, id_len);
    put_u(o, *next - first);
    for (size_t i = first; i < *next; i++) {
        const struct stoke_stored_frame *f = stoke_name_store_entry(s, order[i], &b, &addr, &n);
        put_u(o, addr - previous);
        previous = addr;
        put_u(o, n);
        for (size_t k = 0; k < n; k++) {
            put_u(o, f[k].name);
            put_u(o, f[k].file);
            put_u(o, f[k].line);
        }
    }
}

/* Minor version 1: the line each frame is at, address by address in the
 * order the builds listed them. */
static void encode_lines(struct out *o, const struct stoke_name_store *s, const size_t *order)
{
    for (size_t i = 0; i < stoke_name_store_count(s); i++) {
        size_t build, n;
        uint64_t addr;
        const struct stoke_stored_frame *f = stoke_name_store_entry(s, order[i], &build, &addr, &n);
        for (size_t k = 0; k < n; k++) {
            put_u(o, f[k].at_file);
            put_u(o, f[k].at_line);
        }
    }
}

static void encode(struct out *o, const struct stoke_name_store *s)
{
    put_u(o, stoke_name_store_strings(s));
    for (size_t i = 0; i < stoke_name_store_strings(s); i++) {
        const char *str = stoke_name_store_string(s, i);
        put_bytes(o, str, strlen(str));
    }
    size_t *order = sorted_entries(s), next = 0;
    put_u(o, stoke_name_store_builds(s));
    for (size_t build = 0; build < stoke_name_store_builds(s); build++)
        encode_build(o, s, build, order, &next);
    encode_lines(o, s, order);
    free(order);
}

/* The file's bytes: header, then the content in one zstd frame. */
static uint8_t *file_bytes(const struct stoke_name_store *s, size_t *len)
{
    struct out content = {0};
    encode(&content, s);
    size_t bound = ZSTD_compressBound(content.len);
    uint8_t *file = stoke_xmalloc(HEADER_LEN + bound);
    memcpy(file, MAGIC, MAGIC_LEN);
    const uint8_t version[8] = {MAJOR & 0xff, MAJOR >> 8, MINOR & 0xff, MINOR >> 8, 0, 0, 0, 0};
    memcpy(file + MAGIC_LEN, version, sizeof version);
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, ZSTD_LEVEL);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
    size_t z = ZSTD_compress2(cctx, file + HEADER_LEN, bound, content.data, content.len);
    ZSTD_freeCCtx(cctx);
    free(content.data);
    if (ZSTD_isError(z)) { /* cannot happen with compressBound's room */
        free(file);
        return NULL;
    }
    *len = HEADER_LEN + z;
    return file;
}

/* Writes bytes to a new file at tmp; 0, or -1 with errno set. */
static int write_new_file(const char *tmp, const uint8_t *bytes, size_t size)
{
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!out) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int rc = fwrite(bytes, 1, size, out) == size ? 0 : -1;
    int saved = errno;
    if (fclose(out) && rc == 0)
        return -1;
    errno = saved;
    return rc;
}

int stoke_name_store_write(const char *path, const struct stoke_name_store *s, char *why,
                           size_t len)
{
    size_t size;
    uint8_t *bytes = file_bytes(s, &size);
    size_t tmp_len = strlen(path) + 32;
    char *tmp = stoke_xmalloc(tmp_len);
    snprintf(tmp, tmp_len, "%s.%ld.tmp", path, (long)getpid());
    int rc = bytes ? write_new_file(tmp, bytes, size) : -1;
    if (rc == 0 && rename(tmp, path))
        rc = -1;
    if (rc) {
        int failure = errno;
        snprintf(why, len, "%s", bytes ? strerror(failure) : "cannot compress it");
        if (failure != EEXIST) /* not another's file of that name */
            unlink(tmp);
    }
    free(tmp);
    free(bytes);
    return rc;
}

/* --- reading -------------------------------------------------------------- */

/* A cursor over the content with a sticky error: a decoder reads on and
 * checks once. */
struct in {
    const uint8_t *p, *end;
    int bad;
};

static uint64_t take_u(struct in *in)
{
    uint64_t v = 0;
    if (!in->bad && stoke_get_u(&in->p, in->end, &v))
        in->bad = 1;
    return in->bad ? 0 : v;
}

/* A count of items of at least min_bytes each: more than the bytes left
 * could hold is damage. */
static uint64_t take_count(struct in *in, size_t min_bytes)
{
    uint64_t n = take_u(in);
    if (n > (uint64_t)(in->end - in->p) / min_bytes)
        in->bad = 1;
    return in->bad ? 0 : n;
}

static const uint8_t *take_bytes(struct in *in, size_t *n)
{
    *n = take_count(in, 1);
    const uint8_t *bytes = in->p;
    in->p += *n;
    return bytes;
}

struct strings {
    char **s;
    size_t n;
};

static void free_strings(struct strings *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->s[i]);
    free(t->s);
}

/* A string holding a NUL byte is damage: it would not read back whole. */
static int decode_strings(struct in *in, struct strings *t)
{
    uint64_t n = take_count(in, 1);
    t->s = stoke_xcalloc(n ? n : 1, sizeof *t->s);
    for (; t->n < n && !in->bad; t->n++) {
        size_t len;
        const uint8_t *bytes = take_bytes(in, &len);
        if (memchr(bytes, '\0', len))
            in->bad = 1;
        t->s[t->n] = stoke_xmalloc(len + 1);
        memcpy(t->s[t->n], bytes, len);
        t->s[t->n][len] = '\0';
    }
    return in->bad ? -1 : 0;
}

static void decode_frame(struct in *in, const struct strings *t, struct stoke_debuginfo_frame *f)
{
    uint64_t name = take_u(in), file = take_u(in), line = take_u(in);
    if (name > t->n || file >= t->n || line > UINT32_MAX) {
        in->bad = 1;
        return;
    }
    *f = (struct stoke_debuginfo_frame){.name = name ? t->s[name - 1] : NULL,
                                        .file = t->s[file], .line = (unsigned)line};
}

/* One build's addresses, ascending. */
static void decode_build(struct in *in, const struct strings *t, struct stoke_name_store *s)
{
    size_t id_len;
    const uint8_t *id = take_bytes(in, &id_len);
    if (id_len == 0 || id_len > STOKE_NAME_STORE_MAX_BUILD_ID)
        in->bad = 1;
    uint64_t naddresses = take_count(in, 2), addr = 0;
    for (uint64_t i = 0; i < naddresses && !in->bad; i++) {
        uint64_t delta = take_u(in), nframes = take_u(in);
        struct stoke_debuginfo_frame frames[STOKE_NAME_STORE_MAX_FRAMES];
        if ((i > 0 && delta == 0) || addr + delta < addr || nframes > STOKE_NAME_STORE_MAX_FRAMES)
            in->bad = 1;
        addr += delta;
        for (uint64_t k = 0; k < nframes && !in->bad; k++)
            decode_frame(in, t, &frames[k]);
        if (!in->bad)
            stoke_name_store_add(s, id, id_len, addr, frames, (size_t)nframes);
    }
}

/* The lines of minor version 1 (encode_lines), onto the addresses read in
 * the order read; a file of minor version 0 ends before them. */
static void decode_lines(struct in *in, const struct strings *t, struct stoke_name_store *read)
{
    for (size_t i = 0; i < stoke_name_store_count(read) && in->p < in->end && !in->bad; i++) {
        size_t build, n;
        uint64_t addr;
        stoke_name_store_entry(read, i, &build, &addr, &n);
        for (size_t k = 0; k < n && !in->bad; k++) {
            uint64_t file = take_u(in), line = take_u(in);
            if (file >= t->n || line > UINT32_MAX)
                in->bad = 1;
            else
                stoke_name_store_set_line(read, i, k, t->s[file], (uint32_t)line);
        }
    }
}

/* Decodes into a store of its own, so that s gains nothing of damage.
 * newer: of a later minor version, which may append content after the
 * builds. */
static int decode(const uint8_t *data, size_t len, int newer, struct stoke_name_store *s)
{
    struct in in = {data, data + len, 0};
    struct strings t = {0};
    struct stoke_name_store *read = stoke_name_store_new();
    if (decode_strings(&in, &t) == 0) {
        uint64_t nbuilds = take_count(&in, 2);
        for (uint64_t b = 0; b < nbuilds && !in.bad; b++)
            decode_build(&in, &t, read);
        decode_lines(&in, &t, read);
    }
    int ok = !in.bad && (in.p == in.end || newer);
    for (size_t i = 0; ok && i < stoke_name_store_count(read); i++) {
        size_t build, n;
        uint64_t addr;
        const uint8_t *id;
        struct stoke_debuginfo_frame frames[STOKE_NAME_STORE_MAX_FRAMES];
        stoke_name_store_entry(read, i, &build, &addr, &n);
        size_t id_len = stoke_name_store_build_id(read, build, &id);
        int found = stoke_name_store_find(read, id, id_len, addr, frames, n);
        stoke_name_store_add(s, id, id_len, addr, frames, (size_t)found);
    }
    stoke_name_store_free(read);
    free_strings(&t);
    return ok ? 0 : -1;
}

static unsigned minor_version(const uint8_t *file)
{
    return file[10] | (unsigned)file[11] << 8;
}

static int check_header(const uint8_t *file, size_t size, char *why, size_t len)
{
    if (size < HEADER_LEN || memcmp(file, MAGIC, MAGIC_LEN) != 0) {
        snprintf(why, len, "is not a stoke name store (no STOKENAM header)");
        return -1;
    }
    unsigned major = file[8] | (unsigned)file[9] << 8;
    if (major > MAJOR)
        snprintf(why, len, "is a name store of version %u, which this stoke cannot read; "
                 "upgrade stoke", major);
    else if (major < MAJOR)
        snprintf(why, len, "is damaged (its header names version %u)", major);
    return major == MAJOR ? 0 : -1;
}

static int decompress_and_decode(const uint8_t *frame, size_t size, int newer,
                                 struct stoke_name_store *s, char *why, size_t len)
{
    unsigned long long content = ZSTD_getFrameContentSize(frame, size);
    if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN ||
        content > MAX_CONTENT || ZSTD_findFrameCompressedSize(frame, size) != size) {
        snprintf(why, len, "is damaged (its zstd frame is cut short or malformed)");
        return -1;
    }
    uint8_t *data = stoke_xmalloc(content ? content : 1);
    size_t got = ZSTD_decompress(data, content, frame, size);
    int rc = -1;
    if (ZSTD_isError(got) || got != content)
        snprintf(why, len, "is damaged (%s)", ZSTD_isError(got) ? ZSTD_getErrorName(got)
                                                                 : "shorter than it says");
    else if ((rc = decode(data, got, newer, s)) != 0)
        snprintf(why, len, "is damaged (its names do not decode)");
    free(data);
    return rc;
}

/* The whole file, at most MAX_FILE bytes. */
static uint8_t *read_file(int fd, size_t *size, char *why, size_t len)
{
    struct stat st;
    if (fstat(fd, &st) || (size_t)st.st_size > MAX_FILE) {
        snprintf(why, len, "is larger than a name store can be (%zu MiB)", MAX_FILE >> 20);
        return NULL;
    }
    uint8_t *data = stoke_xmalloc((size_t)st.st_size + 1);
    ssize_t n = pread(fd, data, (size_t)st.st_size, 0);
    if (n != st.st_size) {
        snprintf(why, len, "cannot be read (%s)", n < 0 ? strerror(errno) : "it changed");
        free(data);
        return NULL;
    }
    *size = (size_t)n;
    return data;
}

int stoke_name_store_read(const char *path, struct stoke_name_store *s, char *why, size_t len)
{
    int fd = stoke_open_regular(path);
    if (fd < 0 && errno == ENOENT)
        return 1;
    if (fd < 0) {
        snprintf(why, len, "cannot be read (%s)",
                 errno == EINVAL || errno == EISDIR ? "not a regular file" : strerror(errno));
        return -1;
    }
    size_t size;
    uint8_t *file = read_file(fd, &size, why, len);
    close(fd);
    int rc = file && check_header(file, size, why, len) == 0
                 ? decompress_and_decode(file + HEADER_LEN, size - HEADER_LEN,
                                         minor_version(file) > MINOR, s, why, len)
                 : -1;
    free(file);
    return rc;
}
