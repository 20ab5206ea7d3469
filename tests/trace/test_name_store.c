/*
 * test_name_store.c - the names a recording keeps (name/name_store.h) and
 * their file (name/name_store_file.h): what is written reads back the same,
 * hostile strings included; a file cut short at any length, or with any
 * byte changed, is told as damaged and adds nothing; a store of a newer
 * major version asks for an upgrade; a write that cannot happen says why
 * and leaves no file behind.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "name_store.h"
#include "name_store_file.h"
#include "scratch.h"

static const uint8_t build_a[20] = {0xaa, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                    16, 17, 18, 19};
static const uint8_t build_b[4] = {0xbb, 0xbb, 0xbb, 0xbb};
static const char hostile[] = "evil\n\x1b[31m<script>alert(1)</script>;\"\\ \x7f\xff";

/* A store of two builds: an inline chain, a frame DWARF leaves unnamed,
 * an address nothing names, and hostile strings. */
static struct stoke_name_store *sample_store(void)
{
    struct stoke_name_store *s = stoke_name_store_new();
    const struct stoke_debuginfo_frame chain[] = {
        {"mix_steps", "/src/a.c", 17, "/src/a.c", 19}, {"_Z11alpha_phasej", "/src/a.c", 22, "/src/b.h", 30}};
    const struct stoke_debuginfo_frame unnamed[] = {{NULL, "", 0, "", 0}};
    const struct stoke_debuginfo_frame odd[] = {{hostile, hostile, UINT32_MAX, hostile, UINT32_MAX}};
    stoke_name_store_add(s, build_a, sizeof build_a, 0x1234, chain, 2);
    stoke_name_store_add(s, build_a, sizeof build_a, 0x1000, unnamed, 1);
    stoke_name_store_add(s, build_a, sizeof build_a, 0x10, NULL, 0);
    stoke_name_store_add(s, build_b, sizeof build_b, UINT64_MAX, odd, 1);
    return s;
}

static void expect_sample(const struct stoke_name_store *s)
{
    struct stoke_debuginfo_frame f[STOKE_NAME_STORE_MAX_FRAMES];
    CHECK(stoke_name_store_count(s) == 4);
    CHECK(stoke_name_store_find(s, build_a, sizeof build_a, 0x1234, f, 64) == 2);
    CHECK_STR(f[0].name, "mix_steps");
    CHECK_STR(f[1].name, "_Z11alpha_phasej");
    CHECK_STR(f[1].file, "/src/a.c");
    CHECK(f[0].line == 17 && f[1].line == 22);
    CHECK_STR(f[0].at_file, "/src/a.c");
    CHECK_STR(f[1].at_file, "/src/b.h");
    CHECK(f[0].at_line == 19 && f[1].at_line == 30);
    CHECK(stoke_name_store_find(s, build_a, sizeof build_a, 0x1000, f, 64) == 1);
    CHECK(f[0].name == NULL);
    CHECK(stoke_name_store_find(s, build_a, sizeof build_a, 0x10, f, 64) == 0);
    CHECK(stoke_name_store_find(s, build_a, sizeof build_a, 0x11, f, 64) == -1);
    CHECK(stoke_name_store_find(s, build_b, sizeof build_b, UINT64_MAX, f, 64) == 1);
    CHECK_STR(f[0].name, hostile);
    CHECK_STR(f[0].file, hostile);
    CHECK(f[0].line == UINT32_MAX);
    CHECK_STR(f[0].at_file, hostile);
    CHECK(f[0].at_line == UINT32_MAX);
    /* keyed by the whole build-id: another build, or a prefix, is not it */
    CHECK(stoke_name_store_find(s, build_a, 19, 0x1234, f, 64) == -1);
    CHECK(!stoke_name_store_has_build(s, build_b, 3));
    CHECK(stoke_name_store_has_build(s, build_b, sizeof build_b));
}

static void check_table(void)
{
    struct stoke_name_store *s = sample_store();
    const struct stoke_debuginfo_frame other[] = {{"other", "", 1, "", 0}};
    expect_sample(s);
    CHECK(stoke_name_store_added(s) == 4);
    stoke_name_store_settle(s);
    stoke_name_store_add(s, build_a, sizeof build_a, 0x1234, other, 1); /* kept as it was */
    stoke_name_store_add(s, NULL, 0, 0x1234, other, 1);                 /* no build-id */
    CHECK(stoke_name_store_added(s) == 0);
    expect_sample(s);
    stoke_name_store_free(s);
}

static char *read_whole(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *data = malloc(1 << 16);
    *size = f ? fread(data, 1, 1 << 16, f) : 0;
    if (f)
        fclose(f);
    return data;
}

static void write_whole(const char *path, const char *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    fwrite(data, 1, size, f);
    fclose(f);
}

static void check_round_trip(const char *path)
{
    char why[256];
    struct stoke_name_store *s = sample_store(), *back = stoke_name_store_new();
    CHECK(stoke_name_store_write(path, s, why, sizeof why) == 0);
    CHECK(stoke_name_store_read(path, back, why, sizeof why) == 0);
    expect_sample(back);
    stoke_name_store_free(s);
    stoke_name_store_free(back);
    char missing[512];
    scratch_path(missing, sizeof missing, "none.zst");
    back = stoke_name_store_new();
    CHECK(stoke_name_store_read(missing, back, why, sizeof why) == 1);
    stoke_name_store_free(back);
}

/* Reads path as damaged (or, for damage the format allows, whole). */
static void expect_damage_told(const char *path, int may_be_whole)
{
    char why[256] = "";
    struct stoke_name_store *s = stoke_name_store_new();
    int rc = stoke_name_store_read(path, s, why, sizeof why);
    if (rc == 0 && may_be_whole) {
        expect_sample(s);
    } else {
        CHECK(rc == -1 && *why);
        CHECK(stoke_name_store_count(s) == 0);
    }
    stoke_name_store_free(s);
}

static void check_damage(const char *path)
{
    char damaged[512];
    size_t size;
    char *whole = read_whole(path, &size);
    scratch_path(damaged, sizeof damaged, "damaged.zst");
    for (size_t len = 0; len < size; len++) {
        write_whole(damaged, whole, len);
        expect_damage_told(damaged, 0);
    }
    for (size_t i = 0; i < size; i++) {
        char *copy = malloc(size);
        memcpy(copy, whole, size);
        copy[i] ^= 0x41;
        write_whole(damaged, copy, size);
        expect_damage_told(damaged, i >= 10 && i < 16); /* minor version, reserved */
        free(copy);
    }
    whole[8] = 2; /* a newer major version */
    write_whole(damaged, whole, size);
    char why[256] = "";
    struct stoke_name_store *s = stoke_name_store_new();
    CHECK(stoke_name_store_read(damaged, s, why, sizeof why) == -1);
    CHECK(strstr(why, "upgrade stoke") != NULL);
    stoke_name_store_free(s);
    free(whole);
}

static void check_write_failure(void)
{
    char path[512], why[256] = "";
    scratch_path(path, sizeof path, "no-such-dir/stoke-names.zst");
    struct stoke_name_store *s = sample_store();
    CHECK(stoke_name_store_write(path, s, why, sizeof why) == -1);
    CHECK(strstr(why, strerror(ENOENT)) != NULL);
    stoke_name_store_free(s);
}

int main(void)
{
    char path[512];
    scratch_init();
    scratch_path(path, sizeof path, "stoke-names.zst");
    check_table();
    check_round_trip(path);
    check_damage(path);
    check_write_failure();
    scratch_cleanup();
    return check_report("test_name_store");
}
