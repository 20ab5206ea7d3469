/*
 * name_store.c - the table of a recording's stored names; see name_store.h.
 *
 * Owns: builds by build-id, addresses by (build, address), frames as string
 * ids, the interned strings, and the count of addresses added since the
 * table last matched its file.
 * Never: reads or writes files, or changes an address once stored.
 */
#include "name_store.h"

#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "arena.h"
#include "hash.h"
#include "index_table.h"

struct build {
    uint8_t id[STOKE_NAME_STORE_MAX_BUILD_ID];
    size_t len;
};

struct address {
    uint32_t build;
    uint64_t addr;
    uint32_t first, n; /* frames[first .. first + n) */
};

struct stoke_name_store {
    struct stoke_arena arena;
    const char **strings;
    size_t nstrings, strings_cap;
    struct stoke_index_table string_index;
    struct build *builds;
    size_t nbuilds, builds_cap;
    struct stoke_index_table build_index;
    struct address *addresses;
    size_t naddresses, addresses_cap;
    struct stoke_index_table address_index;
    struct stoke_stored_frame *frames;
    size_t nframes, frames_cap;
    size_t added;
};

struct stoke_name_store *stoke_name_store_new(void)
{
    return stoke_xcalloc(1, sizeof(struct stoke_name_store));
}

void stoke_name_store_free(struct stoke_name_store *s)
{
    if (!s)
        return;
    stoke_arena_free(&s->arena);
    free(s->strings);
    stoke_index_table_free(&s->string_index);
    free(s->builds);
    stoke_index_table_free(&s->build_index);
    free(s->addresses);
    stoke_index_table_free(&s->address_index);
    free(s->frames);
    free(s);
}

/* --- lookups -------------------------------------------------------------- */

static int64_t find_build(const struct stoke_name_store *s, const uint8_t *id, size_t len)
{
    size_t pos = SIZE_MAX;
    uint64_t hash = stoke_hash_bytes(id, len);
    int64_t i;
    while ((i = stoke_index_table_next(&s->build_index, hash, &pos)) >= 0)
        if (s->builds[i].len == len && memcmp(s->builds[i].id, id, len) == 0)
            return i;
    return -1;
}

static uint64_t address_hash(uint32_t build, uint64_t addr)
{
    return stoke_hash_mix(build, addr);
}

static int64_t find_address(const struct stoke_name_store *s, uint32_t build, uint64_t addr)
{
    size_t pos = SIZE_MAX;
    int64_t i;
    while ((i = stoke_index_table_next(&s->address_index, address_hash(build, addr), &pos)) >= 0)
        if (s->addresses[i].build == build && s->addresses[i].addr == addr)
            return i;
    return -1;
}

int stoke_name_store_has_build(const struct stoke_name_store *s, const uint8_t *build_id,
                               size_t len)
{
    return len > 0 && find_build(s, build_id, len) >= 0;
}

int stoke_name_store_find(const struct stoke_name_store *s, const uint8_t *build_id,
                          size_t len, uint64_t addr, struct stoke_debuginfo_frame *out,
                          size_t max)
{
    int64_t build = len ? find_build(s, build_id, len) : -1;
    int64_t i = build < 0 ? -1 : find_address(s, (uint32_t)build, addr);
    if (i < 0)
        return -1;
    const struct address *a = &s->addresses[i];
    size_t n = a->n < max ? a->n : max;
    for (size_t k = 0; k < n; k++) {
        const struct stoke_stored_frame *f = &s->frames[a->first + k];
        out[k] = (struct stoke_debuginfo_frame){
            .name = f->name ? s->strings[f->name - 1] : NULL,
            .file = s->strings[f->file],
            .line = f->line,
            .at_file = s->strings[f->at_file],
            .at_line = f->at_line,
        };
    }
    return (int)n;
}

/* --- adding --------------------------------------------------------------- */

static uint32_t intern(struct stoke_name_store *s, const char *str)
{
    size_t len = strlen(str), pos = SIZE_MAX;
    uint64_t hash = stoke_hash_bytes(str, len);
    int64_t i;
    while ((i = stoke_index_table_next(&s->string_index, hash, &pos)) >= 0)
        if (strcmp(s->strings[i], str) == 0)
            return (uint32_t)i;
    s->strings = stoke_grow(s->strings, &s->strings_cap, s->nstrings + 1, sizeof *s->strings);
    s->strings[s->nstrings] = stoke_arena_strndup(&s->arena, str, len);
    stoke_index_table_add(&s->string_index, hash, (uint32_t)s->nstrings);
    return (uint32_t)s->nstrings++;
}

static uint32_t add_build(struct stoke_name_store *s, const uint8_t *id, size_t len)
{
    int64_t found = find_build(s, id, len);
    if (found >= 0)
        return (uint32_t)found;
    s->builds = stoke_grow(s->builds, &s->builds_cap, s->nbuilds + 1, sizeof *s->builds);
    struct build *b = &s->builds[s->nbuilds];
    memcpy(b->id, id, len);
    b->len = len;
    stoke_index_table_add(&s->build_index, stoke_hash_bytes(id, len), (uint32_t)s->nbuilds);
    return (uint32_t)s->nbuilds++;
}

static void add_frame(struct stoke_name_store *s, const struct stoke_debuginfo_frame *f)
{
    s->frames = stoke_grow(s->frames, &s->frames_cap, s->nframes + 1, sizeof *s->frames);
    s->frames[s->nframes++] = (struct stoke_stored_frame){
        .name = f->name ? intern(s, f->name) + 1 : 0,
        .file = intern(s, f->file ? f->file : ""),
        .line = f->line,
        .at_file = intern(s, f->at_file ? f->at_file : ""),
        .at_line = f->at_line,
    };
}

void stoke_name_store_set_line(struct stoke_name_store *s, size_t i, size_t k,
                               const char *at_file, uint32_t at_line)
{
    if (i >= s->naddresses || k >= s->addresses[i].n)
        return;
    struct stoke_stored_frame *f = &s->frames[s->addresses[i].first + k];
    f->at_file = intern(s, at_file);
    f->at_line = at_line;
}

void stoke_name_store_add(struct stoke_name_store *s, const uint8_t *build_id, size_t len,
                          uint64_t addr, const struct stoke_debuginfo_frame *frames, size_t n)
{
    if (len == 0 || len > STOKE_NAME_STORE_MAX_BUILD_ID || n > STOKE_NAME_STORE_MAX_FRAMES)
        return;
    uint32_t build = add_build(s, build_id, len);
    if (find_address(s, build, addr) >= 0)
        return;
    s->addresses = stoke_grow(s->addresses, &s->addresses_cap, s->naddresses + 1,
                              sizeof *s->addresses);
    s->addresses[s->naddresses] = (struct address){build, addr, (uint32_t)s->nframes,
                                                   (uint32_t)n};
    for (size_t k = 0; k < n; k++)
        add_frame(s, &frames[k]);
    stoke_index_table_add(&s->address_index, address_hash(build, addr),
                          (uint32_t)s->naddresses);
    s->naddresses++;
    s->added++;
}

/* --- its state and contents ------------------------------------------------ */

size_t stoke_name_store_count(const struct stoke_name_store *s)
{
    return s->naddresses;
}

size_t stoke_name_store_added(const struct stoke_name_store *s)
{
    return s->added;
}

void stoke_name_store_settle(struct stoke_name_store *s)
{
    s->added = 0;
}

size_t stoke_name_store_strings(const struct stoke_name_store *s)
{
    return s->nstrings;
}

const char *stoke_name_store_string(const struct stoke_name_store *s, size_t id)
{
    return s->strings[id];
}

size_t stoke_name_store_builds(const struct stoke_name_store *s)
{
    return s->nbuilds;
}

size_t stoke_name_store_build_id(const struct stoke_name_store *s, size_t build,
                                 const uint8_t **id)
{
    *id = s->builds[build].id;
    return s->builds[build].len;
}

const struct stoke_stored_frame *stoke_name_store_entry(const struct stoke_name_store *s,
                                                        size_t i, size_t *build,
                                                        uint64_t *addr, size_t *n)
{
    const struct address *a = &s->addresses[i];
    *build = a->build;
    *addr = a->addr;
    *n = a->n;
    return s->frames + a->first;
}
