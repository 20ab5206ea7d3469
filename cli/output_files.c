/*
 * output_files.c - see output_files.h. Reads the directory only: never
 * opens, changes or removes a file in it.
 */
#include "output_files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "continuous_push.h"
#include "load_output.h"
#include "load_marks.h"
#include "outputs.h"
#include "recording_names.h"
#include "traces.h"

/* A window stoke record --push could not send: push-FROM-UNTIL.pb.gz. */
static int is_kept_window_name(const char *name)
{
    size_t len = strlen(name), suffix = strlen(PUSH_FILE_SUFFIX);
    return !strncmp(name, PUSH_FILE_PREFIX, strlen(PUSH_FILE_PREFIX)) && len > suffix &&
           !strcmp(name + len - suffix, PUSH_FILE_SUFFIX);
}

int is_output_file_name(const char *name)
{
    return is_trace_name(name) || is_js_heap_snapshot_name(name) ||
           !strcmp(name, stoke_output_formats[STOKE_OUTPUT_HTML].file_name) ||
           !strcmp(name, LOAD_OUTPUT_FILE) || !strcmp(name, LOAD_MARKS_FILE) ||
           !strcmp(name, STOKE_RECORDING_NAMES_FILE) ||
           is_kept_window_name(name);
}

int owned_by_user_or_root(uid_t uid)
{
    return uid == geteuid() || uid == 0;
}

void add_output_file(struct output_files *list, const char *name, uint64_t inode,
                     uint64_t size)
{
    list->files = stoke_xrealloc(list->files, (list->n + 1) * sizeof *list->files);
    list->files[list->n++] = (struct output_file){stoke_xstrdup(name), inode, size};
}

void free_output_files(struct output_files *list)
{
    for (size_t i = 0; i < list->n; i++)
        free(list->files[i].name);
    free(list->files);
    memset(list, 0, sizeof *list);
}

int list_output_files(int dir_fd, struct output_files *out)
{
    free_output_files(out);
    int fd = dup(dir_fd); /* closedir closes the descriptor it was given */
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    if (!d) {
        int error = errno;
        if (fd >= 0)
            close(fd);
        errno = error;
        return -1;
    }
    rewinddir(d);
    struct dirent *e;
    struct stat st;
    while ((e = readdir(d)))
        if (is_output_file_name(e->d_name) &&
            fstatat(dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
            add_output_file(out, e->d_name, (uint64_t)st.st_ino, (uint64_t)st.st_size);
    closedir(d);
    return 0;
}

const struct output_file *find_output_file(const struct output_files *list, const char *name,
                                           uint64_t inode)
{
    for (size_t i = 0; list && i < list->n; i++)
        if (list->files[i].inode == inode && !strcmp(list->files[i].name, name))
            return &list->files[i];
    return NULL;
}

void output_files_added(const struct output_files *before, const struct output_files *now,
                        struct output_files *out)
{
    free_output_files(out);
    for (size_t i = 0; i < now->n; i++) {
        const struct output_file *f = &now->files[i];
        if (!find_output_file(before, f->name, f->inode))
            add_output_file(out, f->name, f->inode, f->size);
    }
}
