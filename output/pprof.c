/*
 * pprof.c - encodes the profile model as profile.proto with the protobuf-c
 * code generated from pprof's own schema, then gzips it; see pprof.h.
 *
 * Owns: how stoke's frames, stacks and values map onto pprof's strings,
 * functions, mappings, locations, samples and labels. A profile read from
 * traces is written from its sites (code_sites.h): a location per address
 * sampled, in the mapping of its binary (ELF virtual addresses, so the
 * binary's own addresses), with a line per function inlined there, each at
 * the line it was at; the function's line is where it starts. A profile
 * without sites (folded stacks, a diff) has a location per function.
 * Never: encodes protobuf by hand, or changes the profile.
 */
#include "pprof.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "code_sites.h"
#include "gzip.h"
#include "hash.h"
#include "profile.pb-c.h"
#include "stack_parts.h"
#include "u64map.h"

typedef Perftools__Profiles__Profile PprofProfile;
typedef Perftools__Profiles__ValueType PprofValueType;
typedef Perftools__Profiles__Sample PprofSample;
typedef Perftools__Profiles__Label PprofLabel;
typedef Perftools__Profiles__Mapping PprofMapping;
typedef Perftools__Profiles__Location PprofLocation;
typedef Perftools__Profiles__Line PprofLine;
typedef Perftools__Profiles__Function PprofFunction;

#define MAX_LABELS 3 /* comm, pid, thread */

/* A growable array of protobuf messages and, once filled, the array of
 * pointers to them that protobuf-c wants. */
#define MESSAGES(type) \
    struct {           \
        type *items;   \
        type **ptrs;   \
        size_t n, cap; \
    }

struct builder {
    const struct stoke_profile *profile;
    /* the string table: strings[0] is "" */
    char **strings;
    size_t nstrings, strings_cap;
    struct stoke_u64map string_index;  /* content hash (+ probe) -> index */
    MESSAGES(PprofFunction) functions;
    struct stoke_u64map function_index; /* name << 32 | file -> id */
    MESSAGES(PprofMapping) mappings;
    struct stoke_u64map mapping_index;  /* module << 32 | build-id -> id */
    uint32_t *frame_mapping;            /* by frame: mapping id, 0 none */
    uint32_t *module_mapping;           /* by code module: mapping id, 0 none yet */
    MESSAGES(PprofLocation) locations;
    uint32_t *location_start, *location_len; /* by location: its frames in location_frames */
    uint32_t *location_frames;
    struct stoke_position *location_at; /* where each of location_frames was */
    size_t nlocation_frames, location_frames_cap, location_start_cap, location_len_cap;
    size_t location_at_cap;
    struct stoke_u64map location_index; /* frames hash (+ probe) -> index */
    PprofLine *lines;                   /* all locations' lines, in location order */
    PprofLine **line_ptrs;
    size_t nlines, lines_cap;
    MESSAGES(PprofSample) samples;
    uint64_t *location_ids;             /* all samples' location ids */
    size_t nlocation_ids, location_ids_cap;
    int64_t *values;                    /* all samples' values */
    PprofLabel *labels;                 /* MAX_LABELS per sample */
    PprofLabel **label_ptrs;
    size_t nlabels;
    uint64_t *scratch;                  /* one sample's location ids, root first */
    size_t scratch_cap;
    struct stoke_position *site_at;     /* one site's positions */
    size_t site_at_cap;
};

/* --- strings -------------------------------------------------------------- */

static int64_t string_id(struct builder *b, const char *s)
{
    uint64_t key = stoke_hash_bytes(s, strlen(s));
    uint32_t index;
    for (; stoke_u64map_get(&b->string_index, key, &index); key++)
        if (strcmp(b->strings[index], s) == 0)
            return index;
    b->strings = stoke_grow(b->strings, &b->strings_cap, b->nstrings + 1, sizeof *b->strings);
    b->strings[b->nstrings] = stoke_xstrdup(s);
    stoke_u64map_put(&b->string_index, key, (uint32_t)b->nstrings);
    return (int64_t)b->nstrings++;
}

static PprofValueType value_type(struct builder *b, const char *type, const char *unit)
{
    PprofValueType v = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
    v.type = string_id(b, type);
    v.unit = string_id(b, unit);
    return v;
}

/* --- functions and mappings ----------------------------------------------- */

static uint64_t function_id(struct builder *b, const struct stoke_frame *f)
{
    int64_t name = string_id(b, f->name), file = string_id(b, f->file);
    uint64_t key = ((uint64_t)name << 32) | (uint64_t)file;
    uint32_t id;
    if (stoke_u64map_get(&b->function_index, key, &id))
        return id;
    b->functions.items = stoke_grow(b->functions.items, &b->functions.cap, b->functions.n + 1,
                                    sizeof *b->functions.items);
    PprofFunction *fn = &b->functions.items[b->functions.n];
    *fn = (PprofFunction)PERFTOOLS__PROFILES__FUNCTION__INIT;
    fn->id = ++b->functions.n;
    fn->name = fn->system_name = name;
    fn->filename = file;
    fn->start_line = f->line;
    stoke_u64map_put(&b->function_index, key, (uint32_t)fn->id);
    return fn->id;
}

/* A new mapping of the file and build-id (string ids). */
static PprofMapping *add_mapping(struct builder *b, int64_t file, int64_t build_id)
{
    b->mappings.items = stoke_grow(b->mappings.items, &b->mappings.cap, b->mappings.n + 1,
                                   sizeof *b->mappings.items);
    PprofMapping *m = &b->mappings.items[b->mappings.n];
    *m = (PprofMapping)PERFTOOLS__PROFILES__MAPPING__INIT;
    m->id = ++b->mappings.n;
    m->filename = file;
    m->build_id = build_id;
    /* stoke symbolized every address: pprof has nothing left to look up */
    m->has_functions = m->has_filenames = m->has_line_numbers = m->has_inline_frames = 1;
    return m;
}

/* The mapping of a frame's module by its name (no addresses), 0 for none. */
static uint32_t mapping_id(struct builder *b, const struct stoke_frame *f)
{
    if (!*f->module)
        return 0;
    int64_t file = string_id(b, f->module), build_id = string_id(b, f->build_id);
    uint64_t key = ((uint64_t)file << 32) | (uint64_t)build_id;
    uint32_t id;
    if (stoke_u64map_get(&b->mapping_index, key, &id))
        return id;
    id = (uint32_t)add_mapping(b, file, build_id)->id;
    stoke_u64map_put(&b->mapping_index, key, id);
    return id;
}

/* Every frame's mapping, the main executable's first (pprof reads
 * mapping[0] as the main binary). */
static void map_frames(struct builder *b)
{
    const struct stoke_profile *p = b->profile;
    b->frame_mapping = stoke_xcalloc(p->nframes ? p->nframes : 1, sizeof *b->frame_mapping);
    for (int program_pass = 1; program_pass >= 0; program_pass--)
        for (size_t i = 0; i < p->nframes; i++)
            if ((p->frames[i].kind == STOKE_KIND_PROGRAM) == program_pass)
                b->frame_mapping[i] = mapping_id(b, &p->frames[i]);
}

/* The mapping of code module number module (1 ...), as the process mapped
 * its code, at its ELF virtual addresses. */
static uint32_t code_mapping_id(struct builder *b, uint32_t module)
{
    if (b->module_mapping[module - 1])
        return b->module_mapping[module - 1];
    const struct stoke_code_module *c = &b->profile->sites.modules[module - 1];
    PprofMapping *m = add_mapping(b, string_id(b, c->path), string_id(b, c->build_id));
    m->memory_start = c->start;
    m->memory_limit = c->limit;
    m->file_offset = c->file_offset;
    b->module_mapping[module - 1] = (uint32_t)m->id;
    return (uint32_t)m->id;
}

/* Room for every code module's mapping, made when a location first needs
 * it, but the main executable's made now: pprof reads mapping[0] as the
 * main binary. */
static void map_code_modules(struct builder *b)
{
    const struct stoke_site_table *t = &b->profile->sites;
    b->module_mapping = stoke_xcalloc(t->nmodules ? t->nmodules : 1, sizeof *b->module_mapping);
    for (size_t site = 0; site < t->n; site++) {
        const uint32_t *frames = b->profile->stack_frames + b->profile->stack_start[t->stack[site]];
        for (uint32_t i = 0; i < b->profile->stack_len[t->stack[site]]; i++) {
            const struct stoke_position *at = stoke_site_position(b->profile, (uint32_t)site, i);
            if (at->module && b->profile->frames[frames[i]].kind == STOKE_KIND_PROGRAM) {
                code_mapping_id(b, at->module);
                return;
            }
        }
    }
}

/* --- locations ------------------------------------------------------------ */

static const struct stoke_position nowhere = {.file = ""};

/* Where frame k of a run was: at[k], or nowhere in a profile without sites. */
static const struct stoke_position *position_at(const struct stoke_position *at, size_t k)
{
    return at ? &at[k] : &nowhere;
}

static int same_location(const struct builder *b, uint32_t location, const uint32_t *frames,
                         const struct stoke_position *at, size_t n)
{
    if (b->location_len[location] != n ||
        memcmp(b->location_frames + b->location_start[location], frames, n * sizeof *frames))
        return 0;
    for (size_t k = 0; k < n; k++)
        if (!stoke_same_position(&b->location_at[b->location_start[location] + k],
                                 position_at(at, k)))
            return 0;
    return 1;
}

static uint64_t location_hash(const uint32_t *frames, const struct stoke_position *at, size_t n)
{
    uint64_t key = stoke_hash_bytes(frames, n * sizeof *frames);
    for (size_t k = 0; at && k < n; k++)
        key = stoke_hash_mix(stoke_hash_mix(key, at[k].address), at[k].line);
    return key;
}

/* Appends frames[0..n) and their positions to the pool of locations' frames. */
static void keep_location_frames(struct builder *b, const uint32_t *frames,
                                 const struct stoke_position *at, size_t n)
{
    b->location_frames = stoke_grow(b->location_frames, &b->location_frames_cap,
                                    b->nlocation_frames + n, sizeof *b->location_frames);
    b->location_at = stoke_grow(b->location_at, &b->location_at_cap, b->nlocation_frames + n,
                                sizeof *b->location_at);
    memcpy(b->location_frames + b->nlocation_frames, frames, n * sizeof *frames);
    for (size_t k = 0; k < n; k++)
        b->location_at[b->nlocation_frames + k] = *position_at(at, k);
    b->nlocation_frames += n;
}

/* The location of frames[0..n): an address's function and the functions
 * inlined into it, outermost first, with where each was (at NULL: a
 * profile without sites). */
static uint64_t location_id(struct builder *b, const uint32_t *frames,
                            const struct stoke_position *at, size_t n)
{
    uint64_t key = location_hash(frames, at, n);
    uint32_t index;
    for (; stoke_u64map_get(&b->location_index, key, &index); key++)
        if (same_location(b, index, frames, at, n))
            return index + 1;
    size_t i = b->locations.n;
    b->locations.items = stoke_grow(b->locations.items, &b->locations.cap, i + 1,
                                    sizeof *b->locations.items);
    b->location_start = stoke_grow(b->location_start, &b->location_start_cap, i + 1,
                                   sizeof *b->location_start);
    b->location_len = stoke_grow(b->location_len, &b->location_len_cap, i + 1,
                                 sizeof *b->location_len);
    b->location_start[i] = (uint32_t)b->nlocation_frames;
    b->location_len[i] = (uint32_t)n;
    keep_location_frames(b, frames, at, n);
    PprofLocation *loc = &b->locations.items[i];
    *loc = (PprofLocation)PERFTOOLS__PROFILES__LOCATION__INIT;
    loc->id = i + 1;
    loc->address = position_at(at, 0)->address;
    if (!at)
        loc->mapping_id = b->frame_mapping[frames[0]];
    else if (at[0].module)
        loc->mapping_id = code_mapping_id(b, at[0].module);
    else if (at[0].address) /* JIT code: its module by name ("[jit]") */
        loc->mapping_id = mapping_id(b, &b->profile->frames[frames[0]]);
    stoke_u64map_put(&b->location_index, key, (uint32_t)i);
    b->locations.n++;
    return loc->id;
}

/* Lines of every location, innermost first as pprof orders an inline
 * chain (the last line is the function the others were inlined into). */
static void add_lines(struct builder *b)
{
    const struct stoke_profile *p = b->profile;
    b->lines = stoke_xmalloc((b->nlocation_frames ? b->nlocation_frames : 1) * sizeof *b->lines);
    b->line_ptrs = stoke_xmalloc((b->nlocation_frames ? b->nlocation_frames : 1) *
                                 sizeof *b->line_ptrs);
    for (size_t i = 0; i < b->locations.n; i++) {
        PprofLocation *loc = &b->locations.items[i];
        const uint32_t *frames = b->location_frames + b->location_start[i];
        const struct stoke_position *at = b->location_at + b->location_start[i];
        loc->n_line = b->location_len[i];
        loc->line = b->line_ptrs + b->nlines;
        for (size_t j = loc->n_line; j-- > 0;) {
            const struct stoke_frame *f = &p->frames[frames[j]];
            PprofLine *line = &b->lines[b->nlines];
            *line = (PprofLine)PERFTOOLS__PROFILES__LINE__INIT;
            line->function_id = function_id(b, f);
            line->line = at[j].line ? at[j].line : f->line; /* JIT code: its function's */
            b->line_ptrs[b->nlines++] = line;
        }
    }
}

/* --- samples -------------------------------------------------------------- */

/* Whether code[j], inlined, is at the same address as code[i] (with
 * positions), or in the same module (without). */
static int inlined_at_same_place(const struct builder *b, const uint32_t *code,
                                 const struct stoke_position *at, size_t i, size_t j)
{
    if (!b->profile->frames[code[j]].inlined)
        return 0;
    if (at)
        return at[j].address == at[i].address && at[j].module == at[i].module;
    return b->frame_mapping[code[j]] && b->frame_mapping[code[j]] == b->frame_mapping[code[i]];
}

/* The locations of code[0..n) (outermost first; at: where each was, or
 * NULL) into b->scratch, root first: a frame inlined into its caller joins
 * the caller's location. Returns how many. */
static size_t locations_of(struct builder *b, const uint32_t *code,
                           const struct stoke_position *at, size_t n)
{
    size_t count = 0;
    b->scratch = stoke_grow(b->scratch, &b->scratch_cap, n ? n : 1, sizeof *b->scratch);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && inlined_at_same_place(b, code, at, i, j))
            j++;
        b->scratch[count++] = location_id(b, code + i, at ? at + i : NULL, j - i);
        i = j;
    }
    return count;
}

static PprofLabel *add_label(struct builder *b, PprofSample *s, const char *key)
{
    PprofLabel *l = &b->labels[b->nlabels];
    *l = (PprofLabel)PERFTOOLS__PROFILES__LABEL__INIT;
    l->key = string_id(b, key);
    b->label_ptrs[b->nlabels++] = l;
    s->n_label++;
    return l;
}

static void add_labels(struct builder *b, PprofSample *s, const struct stack_parts *parts)
{
    s->label = b->label_ptrs + b->nlabels;
    if (parts->process) {
        add_label(b, s, "comm")->str = string_id(b, parts->process->comm);
        add_label(b, s, "pid")->num = parts->process->pid;
    }
    if (parts->thread != UINT32_MAX)
        add_label(b, s, "thread")->str = string_id(b, b->profile->frames[parts->thread].name);
}

/* The sample's values in the order of the sample types (see sample_types). */
static void sample_values(const struct stoke_profile *p, const int64_t *values,
                          const struct stack_parts *parts, int64_t *v)
{
    if (p->kind == STOKE_PROFILE_HEAP) {
        v[0] = values[STOKE_HEAP_ALLOC_OBJECTS];
        v[1] = values[STOKE_HEAP_ALLOC_BYTES];
        v[2] = values[STOKE_HEAP_LIVE_OBJECTS];
        v[3] = values[STOKE_HEAP_LIVE_BYTES];
    } else if (p->kind == STOKE_PROFILE_JS_HEAP) {
        v[0] = values[STOKE_JS_HEAP_OBJECTS];
        v[1] = values[STOKE_JS_HEAP_SHALLOW_BYTES];
    } else {
        v[0] = values[0];
        v[1] = samples_time_ns(values[0], sample_period_ns(p, parts->process));
    }
}

static size_t nsample_types(const struct stoke_profile *p)
{
    return p->kind == STOKE_PROFILE_HEAP ? 4 : 2;
}

static int values_are_zero(const int64_t *values, size_t nvalues)
{
    for (size_t i = 0; i < nvalues; i++)
        if (values[i])
            return 0;
    return 1;
}

/* What one pprof sample is made of: a row, or a site (with positions). */
struct sample_source {
    uint32_t stack;
    const int64_t *values;
    const struct stoke_position *at; /* of the stack's frames; NULL: a row */
};

/* Source i: row i, or site i with its positions copied into b->site_at. */
static struct sample_source sample_source(struct builder *b, size_t i)
{
    const struct stoke_profile *p = b->profile;
    if (!p->sites.n)
        return (struct sample_source){p->rows[i].stack, p->rows[i].values, NULL};
    uint32_t stack = p->sites.stack[i], n = p->stack_len[stack];
    b->site_at = stoke_grow(b->site_at, &b->site_at_cap, n ? n : 1, sizeof *b->site_at);
    for (uint32_t k = 0; k < n; k++)
        b->site_at[k] = *stoke_site_position(p, (uint32_t)i, k);
    return (struct sample_source){stack, stoke_site_values(p, (uint32_t)i), b->site_at};
}

static void add_samples(struct builder *b)
{
    const struct stoke_profile *p = b->profile;
    size_t nsources = p->sites.n ? p->sites.n : p->nrows;
    size_t most = nsources ? nsources : 1, ntypes = nsample_types(p);
    b->samples.items = stoke_xmalloc(most * sizeof *b->samples.items);
    b->values = stoke_xmalloc(most * ntypes * sizeof *b->values);
    b->labels = stoke_xmalloc(most * MAX_LABELS * sizeof *b->labels);
    b->label_ptrs = stoke_xmalloc(most * MAX_LABELS * sizeof *b->label_ptrs);
    size_t *first_id = stoke_xmalloc(most * sizeof *first_id);
    for (size_t r = 0; r < nsources; r++) {
        struct sample_source src = sample_source(b, r);
        struct stack_parts parts;
        stack_parts_of(p, src.stack, &parts);
        if (values_are_zero(src.values, p->nvalues) || parts.ncode == 0)
            continue;
        PprofSample *s = &b->samples.items[b->samples.n];
        *s = (PprofSample)PERFTOOLS__PROFILES__SAMPLE__INIT;
        const struct stoke_position *code_at =
            src.at ? src.at + (parts.code - (p->stack_frames + p->stack_start[src.stack])) : NULL;
        size_t n = locations_of(b, parts.code, code_at, parts.ncode);
        b->location_ids = stoke_grow(b->location_ids, &b->location_ids_cap,
                                     b->nlocation_ids + n, sizeof *b->location_ids);
        first_id[b->samples.n] = b->nlocation_ids;
        for (size_t i = 0; i < n; i++) /* pprof wants the leaf first */
            b->location_ids[b->nlocation_ids++] = b->scratch[n - 1 - i];
        s->n_location_id = n;
        s->n_value = ntypes;
        s->value = b->values + b->samples.n * ntypes;
        sample_values(p, src.values, &parts, s->value);
        add_labels(b, s, &parts);
        b->samples.n++;
    }
    /* location ids moved as the array grew: point at them now */
    for (size_t i = 0; i < b->samples.n; i++)
        b->samples.items[i].location_id = b->location_ids + first_id[i];
    free(first_id);
}

/* --- the profile ---------------------------------------------------------- */

#define POINT_AT(m)                                                           \
    do {                                                                      \
        (m).ptrs = stoke_xmalloc(((m).n ? (m).n : 1) * sizeof *(m).ptrs);    \
        for (size_t i_ = 0; i_ < (m).n; i_++)                                 \
            (m).ptrs[i_] = &(m).items[i_];                                    \
    } while (0)

static void describe_time(const struct stoke_profile *p, PprofProfile *out)
{
    uint64_t start = 0, end = 0;
    for (size_t i = 0; i < p->nprocs; i++) {
        const struct stoke_process_summary *s = &p->procs[i];
        uint64_t from = p->kind == STOKE_PROFILE_HEAP ? s->heap.realtime_ns : s->start_realtime_ns;
        uint64_t until = p->kind == STOKE_PROFILE_HEAP ? from : from + s->duration_us * 1000;
        if (from && (!start || from < start))
            start = from;
        if (until > end)
            end = until;
    }
    out->time_nanos = (int64_t)start;
    out->duration_nanos = end > start ? (int64_t)(end - start) : 0;
}

static void sample_types(struct builder *b, PprofValueType *types, PprofProfile *out)
{
    const struct stoke_profile *p = b->profile;
    if (p->kind == STOKE_PROFILE_HEAP) {
        types[0] = value_type(b, "alloc_objects", "count");
        types[1] = value_type(b, "alloc_space", "bytes");
        types[2] = value_type(b, "inuse_objects", "count");
        types[3] = value_type(b, "inuse_space", "bytes");
        types[4] = value_type(b, "space", "bytes");
        out->period = p->nprocs ? (int64_t)p->procs[0].heap.sample_interval : 0;
    } else if (p->kind == STOKE_PROFILE_JS_HEAP) { /* every object, exactly */
        types[0] = value_type(b, "js_objects", "count");
        types[1] = value_type(b, "js_shallow", "bytes");
        types[4] = value_type(b, "space", "bytes");
        out->period = 1;
        out->default_sample_type = string_id(b, "js_shallow");
    } else {
        const char *clock = is_wall_clock(p) ? "wall" : "cpu";
        types[0] = value_type(b, "samples", "count");
        types[1] = value_type(b, clock, "nanoseconds");
        types[4] = value_type(b, clock, "nanoseconds");
        out->period = (int64_t)p->period_ns;
        if (!p->period_ns) /* folded stacks from elsewhere: counts, no time */
            out->default_sample_type = string_id(b, "samples");
    }
    out->period_type = &types[4];
}

static void free_builder(struct builder *b)
{
    for (size_t i = 0; i < b->nstrings; i++)
        free(b->strings[i]);
    free(b->strings);
    stoke_u64map_free(&b->string_index);
    stoke_u64map_free(&b->function_index);
    stoke_u64map_free(&b->mapping_index);
    stoke_u64map_free(&b->location_index);
    free(b->functions.items);
    free(b->functions.ptrs);
    free(b->mappings.items);
    free(b->mappings.ptrs);
    free(b->frame_mapping);
    free(b->module_mapping);
    free(b->locations.items);
    free(b->locations.ptrs);
    free(b->location_start);
    free(b->location_len);
    free(b->location_frames);
    free(b->location_at);
    free(b->lines);
    free(b->line_ptrs);
    free(b->samples.items);
    free(b->samples.ptrs);
    free(b->location_ids);
    free(b->values);
    free(b->labels);
    free(b->label_ptrs);
    free(b->scratch);
    free(b->site_at);
}

int stoke_pprof_encode(const struct stoke_profile *p, uint8_t **out, size_t *len)
{
    struct builder b = {.profile = p};
    PprofProfile profile = PERFTOOLS__PROFILES__PROFILE__INIT;
    PprofValueType types[5], *type_ptrs[4];
    string_id(&b, ""); /* string 0 */
    sample_types(&b, types, &profile);
    profile.n_sample_type = nsample_types(p);
    for (size_t i = 0; i < profile.n_sample_type; i++)
        type_ptrs[i] = &types[i];
    profile.sample_type = type_ptrs;
    if (p->sites.n)
        map_code_modules(&b);
    else
        map_frames(&b);
    add_samples(&b);
    add_lines(&b);
    POINT_AT(b.samples);
    POINT_AT(b.mappings);
    POINT_AT(b.locations);
    POINT_AT(b.functions);
    profile.sample = b.samples.ptrs;
    profile.n_sample = b.samples.n;
    profile.mapping = b.mappings.ptrs;
    profile.n_mapping = b.mappings.n;
    profile.location = b.locations.ptrs;
    profile.n_location = b.locations.n;
    profile.function = b.functions.ptrs;
    profile.n_function = b.functions.n;
    profile.string_table = b.strings;
    profile.n_string_table = b.nstrings;
    describe_time(p, &profile);

    size_t size = perftools__profiles__profile__get_packed_size(&profile);
    uint8_t *packed = stoke_xmalloc(size ? size : 1);
    perftools__profiles__profile__pack(&profile, packed);
    int rc = gzip_bytes(packed, size, out, len);
    free(packed);
    free_builder(&b);
    return rc;
}

int stoke_write_pprof(FILE *out, const struct stoke_report *r)
{
    uint8_t *data;
    size_t len;
    if (stoke_pprof_encode(r->tabs[0].profile, &data, &len)) {
        errno = ENOMEM;
        return -1;
    }
    int rc = fwrite(data, 1, len, out) == len ? 0 : -1;
    free(data);
    return rc;
}
