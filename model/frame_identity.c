/*
 * frame_identity.c - matching frames by the function they are; see
 * frame_identity.h.
 *
 * Owns: the identity of a frame (which fields count, the pid or tid of a
 * root left out) and the index of a profile's frames by it.
 * Never: compares addresses, files or lines.
 */
#include "frame_identity.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "hash.h"

/* The module of an identity that has none, one pointer for all. */
static const char no_module[] = "";

/* The fields that say which function a frame is; strings interned in the
 * profile of the table, so equal strings are equal pointers. */
struct identity {
    const char *name, *module;
    uint8_t kind, inlined, tier;
};

/* Length of name without a trailing " (digits)". */
static size_t without_id(const char *name)
{
    size_t len = strlen(name);
    if (len < 4 || name[len - 1] != ')')
        return len;
    size_t i = len - 1;
    while (i > 0 && isdigit((unsigned char)name[i - 1]))
        i--;
    if (i == len - 1 || i < 2 || name[i - 1] != '(' || name[i - 2] != ' ')
        return len;
    return i - 2;
}

static int is_root(uint8_t kind)
{
    return kind == STOKE_KIND_PROCESS || kind == STOKE_KIND_THREAD;
}

/* Code a perf map names: its module is the map of one process. */
static int named_by_perf_map(uint8_t kind)
{
    switch (kind) {
    case STOKE_KIND_JIT:
    case STOKE_KIND_JS_APP:
    case STOKE_KIND_JS_DEPENDENCY:
    case STOKE_KIND_JS_CORE:
    case STOKE_KIND_RUNTIME:
        return 1;
    default:
        return 0;
    }
}

/* The name f is shown and matched by, interned in t->into: without its pid
 * or tid where it is a root, or may be one (names alone: folded stacks
 * write process and thread roots as "comm (pid)" too). */
static const char *shown_name(struct stoke_identity_frames *t, const struct stoke_frame *f)
{
    struct stoke_profile *p = t->into;
    if (!is_root(f->kind) && !t->names_only)
        return stoke_profile_string(p, f->name);
    size_t len = without_id(f->name);
    char *name = stoke_xmalloc(len + 1);
    memcpy(name, f->name, len);
    name[len] = '\0';
    const char *interned = stoke_profile_string(p, name);
    free(name);
    return interned;
}

/* f's identity; of a frame of t->into when its name is interned there. */
static struct identity identity_of(const struct stoke_identity_frames *t,
                                   const struct stoke_frame *f, const char *name)
{
    if (t->names_only)
        return (struct identity){.name = name, .module = no_module};
    return (struct identity){
        .name = name,
        .module = named_by_perf_map(f->kind) ? no_module : stoke_profile_string(t->into, f->module),
        .kind = f->kind,
        .inlined = f->inlined,
        .tier = f->tier,
    };
}

static uint64_t identity_hash(const struct identity *id)
{
    uint64_t h = stoke_hash_mix(0, (uintptr_t)id->name);
    h = stoke_hash_mix(h, (uintptr_t)id->module);
    return stoke_hash_mix(h, ((uint64_t)id->tier << 16) | ((uint64_t)id->kind << 8) | id->inlined);
}

static int same_identity(const struct identity *a, const struct identity *b)
{
    return a->name == b->name && a->module == b->module && a->kind == b->kind &&
           a->inlined == b->inlined && a->tier == b->tier;
}

int stoke_knows_modules(const struct stoke_profile *p)
{
    for (size_t i = 0; i < p->nframes; i++)
        if (p->frames[i].module && *p->frames[i].module)
            return 1;
    return 0;
}

uint32_t stoke_identity_frame(struct stoke_identity_frames *t, const struct stoke_frame *f)
{
    struct identity id = identity_of(t, f, shown_name(t, f));
    uint64_t hash = identity_hash(&id);
    size_t pos = SIZE_MAX;
    int64_t idx;
    while ((idx = stoke_index_table_next(&t->index, hash, &pos)) >= 0) {
        const struct stoke_frame *known = &t->into->frames[idx];
        struct identity known_id = identity_of(t, known, known->name);
        if (same_identity(&known_id, &id))
            return (uint32_t)idx;
    }
    struct stoke_frame shown = *f;
    shown.name = id.name;
    shown.build_id = "";
    uint32_t index = stoke_profile_frame(t->into, &shown);
    stoke_index_table_add(&t->index, hash, index);
    return index;
}

void stoke_identity_frames_free(struct stoke_identity_frames *t)
{
    stoke_index_table_free(&t->index);
}
