/*
 * js_heap.c - asks node for V8 heap snapshots and files them next to the
 * native ones; see js_heap.h.
 *
 * Owns: whether this process is node with JavaScript heap snapshots on,
 * the one snapshot asked for at a time, finding node's file once it is
 * whole, and moving it.
 * Never: takes a file another process wrote (its name carries this pid),
 * or one older than the request; never waits in the writer's cycle.
 */
#define _GNU_SOURCE
#include "js_heap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stoke_agent_env.h"
#include "stoke_format.h"
#include "common/log.h"

#define GIVE_UP_US (120ull * 1000000) /* a heap of gigabytes takes a while */
#define SNAPSHOT_END "]}"            /* V8's serializer ends its JSON so */

static int armed;

static struct {
    int active;
    uint32_t seq;
    uint64_t asked_us;
    time_t asked_s;     /* wall clock, to tell node's file from older ones */
    char target[4096];  /* where the file goes: next to the native snapshot */
    char found[1024];   /* node's file, once seen */
    long long last_size;
} pending;

static int is_node(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    const char *name = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
    return !strcmp(name, "node") || !strcmp(name, "nodejs");
}

void js_heap_init(int heap_tracking)
{
    const char *options = getenv("NODE_OPTIONS");
    armed = heap_tracking && options && strstr(options, STOKE_NODE_HEAP_FLAG) && is_node();
}

int js_heap_signal(void)
{
    return armed ? STOKE_JS_HEAP_SIGNAL : 0;
}

void js_heap_request(const char *native_path, uint64_t now_us)
{
    const char *suffix = ".stoke", *seq = strstr(native_path, ".heap.");
    size_t len = strlen(native_path), n = strlen(suffix);
    if (!armed || pending.active || !seq || len <= n || len - n + 14 >= sizeof pending.target ||
        strcmp(native_path + len - n, suffix))
        return;
    snprintf(pending.target, sizeof pending.target, "%.*s.heapsnapshot", (int)(len - n),
             native_path);
    pending.seq = (uint32_t)strtoul(seq + strlen(".heap."), NULL, 10);
    pending.asked_us = now_us;
    pending.asked_s = time(NULL);
    pending.found[0] = 0;
    pending.last_size = -1;
    pending.active = kill(getpid(), STOKE_JS_HEAP_SIGNAL) == 0;
}

/* Heap.<date>.<time>.<pid>.<tid>.<n>.heapsnapshot of this process. */
static int is_our_file(const char *name)
{
    char pid_part[32];
    size_t len = strlen(name), n = strlen(".heapsnapshot");
    snprintf(pid_part, sizeof pid_part, ".%d.", (int)getpid());
    return !strncmp(name, "Heap.", 5) && strstr(name, pid_part) && len > n &&
           !strcmp(name + len - n, ".heapsnapshot");
}

/* The newest of node's files in the working directory written since the
 * request, into pending.found. */
static void look_for_file(void)
{
    DIR *d = opendir(".");
    struct dirent *e;
    time_t newest = 0;
    if (!d)
        return;
    while ((e = readdir(d))) {
        struct stat st;
        if (is_our_file(e->d_name) && !stat(e->d_name, &st) && S_ISREG(st.st_mode) &&
            st.st_mtime >= pending.asked_s && st.st_mtime >= newest &&
            strlen(e->d_name) < sizeof pending.found) {
            newest = st.st_mtime;
            strcpy(pending.found, e->d_name);
        }
    }
    closedir(d);
}

/* Whole: it ends as V8 ends the document, and did not grow since the last
 * cycle. */
static int is_whole(void)
{
    struct stat st;
    char tail[2];
    int fd = open(pending.found, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    long long size = fstat(fd, &st) ? -1 : (long long)st.st_size;
    int whole = size >= 2 && size == pending.last_size &&
                pread(fd, tail, 2, (off_t)size - 2) == 2 && !memcmp(tail, SNAPSHOT_END, 2);
    pending.last_size = size;
    close(fd);
    return whole;
}

/* rename, or across file systems a copy. */
static int move_file(const char *from, const char *to)
{
    if (!rename(from, to))
        return 0;
    if (errno != EXDEV)
        return -1;
    int in = open(from, O_RDONLY | O_CLOEXEC);
    int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    char buf[65536];
    ssize_t got = 0;
    while (in >= 0 && out >= 0 && (got = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)got) != got)
            got = -1;
    int ok = in >= 0 && out >= 0 && got == 0;
    if (in >= 0)
        close(in);
    if (out >= 0 && close(out))
        ok = 0;
    if (ok)
        unlink(from);
    else if (out >= 0)
        unlink(to);
    return ok ? 0 : -1;
}

static void record(struct records *r, uint64_t took_us, const char *file)
{
    const char *slash = strrchr(file, '/');
    records_begin(r, STOKE_REC_JS_HEAP);
    records_u(r, pending.seq);
    records_u(r, pending.asked_us);
    records_u(r, took_us);
    records_str(r, slash ? slash + 1 : file);
    records_end(r);
    pending.active = 0;
}

void js_heap_poll(struct records *r, uint64_t now_us)
{
    if (!pending.active)
        return;
    if (!pending.found[0])
        look_for_file();
    if (pending.found[0] && is_whole()) {
        int moved = move_file(pending.found, pending.target) == 0;
        if (!moved)
            agent_log("cannot move node's heap snapshot %s to %s: %s", pending.found,
                      pending.target, strerror(errno));
        record(r, now_us - pending.asked_us, moved ? pending.target : "");
    } else if (now_us - pending.asked_us > GIVE_UP_US) {
        agent_log("node wrote no JavaScript heap snapshot within %llu s",
                  (unsigned long long)(GIVE_UP_US / 1000000));
        record(r, 0, "");
    }
}
