/*
 * test_parts.c - unit test of the names of a trace's parts (trace_parts.c):
 * which part a file name is, the part before it, and the path of the next
 * part a NEXT_PART record names, which must stay in the directory of the
 * part that names it whatever the record holds.
 *
 * Never: reads or writes files (the parts' records are tested end to end
 * by tests/cpu/test_max_size.py and heap.window_growth_parts).
 */
#include <stdlib.h>

#include "check.h"
#include "trace_parts.h"

static void check_numbers(void)
{
    CHECK(stoke_part_number("node.12.stoke") == 1);
    CHECK(stoke_part_number("node.12.2.stoke") == 1); /* a second trace of pid 12 */
    CHECK(stoke_part_number("node.12.part-2.stoke") == 2);
    CHECK(stoke_part_number("dir/my.app.12.part-37.stoke") == 37);
    CHECK(stoke_part_number("node.12.part-1.stoke") == 1); /* never written: not a later part */
    CHECK(stoke_part_number("node.12.part-02.stoke") == 1);
    CHECK(stoke_part_number("node.12.part-.stoke") == 1);
    CHECK(stoke_part_number("node.12.part-99999999999.stoke") == 1);
    CHECK(stoke_part_number(".part-3.stoke") == 3);
    CHECK(stoke_part_stem("node.12.part-3.stoke") == strlen("node.12"));
    CHECK(stoke_part_stem("node.12.3.stoke") == strlen("node.12.3"));
    CHECK(stoke_part_stem("node.12") == strlen("node.12"));
}

static void check_previous(void)
{
    char prev[64];
    CHECK(stoke_previous_part_name("node.12.part-2.stoke", prev, sizeof prev) == 0);
    CHECK_STR(prev, "node.12.stoke");
    CHECK(stoke_previous_part_name("node.12.2.part-10.stoke", prev, sizeof prev) == 0);
    CHECK_STR(prev, "node.12.2.part-9.stoke");
    CHECK(stoke_previous_part_name("node.12.stoke", prev, sizeof prev) == -1);
    CHECK(stoke_previous_part_name("node.12.part-2.stoke", prev, 8) == -1); /* no room */
}

static void check_beside(void)
{
    char *p = stoke_part_beside("out/run/node.12.stoke", "node.12.part-2.stoke");
    CHECK_STR(p, "out/run/node.12.part-2.stoke");
    free(p);
    p = stoke_part_beside("node.12.stoke", "node.12.part-2.stoke");
    CHECK_STR(p, "node.12.part-2.stoke");
    free(p);
    /* A damaged or hostile record never leads out of the directory. */
    CHECK(stoke_part_beside("out/a.stoke", "../a.part-2.stoke") == NULL);
    CHECK(stoke_part_beside("out/a.stoke", "/etc/passwd") == NULL);
    CHECK(stoke_part_beside("out/a.stoke", "..") == NULL);
    CHECK(stoke_part_beside("out/a.stoke", "") == NULL);
    CHECK(stoke_part_beside("out/a.stoke", "notes.txt") == NULL);
}

int main(void)
{
    check_numbers();
    check_previous();
    check_beside();
    return check_report("test_parts");
}
