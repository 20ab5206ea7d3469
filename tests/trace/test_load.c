/*
 * test_load.c - unit test of the loader and symbolizer (trace_load.c,
 * symbolize.c, debuginfo.c, perfmap.c, vdso.c, demangler.c) on traces that
 * tests/tools/make_trace writes with real addresses of sym_target: function
 * names, an inlined function as its own frame with file:line (also one
 * inlined across units by link-time optimization), a C++ name
 * demangled, libc and vDSO frames, JIT names from a perf map, unnamed code
 * as module+offset, a changed binary, damaged traces, summaries, a flood of
 * notes.
 *
 * Never: tests the reader's byte accounting alone (test_reader.c does).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "demangler.h"
#include "folded_text.h"
#include "scratch.h"
#include "trace_load.h"

struct target {
    char exe[4096], info_path[256];
    unsigned long stack0, vdso;
    int inlined_line, leaf_line; /* where the functions are defined */
};

static struct target target;

static void describe_target(void)
{
    char cmd[512];
    scratch_path(target.info_path, sizeof target.info_path, "target.txt");
    snprintf(cmd, sizeof cmd, "'%s' | tee '%s'", SYM_TARGET, target.info_path);
    char *info = run_capture(cmd);
    for (char *line = strtok(info, "\n"); line; line = strtok(NULL, "\n")) {
        sscanf(line, "exe %4095s", target.exe);
        sscanf(line, "stack %lx", &target.stack0);
        sscanf(line, "inlined_line %d", &target.inlined_line);
        sscanf(line, "leaf_line %d", &target.leaf_line);
        sscanf(line, "vdso %lx", &target.vdso);
    }
    free(info);
}

static void write_perf_map(void)
{
    char path[256];
    scratch_path(path, sizeof path, "perf-4242.map");
    FILE *f = fopen(path, "w");
    fputs("7f0000001000 100 LazyCompile:*fib /app/fib.js:3\n"
          "7f0000002000 80 Function:handler;x\n", f);
    fclose(f);
}

/* Writes a trace of kind; returns make_trace's bytes_lost (0 if none). */
static long make(const char *kind, char *path, size_t len)
{
    char cmd[1024];
    scratch_path(path, len, kind);
    snprintf(cmd, sizeof cmd, "'%s' %s '%s' '%s'", MAKE_TRACE, kind, path, target.info_path);
    char *out = run_capture(cmd);
    long lost = 0;
    sscanf(out, "bytes_lost %ld", &lost);
    free(out);
    return lost;
}

struct loaded {
    struct stoke_profile *profile;
    int rc;
    char err[512];
    char *stderr_text;
    long expected_lost;
};

static struct loaded load_with(const char *kind, const struct stoke_load_options *opt)
{
    struct loaded l = {.profile = stoke_profile_new()};
    char path[256];
    l.expected_lost = make(kind, path, sizeof path);
    stderr_begin();
    l.rc = stoke_load_trace(l.profile, path, opt, l.err, sizeof l.err);
    l.stderr_text = stderr_end();
    return l;
}

static struct loaded load(const char *kind, int split_threads)
{
    struct stoke_load_options opt = {.split_threads = split_threads};
    return load_with(kind, &opt);
}

static void unload(struct loaded *l)
{
    stoke_profile_free(l->profile);
    free(l->stderr_text);
}

/* --- looking at the profile ----------------------------------------------- */

static const struct stoke_frame *frame_at(const struct stoke_profile *p, uint32_t stack, size_t i)
{
    return &p->frames[p->stack_frames[p->stack_start[stack] + i]];
}

static const struct stoke_frame *leaf_of(const struct stoke_profile *p, uint32_t stack)
{
    return frame_at(p, stack, p->stack_len[stack] - 1);
}

/* The stack whose leaf frame's name contains text; -1 if none. */
static int64_t stack_with_leaf(const struct stoke_profile *p, const char *text)
{
    for (size_t s = 0; s < p->nstacks; s++)
        if (p->stack_len[s] && strstr(leaf_of(p, (uint32_t)s)->name, text))
            return (int64_t)s;
    return -1;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* --- tests ---------------------------------------------------------------- */

static void check_program_stack(const struct stoke_profile *p)
{
    int64_t s = stack_with_leaf(p, "stoke_test_inlined");
    CHECK(s >= 0);
    if (s < 0)
        return;
    CHECK(p->stack_len[s] == 5);
    CHECK_STR(frame_at(p, (uint32_t)s, 0)->name, "demo (4242)");
    CHECK(frame_at(p, (uint32_t)s, 0)->kind == STOKE_KIND_PROCESS);
    CHECK_STR(frame_at(p, (uint32_t)s, 1)->name, "main");
    CHECK_STR(frame_at(p, (uint32_t)s, 2)->name, "stoke::test::outer()");
    const struct stoke_frame *leaf_fn = frame_at(p, (uint32_t)s, 3);
    const struct stoke_frame *inlined = frame_at(p, (uint32_t)s, 4);
    CHECK_STR(leaf_fn->name, "stoke_test_leaf");
    CHECK(leaf_fn->inlined == 0 && leaf_fn->line == (uint32_t)target.leaf_line);
    CHECK(inlined->inlined == 1);
    CHECK(inlined->line == (uint32_t)target.inlined_line);
    CHECK(ends_with(inlined->file, "sym_target.c"));
    CHECK_STR(inlined->module, "sym_target");
    CHECK(inlined->kind == STOKE_KIND_PROGRAM);
    CHECK(p->rows[s].values[0] == 7);
}

static void check_other_stacks(const struct stoke_profile *p)
{
    int64_t libc = stack_with_leaf(p, "getpid");
    CHECK(libc >= 0 && leaf_of(p, (uint32_t)libc)->kind == STOKE_KIND_LIBC);
    CHECK(libc >= 0 && strcmp(leaf_of(p, (uint32_t)libc)->module, "libc.so.6") == 0);
    CHECK(libc >= 0 && p->rows[libc].values[0] == 2);
    if (target.vdso) {
        int64_t vdso = stack_with_leaf(p, "clock_gettime");
        CHECK(vdso >= 0 && leaf_of(p, (uint32_t)vdso)->kind == STOKE_KIND_LIBC);
    }
    int64_t jit = stack_with_leaf(p, "fib /app/fib.js:3");
    CHECK(jit >= 0 && leaf_of(p, (uint32_t)jit)->kind == STOKE_KIND_JS_APP);
    CHECK(jit >= 0 && strcmp(leaf_of(p, (uint32_t)jit)->module, "[js]") == 0);
    CHECK(jit >= 0 && strcmp(leaf_of(p, (uint32_t)jit)->file, "/app/fib.js") == 0);
    CHECK(jit >= 0 && leaf_of(p, (uint32_t)jit)->line == 3);
    CHECK(jit >= 0 && leaf_of(p, (uint32_t)jit)->tier == 0); /* merged unless kept */
    CHECK(jit >= 0 && p->rows[jit].values[0] == 3);
    int64_t gone = stack_with_leaf(p, "libgone.so+0x1234");
    CHECK(gone >= 0 && leaf_of(p, (uint32_t)gone)->kind == STOKE_KIND_UNKNOWN);
    CHECK(gone >= 0 && p->rows[gone].values[0] == 6); /* two samples of weight 3 */
    CHECK(stack_with_leaf(p, "[unknown stack]") >= 0);
    CHECK(stoke_profile_total(p, 0) == 21);
}

static void check_folded(const struct stoke_profile *p)
{
    char *text = folded_text(p, 0, 0);
    CHECK(strstr(text, "demo (4242);main;stoke::test::outer();stoke_test_leaf;"
                       "stoke_test_inlined 7\n") != NULL);
    CHECK(strstr(text, "demo (4242);main;[unknown]+0x7f0000009999;handler:x;"
                       "fib /app/fib.js:3 3\n") != NULL);
    CHECK(strstr(text, "demo (4242);[incomplete stack];stoke_test_leaf;stoke_test_inlined 1\n"));
    free(text);
}

static void check_summary(const struct stoke_profile *p)
{
    CHECK(p->nprocs == 1);
    const struct stoke_process_summary *s = &p->procs[0];
    CHECK(s->pid == 4242 && s->ppid == 1);
    CHECK_STR(s->comm, "demo");
    CHECK(s->samples == 17 && s->samples_lost == 2 && s->handler_ns == 12345);
    CHECK(s->duration_us == 500000 && s->ended_cleanly && s->bytes_lost == 0);
    CHECK(s->period_ns == 1003009 && s->cpu_ns == 21ull * 1003009);
    CHECK(s->requested_hz == 997 && s->clock == 0 && s->engine == 1);
    CHECK(ends_with(s->trace_path, "/valid"));
    CHECK(p->period_ns == 1003009);
    CHECK_STR(p->value_names[0], "samples");
    CHECK_STR(p->value_units[0], "count");
}

static void test_valid(void)
{
    struct loaded l = load("valid", 0);
    CHECK(l.rc == 0);
    CHECK(strstr(l.stderr_text, "valid: sampling with perf task-clock\n") != NULL);
    CHECK(strstr(l.stderr_text, "valid: /nonexistent/libgone.so cannot be read; its frames "
                                "are shown as module+offset\n") != NULL);
    check_program_stack(l.profile);
    check_other_stacks(l.profile);
    check_folded(l.profile);
    check_summary(l.profile);
    unload(&l);
}

static void test_split_threads(void)
{
    struct loaded l = load("valid", 1);
    const struct stoke_profile *p = l.profile;
    int64_t main_stack = stack_with_leaf(p, "stoke_test_inlined");
    int64_t jit = stack_with_leaf(p, "fib /app/fib.js");
    CHECK(main_stack >= 0 && jit >= 0);
    if (main_stack >= 0 && jit >= 0) {
        CHECK_STR(frame_at(p, (uint32_t)main_stack, 1)->name, "demo (4242)");
        CHECK(frame_at(p, (uint32_t)main_stack, 1)->kind == STOKE_KIND_THREAD);
        CHECK_STR(frame_at(p, (uint32_t)jit, 1)->name, "worker (4243)");
    }
    CHECK(stoke_profile_total(p, 0) == 21);
    unload(&l);
}

/* The stack whose frames (root first, after the process frame) are names. */
static int64_t stack_of(const struct stoke_profile *p, const char *const *names, size_t n)
{
    for (size_t s = 0; s < p->nstacks; s++) {
        size_t i = 0;
        while (i < n && i + 1 < p->stack_len[s] &&
               !strcmp(frame_at(p, (uint32_t)s, i + 1)->name, names[i]))
            i++;
        if (i == n && p->stack_len[s] == n + 1)
            return (int64_t)s;
    }
    return -1;
}

/* JIT names that only the trace holds, written after the stacks that ran
 * the code (the JVM names its code at exit): every frame named, relative to
 * the process's working directory, tiers one frame unless kept. */
static void test_jit_map_in_trace(void)
{
    static const char *const merged[] = {"emit node:events:517:28",
                                         "handle express/lib/router/layer.js:86:49",
                                         "render lib/page.js:20:15"};
    static const char *const reused[] = {"big b.js:5:5", "new new.js:2:2", "Builtin:LoadIC"};
    struct loaded l = load("jitmap", 0);
    const struct stoke_profile *p = l.profile;
    CHECK(l.rc == 0);
    int64_t render = stack_of(p, merged, 3), builtin = stack_of(p, reused, 3);
    CHECK(render >= 0 && p->rows[render].values[0] == 5);
    CHECK(builtin >= 0 && p->rows[builtin].values[0] == 4);
    if (render >= 0) {
        CHECK(frame_at(p, (uint32_t)render, 1)->kind == STOKE_KIND_JS_CORE);
        CHECK(frame_at(p, (uint32_t)render, 2)->kind == STOKE_KIND_JS_DEPENDENCY);
        const struct stoke_frame *leaf = leaf_of(p, (uint32_t)render);
        CHECK(leaf->kind == STOKE_KIND_JS_APP && leaf->line == 20 && leaf->column == 15);
        CHECK_STR(leaf->file, "/app/lib/page.js");
    }
    if (builtin >= 0)
        CHECK(leaf_of(p, (uint32_t)builtin)->kind == STOKE_KIND_RUNTIME);
    unload(&l);

    struct stoke_load_options keep = {.keep_tiers = 1};
    l = load_with("jitmap", &keep);
    p = l.profile;
    int64_t optimized = stack_with_leaf(p, "render lib/page.js");
    int64_t baseline = optimized >= 0 ? stack_with_leaf(p, "render lib/page.js") : -1;
    for (size_t s = 0; s < p->nstacks; s++)
        if (p->stack_len[s] && leaf_of(p, (uint32_t)s)->tier == STOKE_TIER_BASELINE)
            baseline = (int64_t)s;
    CHECK(optimized >= 0 && baseline >= 0 && optimized != baseline);
    if (optimized >= 0 && baseline >= 0 && optimized != baseline)
        CHECK(p->rows[optimized].values[0] + p->rows[baseline].values[0] == 5);
    unload(&l);
}

static void test_damaged(const char *kind, const char *word)
{
    struct loaded l = load(kind, 0);
    char want[256];
    snprintf(want, sizeof want, "%s: trace is %s after 11 samples; the last %ld bytes could "
                                "not be read\n", kind, word, l.expected_lost);
    CHECK(l.rc == 0);
    CHECK(strstr(l.stderr_text, want) != NULL);
    CHECK(stoke_profile_total(l.profile, 0) == 11);
    CHECK(!l.profile->procs[0].ended_cleanly);
    CHECK(l.profile->procs[0].bytes_lost == (uint64_t)l.expected_lost);
    unload(&l);
}

static void test_changed_binary(void)
{
    struct loaded l = load("mismatch", 0);
    char want[4300], leaf[64];
    snprintf(want, sizeof want, "%s changed since the run (build-id differs); its frames are "
                                "shown as module+offset\n", target.exe);
    snprintf(leaf, sizeof leaf, "sym_target+0x%lx", target.stack0);
    CHECK(l.rc == 0);
    CHECK(strstr(l.stderr_text, want) != NULL);
    int64_t s = stack_with_leaf(l.profile, leaf);
    CHECK(s >= 0 && leaf_of(l.profile, (uint32_t)s)->kind == STOKE_KIND_UNKNOWN);
    CHECK(stack_with_leaf(l.profile, "stoke_test_inlined") >= 0); /* the real one still named */
    unload(&l);
}

static void test_unusable(const char *kind, const char *message)
{
    struct loaded l = load(kind, 0);
    CHECK(l.rc == -1);
    CHECK(ends_with(l.err, message));
    CHECK(l.profile->nprocs == 0);
    unload(&l);
}

static void test_two_traces(void)
{
    struct stoke_profile *p = stoke_profile_new();
    char path[256], err[512];
    make("valid", path, sizeof path);
    stderr_begin();
    CHECK(stoke_load_trace(p, path, NULL, err, sizeof err) == 0);
    CHECK(stoke_load_trace(p, path, NULL, err, sizeof err) == 0);
    free(stderr_end());
    CHECK(p->nprocs == 2);
    CHECK(stoke_profile_total(p, 0) == 42);
    int64_t s = stack_with_leaf(p, "stoke_test_inlined");
    CHECK(s >= 0 && p->rows[s].values[0] == 14); /* one row for both processes' stack */
    stoke_profile_free(p);
}

static size_t count_lines(const char *text)
{
    size_t n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* A trace of 200,000 notes (100 KB): the first ten are shown, then one line
 * counts the others, and the samples still load. */
static void test_note_flood(void)
{
    char path[256], cmd[1024], err[512];
    scratch_path(path, sizeof path, "notes.stoke");
    snprintf(cmd, sizeof cmd, "'%s' notes '%s' 200000", MAKE_TRACE, path);
    free(run_capture(cmd));
    struct stoke_profile *p = stoke_profile_new();
    stderr_begin();
    CHECK(stoke_load_trace(p, path, NULL, err, sizeof err) == 0);
    char *said = stderr_end();
    CHECK(count_lines(said) == 11);
    CHECK(strstr(said, "notes.stoke: warning: note 10\n") != NULL);
    CHECK(strstr(said, "note 11\n") == NULL);
    CHECK(strstr(said, "notes.stoke: ... and 199990 more notes\n") != NULL);
    CHECK(stoke_profile_total(p, 0) == 5);
    free(said);
    stoke_profile_free(p);
}

/* Runs a target program that prints its stack (sym_target_cpp,
 * sym_target_lto), makes a trace of it and loads it. *line: where its
 * inlined leaf is defined. */
static struct stoke_profile *load_target(const char *exe, const char *name, int *line)
{
    char info[256], trace[256], file[64], cmd[1024], err[512];
    snprintf(file, sizeof file, "target-%s.txt", name);
    scratch_path(info, sizeof info, file);
    snprintf(file, sizeof file, "%s.stoke", name);
    scratch_path(trace, sizeof trace, file);
    snprintf(cmd, sizeof cmd, "'%s' | tee '%s'", exe, info);
    char *out = run_capture(cmd);
    const char *at = strstr(out, "inlined_line ");
    CHECK(at && sscanf(at, "inlined_line %d", line) == 1);
    free(out);
    snprintf(cmd, sizeof cmd, "'%s' valid '%s' '%s'", MAKE_TRACE, trace, info);
    free(run_capture(cmd));
    struct stoke_profile *p = stoke_profile_new();
    stderr_begin();
    CHECK(stoke_load_trace(p, trace, NULL, err, sizeof err) == 0);
    free(stderr_end());
    return p;
}

/* The stack of a target: [root], main, callers[0], callers[1], then leaf,
 * an inlined frame defined at line of a file ending in file. */
static void check_target_stack(const struct stoke_profile *p, const char *leaf,
                               const char *const callers[2], int line, const char *file)
{
    int64_t s = stack_with_leaf(p, leaf);
    CHECK(s >= 0 && p->stack_len[s] == 5);
    if (s < 0 || p->stack_len[s] != 5)
        return;
    CHECK_STR(frame_at(p, (uint32_t)s, 1)->name, "main");
    CHECK_STR(frame_at(p, (uint32_t)s, 2)->name, callers[0]);
    CHECK_STR(frame_at(p, (uint32_t)s, 3)->name, callers[1]);
    CHECK(leaf_of(p, (uint32_t)s)->inlined == 1);
    CHECK(leaf_of(p, (uint32_t)s)->line == (uint32_t)line);
    CHECK(ends_with(leaf_of(p, (uint32_t)s)->file, file));
}

#ifdef SYM_TARGET_CPP
/* A C++ program's frames: demangled, the inlined member its own frame. */
static void test_cpp_program(void)
{
    int line = 0;
    struct stoke_profile *p = load_target(SYM_TARGET_CPP, "cpp", &line);
    static const char *const callers[2] = {"shop::run()", "shop::Cart<double>::checkout(int)"};
    check_target_stack(p, "shop::Cart<double>::add(double)", callers, line, "sym_target_cpp.cpp");
    stoke_profile_free(p);
}
#endif

#ifdef SYM_TARGET_LTO
/* A program built with link-time optimization: the function inlined from
 * another unit is its own frame, with its line, under its caller. */
static void test_lto_program(void)
{
    int line = 0;
    struct stoke_profile *p = load_target(SYM_TARGET_LTO, "lto", &line);
    static const char *const callers[2] = {"stoke_lto_outer", "stoke_lto_leaf"};
    check_target_stack(p, "stoke_lto_mark", callers, line, "sym_target_lto_part.c");
    stoke_profile_free(p);
}
#endif

static void test_demangler(void)
{
    char *cpp = stoke_demangle("_ZNSt6vectorIiSaIiEE9push_backERKi");
    char *rust = stoke_demangle("_ZN4core3fmt5write17h0123456789abcdefE");
    CHECK_STR(cpp, "std::vector<int, std::allocator<int> >::push_back(int const&)");
    CHECK_STR(rust, "core::fmt::write");
    CHECK(stoke_demangle("main") == NULL);
    CHECK(stoke_demangle("_not_mangled") == NULL);
    free(cpp);
    free(rust);
}

int main(void)
{
    scratch_init();
    describe_target();
    write_perf_map();
    test_valid();
    test_split_threads();
    test_damaged("truncated", "truncated");
    test_damaged("corrupted", "corrupted");
    test_changed_binary();
    test_unusable("foreign", ": not a stoke trace");
    test_unusable("newer", "upgrade stoke");
    test_unusable("headeronly", "record again");
    test_two_traces();
    test_note_flood();
    test_jit_map_in_trace();
#ifdef SYM_TARGET_CPP
    test_cpp_program();
#endif
#ifdef SYM_TARGET_LTO
    test_lto_program();
#endif
    test_demangler();
    scratch_cleanup();
    return check_report("test_load");
}
