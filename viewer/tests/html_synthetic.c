/*
 * html_synthetic.c - test and benchmark helper: builds a large synthetic CPU
 * profile with a chosen number of distinct frames and writes it as an HTML
 * report and as folded stacks, to time the viewer and compare sizes.
 *
 * The frames form a ternary call tree under a short common prefix (main, the
 * event loop, ...): frame i is called by frame (i - 1) / 3, so stacks are
 * about log3(N) + 8 deep, and every frame carries a few samples of its own.
 *
 * Usage: html_synthetic NFRAMES OUT.html OUT.folded
 * Never: part of stoke itself.
 */
#include <stdio.h>
#include <stdlib.h>

#include "folded.h"
#include "html.h"
#include "profile.h"

#define BRANCHING 3
#define MAX_DEPTH 64

static const char *const prefix_names[] = {
    "_start", "__libc_start_main", "main", "server::run()", "event_loop::poll_once()",
    "event_loop::dispatch(event&)",
};
#define PREFIX_LEN (sizeof(prefix_names) / sizeof(prefix_names[0]))

static const char *const modules[] = {"server", "libssl.so.3", "libc.so.6", "libz.so.1"};
static const enum stoke_frame_kind module_kinds[] = {
    STOKE_KIND_PROGRAM, STOKE_KIND_LIBRARY, STOKE_KIND_LIBC, STOKE_KIND_LIBRARY,
};

static uint32_t synthetic_frame(struct stoke_profile *p, uint32_t i)
{
    char name[128], file[64];
    unsigned m = (i * 2654435761u) >> 30; /* 0..3, spread */
    snprintf(name, sizeof(name), "ns%u::Handler<%u>::handle_request_%u(request const&, int)",
             i % 97, i % 13, i);
    snprintf(file, sizeof(file), "/src/server/handler_%u.cc", i % 500);
    struct stoke_frame f = {name, modules[m], file, 10 + i % 900, (uint8_t)module_kinds[m], 0};
    return stoke_profile_frame(p, &f);
}

static uint32_t named_frame(struct stoke_profile *p, const char *name, enum stoke_frame_kind kind)
{
    struct stoke_frame f = {name, kind == STOKE_KIND_PROCESS ? "" : "server", "", 0,
                            (uint8_t)kind, 0};
    return stoke_profile_frame(p, &f);
}

static void build(struct stoke_profile *p, uint32_t nframes)
{
    uint32_t *ids = malloc(nframes * sizeof(uint32_t));
    uint32_t stack[MAX_DEPTH];
    size_t base = 0;
    stack[base++] = named_frame(p, "server (1000)", STOKE_KIND_PROCESS);
    for (size_t k = 0; k < PREFIX_LEN; k++)
        stack[base++] = named_frame(p, prefix_names[k], STOKE_KIND_PROGRAM);
    for (uint32_t i = 0; i < nframes; i++)
        ids[i] = synthetic_frame(p, i);
    for (uint32_t i = 0; i < nframes; i++) {
        uint32_t chain[MAX_DEPTH];
        size_t n = 0;
        for (uint32_t f = i;; f = (f - 1) / BRANCHING) {
            chain[n++] = ids[f];
            if (f == 0)
                break;
        }
        size_t len = base;
        while (n > 0)
            stack[len++] = chain[--n];
        int64_t samples = 1 + (int64_t)((i * 40503u) % 7);
        stoke_profile_add(p, stack, len, &samples);
    }
    free(ids);
}

static int write_file(const char *path, const struct stoke_profile *p, int html)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        perror(path);
        return -1;
    }
    int rc = html ? stoke_write_html(out, p, "synthetic profile") : stoke_write_folded(out, p, 0);
    if (fclose(out) != 0 || rc < 0) {
        perror(path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    long nframes = argc == 4 ? strtol(argv[1], NULL, 10) : 0;
    if (nframes <= 0 || nframes > 50000000) {
        fprintf(stderr, "usage: html_synthetic NFRAMES OUT.html OUT.folded\n");
        return 2;
    }
    struct stoke_profile *p = stoke_profile_new();
    p->period_ns = 1003009;
    build(p, (uint32_t)nframes);
    int rc = write_file(argv[2], p, 1) < 0 || write_file(argv[3], p, 0) < 0;
    stoke_profile_free(p);
    return rc;
}
