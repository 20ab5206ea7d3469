/*
 * folded_input.c - folded stacks (text) into a profile.
 *
 * Owns: the accepted folded dialects (see folded_input.h), their errors, and
 * the depth kept of a stack.
 * Never: guesses at a line it cannot read, stops at the first bad line
 * without counting the others, or interns a frame it does not keep.
 */
#define _GNU_SOURCE /* getline, memrchr */
#include "folded_input.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "js_heap_read.h"
#include "stoke_format.h"
#include "warn.h"

#define FOLDED_FORMAT "\"frame;frame;...;frame COUNT\""

int stoke_is_folded_file(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char magic[STOKE_MAGIC_LEN];
    size_t n = fread(magic, 1, sizeof magic, f);
    fclose(f);
    return (n < sizeof magic || memcmp(magic, STOKE_MAGIC, STOKE_MAGIC_LEN) != 0) &&
           !stoke_is_js_heap_file(path);
}

struct folded_reader {
    const char *path;
    struct stoke_profile *profile;
    uint32_t *frames; /* the frames of the line being read */
    size_t frames_cap;
    size_t line;      /* 1-based number of the line being read */
    size_t stacks;    /* lines that gave a stack */
    uint64_t total;   /* their counts added up: at most INT64_MAX */
    size_t bad;       /* malformed lines */
    char first_bad[512];
    size_t deep;      /* stacks cut to STOKE_MAX_FOLDED_DEPTH */
    size_t first_deep_line, first_deep_frames;
};

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void bad_line(struct folded_reader *r, const char *what)
{
    if (r->bad++ == 0)
        snprintf(r->first_bad, sizeof r->first_bad, "%s:%zu: %s", r->path, r->line, what);
}

static int ends_with(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* "name_[j]" and the other annotations of perf and async-profiler: sets
 * the kind they mean and returns the name's length without them. */
static size_t strip_annotation(const char *name, size_t len, struct stoke_frame *f)
{
    static const struct {
        const char *suffix, *module;
        uint8_t kind, inlined;
    } annotations[] = {
        {"_[j]", "", STOKE_KIND_JIT, 0},           {"_[0]", "", STOKE_KIND_JIT, 0},
        {"_[1]", "", STOKE_KIND_JIT, 0},           {"_[i]", "", STOKE_KIND_JIT, 1},
        {"_[k]", "[kernel]", STOKE_KIND_LIBRARY, 0},
    };
    for (size_t i = 0; i < sizeof annotations / sizeof *annotations; i++) {
        size_t n = strlen(annotations[i].suffix);
        if (len > n && ends_with(name, len, annotations[i].suffix)) {
            f->kind = annotations[i].kind;
            f->inlined = annotations[i].inlined;
            f->module = annotations[i].module;
            return len - n;
        }
    }
    return len;
}

/* py-spy's "name (path/file.py:12)" (or "(file.py)" without line numbers):
 * puts the place in f and returns the name's length without it. The name
 * is changed in place (the place's end is cut off). */
static size_t split_place(char *name, size_t len, struct stoke_frame *f)
{
    if (len < 5 || name[len - 1] != ')')
        return len;
    char *open = memrchr(name, '(', len);
    if (!open || open < name + 2 || open[-1] != ' ')
        return len;
    char *place = open + 1;
    size_t place_len = (size_t)(name + len - 1 - place);
    char *colon = memrchr(place, ':', place_len);
    size_t digits = colon ? (size_t)(name + len - 1 - (colon + 1)) : 0;
    if (colon && digits > 0 && digits <= 9 && strspn(colon + 1, "0123456789") == digits) {
        f->line = (uint32_t)strtoul(colon + 1, NULL, 10);
        *colon = '\0';
    } else if (memchr(place, '.', place_len) || memchr(place, '/', place_len)) {
        name[len - 1] = '\0';
    } else {
        return len; /* "f (int)": a name, not a place */
    }
    f->file = place;
    return (size_t)(open - 1 - name);
}

/* The frame named name[0..len) (changed in place), interned. */
static uint32_t read_frame(struct folded_reader *r, char *name, size_t len)
{
    struct stoke_frame f = {.name = name, .module = "", .file = "", .kind = STOKE_KIND_PROGRAM};
    len = strip_annotation(name, len, &f);
    len = split_place(name, len, &f);
    if (len >= 2 && name[0] == '[' && name[len - 1] == ']')
        f.kind = STOKE_KIND_UNKNOWN;
    name[len] = '\0';
    return stoke_profile_frame(r->profile, &f);
}

/* How many frames stack[0..len) names; 0 when one of the names is empty. */
static size_t count_frames(const char *stack, size_t len)
{
    size_t n = 1;
    if (stack[0] == ';' || stack[len - 1] == ';')
        return 0;
    for (const char *p = memchr(stack, ';', len); p; p = memchr(p + 1, ';', stack + len - p - 1)) {
        if (p[1] == ';')
            return 0;
        n++;
    }
    return n;
}

static void note_deep_stack(struct folded_reader *r, size_t nframes)
{
    if (r->deep++ == 0) {
        r->first_deep_line = r->line;
        r->first_deep_frames = nframes;
    }
}

static void push_frame(struct folded_reader *r, size_t *n, uint32_t frame)
{
    r->frames = stoke_grow(r->frames, &r->frames_cap, *n + 1, sizeof *r->frames);
    r->frames[(*n)++] = frame;
}

static uint32_t incomplete_stack_frame(struct folded_reader *r)
{
    struct stoke_frame f = {.name = STOKE_INCOMPLETE_STACK, .module = "", .file = "",
                            .kind = STOKE_KIND_UNKNOWN};
    return stoke_profile_frame(r->profile, &f);
}

/* Splits the stack of nframes frames at ';' and adds it with its count.
 * Beyond STOKE_MAX_FOLDED_DEPTH frames, the frames after the root up to the
 * innermost ones that fit are left out (not even interned). */
static void add_stack(struct folded_reader *r, char *stack, size_t len, size_t nframes,
                      int64_t count)
{
    size_t n = 0, i = 0;
    size_t first_kept = nframes > STOKE_MAX_FOLDED_DEPTH ? nframes - (STOKE_MAX_FOLDED_DEPTH - 2)
                                                         : 1;
    char *start = stack;
    if (first_kept > 1)
        note_deep_stack(r, nframes);
    for (char *p = stack;; p++) {
        if (p == stack + len || *p == ';') {
            if (i == 0 || i >= first_kept)
                push_frame(r, &n, read_frame(r, start, (size_t)(p - start)));
            if (i == 0 && first_kept > 1)
                push_frame(r, &n, incomplete_stack_frame(r));
            i++;
            if (p == stack + len)
                break;
            start = p + 1;
        }
    }
    stoke_profile_add(r->profile, r->frames, n, &count);
    r->stacks++;
}

/* Reads one line of len bytes (its newline included, if any). */
static void read_line(struct folded_reader *r, char *line, size_t len)
{
    if (memchr(line, '\0', len)) {
        bad_line(r, "holds a NUL byte: the file is not text (give folded stacks or a .stoke trace)");
        return;
    }
    while (len > 0 && is_blank(line[len - 1]))
        len--;
    if (len == 0 || line[0] == '#')
        return;
    size_t digits = 0;
    while (digits < len && line[len - 1 - digits] >= '0' && line[len - 1 - digits] <= '9')
        digits++;
    size_t stack_len = len - digits;
    if (digits == 0 || stack_len == 0 || (line[stack_len - 1] != ' ' && line[stack_len - 1] != '\t')) {
        bad_line(r, digits == 0 || stack_len > 0
                        ? "does not end with a blank and a count (expected " FOLDED_FORMAT ")"
                        : "has a count but no stack (expected " FOLDED_FORMAT ")");
        return;
    }
    errno = 0;
    unsigned long long count = strtoull(line + stack_len, NULL, 10);
    if (errno == ERANGE || count > INT64_MAX) {
        bad_line(r, "the count is too large (at most 9223372036854775807)");
        return;
    }
    if (count > INT64_MAX - r->total) {
        bad_line(r, "the counts of the file add up to more than 9223372036854775807");
        return;
    }
    while (stack_len > 0 && is_blank(line[stack_len - 1]))
        stack_len--;
    if (stack_len == 0) {
        bad_line(r, "has a count but no stack (expected " FOLDED_FORMAT ")");
        return;
    }
    size_t nframes = count_frames(line, stack_len);
    if (nframes == 0) {
        bad_line(r, "has an empty frame name (a ';' at the start or end of the stack, or two "
                    "in a row; expected " FOLDED_FORMAT ")");
        return;
    }
    r->total += count;
    add_stack(r, line, stack_len, nframes, (int64_t)count);
}

static void describe_failure(const struct folded_reader *r, char *err, size_t errlen)
{
    if (r->bad > 1)
        snprintf(err, errlen, "%s (and %zu more malformed line%s)", r->first_bad, r->bad - 1,
                 r->bad == 2 ? "" : "s");
    else if (r->bad == 1)
        snprintf(err, errlen, "%s", r->first_bad);
    else
        snprintf(err, errlen, "'%s' holds no stacks; expected lines " FOLDED_FORMAT, r->path);
}

static void warn_deep_stacks(const struct folded_reader *r)
{
    stoke_warn(r->path,
               "%zu stack%s deeper than %d frames %s cut to the root frame, \""
               STOKE_INCOMPLETE_STACK "\" and the %d innermost frames (%s line %zu, %zu frames)",
               r->deep, r->deep == 1 ? "" : "s", STOKE_MAX_FOLDED_DEPTH,
               r->deep == 1 ? "was" : "were", STOKE_MAX_FOLDED_DEPTH - 2,
               r->deep == 1 ? "on" : "the first on", r->first_deep_line, r->first_deep_frames);
}

struct stoke_profile *stoke_read_folded(const char *path, char *err, size_t errlen)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    struct folded_reader r = {.path = path, .profile = stoke_profile_new()};
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, in)) >= 0) {
        r.line++;
        read_line(&r, line, (size_t)len);
    }
    int read_error = ferror(in);
    free(line);
    free(r.frames);
    fclose(in);
    if (!read_error && !r.bad && r.deep)
        warn_deep_stacks(&r);
    if (read_error || r.bad || r.stacks == 0) {
        if (read_error)
            snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        else
            describe_failure(&r, err, errlen);
        stoke_profile_free(r.profile);
        return NULL;
    }
    return r.profile;
}
