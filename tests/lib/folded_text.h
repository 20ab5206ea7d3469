/*
 * folded_text.h - what the folded writer makes of a profile, as a string,
 * for the tests to compare with the stacks they expect.
 */
#ifndef STOKE_TEST_FOLDED_TEXT_H
#define STOKE_TEST_FOLDED_TEXT_H

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "folded.h"

/* The folded text of value v of p, or of its before and after values when
 * differential (a profile of stoke_profile_diff); malloc'ed. */
static inline char *folded_text(const struct stoke_profile *p, size_t v, int differential)
{
    const struct stoke_report_tab tab = {"profile", p, differential};
    const struct stoke_report r = {.tabs = &tab, .ntabs = 1, .value_index = v};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(stoke_write_folded(f, &r) == 0);
    fclose(f);
    return text;
}

#endif
