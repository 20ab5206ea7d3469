/*
 * html_demo.c - test helper: builds a small profile by hand whose names are
 * hostile (markup, "</script>", ';', quotes, control characters, non-ASCII),
 * with two processes, recursion and thousands of tiny frames, and writes it
 * as an HTML report and as folded stacks, so tests can check that the page
 * shows the names as text and holds the same data as the folded output.
 *
 * Usage: html_demo OUT.html OUT.folded
 * Never: part of stoke itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "html.h"
#include "profile.h"

#define TINY_FRAMES 3000

static uint32_t frame(struct stoke_profile *p, const char *name, const char *module,
                      const char *file, uint32_t line, enum stoke_frame_kind kind)
{
    struct stoke_frame f = {.name = name, .module = module, .file = file, .line = line,
                            .kind = (uint8_t)kind, .build_id = ""};
    return stoke_profile_frame(p, &f);
}

static void add(struct stoke_profile *p, const uint32_t *frames, size_t n, int64_t samples)
{
    stoke_profile_add(p, frames, n, &samples);
}

static void add_process(struct stoke_profile *p, uint32_t pid, const char *comm, uint64_t samples)
{
    struct stoke_process_summary *s = stoke_profile_add_process(p);
    s->pid = pid;
    s->comm = strdup(comm);
    s->samples = samples;
    s->duration_us = 2500000;
}

/* The first process: hostile names under main, and a recursion. */
static void add_demo_process(struct stoke_profile *p)
{
    uint32_t proc = frame(p, "demo <b>(4242)</b>", "", "", 0, STOKE_KIND_PROCESS);
    uint32_t thread = frame(p, "main (4242)", "", "", 0, STOKE_KIND_THREAD);
    uint32_t main_fn = frame(p, "main", "demo", "/src/demo.c", 10, STOKE_KIND_PROGRAM);
    uint32_t img = frame(p, "<img src=x onerror=alert(1)>", "libevil.so", "<b>x.c</b>", 7,
                         STOKE_KIND_LIBRARY);
    uint32_t script = frame(p, "</script><script>alert(2)</script>", "libc.so.6", "", 0,
                            STOKE_KIND_LIBC);
    uint32_t quotes = frame(p, "a;b \"double\" 'single' `back` ${alert(3)}", "demo",
                            "/src/quo\"te.c", 3, STOKE_KIND_PROGRAM);
    uint32_t utf8 = frame(p, "na\xc3\xafve_funci\xc3\xb3n_\xe6\x97\xa5\xe6\x9c\xac_\xf0\x9f\x94\xa5",
                          "perf-4242.map", "", 0, STOKE_KIND_JIT);
    uint32_t ctrl = frame(p, "tab\there & <!-- comment --> \\back\\slash", "demo", "", 0,
                          STOKE_KIND_PROGRAM);
    uint32_t unknown = frame(p, "libmystery.so+0x1234", "libmystery.so", "", 0, STOKE_KIND_UNKNOWN);
    uint32_t fib = frame(p, "fib", "demo", "/src/demo.c", 20, STOKE_KIND_PROGRAM);
    uint32_t leaf = frame(p, "std::vector<int, std::allocator<int> >::push_back(int const&)",
                          "libstdc++.so.6", "/usr/include/c++/12/bits/stl_vector.h", 1287,
                          STOKE_KIND_LIBRARY);

    add(p, (uint32_t[]){proc, thread, main_fn}, 3, 40);
    add(p, (uint32_t[]){proc, thread, main_fn, img}, 4, 300);
    add(p, (uint32_t[]){proc, thread, main_fn, img, script}, 5, 150);
    add(p, (uint32_t[]){proc, thread, main_fn, quotes}, 4, 120);
    add(p, (uint32_t[]){proc, thread, main_fn, utf8}, 4, 90);
    add(p, (uint32_t[]){proc, thread, main_fn, ctrl}, 4, 60);
    add(p, (uint32_t[]){proc, thread, main_fn, unknown}, 4, 30);
    add(p, (uint32_t[]){proc, thread, main_fn, fib, fib}, 5, 100);
    add(p, (uint32_t[]){proc, thread, main_fn, fib, fib, fib, leaf}, 7, 200);
    add(p, (uint32_t[]){proc, thread, main_fn, fib, leaf}, 5, 50);
    add_process(p, 4242, "demo <b>", 1140);
}

/* The second process: one function with thousands of one-sample callees,
 * far narrower than a pixel each. */
static void add_worker_process(struct stoke_profile *p)
{
    uint32_t proc = frame(p, "worker (4243)", "", "", 0, STOKE_KIND_PROCESS);
    uint32_t work = frame(p, "do_work", "worker", "/src/worker.c", 5, STOKE_KIND_PROGRAM);
    for (int i = 0; i < TINY_FRAMES; i++) {
        char name[32];
        snprintf(name, sizeof(name), "tiny_%04d", i);
        uint32_t tiny = frame(p, name, "worker", "/src/worker.c", (uint32_t)(100 + i),
                              STOKE_KIND_PROGRAM);
        add(p, (uint32_t[]){proc, work, tiny}, 3, 1);
    }
    add(p, (uint32_t[]){proc, work}, 2, 500);
    add_process(p, 4243, "worker", TINY_FRAMES + 500);
}

static int write_file(const char *path, const struct stoke_profile *p, int html)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        perror(path);
        return -1;
    }
    struct stoke_report_tab tab;
    struct stoke_report r = stoke_report_of(p, 0, &tab);
    r.title = "demo <b>title</b> & \"quotes\" </title>";
    int rc = html ? stoke_write_html(out, &r) : stoke_write_folded(out, &r);
    if (fclose(out) != 0 || rc < 0) {
        perror(path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: html_demo OUT.html OUT.folded\n");
        return 2;
    }
    struct stoke_profile *p = stoke_profile_new();
    p->period_ns = 1003009; /* 997 Hz */
    add_demo_process(p);
    add_worker_process(p);
    int rc = write_file(argv[1], p, 1) < 0 || write_file(argv[2], p, 0) < 0;
    stoke_profile_free(p);
    return rc;
}
