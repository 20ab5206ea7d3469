/*
 * check.h - the tiny assertion helpers of stoke's unit tests.
 *
 * Owns: counting and reporting failed checks.
 * Never: stops at the first failure (every check of a test runs).
 */
#ifndef STOKE_TEST_CHECK_H
#define STOKE_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            check_failures++;                                                       \
        }                                                                           \
    } while (0)

#define CHECK_STR(got, want)                                                          \
    do {                                                                              \
        const char *got_ = (got), *want_ = (want);                                    \
        if (!got_ || strcmp(got_, want_) != 0) {                                      \
            fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", __FILE__, __LINE__,   \
                    got_ ? got_ : "(null)", want_);                                   \
            check_failures++;                                                         \
        }                                                                             \
    } while (0)

static inline int check_report(const char *test)
{
    if (check_failures)
        fprintf(stderr, "%s: %d check(s) failed\n", test, check_failures);
    return check_failures ? 1 : 0;
}

#endif
