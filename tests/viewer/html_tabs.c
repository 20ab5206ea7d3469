/*
 * html_tabs.c - test helper: writes a report of three tabs with known
 * values (a CPU profile, a heap snapshot with its four measures, and a
 * differential heap profile with frames that grew, shrank, stayed, are new
 * and exist only before), and each tab's folded stacks for every value, so
 * tests can check the data of every tab and what the page shows of it.
 *
 * Writes OUT.html and, in OUTDIR, tab<T>.value<V>.folded (stoke_write_folded
 * of value V of tab T). First checks that stoke_write_html refuses what
 * it must (no tab, a tab without a profile, a full disk) and writes a
 * differential tab of one value as an ordinary tab; exits 1 if not.
 *
 * Usage: html_tabs OUT.html OUTDIR
 * Never: part of stoke itself.
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "report_data.h"
#include "report_files.h"
#include "profile.h"

#define MiB (1024 * 1024)
#define MAX_STACK 16
#define NTABS 3

/* Interns frame "name" as stoke would: malloc in libc, the rest in the program. */
static uint32_t frame(struct stoke_profile *p, const char *name, enum stoke_frame_kind kind)
{
    int libc = strcmp(name, "malloc") == 0;
    struct stoke_frame f = {
        .name = name,
        .module = kind == STOKE_KIND_PROCESS ? "" : libc ? "libc.so.6" : "server",
        .file = libc ? "" : "/src/server.c",
        .line = libc ? 0 : 42,
        .kind = (uint8_t)(libc ? STOKE_KIND_LIBC : kind),
        .build_id = "",
    };
    return stoke_profile_frame(p, &f);
}

/* Adds values to the stack "server (100);" + path, path being "a;b;c". */
static void add(struct stoke_profile *p, const char *path, const int64_t *values)
{
    uint32_t stack[MAX_STACK];
    size_t n = 0;
    char copy[256];
    snprintf(copy, sizeof(copy), "%s", path);
    stack[n++] = frame(p, "server (100)", STOKE_KIND_PROCESS);
    for (char *save = NULL, *name = strtok_r(copy, ";", &save); name && n < MAX_STACK;
         name = strtok_r(NULL, ";", &save))
        stack[n++] = frame(p, name, STOKE_KIND_PROGRAM);
    stoke_profile_add(p, stack, n, values);
}

static void add_process(struct stoke_profile *p, uint64_t samples)
{
    struct stoke_process_summary *s = stoke_profile_add_process(p);
    s->pid = 100;
    s->comm = strdup("server");
    s->samples = samples;
}

/* 500 samples of 1 ms. */
static struct stoke_profile *cpu_profile(void)
{
    struct stoke_profile *p = stoke_profile_new();
    p->period_ns = 1000000;
    add(p, "main", (int64_t[]){10});
    add(p, "main;handle", (int64_t[]){300});
    add(p, "main;handle;parse", (int64_t[]){150});
    add(p, "main;idle", (int64_t[]){40});
    add_process(p, 500);
    return p;
}

/* Live 40 MiB in 13 objects; allocated 240 MiB in 51,213 objects, sampled
 * every 512 KiB, taken at 2026-12-03 12:00:00 UTC. */
static struct stoke_profile *heap_profile(void)
{
    struct stoke_profile *p = stoke_profile_new();
    p->kind = STOKE_PROFILE_HEAP;
    stoke_profile_set_value_type(p, 0, "live_bytes", "bytes");
    stoke_profile_set_value_type(p, 1, "live_objects", "count");
    stoke_profile_set_value_type(p, 2, "alloc_bytes", "bytes");
    stoke_profile_set_value_type(p, 3, "alloc_objects", "count");
    add(p, "main;load_config;malloc", (int64_t[]){10 * MiB, 10, 10 * MiB, 10});
    add(p, "main;handle;make_buffer;malloc", (int64_t[]){0, 0, 200 * MiB, 51200});
    add(p, "main;cache_put;malloc", (int64_t[]){30 * MiB, 3, 30 * MiB, 3});
    add_process(p, 0);
    p->procs[0].heap.sample_interval = 512 * 1024;
    p->procs[0].heap.realtime_ns = 1796299200ull * 1000000000ull;
    return p;
}

/* Before 36 MiB, after 41.5 MiB, as recorded, of one process each:
 * cache_put grew by 10 MiB, load_config stayed, make_buffer shrank by
 * 3 MiB, new_path is new (512 KiB) and warmup (2 MiB) exists only before. */
static struct stoke_profile *diff_profile(void)
{
    struct stoke_profile *p = stoke_profile_new();
    p->kind = STOKE_PROFILE_HEAP;
    stoke_profile_set_value_type(p, 0, "before", "bytes");
    stoke_profile_set_value_type(p, 1, "after", "bytes");
    add(p, "main;cache_put;malloc", (int64_t[]){20 * MiB, 30 * MiB});
    add(p, "main;load_config;malloc", (int64_t[]){10 * MiB, 10 * MiB});
    add(p, "main;handle;make_buffer;malloc", (int64_t[]){4 * MiB, 1 * MiB});
    add(p, "main;handle;new_path;malloc", (int64_t[]){0, MiB / 2});
    add(p, "main;warmup;malloc", (int64_t[]){2 * MiB, 0});
    add_process(p, 0);
    add_process(p, 0);
    p->diff = (struct stoke_diff_sides){.total = {36 * MiB, 41 * MiB + MiB / 2}, .nprocs = {1, 1}};
    return p;
}

static int fails(const char *what)
{
    fprintf(stderr, "html_tabs: stoke_write_html %s\n", what);
    return 1;
}

/* 0 if stoke_write_html handles bad input as html.h says. */
static int check_bad_input(struct stoke_profile *cpu)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    FILE *full = fopen("/dev/full", "w");
    const struct stoke_report_tab no_profile = {"none", NULL, 0};
    const struct stoke_report_tab one_value_diff = {"diff", cpu, 1};
    int bad = 0;
    if (!mem)
        return fails("test: open_memstream failed");
    const struct stoke_report no_tab = {.tabs = &no_profile, .ntabs = 0, .title = "t"};
    const struct stoke_report tab_without_profile = {.tabs = &no_profile, .ntabs = 1, .title = "t"};
    const struct stoke_report diff = {.tabs = &one_value_diff, .ntabs = 1, .title = "t"};
    if (stoke_write_html(mem, &no_tab) != -1 || errno != EINVAL)
        bad |= fails("accepts no tab");
    if (stoke_write_html(mem, &tab_without_profile) != -1 || errno != EINVAL)
        bad |= fails("accepts a tab without a profile");
    if (full && stoke_write_html(full, &diff) != -1)
        bad |= fails("reports no error writing to /dev/full");
    /* The page holds the document deflated: look at the document itself. */
    if (report_data_write(mem, &diff) != 0 || fflush(mem) != 0 ||
        !strstr(text, "\"differential\":0") || strstr(text, "\"differential\":1"))
        bad |= fails("does not write a one-value differential tab as an ordinary one");
    if (full)
        fclose(full);
    fclose(mem);
    free(text);
    return bad;
}

static int write_folded(const char *dir, size_t tab, const struct stoke_profile *p)
{
    for (size_t v = 0; v < p->nvalues; v++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/tab%zu.value%zu.folded", dir, tab, v);
        if (write_folded_file(path, p, v) < 0)
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: html_tabs OUT.html OUTDIR\n");
        return 2;
    }
    const struct stoke_report_tab tabs[NTABS] = {
        {"CPU", cpu_profile(), 0},
        {"heap <b>1</b> (exit)", heap_profile(), 0},
        {"diff 1 \xe2\x86\x92 2", diff_profile(), 1},
    };
    int rc = check_bad_input((struct stoke_profile *)tabs[0].profile);
    rc |= write_html_file(argv[1], tabs, NTABS, "three tabs <i>test</i>") < 0;
    for (size_t t = 0; t < NTABS; t++) {
        rc |= write_folded(argv[2], t, tabs[t].profile) < 0;
        stoke_profile_free((struct stoke_profile *)tabs[t].profile);
    }
    return rc;
}
