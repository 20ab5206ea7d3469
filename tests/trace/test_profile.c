/*
 * test_profile.c - unit test of the profile model (profile.c) and the
 * folded writer (folded.c): interning, rows per distinct stack, totals and
 * the exact flamegraph.pl text, including names that contain ';' or '\n'.
 *
 * Never: reads traces (see test_load.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "folded_text.h"
#include "profile.h"

static uint32_t frame(struct stoke_profile *p, const char *name, uint8_t kind)
{
    struct stoke_frame f = {.name = name, .module = "prog", .file = "", .kind = kind};
    return stoke_profile_frame(p, &f);
}

static void test_interning(void)
{
    struct stoke_profile *p = stoke_profile_new();
    char name[] = "main";
    uint32_t a = frame(p, name, STOKE_KIND_PROGRAM);
    strcpy(name, "xxxx"); /* the profile must have copied the string */
    CHECK(frame(p, "main", STOKE_KIND_PROGRAM) == a);
    CHECK(frame(p, "main", STOKE_KIND_LIBC) != a);
    struct stoke_frame inl = {.name = "main", .module = "prog", .file = "", .inlined = 1};
    CHECK(stoke_profile_frame(p, &inl) != a);
    CHECK(strcmp(p->frames[a].name, "main") == 0);
    CHECK(p->nframes == 3);
    CHECK(p->nvalues == 1 && strcmp(p->value_names[0], "samples") == 0);
    stoke_profile_free(p);
}

static void test_rows_and_totals(void)
{
    struct stoke_profile *p = stoke_profile_new();
    uint32_t root = frame(p, "app (1)", STOKE_KIND_PROCESS);
    uint32_t f = frame(p, "f", STOKE_KIND_PROGRAM), g = frame(p, "g", STOKE_KIND_PROGRAM);
    uint32_t s1[] = {root, f, g}, s2[] = {root, g, f}, s3[] = {root, f};
    int64_t one = 1, five = 5;
    for (int i = 0; i < 1000; i++)
        stoke_profile_add(p, s1, 3, &one);
    stoke_profile_add(p, s2, 3, &five);
    stoke_profile_add(p, s3, 2, &one);
    CHECK(p->nstacks == 3 && p->nrows == 3);
    CHECK(stoke_profile_stack(p, s2, 3) == 1);
    CHECK(p->rows[0].values[0] == 1000);
    CHECK(stoke_profile_total(p, 0) == 1006);
    CHECK(p->stack_len[2] == 2 && p->stack_frames[p->stack_start[2] + 1] == f);
    stoke_profile_free(p);
}

static void test_many_stacks(void)
{
    struct stoke_profile *p = stoke_profile_new();
    int64_t one = 1;
    char name[32];
    for (int i = 0; i < 20000; i++) {
        snprintf(name, sizeof name, "fn%d", i % 5000);
        uint32_t s[] = {frame(p, "root", STOKE_KIND_PROCESS), frame(p, name, 0)};
        stoke_profile_add(p, s, 2, &one);
    }
    CHECK(p->nframes == 5001);
    CHECK(p->nrows == 5000);
    CHECK(stoke_profile_total(p, 0) == 20000);
    stoke_profile_free(p);
}

static void test_folded(void)
{
    struct stoke_profile *p = stoke_profile_new();
    uint32_t root = frame(p, "app (7)", STOKE_KIND_PROCESS);
    uint32_t s1[] = {root, frame(p, "main", 0), frame(p, "std::vector<int>::push_back(int)", 0)};
    uint32_t s2[] = {root, frame(p, "odd;name\nwith\r\tbreaks", 0)};
    uint32_t s3[] = {root, frame(p, "never", 0)};
    int64_t v = 3, w = 12, zero = 0;
    stoke_profile_add(p, s1, 3, &v);
    stoke_profile_add(p, s2, 2, &w);
    stoke_profile_add(p, s3, 2, &zero);
    char *text = folded_text(p, 0, 0);
    CHECK_STR(text, "app (7);main;std::vector<int>::push_back(int) 3\n"
                    "app (7);odd:name with  breaks 12\n");
    free(text);
    stoke_profile_free(p);
}

/* Stacks that differ only in what folded text does not show are one line. */
static void test_folded_merges_same_names(void)
{
    struct stoke_profile *p = stoke_profile_new();
    uint32_t root = frame(p, "app (7)", STOKE_KIND_PROCESS);
    struct stoke_frame at10 = {.name = "work", .module = "app", .file = "a.c", .line = 10};
    struct stoke_frame inlined = at10;
    inlined.inlined = 1;
    uint32_t s1[] = {root, stoke_profile_frame(p, &at10)};
    uint32_t s2[] = {root, stoke_profile_frame(p, &inlined)};
    uint32_t s3[] = {root, frame(p, "alpha", 0)};
    int64_t two = 2, three = 3, one = 1;
    stoke_profile_add(p, s1, 2, &two);
    stoke_profile_add(p, s2, 2, &three);
    stoke_profile_add(p, s3, 2, &one);
    CHECK(p->nrows == 3);
    char *text = folded_text(p, 0, 0);
    CHECK_STR(text, "app (7);alpha 1\napp (7);work 5\n");
    free(text);
    stoke_profile_free(p);
}

int main(void)
{
    test_interning();
    test_rows_and_totals();
    test_many_stacks();
    test_folded();
    test_folded_merges_same_names();
    return check_report("test_profile");
}
