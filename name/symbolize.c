/*
 * symbolize.c - the address -> frames resolver of one trace; see symbolize.h.
 *
 * Owns: the module table (MAP ids -> ELF objects keyed on path + build-id),
 * the build-id check, module kinds, the per-address cache, names for what
 * cannot be named, JIT names from perf map files, and which of the
 * recording's stored names (name_store.h) stand in for a file that is gone
 * or changed, and which names of a file the store gains; where each frame
 * of an address was (its position: the address, the line, the binary's code
 * module with its file offset, code_sites.h).
 * Never: parses ELF or DWARF itself (debuginfo.c), prints more than one
 * warning per module, or names an address from a store when the module's
 * own file (its build-id matching) can.
 */
#include "symbolize.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "code_sites.h"
#include "debuginfo.h"
#include "demangler.h"
#include "hash.h"
#include "jit_frame.h"
#include "name_store.h"
#include "perfmap.h"
#include "process_perfmap.h"
#include "regular_file.h"
#include "stoke_format.h"
#include "vdso.h"
#include "warn.h"

#define MAX_INLINE_DEPTH 64
#define MAX_BUILD_ID 64
#define MAX_MODULE_ID (1u << 20) /* larger ids are taken as damage */

enum object_state { OBJECT_UNOPENED, OBJECT_READY, OBJECT_UNUSABLE };

/* One ELF file as the trace knew it. */
struct elf_object {
    char *path;
    uint8_t build_id[MAX_BUILD_ID];
    size_t build_id_len;
    const char *module_name; /* basename, interned in the profile */
    const char *build_id_hex; /* interned in the profile, "" when unknown */
    uint8_t kind;
    enum object_state state;
    const char *problem;      /* why its file is unusable; NULL: nothing to tell */
    int warned;               /* the problem was told */
    struct stoke_debuginfo *debuginfo;
    int has_bias;
    uint64_t bias;            /* of its first mapping: where a perf map sees it */
};

/* One MAP record's module. */
struct module_slot {
    int32_t object;       /* index into objects, -1 none */
    uint32_t code_module; /* its code module in the profile (code_sites.h), 0 not yet */
    uint64_t start, end;  /* its mapped code, as ELF virtual addresses */
};

/* A resolved address: frames pool[start .. start+len), with where each
 * was in at[start .. start+len). */
struct cache_entry {
    uint64_t key_object; /* object index << 1 | is_return, +1 (0 = empty) */
    uint64_t offset;
    uint32_t start, len;
};

struct stoke_symbolizer {
    struct stoke_profile *profile;
    char *trace_path;
    uint32_t pid;
    struct elf_object *objects;
    size_t nobjects, objects_cap;
    struct module_slot *modules; /* by module id */
    size_t modules_cap;
    struct cache_entry *cache;
    size_t cache_cap, cache_count;
    uint32_t *pool;
    struct stoke_position *at;
    size_t pool_len, pool_cap, at_cap;
    struct stoke_perfmap *perfmap;   /* the file's, read on first need */
    int perfmap_tried;
    struct stoke_perfmap *trace_map; /* the trace's own, or NULL */
    char *cwd;
    struct stoke_jit_context jit;
    struct stoke_name_store *names; /* the recording's, or NULL */
    char *names_why;                /* the first file stored names stood in for, and why */
};

/* Pseudo object indices for addresses outside any module. */
#define OBJECT_JIT ((uint64_t)UINT32_MAX)
#define OBJECT_NONE ((uint64_t)UINT32_MAX - 1)

struct stoke_symbolizer *stoke_symbolizer_new(struct stoke_profile *p, const char *trace_path,
                                              uint32_t pid)
{
    struct stoke_symbolizer *s = stoke_xcalloc(1, sizeof *s);
    s->profile = p;
    s->trace_path = stoke_xstrdup(trace_path);
    s->pid = pid;
    s->cwd = stoke_xstrdup("");
    s->jit.cwd = s->cwd;
    return s;
}

void stoke_symbolizer_set_process(struct stoke_symbolizer *s,
                                  const struct stoke_jit_context *process)
{
    free(s->cwd);
    s->cwd = stoke_xstrdup(process->cwd);
    s->jit = *process;
    s->jit.cwd = s->cwd;
}

void stoke_symbolizer_set_jit_map(struct stoke_symbolizer *s, struct stoke_perfmap *map)
{
    stoke_perfmap_free(s->trace_map);
    s->trace_map = map;
}

void stoke_symbolizer_set_names(struct stoke_symbolizer *s, struct stoke_name_store *names)
{
    s->names = names;
}

const char *stoke_symbolizer_names_used(const struct stoke_symbolizer *s)
{
    return s->names_why;
}

void stoke_symbolizer_free(struct stoke_symbolizer *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nobjects; i++) {
        free(s->objects[i].path);
        stoke_debuginfo_close(s->objects[i].debuginfo);
    }
    free(s->objects);
    free(s->modules);
    free(s->cache);
    free(s->pool);
    free(s->at);
    stoke_perfmap_free(s->perfmap);
    stoke_perfmap_free(s->trace_map);
    free(s->cwd);
    free(s->names_why);
    free(s->trace_path);
    free(s);
}

/* --- modules -------------------------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static uint8_t module_kind(const char *path, int is_main)
{
    static const char *const libc_prefixes[] = {
        "libc.so", "libc-", "libm.so", "libm-", "libpthread", "ld-linux", "libdl.so", "librt.so",
    };
    const char *name = base_name(path);
    if (is_main)
        return STOKE_KIND_PROGRAM;
    if (stoke_is_vdso_path(path))
        return STOKE_KIND_LIBC;
    for (size_t i = 0; i < sizeof libc_prefixes / sizeof *libc_prefixes; i++)
        if (starts_with(name, libc_prefixes[i]))
            return STOKE_KIND_LIBC;
    return STOKE_KIND_LIBRARY;
}

static int same_object(const struct elf_object *o, const struct stoke_module_desc *m)
{
    return strcmp(o->path, m->path) == 0 && o->build_id_len == m->build_id_len &&
           (m->build_id_len == 0 || memcmp(o->build_id, m->build_id, m->build_id_len) == 0);
}

static const char *hex_build_id(struct stoke_profile *p, const uint8_t *id, size_t len)
{
    char hex[2 * MAX_BUILD_ID + 1];
    for (size_t i = 0; i < len; i++)
        snprintf(hex + 2 * i, 3, "%02x", id[i]);
    hex[2 * len] = '\0';
    return stoke_profile_string(p, hex);
}

static size_t find_or_add_object(struct stoke_symbolizer *s, const struct stoke_module_desc *m)
{
    for (size_t i = 0; i < s->nobjects; i++)
        if (same_object(&s->objects[i], m))
            return i;
    s->objects = stoke_grow(s->objects, &s->objects_cap, s->nobjects + 1, sizeof *s->objects);
    struct elf_object *o = &s->objects[s->nobjects];
    memset(o, 0, sizeof *o);
    o->path = stoke_xstrdup(m->path);
    o->build_id_len = m->build_id_len;
    if (m->build_id_len)
        memcpy(o->build_id, m->build_id, m->build_id_len);
    o->module_name = stoke_profile_string(s->profile, base_name(m->path));
    o->build_id_hex = hex_build_id(s->profile, m->build_id, m->build_id_len);
    o->kind = module_kind(m->path, m->is_main);
    return s->nobjects++;
}

void stoke_symbolizer_add_module(struct stoke_symbolizer *s, const struct stoke_module_desc *m)
{
    if (m->id == 0 || m->id >= MAX_MODULE_ID || m->build_id_len > MAX_BUILD_ID)
        return;
    size_t old_cap = s->modules_cap;
    s->modules = stoke_grow(s->modules, &s->modules_cap, m->id + 1, sizeof *s->modules);
    for (size_t i = old_cap; i < s->modules_cap; i++)
        s->modules[i] = (struct module_slot){.object = -1};
    size_t object = find_or_add_object(s, m);
    s->modules[m->id] = (struct module_slot){(int32_t)object, 0, m->start - m->load_bias,
                                             m->end - m->load_bias};
    if (!m->alias_of && !s->objects[object].has_bias) {
        s->objects[object].has_bias = 1;
        s->objects[object].bias = m->load_bias;
    }
}

static uint64_t object_of_module(const struct stoke_symbolizer *s, uint64_t module_id)
{
    if (module_id == STOKE_MODULE_NONE)
        return OBJECT_JIT;
    if (module_id >= s->modules_cap || s->modules[module_id].object < 0)
        return OBJECT_NONE;
    return (uint64_t)s->modules[module_id].object;
}

/* --- opening an object ---------------------------------------------------- */

static void warn_object(const struct stoke_symbolizer *s, const struct elf_object *o,
                        const char *problem)
{
    stoke_warn(s->trace_path, "%s %s; its frames are shown as module+offset", o->path, problem);
}

static int build_id_matches(struct elf_object *o)
{
    const uint8_t *id;
    size_t len = stoke_debuginfo_build_id(o->debuginfo, &id);
    return o->build_id_len == 0 || (len == o->build_id_len && memcmp(id, o->build_id, len) == 0);
}

/* A file whose compressed sections claim more than it can hold is read in
 * part (debuginfo.h): says which section and what is shown instead. */
static void warn_partial_use(const struct stoke_symbolizer *s, const struct elf_object *o)
{
    char why[512];
    switch (stoke_debuginfo_use(o->debuginfo, why, sizeof why)) {
    case STOKE_DEBUGINFO_SYMBOLS_ONLY:
        stoke_warn(s->trace_path, "%s: %s; its functions are named from its symbol table only "
                   "(no inlined functions, files or lines)", o->path, why);
        break;
    case STOKE_DEBUGINFO_UNUSED:
        stoke_warn(s->trace_path, "%s: %s; its frames are shown as module+offset", o->path, why);
        break;
    default:
        break;
    }
}

/* Opens the object's file the first time it is needed. The vDSO comes from
 * this process; a vDSO of another kernel is left unnamed without a warning.
 * Why a file is unusable is told only once an address must go unnamed for
 * it (stored names may stand in). */
static void open_object(struct stoke_symbolizer *s, struct elf_object *o)
{
    int vdso = stoke_is_vdso_path(o->path);
    int fd = vdso ? stoke_vdso_open() : stoke_open_regular(o->path);
    int quiet = vdso || !*o->path;
    o->state = OBJECT_UNUSABLE;
    if (fd < 0) {
        o->problem = quiet ? NULL : errno == EINVAL ? "is not a regular file" : "cannot be read";
        return;
    }
    o->debuginfo = stoke_debuginfo_open(o->module_name, o->path, fd);
    if (!o->debuginfo) {
        o->problem = quiet ? NULL : "cannot be read";
        return;
    }
    if (!build_id_matches(o)) {
        o->problem = vdso ? NULL : "changed since the run (build-id differs)";
        stoke_debuginfo_close(o->debuginfo);
        o->debuginfo = NULL;
        return;
    }
    o->state = OBJECT_READY;
    warn_partial_use(s, o);
}

/* --- naming --------------------------------------------------------------- */

/* Emits frame f, at line of file (NULL: "") in it. */
static void emit_frame_at(struct stoke_symbolizer *s, const struct stoke_frame *f,
                          const char *file, unsigned line)
{
    s->pool = stoke_grow(s->pool, &s->pool_cap, s->pool_len + 1, sizeof *s->pool);
    s->at = stoke_grow(s->at, &s->at_cap, s->pool_len + 1, sizeof *s->at);
    s->at[s->pool_len] = (struct stoke_position){.file = stoke_profile_string(s->profile, file),
                                                 .line = line};
    s->pool[s->pool_len++] = stoke_profile_frame(s->profile, f);
}

static void emit_frame(struct stoke_symbolizer *s, const struct stoke_frame *f)
{
    emit_frame_at(s, f, "", 0);
}

static void emit_unnamed(struct stoke_symbolizer *s, const char *module, const char *build_id,
                         uint64_t offset)
{
    char name[256];
    snprintf(name, sizeof name, "%s+0x%" PRIx64, *module ? module : "[unknown]", offset);
    struct stoke_frame f = {.name = name, .module = module, .file = "", .kind = STOKE_KIND_UNKNOWN,
                            .build_id = build_id};
    emit_frame(s, &f);
}

static void emit_named(struct stoke_symbolizer *s, const struct elf_object *o,
                       const struct stoke_debuginfo_frame *df, int inlined)
{
    static struct stoke_jit_text text;
    char *demangled = stoke_demangle(df->name);
    struct stoke_frame f = {
        .name = demangled ? demangled : df->name,
        .module = o->module_name,
        .file = df->file,
        .line = df->line,
        .kind = o->kind,
        .inlined = (uint8_t)inlined,
        .build_id = o->build_id_hex,
    };
    stoke_native_frame_kind(o->module_name, &f, &text);
    emit_frame_at(s, &f, df->at_file, df->at_line);
    free(demangled);
}

/* The name a perf map gives the code at addr: the trace's own map first,
 * then (for JIT code only) the file's. */
static const char *jit_name(struct stoke_symbolizer *s, uint64_t addr, int files_too)
{
    const char *name = s->trace_map ? stoke_perfmap_lookup(s->trace_map, addr) : NULL;
    if (name || !files_too)
        return name;
    if (!s->perfmap_tried) {
        s->perfmap_tried = 1;
        s->perfmap = stoke_process_perfmap(s->trace_path, s->pid);
    }
    return s->perfmap ? stoke_perfmap_lookup(s->perfmap, addr) : NULL;
}

static void emit_jit(struct stoke_symbolizer *s, const char *name, const char *module,
                     const char *build_id)
{
    static struct stoke_jit_text text;
    struct stoke_frame f;
    stoke_jit_frame(name, &s->jit, module, &f, &text);
    f.build_id = build_id;
    emit_frame(s, &f);
}

/* Stored names stood in for o's file: the first time, keeps what to say. */
static void note_stored_use(struct stoke_symbolizer *s, const struct elf_object *o)
{
    if (s->names_why || !o->problem)
        return;
    size_t len = strlen(o->path) + strlen(o->problem) + 2;
    s->names_why = stoke_xmalloc(len);
    snprintf(s->names_why, len, "%s %s", o->path, o->problem);
}

/* The functions at code in o, from its file when it is the run's build,
 * else from the recording's stored names; the names a file gives are
 * stored. An address neither names is told about once per object. */
static size_t lookup_code(struct stoke_symbolizer *s, struct elf_object *o, uint64_t code,
                          struct stoke_debuginfo_frame *found)
{
    if (o->state == OBJECT_UNOPENED)
        open_object(s, o);
    if (o->state == OBJECT_READY) {
        size_t n = stoke_debuginfo_lookup(o->debuginfo, code, found, MAX_INLINE_DEPTH);
        if (s->names)
            stoke_name_store_add(s->names, o->build_id, o->build_id_len, code, found, n);
        return n;
    }
    int stored = s->names ? stoke_name_store_find(s->names, o->build_id, o->build_id_len, code,
                                                  found, MAX_INLINE_DEPTH)
                          : -1;
    if (stored >= 0) {
        note_stored_use(s, o);
        return (size_t)stored;
    }
    if (o->problem && !o->warned)
        warn_object(s, o, o->problem);
    o->warned = 1;
    return 0;
}

static void name_in_object(struct stoke_symbolizer *s, struct elf_object *o, uint64_t offset,
                           int is_return)
{
    struct stoke_debuginfo_frame found[MAX_INLINE_DEPTH];
    uint64_t code = offset - (is_return && offset > 0);
    const char *named_by_runtime = o->has_bias ? jit_name(s, o->bias + code, 0) : NULL;
    if (named_by_runtime) { /* a runtime's code in its own file: V8's builtins */
        emit_jit(s, named_by_runtime, o->module_name, o->build_id_hex);
        return;
    }
    size_t n = lookup_code(s, o, code, found);
    for (size_t i = 0; i < n; i++) {
        if (found[i].name)
            emit_named(s, o, &found[i], i + 1 < n);
        else
            emit_unnamed(s, o->module_name, o->build_id_hex, offset);
    }
    if (n == 0)
        emit_unnamed(s, o->module_name, o->build_id_hex, offset);
}

static void name_jit(struct stoke_symbolizer *s, uint64_t addr, int is_return)
{
    const char *name = jit_name(s, addr - (is_return && addr > 0), 1);
    if (name)
        emit_jit(s, name, "[jit]", "");
    else
        emit_unnamed(s, "", "", addr);
}

/* --- code modules --------------------------------------------------------- */

/* Where start is in o's file: through its program headers when the file
 * was opened to name its code (and is the run's build), else taken to be
 * start itself, where a linker puts a shared object's or PIE's code. A
 * file whose code a perf map names (node's builtins) is not opened for
 * this alone: that would cost as much as naming from it. */
static uint64_t file_offset_of(const struct elf_object *o, uint64_t start)
{
    uint64_t offset;
    if (o->state == OBJECT_READY && stoke_debuginfo_file_offset(o->debuginfo, start, &offset) == 0)
        return offset;
    return start;
}

/* The code module (code_sites.h) module module_id's code is in, added to
 * the profile on first use (after naming an address of it, so that the
 * file it was named from gives where its code is); 0 for none (JIT code,
 * an unknown module). */
static uint32_t code_module_of(struct stoke_symbolizer *s, uint64_t module_id)
{
    uint64_t object = object_of_module(s, module_id);
    if (object == OBJECT_JIT || object == OBJECT_NONE)
        return 0;
    struct module_slot *slot = &s->modules[module_id];
    if (!slot->code_module) {
        struct elf_object *o = &s->objects[object];
        struct stoke_code_module m = {o->path, o->build_id_hex, slot->start, slot->end,
                                      file_offset_of(o, slot->start),
                                      o->state == OBJECT_READY};
        slot->code_module = stoke_code_module(s->profile, &m);
    }
    return slot->code_module;
}

/* --- cache ---------------------------------------------------------------- */

static uint64_t cache_hash(uint64_t key_object, uint64_t offset)
{
    return stoke_hash_mix(key_object, offset);
}

static struct cache_entry *cache_slot(struct stoke_symbolizer *s, uint64_t key_object,
                                      uint64_t offset)
{
    size_t mask = s->cache_cap - 1;
    size_t i = cache_hash(key_object, offset) & mask;
    while (s->cache[i].key_object &&
           !(s->cache[i].key_object == key_object && s->cache[i].offset == offset))
        i = (i + 1) & mask;
    return &s->cache[i];
}

static void cache_grow_if_needed(struct stoke_symbolizer *s)
{
    if ((s->cache_count + 1) * 2 <= s->cache_cap)
        return;
    struct cache_entry *old = s->cache;
    size_t old_cap = s->cache_cap;
    s->cache_cap = old_cap ? old_cap * 2 : 4096;
    s->cache = stoke_xcalloc(s->cache_cap, sizeof *s->cache);
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].key_object)
            *cache_slot(s, old[i].key_object, old[i].offset) = old[i];
    free(old);
}

/* Sets the address and code module of the frames emitted from start on. */
static void place_frames(struct stoke_symbolizer *s, size_t start, uint64_t module_id,
                         uint64_t offset)
{
    uint32_t module = code_module_of(s, module_id);
    for (size_t i = start; i < s->pool_len; i++) {
        s->at[i].address = offset;
        s->at[i].module = module;
    }
}

size_t stoke_symbolize(struct stoke_symbolizer *s, uint64_t module_id, uint64_t offset,
                       int is_return, const uint32_t **frames, uint32_t *first)
{
    uint64_t object = object_of_module(s, module_id);
    uint64_t key_object = ((object << 1) | (is_return != 0)) + 1;
    cache_grow_if_needed(s);
    struct cache_entry *e = cache_slot(s, key_object, offset);
    if (!e->key_object) {
        size_t start = s->pool_len;
        if (object == OBJECT_JIT)
            name_jit(s, offset, is_return);
        else if (object == OBJECT_NONE)
            emit_unnamed(s, "", "", offset);
        else
            name_in_object(s, &s->objects[object], offset, is_return);
        place_frames(s, start, module_id, offset);
        *e = (struct cache_entry){key_object, offset, (uint32_t)start,
                                  (uint32_t)(s->pool_len - start)};
        s->cache_count++;
    }
    *frames = s->pool + e->start;
    *first = e->start;
    return e->len;
}

const struct stoke_position *stoke_symbolizer_position(const struct stoke_symbolizer *s,
                                                       uint32_t index)
{
    return &s->at[index];
}
