/*
 * output_files.h - the files of an output directory that stoke record
 * writes (traces and heap snapshots, flamegraph.html, load.txt), each
 * known by its name, inode and size, so a recording can tell its own files
 * from those that were there before it.
 */
#ifndef STOKE_CLI_OUTPUT_FILES_H
#define STOKE_CLI_OUTPUT_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct output_file {
    char *name;
    uint64_t inode;
    uint64_t size;
};

struct output_files {
    struct output_file *files;
    size_t n;
};

/* 1 when name is one stoke record writes: a trace (*.stoke), node's
 * heap snapshot (*.heapsnapshot), the report, the load command's output and
 * marks, the names stored with the recording, or a window stoke record
 * --push could not send. */
int is_output_file_name(const char *name);

/* Lists the regular files (not links) with such names in the directory
 * open as dir_fd, in out (emptied first). Returns 0, or -1 with errno set
 * when the directory cannot be read. */
int list_output_files(int dir_fd, struct output_files *out);

/* The entry of list with that name and inode, or NULL. */
const struct output_file *find_output_file(const struct output_files *list, const char *name,
                                           uint64_t inode);

/* The entries of now that are not in before (by name and inode), in out. */
void output_files_added(const struct output_files *before, const struct output_files *now,
                        struct output_files *out);

/* 1 when a file of owner uid may be trusted as the user's own: the user's
 * or root's. */
int owned_by_user_or_root(uid_t uid);

void add_output_file(struct output_files *list, const char *name, uint64_t inode,
                     uint64_t size);
void free_output_files(struct output_files *list);

#endif
