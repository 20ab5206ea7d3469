/*
 * test_profile_diff.c - unit test of the differential profile
 * (model/profile_diff.c, model/frame_identity.c) on profiles made by hand:
 * frames that differ only in build-id, file, line, pid or tid are one
 * frame; inlined and not inlined, or two modules, are two; JIT code
 * matches by name whatever its perf map; folded stacks (no modules) match
 * by name; shares scale the smaller side up, --absolute leaves the values
 * as recorded; each side's totals and processes are counted.
 *
 * Never: reads traces (tests/diff/test_diff.py records real ones).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "folded_text.h"
#include "profile_diff.h"

/* Which build: the fields a rebuild and a rerun change. */
struct build {
    const char *build_id;
    uint32_t line_shift, pid;
};

static uint32_t frame(struct stoke_profile *p, const struct build *b, const char *name,
                      const char *module, uint8_t kind, int inlined)
{
    char shown[64];
    if (kind == STOKE_KIND_PROCESS || kind == STOKE_KIND_THREAD)
        snprintf(shown, sizeof shown, "%s (%u)", name, b->pid + (kind == STOKE_KIND_THREAD));
    else
        snprintf(shown, sizeof shown, "%s", name);
    struct stoke_frame f = {.name = shown, .module = module, .file = "prog.c",
                            .line = 10 + b->line_shift, .kind = kind,
                            .inlined = (uint8_t)inlined, .build_id = b->build_id};
    return stoke_profile_frame(p, &f);
}

/* A run of prog: main calls hot (with helper inlined into it) and warm;
 * jit code from a perf map of the process's own name. */
static struct stoke_profile *run_of(const struct build *b, int64_t hot, int64_t warm,
                                    int64_t jit)
{
    struct stoke_profile *p = stoke_profile_new();
    char perf_map[32];
    snprintf(perf_map, sizeof perf_map, "perf-%u.map", b->pid);
    uint32_t root = frame(p, b, "prog", "", STOKE_KIND_PROCESS, 0);
    uint32_t thread = frame(p, b, "worker", "", STOKE_KIND_THREAD, 0);
    uint32_t main_ = frame(p, b, "main", "prog", STOKE_KIND_PROGRAM, 0);
    uint32_t hot_stack[] = {root, thread, main_, frame(p, b, "hot", "prog", STOKE_KIND_PROGRAM, 0),
                            frame(p, b, "helper", "prog", STOKE_KIND_PROGRAM, 1)};
    uint32_t warm_stack[] = {root, thread, main_,
                             frame(p, b, "warm", "prog", STOKE_KIND_PROGRAM, 0)};
    uint32_t jit_stack[] = {root, thread, frame(p, b, "Interp::run", perf_map, STOKE_KIND_JIT, 0)};
    stoke_profile_add(p, hot_stack, 5, (int64_t[]){hot});
    stoke_profile_add(p, warm_stack, 4, (int64_t[]){warm});
    stoke_profile_add(p, jit_stack, 3, (int64_t[]){jit});
    struct stoke_process_summary *s = stoke_profile_add_process(p);
    s->pid = b->pid;
    s->comm = strdup("prog");
    s->trace_path = strdup("prog.stoke");
    return p;
}

static const struct build before = {"aaaa", 0, 100}, after = {"bbbb", 7, 200};

static void test_rebuild_matches_by_identity(void)
{
    struct stoke_profile *a = run_of(&before, 50, 30, 20), *b = run_of(&after, 50, 60, 20);
    struct stoke_profile *d = stoke_profile_diff(a, b, 0, STOKE_DIFF_ABSOLUTE);
    CHECK(d->nstacks == 3);
    char *text = folded_text(d, 0, 1);
    CHECK_STR(text, "prog;worker;Interp::run 20 20\n"
                    "prog;worker;main;hot;helper 50 50\n"
                    "prog;worker;main;warm 30 60\n");
    free(text);
    for (size_t i = 0; i < d->nframes; i++) /* shown as after has them */
        CHECK(d->frames[i].kind >= STOKE_KIND_PROCESS || d->frames[i].kind == STOKE_KIND_JIT ||
              d->frames[i].line == 17);
    CHECK(d->diff.shares == 0 && d->diff.total[0] == 100 && d->diff.total[1] == 130);
    CHECK(d->diff.nprocs[0] == 1 && d->diff.nprocs[1] == 1 && d->nprocs == 2);
    stoke_profile_free(d);
    stoke_profile_free(a);
    stoke_profile_free(b);
}

/* Inlined or not, and another module, are other functions. */
static void test_identity_keeps_what_differs(void)
{
    struct stoke_profile *a = stoke_profile_new(), *b = stoke_profile_new();
    uint32_t fa[] = {frame(a, &before, "f", "prog", STOKE_KIND_PROGRAM, 0)};
    uint32_t fb[] = {frame(b, &after, "f", "prog", STOKE_KIND_PROGRAM, 1)};
    uint32_t fc[] = {frame(b, &after, "f", "libx.so", STOKE_KIND_LIBRARY, 0)};
    stoke_profile_add(a, fa, 1, (int64_t[]){1});
    stoke_profile_add(b, fb, 1, (int64_t[]){1});
    stoke_profile_add(b, fc, 1, (int64_t[]){1});
    struct stoke_profile *d = stoke_profile_diff(a, b, 0, STOKE_DIFF_ABSOLUTE);
    CHECK(d->nstacks == 3 && d->nframes == 3);
    stoke_profile_free(d);
    stoke_profile_free(a);
    stoke_profile_free(b);
}

/* Folded stacks know no modules: names alone, "comm (pid)" without its pid. */
static void test_folded_side_matches_by_name(void)
{
    struct stoke_profile *a = run_of(&before, 50, 30, 20), *b = stoke_profile_new();
    const char *names[] = {"prog (4242)", "worker (4243)", "main", "warm"};
    uint32_t stack[4];
    for (size_t i = 0; i < 4; i++)
        stack[i] = stoke_profile_frame(
            b, &(struct stoke_frame){.name = names[i], .module = "", .file = ""});
    stoke_profile_add(b, stack, 4, (int64_t[]){60});
    struct stoke_profile *d = stoke_profile_diff(a, b, 0, STOKE_DIFF_ABSOLUTE);
    char *text = folded_text(d, 0, 1);
    CHECK_STR(text, "prog;worker;Interp::run 20 0\n"
                    "prog;worker;main;hot;helper 50 0\n"
                    "prog;worker;main;warm 30 60\n");
    CHECK(d->diff.nprocs[0] == 1 && d->diff.nprocs[1] == 0);
    free(text);
    stoke_profile_free(d);
    stoke_profile_free(a);
    stoke_profile_free(b);
}

/* Half the samples, same shares: normalised, nothing changes. */
static void test_shares(void)
{
    struct stoke_profile *a = run_of(&before, 50, 30, 20), *b = run_of(&after, 25, 15, 10);
    struct stoke_profile *d = stoke_profile_diff(a, b, 0, STOKE_DIFF_SHARES);
    char *text = folded_text(d, 0, 1);
    CHECK_STR(text, "prog;worker;Interp::run 20 20\n"
                    "prog;worker;main;hot;helper 50 50\n"
                    "prog;worker;main;warm 30 30\n");
    CHECK(d->diff.shares == 1 && d->diff.total[0] == 100 && d->diff.total[1] == 50);
    free(text);
    stoke_profile_free(d);
    d = stoke_profile_diff(b, a, 0, STOKE_DIFF_ABSOLUTE);
    CHECK(d->diff.shares == 0 && stoke_profile_total(d, 0) * 2 == stoke_profile_total(d, 1));
    stoke_profile_free(d);
    struct stoke_profile *empty = stoke_profile_new();
    d = stoke_profile_diff(empty, b, 0, STOKE_DIFF_SHARES); /* nothing to scale to */
    CHECK(d->diff.shares == 0 && stoke_profile_total(d, 1) == 50);
    stoke_profile_free(d);
    stoke_profile_free(empty);
    stoke_profile_free(a);
    stoke_profile_free(b);
}

int main(void)
{
    test_rebuild_matches_by_identity();
    test_identity_keeps_what_differs();
    test_folded_side_matches_by_name();
    test_shares();
    return check_report("test_profile_diff");
}
