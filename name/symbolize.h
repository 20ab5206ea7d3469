/*
 * symbolize.h - names the code addresses of one trace: (module, offset) ->
 * frames of the profile, the inline chain expanded.
 *
 * Modules are keyed on build-id + path: a file on disk whose build-id is not
 * the one the trace recorded is never used. The recording's stored names
 * (name_store.h), keyed by build-id too, stand in for such a file, or one
 * that is gone; what a file does name is added to them. A module neither
 * names is reported once. Each distinct
 * (module, offset) is resolved once. Whatever cannot be named stays visible
 * as "module+0xoffset" (or "[unknown]+0xaddress"), kind UNKNOWN.
 *
 * Never: reads the trace, or changes frames it has already returned.
 */
#ifndef STOKE_SYMBOLIZE_H
#define STOKE_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>
#include "jit_frame.h"
#include "name_store.h"
#include "perfmap.h"
#include "profile.h"

struct stoke_symbolizer;

/* Frames are interned into p. trace_path prefixes warnings; pid names the
 * perf map file of JIT code (perf-<pid>.map next to the trace, else in /tmp). */
struct stoke_symbolizer *stoke_symbolizer_new(struct stoke_profile *p, const char *trace_path,
                                              uint32_t pid);
void stoke_symbolizer_free(struct stoke_symbolizer *s);

/* What the process was, for the names of its JIT code (jit_frame.h; the
 * strings are copied). */
void stoke_symbolizer_set_process(struct stoke_symbolizer *s,
                                  const struct stoke_jit_context *process);

/* The perf map the trace holds itself (JIT_MAP records; s takes it over):
 * it names JIT code first, and code in modules that their own files leave
 * unnamed (a stripped libnode's builtins); a perf map file is read only
 * for what it does not name. */
void stoke_symbolizer_set_jit_map(struct stoke_symbolizer *s, struct stoke_perfmap *map);

/* The names stored with the recording (s does not own them): they name
 * what a module's file cannot, and gain what it names. */
void stoke_symbolizer_set_names(struct stoke_symbolizer *s, struct stoke_name_store *names);

/* When stored names stood in for a file: the first such file and why it
 * could not be used ("/srv/app changed since the run (build-id
 * differs)"), valid as long as s; else NULL. */
const char *stoke_symbolizer_names_used(const struct stoke_symbolizer *s);

/* A module from a MAP record. */
struct stoke_module_desc {
    uint64_t id;               /* >= 1 */
    const char *path;
    const uint8_t *build_id;   /* may be empty: then the path alone is trusted */
    size_t build_id_len;
    int is_main;               /* the main executable: its frames are PROGRAM */
    uint64_t start, end;       /* the code it maps, as runtime addresses */
    uint64_t load_bias;        /* address = load_bias + ELF virtual address */
    uint64_t alias_of;         /* 0, or the module whose code this maps again */
};

void stoke_symbolizer_add_module(struct stoke_symbolizer *s, const struct stoke_module_desc *m);

/* The frames at offset (ELF virtual address; an absolute address when
 * module_id is STOKE_MODULE_NONE) in module module_id, innermost (leaf)
 * first. is_return: offset is a return address, so the call instruction
 * before it is named. Sets *frames to profile frame indices, valid until
 * the next call, and *first to the number of the first one's position
 * (the others' follow); returns how many (at least 1). */
size_t stoke_symbolize(struct stoke_symbolizer *s, uint64_t module_id, uint64_t offset,
                       int is_return, const uint32_t **frames, uint32_t *first);

/* Where frame number index (stoke_symbolize's *first, and on) was: the
 * address (offset, as given), its code module (code_sites.h; 0 for JIT
 * code and unknown modules) and the line it is at (debuginfo.h's at_file
 * and at_line, interned in the profile; "" and 0 when unknown). Valid as
 * long as s. */
const struct stoke_position *stoke_symbolizer_position(const struct stoke_symbolizer *s,
                                                       uint32_t index);

#endif
