/*
 * test_reader.c - unit test of the trace reader (reader.c) on traces
 * written by tests/tools/make_trace: whole, truncated, corrupted, garbled,
 * foreign, newer, empty, header-only, missing.
 *
 * Never: checks what records mean (test_load.c does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "reader.h"
#include "scratch.h"
#include "stoke_format.h"

struct tally {
    unsigned records, samples_records, unknown;
    int saw_end;
};

static int count_record(void *ctx, unsigned type, const uint8_t *payload, size_t len)
{
    struct tally *t = ctx;
    t->records++;
    t->samples_records += type == STOKE_REC_SAMPLES;
    t->saw_end |= type == STOKE_REC_END;
    t->unknown += type > STOKE_REC_NOTE;
    return 0;
}

/* Writes a trace of the given kind; returns the bytes_lost make_trace
 * reports for it (0 if it reports none). */
static long make(const char *kind, char *path, size_t len)
{
    char cmd[512];
    scratch_path(path, len, kind);
    snprintf(cmd, sizeof cmd, "'%s' %s '%s'", MAKE_TRACE, kind, path);
    char *out = run_capture(cmd);
    long lost = 0;
    sscanf(out, "bytes_lost %ld", &lost);
    free(out);
    return lost;
}

static int read_kind(const char *kind, struct tally *t, struct stoke_read_status *st,
                     long *expected_lost, char *err, size_t errlen)
{
    char path[256];
    *expected_lost = make(kind, path, sizeof path);
    memset(t, 0, sizeof *t);
    err[0] = '\0';
    return stoke_read_trace(path, count_record, t, st, err, errlen);
}

static void test_whole(void)
{
    struct tally t;
    struct stoke_read_status st;
    long lost;
    char err[512];
    CHECK(read_kind("valid", &t, &st, &lost, err, sizeof err) == 0);
    CHECK(!st.damaged && st.bytes_lost == 0);
    CHECK(st.major == STOKE_FORMAT_MAJOR);
    CHECK(t.records == st.records && t.records > 10);
    CHECK(t.samples_records == 2 && t.saw_end);
    CHECK(t.unknown == 1); /* the record type from the future reaches the caller */
}

static void test_damaged(const char *kind, int corrupted)
{
    struct tally t;
    struct stoke_read_status st;
    long lost;
    char err[512];
    CHECK(read_kind(kind, &t, &st, &lost, err, sizeof err) == 0);
    CHECK(st.damaged);
    CHECK(st.corrupted == corrupted);
    CHECK(lost > 0 && st.bytes_lost == (uint64_t)lost);
    CHECK(t.samples_records == 1 && !t.saw_end); /* the frames before the damage */
}

static void test_refused(const char *kind, const char *message)
{
    struct tally t;
    struct stoke_read_status st;
    long lost;
    char err[512], want[512], path[256];
    CHECK(read_kind(kind, &t, &st, &lost, err, sizeof err) == -1);
    scratch_path(path, sizeof path, kind);
    snprintf(want, sizeof want, "%s: %s", path, message);
    CHECK_STR(err, want);
    CHECK(t.records == 0);
}

static void test_header_only(void)
{
    struct tally t;
    struct stoke_read_status st;
    long lost;
    char err[512];
    CHECK(read_kind("headeronly", &t, &st, &lost, err, sizeof err) == 0);
    CHECK(!st.damaged && t.records == 0);
}

static void test_missing_and_directory(void)
{
    struct stoke_read_status st;
    struct tally t = {0};
    char err[512], path[256];
    scratch_path(path, sizeof path, "no-such.stoke");
    CHECK(stoke_read_trace(path, count_record, &t, &st, err, sizeof err) == -1);
    CHECK(strstr(err, "no-such.stoke: cannot open: No such file or directory") != NULL);
    CHECK(stoke_read_trace(scratch_dir, count_record, &t, &st, err, sizeof err) == -1);
    CHECK(strstr(err, "is a directory") != NULL);
}

int main(void)
{
    scratch_init();
    test_whole();
    test_damaged("truncated", 0);
    test_damaged("corrupted", 1);
    test_damaged("garbled", 1);
    test_refused("foreign", "not a stoke trace");
    test_refused("newer", "trace format version 2 is newer than this stoke (1); upgrade stoke");
    test_refused("empty", "file is empty, not a stoke trace; record again");
    test_header_only();
    test_missing_and_directory();
    scratch_cleanup();
    return check_report("test_reader");
}
