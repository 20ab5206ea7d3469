/*
 * jit_frame.c - reads the names JIT runtimes write into perf maps; see
 * jit_frame.h.
 *
 * Owns: V8's and the JVM's name shapes, the short location of a
 * JavaScript frame, and which native names belong to a runtime's builtins,
 * collector or event waits.
 * Never: allocates, fails (a name it does not know is kept as it is).
 */
#include "jit_frame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* V8's tags of JavaScript code, and of its own generated code. */
static const char *const js_tags[] = {"JS", "LazyCompile", "Function", "Script", "Eval", NULL};
static const char *const runtime_tags[] = {"Builtin", "BytecodeHandler", "Stub",    "Handler",
                                           "RegExp",  "Callback",        "Builtins", NULL};

static int in_list(const char *word, size_t len, const char *const *list)
{
    for (; *list; list++)
        if (strlen(*list) == len && !strncmp(word, *list, len))
            return 1;
    return 0;
}

static int starts_with(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

static void copy(char *out, const char *in, size_t len)
{
    if (len >= STOKE_JIT_TEXT)
        len = STOKE_JIT_TEXT - 1;
    memcpy(out, in, len);
    out[len] = '\0';
}

/* --- JavaScript ------------------------------------------------------------ */

/* Where the place starts in "name place": the first space before a path or
 * one of node's own names; else the last space when the text ends in a
 * line number; NULL when there is no place. */
static const char *place_start(const char *rest)
{
    static const char *const starts[] = {"/", "node:", "file:", "internal/", "evalmachine",
                                         "[eval", NULL};
    for (const char *space = strchr(rest, ' '); space; space = strchr(space + 1, ' '))
        for (const char *const *s = starts; *s; s++)
            if (starts_with(space + 1, *s))
                return space + 1;
    const char *last_space = strrchr(rest, ' ');
    const char *last_colon = strrchr(rest, ':');
    if (last_space && last_colon > last_space && last_colon[1] >= '0' && last_colon[1] <= '9')
        return last_space + 1;
    return NULL;
}

/* Takes a trailing ":digits" off path[0..*len): its value, or 0. */
static unsigned take_number(const char *path, size_t *len)
{
    size_t i = *len;
    while (i > 0 && path[i - 1] >= '0' && path[i - 1] <= '9')
        i--;
    if (i == *len || i == 0 || path[i - 1] != ':')
        return 0;
    unsigned value = (unsigned)strtoul(path + i, NULL, 10);
    *len = i - 1;
    return value;
}

/* The place as a user reads it: inside node_modules "package/file", under
 * the working directory relative to it, else whole. */
static const char *short_place(const char *file, const char *cwd)
{
    const char *dependency = NULL;
    for (const char *p = strstr(file, "/node_modules/"); p; p = strstr(p + 1, "/node_modules/"))
        dependency = p + strlen("/node_modules/");
    if (dependency && *dependency)
        return dependency;
    size_t n = strlen(cwd);
    if (n > 1 && !strncmp(file, cwd, n) && file[n] == '/')
        return file + n + 1;
    return file;
}

static uint8_t js_kind(const char *file)
{
    if (starts_with(file, "node:") || starts_with(file, "internal/"))
        return STOKE_KIND_JS_CORE;
    if (strstr(file, "/node_modules/"))
        return STOKE_KIND_JS_DEPENDENCY;
    return STOKE_KIND_JS_APP;
}

static const char *unnamed(const char *tag, size_t tag_len)
{
    if (tag_len == 6 && !strncmp(tag, "Script", 6))
        return "(top level)";
    if (tag_len == 4 && !strncmp(tag, "Eval", 4))
        return "(eval)";
    return "(anonymous)";
}

/* "TAG:[tier]name place" after the tag's colon. */
static void js_frame(const char *tag, size_t tag_len, const char *rest,
                     const struct stoke_jit_context *ctx, struct stoke_frame *f,
                     struct stoke_jit_text *text)
{
    if (*rest && strchr("~^+*", *rest)) {
        if (ctx->keep_tiers)
            f->tier = (uint8_t)*rest;
        rest++;
    }
    const char *place = place_start(rest);
    size_t name_len = place ? (size_t)(place - 1 - rest) : strlen(rest);
    char function[STOKE_JIT_TEXT];
    copy(function, rest, name_len);
    if (!*function)
        snprintf(function, sizeof function, "%s", unnamed(tag, tag_len));
    f->kind = STOKE_KIND_JS_APP;
    f->module = "[js]";
    if (!place) {
        snprintf(text->name, sizeof text->name, "%s", function);
        f->name = text->name;
        return;
    }
    size_t len = strlen(place);
    unsigned last = take_number(place, &len);
    unsigned before = last ? take_number(place, &len) : 0;
    f->line = before ? before : last;
    f->column = before ? last : 0;
    if (starts_with(place, "file://") && len > 7) {
        place += 7;
        len -= 7;
    }
    copy(text->file, place, len);
    f->file = text->file;
    f->kind = js_kind(text->file);
    int n = snprintf(text->name, sizeof text->name, "%s %s", function,
                     short_place(text->file, ctx->cwd));
    if (f->line && n > 0 && (size_t)n < sizeof text->name)
        n += snprintf(text->name + n, sizeof text->name - (size_t)n, ":%u", f->line);
    if (f->column && n > 0 && (size_t)n < sizeof text->name)
        snprintf(text->name + n, sizeof text->name - (size_t)n, ":%u", f->column);
    f->name = text->name;
}

/* --- the JVM --------------------------------------------------------------- */

/* "RETURN_TYPE class.method(ARGS)": the method without its return type;
 * NULL when the name is not a method's. */
static const char *java_method(const char *name)
{
    size_t len = strlen(name);
    const char *open = strchr(name, '(');
    if (!len || name[len - 1] != ')' || !open)
        return NULL;
    const char *space = memchr(name, ' ', (size_t)(open - name));
    const char *method = space ? space + 1 : name;
    return memchr(method, '.', (size_t)(open - method)) ? method : NULL;
}

/* --- both ------------------------------------------------------------------ */

void stoke_jit_frame(const char *jit_name, const struct stoke_jit_context *ctx,
                     const char *module, struct stoke_frame *f, struct stoke_jit_text *text)
{
    *f = (struct stoke_frame){.name = jit_name, .module = module, .file = "", .build_id = "",
                              .kind = STOKE_KIND_JIT};
    const char *colon = strchr(jit_name, ':');
    size_t tag_len = colon ? (size_t)(colon - jit_name) : 0;
    if (colon && in_list(jit_name, tag_len, js_tags)) {
        js_frame(jit_name, tag_len, colon + 1, ctx, f, text);
        return;
    }
    if (colon && in_list(jit_name, tag_len, runtime_tags)) {
        f->kind = STOKE_KIND_RUNTIME;
        return;
    }
    const char *method = java_method(jit_name);
    if (method)
        f->name = method;
    else if (ctx->jvm) /* the interpreter, stubs, adapters */
        f->kind = STOKE_KIND_RUNTIME;
}

/* The collectors' functions, by the start of their demangled names. */
static const char *const gc_prefixes[] = {
    "v8::internal::Heap::", "v8::internal::Scavenger", "v8::internal::MarkCompactCollector",
    "v8::internal::MinorMarkCompactCollector", "v8::internal::MinorMarkSweepCollector",
    "v8::internal::ConcurrentMarking", "v8::internal::IncrementalMarking",
    "v8::internal::Sweeper", "v8::internal::MarkingVisitorBase",
    "v8::internal::MainMarkingVisitor", "v8::internal::ConcurrentMarkingVisitor",
    "v8::internal::MarkingWorklists", "v8::internal::Evacuator", "v8::internal::FullEvacuator",
    "v8::internal::EvacuateVisitorBase", "v8::internal::PointersUpdatingVisitor",
    "v8::internal::ArrayBufferSweeper", "v8::internal::GCTracer", "v8::internal::MemoryReducer",
    "v8::internal::ScavengeJob", "v8::internal::MarkingBarrier",
    "G1", "PSScavenge", "PSParallelCompact", "ParallelScavengeHeap", "SerialHeap",
    "DefNewGeneration", "TenuredGeneration", "ShenandoahHeap", "ZHeap", "ZCollectedHeap",
    NULL,
};

/* Waiting for events: where an idle event loop's thread sits. */
static const char *const idle_names[] = {"epoll_wait", "epoll_pwait", "epoll_pwait2", "poll",
                                         "ppoll", "select", "pselect", "__select",
                                         "__poll", "__GI_epoll_wait", "__GI___poll", NULL};

static int is_runtime_module(const char *module)
{
    return starts_with(module, "node") || starts_with(module, "libnode") ||
           starts_with(module, "libjvm");
}

void stoke_native_frame_kind(const char *module, struct stoke_frame *f,
                             struct stoke_jit_text *text)
{
    if (f->kind == STOKE_KIND_LIBC) {
        if (in_list(f->name, strlen(f->name), idle_names))
            f->kind = STOKE_KIND_IDLE;
        return;
    }
    if (!is_runtime_module(module))
        return;
    if (starts_with(f->name, "Builtins_")) {
        snprintf(text->name, sizeof text->name, "Builtin:%s", f->name + strlen("Builtins_"));
        f->name = text->name;
        f->kind = STOKE_KIND_RUNTIME;
        return;
    }
    for (const char *const *p = gc_prefixes; *p; p++)
        if (starts_with(f->name, *p)) {
            f->kind = STOKE_KIND_GC;
            return;
        }
}
