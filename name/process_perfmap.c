/*
 * process_perfmap.c - where a traced process's perf map is, and whose it
 * may be; see process_perfmap.h.
 *
 * Owns: the places looked at, the trusted user, and the warnings about a
 * map that is ignored or cut short.
 * Never: opens a map itself (stoke_perfmap_load checks the owner of what
 * it opened, so the file checked is the file read).
 */
#include "process_perfmap.h"

#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "alloc.h"
#include "user_name.h"
#include "warn.h"

/* The user the traced process ran as: the owner of its trace. */
static uid_t trace_owner(const char *trace_path)
{
    struct stat st;
    return stat(trace_path, &st) == 0 ? st.st_uid : geteuid();
}

static void warn_untrusted(const char *trace_path, const char *path, uid_t trace_uid,
                           uid_t owner)
{
    char owner_name[128], user[128];
    stoke_user_name(owner, owner_name, sizeof owner_name);
    stoke_user_name(trace_uid, user, sizeof user);
    stoke_warn(trace_path,
               "%s is ignored: it belongs to %s, and only perf maps of %s%s are read (anyone "
               "who can write to its directory may have put it there; if you trust it, chown "
               "it); its JIT frames are shown as addresses",
               path, owner_name, trace_uid == 0 ? "root" : user,
               trace_uid == 0 ? "" : ", who owns the trace, or of root");
}

static void warn_cut_short(const char *trace_path, const char *path,
                           const struct stoke_perfmap_status *st)
{
    uint64_t rest = st->file_bytes > st->bytes_read ? st->file_bytes - st->bytes_read : 0;
    stoke_warn(trace_path,
               "%s: only its first %" PRIu64 " MiB were read, the rest (%" PRIu64 " MiB) is "
               "ignored; JIT code named only there is shown as addresses",
               path, st->bytes_read >> 20, rest >> 20);
}

/* Reads the map in dir, warning when it is not (wholly) read. */
static struct stoke_perfmap *load_from(const char *trace_path, const char *dir, uint32_t pid,
                                       uid_t trace_uid)
{
    char path[4096];
    struct stoke_perfmap_status status;
    snprintf(path, sizeof path, "%s/perf-%" PRIu32 ".map", dir, pid);
    struct stoke_perfmap *m = stoke_perfmap_load(path, trace_uid, &status);
    if (status.untrusted)
        warn_untrusted(trace_path, path, trace_uid, status.owner);
    else if (status.cut_short)
        warn_cut_short(trace_path, path, &status);
    return m;
}

/* 1 when dir is /tmp itself, where the second look would go. */
static int is_tmp(const char *dir)
{
    char *real = realpath(dir, NULL);
    int same = real && strcmp(real, "/tmp") == 0;
    free(real);
    return same;
}

struct stoke_perfmap *stoke_process_perfmap(const char *trace_path, uint32_t pid)
{
    char *copy = stoke_xstrdup(trace_path);
    const char *trace_dir = dirname(copy);
    uid_t uid = trace_owner(trace_path);
    struct stoke_perfmap *m = load_from(trace_path, trace_dir, pid, uid);
    if (!m && !is_tmp(trace_dir))
        m = load_from(trace_path, "/tmp", pid, uid);
    free(copy);
    return m;
}
