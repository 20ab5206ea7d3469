/*
 * jit_frame.h - what a perf map's name says a frame of generated code is.
 *
 *   node (V8)  "JS:*renderTree /srv/app/lib/tree.js:20:15" (node 20),
 *              "LazyCompile:~handle /srv/app/node_modules/express/lib/
 *              router/layer.js:86" (node 18), "Script:~ /srv/app/a.js",
 *              "Eval:~ ...", and the runtime's own code: "Builtin:LoadIC",
 *              "BytecodeHandler:Add", "Stub:...", "RegExp:^a+$", ...
 *   the JVM    "java.util.HashMap::putVal", and its runtime's code
 *              ("Interpreter", "StubRoutines (1)", adapters, blobs)
 *   others     any other name, taken as it is
 *
 * A JavaScript frame becomes one frame per function and place: its name is
 * the function's (or "(anonymous)", "(top level)", "(eval)") followed by a
 * short location, the file relative to the process's working directory, or
 * "package/file" inside node_modules, or node's own "node:events", with
 * :line:column; file, line and column hold the whole place; the V8 tier
 * (the mark before the name) goes into tier, so that the tiers of one
 * function differ only there. Its kind says whose code it is (app,
 * dependency, node core).
 *
 * Never: allocates, or keeps a pointer into the name it was given.
 */
#ifndef STOKE_JIT_FRAME_H
#define STOKE_JIT_FRAME_H

#include "profile.h"

#define STOKE_JIT_TEXT 4096

/* Room for the strings of one frame (f's pointers point here). */
struct stoke_jit_text {
    char name[STOKE_JIT_TEXT];
    char file[STOKE_JIT_TEXT];
};

/* What is known of the process whose map it is. */
struct stoke_jit_context {
    const char *cwd; /* its working directory, "" when unknown */
    int jvm;         /* 1: a JVM (a name that is no method is its runtime's) */
    int keep_tiers;  /* 0: every tier of a function is one frame (tier 0) */
};

/* Fills f (and text) for the code the perf map names jit_name; module is
 * f's module but for JavaScript ("[js]"). f->build_id is left "". */
void stoke_jit_frame(const char *jit_name, const struct stoke_jit_context *ctx,
                     const char *module, struct stoke_frame *f, struct stoke_jit_text *text);

/* The frame a native symbol stands for where its name says more than its
 * module: V8's embedded builtins ("Builtins_LoadIC" becomes
 * "Builtin:LoadIC"), a runtime's garbage collector, waits for events. Only
 * name and kind change; names are matched only in the modules that hold
 * such code (node, libnode, libjvm; the C library for the waits). */
void stoke_native_frame_kind(const char *module, struct stoke_frame *f,
                             struct stoke_jit_text *text);

#endif
