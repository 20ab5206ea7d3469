/*
 * recording_names.c - the name store of each directory traces are read
 * from; see recording_names.h.
 *
 * Owns: which directory's store a trace uses (the one it lies in), reading
 * it once, writing it when it grew, and the messages about it: damaged,
 * not writable, standing in for a binary.
 * Never: names an address (name/symbolize.c does, with the store), or
 * writes a file other than the store.
 */
#include "recording_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "name_store.h"
#include "name_store_file.h"
#include "warn.h"

/* The store of one directory. */
struct directory {
    char *dir;
    char *store_path;
    struct stoke_name_store *names;
    int write_failed; /* told once */
    int stood_in;     /* told once */
};

static struct {
    struct directory *dirs;
    size_t n, cap;
    char *note;
} recordings;

static char *directory_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return stoke_xstrdup(".");
    size_t len = slash == path ? 1 : (size_t)(slash - path);
    char *dir = stoke_xmalloc(len + 1);
    memcpy(dir, path, len);
    dir[len] = '\0';
    return dir;
}

/* Reads the directory's store file; a damaged one is told and left out. */
static void read_store(struct directory *d)
{
    char why[256];
    d->names = stoke_name_store_new();
    if (stoke_name_store_read(d->store_path, d->names, why, sizeof why) < 0)
        stoke_warn(d->store_path, "%s; it is ignored: addresses are named from the binaries "
                   "whose build-id matches the run's, and the file is written anew", why);
    stoke_name_store_settle(d->names);
}

static struct directory *directory_for(const char *trace_path)
{
    char *dir = directory_of(trace_path);
    for (size_t i = 0; i < recordings.n; i++)
        if (strcmp(recordings.dirs[i].dir, dir) == 0) {
            free(dir);
            return &recordings.dirs[i];
        }
    recordings.dirs = stoke_grow(recordings.dirs, &recordings.cap, recordings.n + 1,
                                 sizeof *recordings.dirs);
    struct directory *d = &recordings.dirs[recordings.n++];
    size_t len = strlen(dir) + sizeof STOKE_RECORDING_NAMES_FILE + 1;
    *d = (struct directory){.dir = dir, .store_path = stoke_xmalloc(len)};
    snprintf(d->store_path, len, "%s/%s", dir, STOKE_RECORDING_NAMES_FILE);
    read_store(d);
    return d;
}

struct stoke_name_store *stoke_recording_names_of(const char *trace_path)
{
    return directory_for(trace_path)->names;
}

static void write_store(struct directory *d)
{
    char why[256];
    if (!stoke_name_store_added(d->names) || d->write_failed)
        return;
    if (stoke_name_store_write(d->store_path, d->names, why, sizeof why) == 0) {
        stoke_name_store_settle(d->names);
        return;
    }
    d->write_failed = 1;
    stoke_warn(d->store_path, "cannot be written (%s): this recording's names are not stored "
               "with it, so it reports unnamed once its binaries change or go; make %s "
               "writable and report it again", why, d->dir);
}

/* Stored names stood in for a binary: said once per directory. */
static void tell_stood_in(struct directory *d, const char *trace_path, const char *stood_in)
{
    if (!stood_in || d->stood_in)
        return;
    d->stood_in = 1;
    size_t len = strlen(stood_in) + strlen(d->store_path) + 128;
    free(recordings.note);
    recordings.note = stoke_xmalloc(len);
    snprintf(recordings.note, len, "%s; its frames are named from the names stored with the "
             "recording (%s)", stood_in, d->store_path);
    stoke_warn(trace_path, "%s", recordings.note);
}

void stoke_recording_names_settle(const char *trace_path, const char *stood_in)
{
    struct directory *d = directory_for(trace_path);
    write_store(d);
    tell_stood_in(d, trace_path, stood_in);
}

const char *stoke_recording_names_note(void)
{
    return recordings.note;
}
