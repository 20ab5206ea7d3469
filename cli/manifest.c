/*
 * manifest.c - reads and writes stoke-manifest.txt; see manifest.h. The
 * manifest is text: a first line "stoke-manifest 1", then one line per
 * file, "INODE SIZE NAME".
 *
 * Never removes a file the manifest does not name, one whose name is not a
 * name stoke record writes, a link, a file of another owner than the
 * manifest's, or a file whose inode or size differ from the manifest's;
 * never trusts a manifest that is a link or belongs to another user (root
 * excepted).
 */
#define _GNU_SOURCE /* getline */
#include "manifest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_file.h"

#define MANIFEST_HEADER "stoke-manifest 1"
#define NAMES_SHOWN 4

/* A manifest line's name: a plain name of a file stoke record writes. */
static int is_listed_name(const char *name)
{
    return !strchr(name, '/') && is_output_file_name(name);
}

/* Adds the entry of a line "INODE SIZE NAME"; any other line is skipped. */
static void parse_line(char *line, struct output_files *list)
{
    uint64_t inode, size;
    int name_at = 0;
    line[strcspn(line, "\n")] = '\0';
    if (sscanf(line, "%" SCNu64 " %" SCNu64 " %n", &inode, &size, &name_at) == 2 && name_at &&
        is_listed_name(line + name_at))
        add_output_file(list, line + name_at, inode, size);
}

/* The manifest's entries; its owner in *owner. -1 without a manifest the
 * user can trust. */
static int read_manifest(int dir_fd, struct output_files *list, uid_t *owner)
{
    int fd = openat(dir_fd, MANIFEST_FILE, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
    if (!f) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && owned_by_user_or_root(st.st_uid) &&
             getline(&line, &cap, f) > 0 && !strcmp(line, MANIFEST_HEADER "\n");
    if (ok)
        *owner = st.st_uid;
    while (ok && getline(&line, &cap, f) > 0)
        parse_line(line, list);
    free(line);
    fclose(f);
    return ok ? 0 : -1;
}

/* 1 when the entry is still the file the recording left. */
static int unchanged(int dir_fd, const struct output_file *entry, uid_t owner)
{
    struct stat st;
    return fstatat(dir_fd, entry->name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
           S_ISREG(st.st_mode) && st.st_uid == owner && (uint64_t)st.st_ino == entry->inode &&
           (uint64_t)st.st_size == entry->size;
}

static int still_there(int dir_fd, const char *name)
{
    struct stat st;
    return fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* "a.stoke, b.stoke and 3 more" */
static void print_names(const struct output_files *list)
{
    for (size_t i = 0; i < list->n && i < NAMES_SHOWN; i++)
        fprintf(stderr, "%s%s", i ? ", " : "", list->files[i].name);
    if (list->n > NAMES_SHOWN)
        fprintf(stderr, " and %zu more", list->n - NAMES_SHOWN);
    fputc('\n', stderr);
}

static void say_what_happened(const char *dir, const struct output_files *removed,
                              const struct output_files *kept)
{
    if (removed->n) {
        fprintf(stderr, "stoke: removed %zu file%s of the earlier recording from %s/: ",
                removed->n, removed->n == 1 ? "" : "s", dir);
        print_names(removed);
    }
    if (kept->n) {
        fprintf(stderr, "stoke: kept %zu file%s of the earlier recording in %s/, changed since "
                        "it wrote %s: ",
                kept->n, kept->n == 1 ? "" : "s", dir, kept->n == 1 ? "it" : "them");
        print_names(kept);
    }
}

void remove_earlier_recording(int dir_fd, const char *dir)
{
    struct output_files listed = {0}, removed = {0}, kept = {0};
    uid_t owner;
    if (read_manifest(dir_fd, &listed, &owner) == 0) {
        for (size_t i = 0; i < listed.n; i++) {
            const struct output_file *f = &listed.files[i];
            if (unchanged(dir_fd, f, owner) && unlinkat(dir_fd, f->name, 0) == 0)
                add_output_file(&removed, f->name, f->inode, f->size);
            else if (still_there(dir_fd, f->name))
                add_output_file(&kept, f->name, f->inode, f->size);
        }
        unlinkat(dir_fd, MANIFEST_FILE, 0);
        say_what_happened(dir, &removed, &kept);
    }
    free_output_files(&listed);
    free_output_files(&removed);
    free_output_files(&kept);
}

static int write_manifest(const char *dir, const struct output_files *made)
{
    char path[PATH_MAX], err[PATH_MAX + 256];
    snprintf(path, sizeof path, "%s/%s", dir, MANIFEST_FILE);
    struct report_file file;
    int rc = report_file_open(&file, path, err, sizeof err);
    if (rc == 0) {
        fprintf(file.out, "%s\n", MANIFEST_HEADER);
        for (size_t i = 0; i < made->n; i++)
            if (!strchr(made->files[i].name, '\n'))
                fprintf(file.out, "%" PRIu64 " %" PRIu64 " %s\n", made->files[i].inode,
                        made->files[i].size, made->files[i].name);
        rc = report_file_close(&file, ferror(file.out), err, sizeof err);
    }
    if (rc)
        fprintf(stderr, "stoke: warning: no manifest (%s), so a new recording into %s/ will "
                        "leave this one's files in place\n", err, dir);
    return rc;
}

int leave_manifest(const char *dir, const struct output_files *earlier)
{
    struct output_files now = {0}, made = {0};
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int rc = fd >= 0 ? list_output_files(fd, &now) : -1;
    if (fd >= 0)
        close(fd);
    if (rc)
        fprintf(stderr, "stoke: warning: no manifest (cannot list %s/: %s), so a new "
                        "recording into it will leave this one's files in place\n",
                dir, strerror(errno));
    output_files_added(earlier, &now, &made);
    if (rc == 0 && made.n)
        rc = write_manifest(dir, &made);
    free_output_files(&now);
    free_output_files(&made);
    return rc;
}
