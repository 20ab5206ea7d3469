/*
 * code_map.c - the process's code outside its loaded objects; see
 * code_map.h.
 *
 * Owns: reading /proc/self/maps, the table of JIT code ranges the handler
 * reads (under a sequence counter, as modules.c does), and pairing a
 * mapping outside every module with the module mapping of the same file
 * and offsets.
 * Never: adds an alias whose file is not a loaded object's, or makes a
 * system call from a signal handler.
 */
#define _GNU_SOURCE
#include "code_map.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modules.h"
#include "common/procfs.h"
#include "common/sandbox.h"

#define FIRST_WAIT_NS 20000000ull    /* between looks while the map changes: a cycle */
#define LONGEST_WAIT_NS 1000000000ull
#define MAX_CODE_MAPPINGS 4096
#define MAX_JIT_RANGES 1024
#define READ_ATTEMPTS 100000

/* An executable mapping. */
struct code_mapping {
    uintptr_t lo, hi;
    uint64_t offset; /* in the file */
    uint64_t dev, inode; /* inode 0: anonymous */
};

static struct code_mapping mappings[MAX_CODE_MAPPINGS];
static uint32_t nmappings;
static uint64_t next_look_ns, wait_ns;
static struct procfs_file maps = {-1};
static _Atomic int asked;

/* JIT code ranges, sorted; readers retry while table_seq is odd. */
static uintptr_t jit_lo[MAX_JIT_RANGES], jit_hi[MAX_JIT_RANGES];
static _Atomic uint32_t jit_count, jit_seq;

void code_map_reset(void)
{
    next_look_ns = 0;
    wait_ns = FIRST_WAIT_NS;
    atomic_store(&asked, 0);
}

void code_map_close(void)
{
    procfs_close(&maps);
}

void code_map_ask(void)
{
    atomic_store_explicit(&asked, 1, memory_order_relaxed);
}

/* --- the handler's side ------------------------------------------------- */

static int find_range(uintptr_t addr, uint32_t count)
{
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (addr < jit_lo[mid])
            hi = mid;
        else if (addr >= jit_hi[mid])
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

int code_map_is_jit_code(uintptr_t addr)
{
    for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
        uint32_t seq = atomic_load_explicit(&jit_seq, memory_order_acquire);
        if (seq & 1) {
            __builtin_ia32_pause();
            continue;
        }
        int found = find_range(addr, atomic_load_explicit(&jit_count, memory_order_relaxed));
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&jit_seq, memory_order_relaxed) == seq)
            return found;
    }
    return 0;
}

/* --- the writer's side -------------------------------------------------- */

/* "lo-hi perms offset major:minor inode [path]": keeps executable
 * mappings, of files and anonymous. */
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
    if (m.inode && *end != '/')
        return; /* a file that is no longer there */
    if (nmappings < MAX_CODE_MAPPINGS)
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
        if (o != m && m->inode && o->dev == m->dev && o->inode == m->inode && o->offset <= m->offset &&
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

/* Publishes the mappings outside every module as JIT code; returns 1 when
 * the table changed. */
static int publish_jit_ranges(void)
{
    static uintptr_t lo[MAX_JIT_RANGES], hi[MAX_JIT_RANGES];
    uint32_t n = 0;
    for (uint32_t i = 0; i < nmappings; i++) {
        const struct code_mapping *m = &mappings[i];
        if (modules_contains(m->lo))
            continue;
        if (n && hi[n - 1] == m->lo)
            hi[n - 1] = m->hi;
        else if (n < MAX_JIT_RANGES) {
            lo[n] = m->lo;
            hi[n++] = m->hi;
        }
    }
    uint32_t old = atomic_load(&jit_count);
    if (n == old && !memcmp(lo, jit_lo, n * sizeof *lo) && !memcmp(hi, jit_hi, n * sizeof *hi))
        return 0;
    atomic_fetch_add_explicit(&jit_seq, 1, memory_order_acq_rel);
    memcpy(jit_lo, lo, n * sizeof *lo);
    memcpy(jit_hi, hi, n * sizeof *hi);
    atomic_store_explicit(&jit_count, n, memory_order_relaxed);
    atomic_fetch_add_explicit(&jit_seq, 1, memory_order_release);
    return 1;
}

/* Reads the map: aliases first (they leave the JIT ranges), then the
 * ranges. Returns whether aliases were added, and in *changed whether
 * anything changed. */
static int look(int *changed)
{
    int added = 0;
    read_mappings();
    for (uint32_t i = 0; i < nmappings; i++) {
        const struct code_mapping *m = &mappings[i], *o;
        if (!modules_contains(m->lo) && (o = mapped_in_a_module(m)))
            added += add_alias(m, o);
    }
    *changed = publish_jit_ranges() || added;
    return added > 0;
}

int code_map_refresh(uint64_t now_ns)
{
    int changed;
    if (!atomic_load_explicit(&asked, memory_order_relaxed) || now_ns < next_look_ns ||
        sandbox_filtered())
        return 0;
    atomic_store(&asked, 0);
    int added = look(&changed);
    wait_ns = changed ? FIRST_WAIT_NS : wait_ns * 2 > LONGEST_WAIT_NS ? LONGEST_WAIT_NS : wait_ns * 2;
    next_look_ns = now_ns + wait_ns;
    return added;
}
