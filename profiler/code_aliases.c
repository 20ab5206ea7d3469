/*
 * code_aliases.c - second mappings of loaded code; see code_aliases.h.
 *
 * Owns: reading /proc/self/maps and pairing a mapping outside every module
 * with the module mapping of the same file and offsets.
 * Never: adds a mapping whose file is not a loaded object's, or runs in a
 * signal handler.
 */
#define _GNU_SOURCE
#include "code_aliases.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modules.h"
#include "procfs.h"
#include "sandbox.h"

#define FIRST_WAIT_NS 1000000000ull  /* between looks while aliases turn up */
#define LONGEST_WAIT_NS 32000000000ull
#define MAX_CODE_MAPPINGS 4096

/* An executable mapping of a file. */
struct code_mapping {
    uintptr_t lo, hi;
    uint64_t offset; /* in the file */
    uint64_t dev, inode;
};

static struct code_mapping mappings[MAX_CODE_MAPPINGS];
static uint32_t nmappings;
static uint64_t next_look_ns, wait_ns;
static struct procfs_file maps = {-1};

void code_aliases_reset(void)
{
    procfs_close(&maps); /* a fork child's is its parent's */
    next_look_ns = 0;
    wait_ns = FIRST_WAIT_NS;
}

/* "lo-hi perms offset major:minor inode path": keeps executable mappings
 * of files. */
static void parse_line(const char *line)
{
    char *end;
    struct code_mapping m;
    m.lo = strtoull(line, &end, 16);
    if (*end != '-')
        return;
    m.hi = strtoull(end + 1, &end, 16);
    if (end[0] != ' ' || end[3] != 'x')
        return;
    m.offset = strtoull(end + 5, &end, 16);
    uint64_t major = strtoull(end, &end, 16);
    uint64_t minor = strtoull(end + 1, &end, 16);
    m.dev = major << 32 | minor;
    m.inode = strtoull(end, &end, 10);
    while (*end == ' ')
        end++;
    if (m.inode && *end == '/' && nmappings < MAX_CODE_MAPPINGS)
        mappings[nmappings++] = m;
}

static void read_mappings(void)
{
    static char buf[65536];
    size_t kept = 0;
    off_t at = 0;
    ssize_t n;
    nmappings = 0;
    if (maps.fd < 0 && procfs_keep(&maps, "/proc/self/maps"))
        return;
    while ((n = pread(maps.fd, buf + kept, sizeof buf - 1 - kept, at)) > 0) {
        at += n;
        size_t len = kept + (size_t)n, start = 0;
        buf[len] = 0;
        for (char *nl; (nl = memchr(buf + start, '\n', len - start)); start = (size_t)(nl - buf) + 1) {
            *nl = 0;
            parse_line(buf + start);
        }
        kept = len - start;
        if (kept == sizeof buf - 1) /* a line longer than the buffer */
            kept = 0;
        memmove(buf, buf + start, kept);
    }
}

/* The module mapping of m's file that holds m's offsets, or NULL. */
static const struct code_mapping *mapped_in_a_module(const struct code_mapping *m)
{
    uint64_t len = m->hi - m->lo;
    for (uint32_t i = 0; i < nmappings; i++) {
        const struct code_mapping *o = &mappings[i];
        if (o != m && o->dev == m->dev && o->inode == m->inode && o->offset <= m->offset &&
            m->offset + len <= o->offset + (o->hi - o->lo) && modules_contains(o->lo))
            return o;
    }
    return NULL;
}

static int add_alias(const struct code_mapping *m, const struct code_mapping *o)
{
    struct module_view module;
    uintptr_t original = o->lo + (uintptr_t)(m->offset - o->offset);
    if (modules_find(original, &module))
        return 0;
    uintptr_t vaddr = original - module.bias;
    return !modules_add_alias(original, m->lo, m->hi, m->lo - vaddr);
}

static int look(void)
{
    int added = 0;
    read_mappings();
    for (uint32_t i = 0; i < nmappings; i++) {
        const struct code_mapping *m = &mappings[i], *o;
        if (!modules_contains(m->lo) && (o = mapped_in_a_module(m)))
            added += add_alias(m, o);
    }
    return added > 0;
}

int code_aliases_look(uint64_t now_ns)
{
    if (now_ns < next_look_ns || sandbox_filtered())
        return 0;
    int added = look();
    wait_ns = added ? FIRST_WAIT_NS : wait_ns * 2 > LONGEST_WAIT_NS ? LONGEST_WAIT_NS : wait_ns * 2;
    next_look_ns = now_ns + wait_ns;
    return added;
}
