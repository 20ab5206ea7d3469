/*
 * pprof.c - encodes the profile model as profile.proto with the protobuf-c
 * code generated from pprof's own schema, then gzips it; see pprof.h.
 *
 * Owns: how stoke's frames, stacks and values map onto pprof's strings,
 * functions, mappings, locations, samples and labels.
 * Never: encodes protobuf by hand, or changes the profile.
 */
#include "pprof.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
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
    MESSAGES(PprofLocation) locations;
    uint32_t *location_start, *location_len; /* by location: its frames in location_frames */
    uint32_t *location_frames;
    size_t nlocation_frames, location_frames_cap, location_start_cap, location_len_cap;
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
    stoke_u64map_put(&b->function_index, key, (uint32_t)fn->id);
    return fn->id;
}

static uint32_t mapping_id(struct builder *b, const struct stoke_frame *f)
{
    if (!*f->module)
        return 0;
    int64_t file = string_id(b, f->module), build_id = string_id(b, f->build_id);
    uint64_t key = ((uint64_t)file << 32) | (uint64_t)build_id;
    uint32_t id;
    if (stoke_u64map_get(&b->mapping_index, key, &id))
        return id;
    b->mappings.items = stoke_grow(b->mappings.items, &b->mappings.cap, b->mappings.n + 1,
                                   sizeof *b->mappings.items);
    PprofMapping *m = &b->mappings.items[b->mappings.n];
    *m = (PprofMapping)PERFTOOLS__PROFILES__MAPPING__INIT;
    m->id = ++b->mappings.n;
    m->filename = file;
    m->build_id = build_id;
    /* stoke symbolized every address: pprof has nothing left to look up */
    m->has_functions = m->has_filenames = m->has_line_numbers = m->has_inline_frames = 1;
    stoke_u64map_put(&b->mapping_index, key, (uint32_t)m->id);
    return (uint32_t)m->id;
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

/* --- locations ------------------------------------------------------------ */

static int same_location(const struct builder *b, uint32_t location, const uint32_t *frames,
                         size_t n)
{
    return b->location_len[location] == n &&
           memcmp(b->location_frames + b->location_start[location], frames,
                  n * sizeof *frames) == 0;
}

/* The location of frames[0..n): an address's function and the functions
 * inlined into it, outermost first. */
static uint64_t location_id(struct builder *b, const uint32_t *frames, size_t n)
{
    uint64_t key = stoke_hash_bytes(frames, n * sizeof *frames);
    uint32_t index;
    for (; stoke_u64map_get(&b->location_index, key, &index); key++)
        if (same_location(b, index, frames, n))
            return index + 1;
    size_t i = b->locations.n;
    b->locations.items = stoke_grow(b->locations.items, &b->locations.cap, i + 1,
                                    sizeof *b->locations.items);
    b->location_start = stoke_grow(b->location_start, &b->location_start_cap, i + 1,
                                   sizeof *b->location_start);
    b->location_len = stoke_grow(b->location_len, &b->location_len_cap, i + 1,
                                 sizeof *b->location_len);
    b->location_frames = stoke_grow(b->location_frames, &b->location_frames_cap,
                                    b->nlocation_frames + n, sizeof *b->location_frames);
    memcpy(b->location_frames + b->nlocation_frames, frames, n * sizeof *frames);
    b->location_start[i] = (uint32_t)b->nlocation_frames;
    b->location_len[i] = (uint32_t)n;
    b->nlocation_frames += n;
    PprofLocation *loc = &b->locations.items[i];
    *loc = (PprofLocation)PERFTOOLS__PROFILES__LOCATION__INIT;
    loc->id = i + 1;
    loc->mapping_id = b->frame_mapping[frames[0]];
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
        loc->n_line = b->location_len[i];
        loc->line = b->line_ptrs + b->nlines;
        for (size_t j = loc->n_line; j-- > 0;) {
            const struct stoke_frame *f = &p->frames[frames[j]];
            PprofLine *line = &b->lines[b->nlines];
            *line = (PprofLine)PERFTOOLS__PROFILES__LINE__INIT;
            line->function_id = function_id(b, f);
            line->line = f->line;
            b->line_ptrs[b->nlines++] = line;
        }
    }
}

/* --- samples -------------------------------------------------------------- */

/* The locations of code[0..n) (outermost first) into b->scratch, root
 * first: a frame inlined into its caller joins the caller's location, as
 * long as both come from the same module. Returns how many. */
static size_t locations_of(struct builder *b, const uint32_t *code, size_t n)
{
    const struct stoke_frame *frames = b->profile->frames;
    size_t count = 0;
    b->scratch = stoke_grow(b->scratch, &b->scratch_cap, n ? n : 1, sizeof *b->scratch);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && frames[code[j]].inlined && b->frame_mapping[code[j]] &&
               b->frame_mapping[code[j]] == b->frame_mapping[code[i]])
            j++;
        b->scratch[count++] = location_id(b, code + i, j - i);
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
static void sample_values(const struct stoke_profile *p, const struct stoke_row *row,
                          const struct stack_parts *parts, int64_t *v)
{
    if (p->kind == STOKE_PROFILE_HEAP) {
        v[0] = row->values[STOKE_HEAP_ALLOC_OBJECTS];
        v[1] = row->values[STOKE_HEAP_ALLOC_BYTES];
        v[2] = row->values[STOKE_HEAP_LIVE_OBJECTS];
        v[3] = row->values[STOKE_HEAP_LIVE_BYTES];
    } else if (p->kind == STOKE_PROFILE_JS_HEAP) {
        v[0] = row->values[STOKE_JS_HEAP_OBJECTS];
        v[1] = row->values[STOKE_JS_HEAP_SHALLOW_BYTES];
    } else {
        v[0] = row->values[0];
        v[1] = samples_time_ns(row->values[0], sample_period_ns(p, parts->process));
    }
}

static size_t nsample_types(const struct stoke_profile *p)
{
    return p->kind == STOKE_PROFILE_HEAP ? 4 : 2;
}

static int row_is_empty(const struct stoke_row *row, size_t nvalues)
{
    for (size_t i = 0; i < nvalues; i++)
        if (row->values[i])
            return 0;
    return 1;
}

static void add_samples(struct builder *b)
{
    const struct stoke_profile *p = b->profile;
    size_t nrows = p->nrows ? p->nrows : 1, ntypes = nsample_types(p);
    b->samples.items = stoke_xmalloc(nrows * sizeof *b->samples.items);
    b->values = stoke_xmalloc(nrows * ntypes * sizeof *b->values);
    b->labels = stoke_xmalloc(nrows * MAX_LABELS * sizeof *b->labels);
    b->label_ptrs = stoke_xmalloc(nrows * MAX_LABELS * sizeof *b->label_ptrs);
    size_t *first_id = stoke_xmalloc(nrows * sizeof *first_id);
    for (size_t r = 0; r < p->nrows; r++) {
        const struct stoke_row *row = &p->rows[r];
        struct stack_parts parts;
        stack_parts_of(p, row->stack, &parts);
        if (row_is_empty(row, p->nvalues) || parts.ncode == 0)
            continue;
        PprofSample *s = &b->samples.items[b->samples.n];
        *s = (PprofSample)PERFTOOLS__PROFILES__SAMPLE__INIT;
        size_t n = locations_of(b, parts.code, parts.ncode);
        b->location_ids = stoke_grow(b->location_ids, &b->location_ids_cap,
                                     b->nlocation_ids + n, sizeof *b->location_ids);
        first_id[b->samples.n] = b->nlocation_ids;
        for (size_t i = 0; i < n; i++) /* pprof wants the leaf first */
            b->location_ids[b->nlocation_ids++] = b->scratch[n - 1 - i];
        s->n_location_id = n;
        s->n_value = ntypes;
        s->value = b->values + b->samples.n * ntypes;
        sample_values(p, row, &parts, s->value);
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
    free(b->locations.items);
    free(b->locations.ptrs);
    free(b->location_start);
    free(b->location_len);
    free(b->location_frames);
    free(b->lines);
    free(b->line_ptrs);
    free(b->samples.items);
    free(b->samples.ptrs);
    free(b->location_ids);
    free(b->values);
    free(b->labels);
    free(b->label_ptrs);
    free(b->scratch);
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
