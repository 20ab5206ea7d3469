/*
 * modules.c - the agent's table of loaded ELF objects (see modules.h).
 *
 * Writers (normal context) hold a recursive mutex and bump a sequence
 * counter around each change; readers (the signal handler) copy what they
 * need and retry if the counter moved. Memory of a module is only read by
 * the handler between modules_enter and modules_leave; dlclose raises a
 * barrier and waits for those readers before code can be unmapped.
 * Must never: allocate or lock on the reader side.
 */
#define _GNU_SOURCE
#include "modules.h"

#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <time.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stoke_format.h"

#define MAX_MODULES 1024
#define MAX_REMOVED 1024
#define PAGE_MASK ((uintptr_t)4095)
#define EH_TABLE_ENCODING 0x3b /* DW_EH_PE_datarel | DW_EH_PE_sdata4 */

struct module_entry {
    struct module_view v;
    char *path;
    uint8_t build_id[MODULE_MAX_BUILD_ID];
    uint32_t build_id_len;
    uint32_t alias_of;        /* id of the module it maps again, or 0 */
};

/* Second mappings of a loaded object's code (modules_add_alias), kept
 * across rescans for as long as the object stays where it was. */
#define MAX_ALIASES 16
static struct alias {
    uintptr_t original_lo, original_bias; /* the object it maps again */
    uintptr_t lo, hi, bias;
} aliases[MAX_ALIASES];
static uint32_t naliases;

static struct module_entry table[MAX_MODULES];
static _Atomic uint32_t table_count;
static _Atomic uint32_t table_seq;
static pthread_mutex_t table_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static uint32_t next_id = 1;
static unsigned long long seen_adds, seen_subs;

static uint32_t removed[MAX_REMOVED];
static uint32_t nremoved;

/* Recently unloaded modules, so the writer can still name samples taken
 * just before a dlclose (it drains up to a cycle later). */
#define GRAVEYARD 64
static struct {
    struct module_view v;
    uint64_t removed_ns;
} graveyard[GRAVEYARD];
static uint32_t graveyard_next;

static _Atomic int unwind_barrier;
static _Atomic int unwinders_in_flight;

/* --- reader side (async-signal-safe) ---------------------------------- */

static int find_index(uintptr_t addr, uint32_t count)
{
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (addr < table[mid].v.lo)
            hi = mid;
        else if (addr >= table[mid].v.hi)
            lo = mid + 1;
        else
            return (int)mid;
    }
    return -1;
}

/* A reader meeting an update in progress waits for it: updates are a copy
 * of the table, microseconds. The bound only matters if the updating
 * thread is descheduled meanwhile; the lookup then fails (a partial stack). */
#define READ_ATTEMPTS 100000

int modules_find(uintptr_t addr, struct module_view *out)
{
    for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
        uint32_t seq = atomic_load_explicit(&table_seq, memory_order_acquire);
        if (seq & 1) {
            __builtin_ia32_pause();
            continue;
        }
        uint32_t count = atomic_load_explicit(&table_count, memory_order_relaxed);
        int i = find_index(addr, count);
        if (i >= 0)
            *out = table[i].v;
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&table_seq, memory_order_relaxed) == seq)
            return i >= 0 && out->lo <= addr && addr < out->hi ? 0 : -1;
    }
    return -1;
}

int modules_contains(uintptr_t addr)
{
    for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
        uint32_t seq = atomic_load_explicit(&table_seq, memory_order_acquire);
        if (seq & 1) {
            __builtin_ia32_pause();
            continue;
        }
        int found = find_index(addr, atomic_load_explicit(&table_count, memory_order_relaxed));
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&table_seq, memory_order_relaxed) == seq)
            return found >= 0;
    }
    return 0;
}

int modules_segment_of(uintptr_t addr, uintptr_t len, uintptr_t *lo, uintptr_t *hi)
{
    struct module_view m;
    if (modules_find(addr, &m))
        return -1;
    for (uint32_t s = 0; s < m.nseg; s++)
        if (addr >= m.seg_lo[s] && addr + len <= m.seg_hi[s] && addr + len > addr) {
            *lo = m.seg_lo[s];
            *hi = m.seg_hi[s];
            return 0;
        }
    return -1;
}


int modules_enter(void)
{
    atomic_fetch_add(&unwinders_in_flight, 1);
    if (atomic_load(&unwind_barrier)) {
        atomic_fetch_sub(&unwinders_in_flight, 1);
        return -1;
    }
    return 0;
}

void modules_leave(void)
{
    atomic_fetch_sub(&unwinders_in_flight, 1);
}

static void set_frame(uint64_t address, const struct module_view *m, uint32_t *module,
                      uint64_t *offset)
{
    *module = m ? m->id : STOKE_MODULE_NONE;
    *offset = m ? address - m->bias : address;
}

void modules_resolve(const uint64_t *frames, uint32_t n, uint32_t *modules, uint64_t *offsets)
{
    for (uint32_t i = 0; i < n; i++) {
        struct module_view m;
        set_frame(frames[i], modules_find(frames[i], &m) ? NULL : &m, &modules[i], &offsets[i]);
    }
}

/* --- scanning (normal context, table_lock held) ----------------------- */

static uint64_t read_encoded(const uint8_t **p, uint8_t enc, uintptr_t datarel_base, int *ok)
{
    const uint8_t *at = *p;
    uint64_t v;
    switch (enc & 0x0f) {
    case 0x03: { uint32_t u; memcpy(&u, at, 4); v = u; *p += 4; break; }
    case 0x0b: { int32_t s; memcpy(&s, at, 4); v = (uint64_t)(int64_t)s; *p += 4; break; }
    case 0x00: case 0x04: case 0x0c: memcpy(&v, at, 8); *p += 8; break;
    default: *ok = 0; return 0;
    }
    switch (enc & 0x70) {
    case 0x00: break;
    case 0x10: v += (uintptr_t)at; break;
    case 0x30: v += datarel_base; break;
    default: *ok = 0;
    }
    return v;
}

/* Reads the header of .eh_frame_hdr to find its binary search table. */
static void parse_eh_frame_hdr(struct module_view *v, uintptr_t hdr)
{
    const uint8_t *h = (const uint8_t *)hdr;
    if (h[0] != 1 || h[3] != EH_TABLE_ENCODING)
        return;
    const uint8_t *p = h + 4;
    int ok = 1;
    read_encoded(&p, h[1], hdr, &ok); /* eh_frame_ptr: not needed */
    uint64_t fde_count = read_encoded(&p, h[2], hdr, &ok);
    if (!ok || fde_count == 0)
        return;
    v->eh_frame_hdr = hdr;
    v->eh_table = (uintptr_t)p;
    v->eh_fde_count = fde_count;
}

static void read_build_id(struct module_entry *e, uintptr_t notes, uintptr_t size)
{
    uintptr_t p = notes, end = notes + size;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
        const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
        uintptr_t name = p + sizeof *n;
        uintptr_t desc = name + ((n->n_namesz + 3) & ~3u);
        uintptr_t next = desc + ((n->n_descsz + 3) & ~3u);
        if (next > end)
            return;
        if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
            !memcmp((const void *)name, "GNU", 4) && n->n_descsz <= MODULE_MAX_BUILD_ID) {
            memcpy(e->build_id, (const void *)desc, n->n_descsz);
            e->build_id_len = n->n_descsz;
            return;
        }
        p = next;
    }
}

static void add_segment(struct module_view *v, uintptr_t lo, uintptr_t hi)
{
    lo &= ~PAGE_MASK;
    hi = (hi + PAGE_MASK) & ~PAGE_MASK;
    if (v->nseg < MODULE_MAX_SEGMENTS) {
        v->seg_lo[v->nseg] = lo;
        v->seg_hi[v->nseg] = hi;
        v->nseg++;
    }
    if (!v->lo || lo < v->lo)
        v->lo = lo;
    if (hi > v->hi)
        v->hi = hi;
}

/* The main program's path, read once: /proc/self/exe cannot be read once
 * the main thread has ended while other threads go on. */
static char exe_path[4096];

static const char *module_path(const char *name)
{
    if (!name || !*name) {
        if (!exe_path[0]) {
            ssize_t n = readlink("/proc/self/exe", exe_path, sizeof exe_path - 1);
            exe_path[n > 0 ? n : 0] = 0;
        }
        return exe_path;
    }
    if (!strncmp(name, "linux-vdso.so", 13) || !strncmp(name, "linux-gate.so", 13))
        return "[vdso]";
    return name;
}

struct scan {
    struct module_entry found[MAX_MODULES];
    uint32_t count;
};
static struct scan scratch;

static void describe(struct module_entry *e, const struct dl_phdr_info *info)
{
    memset(e, 0, sizeof *e);
    e->v.bias = info->dlpi_addr;
    uintptr_t eh_hdr = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD)
            add_segment(&e->v, start, start + ph->p_memsz);
        else if (ph->p_type == PT_GNU_EH_FRAME)
            eh_hdr = start;
    }
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_NOTE && !e->build_id_len)
            read_build_id(e, info->dlpi_addr + ph->p_vaddr, ph->p_memsz);
    }
    if (eh_hdr)
        parse_eh_frame_hdr(&e->v, eh_hdr);
}

static int scan_one(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct scan *s = arg;
    if (s->count >= MAX_MODULES)
        return 1;
    struct module_entry *e = &s->found[s->count];
    describe(e, info);
    if (!e->v.nseg)
        return 0;
    e->path = strdup(module_path(info->dlpi_name));
    if (e->path)
        s->count++;
    return 0;
}

static int same_module(const struct module_entry *a, const struct module_entry *b)
{
    return a->v.bias == b->v.bias && a->v.lo == b->v.lo && a->v.hi == b->v.hi &&
           !strcmp(a->path, b->path);
}

static int compare_lo(const void *a, const void *b)
{
    const struct module_entry *x = a, *y = b;
    return x->v.lo < y->v.lo ? -1 : x->v.lo > y->v.lo;
}

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void note_removed(const struct module_view *v)
{
    if (nremoved < MAX_REMOVED)
        removed[nremoved++] = v->id;
    graveyard[graveyard_next % GRAVEYARD].v = *v;
    graveyard[graveyard_next % GRAVEYARD].removed_ns = monotonic_ns();
    graveyard_next++;
}

/* Adds the aliases whose object the scan holds, each after the objects:
 * its alias_of is the index of its object in the scan until ids are known. */
static void add_aliases(struct scan *s)
{
    uint32_t objects = s->count;
    for (uint32_t a = 0; a < naliases && s->count < MAX_MODULES; a++)
        for (uint32_t i = 0; i < objects; i++) {
            const struct module_entry *o = &s->found[i];
            if (o->v.lo != aliases[a].original_lo || o->v.bias != aliases[a].original_bias)
                continue;
            struct module_entry *e = &s->found[s->count];
            memset(e, 0, sizeof *e);
            e->path = strdup(o->path);
            if (!e->path)
                break;
            memcpy(e->build_id, o->build_id, sizeof e->build_id);
            e->build_id_len = o->build_id_len;
            e->v.bias = aliases[a].bias;
            add_segment(&e->v, aliases[a].lo, aliases[a].hi);
            e->alias_of = i + 1;
            s->count++;
            break;
        }
}

/* Merges a fresh scan into the table: kept modules keep their ids, new
 * ones get fresh ids, vanished ones are queued for UNMAP records. */
static void merge_scan(struct scan *s)
{
    uint32_t count = atomic_load(&table_count);
    add_aliases(s);
    for (uint32_t i = 0; i < s->count; i++) {
        struct module_entry *e = &s->found[i];
        for (uint32_t j = 0; j < count && !e->v.id; j++)
            if (table[j].path && same_module(&table[j], e))
                e->v.id = table[j].v.id;
        if (!e->v.id)
            e->v.id = next_id++;
    }
    for (uint32_t i = 0; i < s->count; i++)
        if (s->found[i].alias_of)
            s->found[i].alias_of = s->found[s->found[i].alias_of - 1].v.id;
    for (uint32_t j = 0; j < count; j++) {
        int kept = 0;
        for (uint32_t i = 0; i < s->count && !kept; i++)
            kept = s->found[i].v.id == table[j].v.id;
        if (!kept)
            note_removed(&table[j].v);
    }
    qsort(s->found, s->count, sizeof s->found[0], compare_lo);

    atomic_fetch_add_explicit(&table_seq, 1, memory_order_acq_rel);
    char *old_paths[MAX_MODULES];
    for (uint32_t j = 0; j < count; j++)
        old_paths[j] = table[j].path;
    memcpy(table, s->found, s->count * sizeof s->found[0]);
    atomic_store_explicit(&table_count, s->count, memory_order_relaxed);
    atomic_fetch_add_explicit(&table_seq, 1, memory_order_release);
    for (uint32_t j = 0; j < count; j++)
        free(old_paths[j]);
}

static int read_counters(struct dl_phdr_info *info, size_t size, void *arg)
{
    unsigned long long *c = arg;
    if (size < offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
        return 1;
    c[0] = info->dlpi_adds;
    c[1] = info->dlpi_subs;
    return 1;
}

static void rescan_locked(void)
{
    unsigned long long counters[2] = {0, 0};
    dl_iterate_phdr(read_counters, counters);
    scratch.count = 0;
    dl_iterate_phdr(scan_one, &scratch);
    merge_scan(&scratch);
    seen_adds = counters[0];
    seen_subs = counters[1];
}

void modules_init(void)
{
    pthread_mutex_lock(&table_lock);
    rescan_locked();
    nremoved = 0;
    pthread_mutex_unlock(&table_lock);
}

void modules_refresh(void)
{
    unsigned long long counters[2] = {0, 0};
    dl_iterate_phdr(read_counters, counters);
    if (counters[0] == seen_adds && counters[1] == seen_subs)
        return;
    pthread_mutex_lock(&table_lock);
    rescan_locked();
    pthread_mutex_unlock(&table_lock);
}

/* Stops new unwinds (they count their samples as lost) and waits for the
 * running ones; and lets them run again. Nests. */
static void pause_unwinding(void)
{
    atomic_fetch_add(&unwind_barrier, 1);
    while (atomic_load(&unwinders_in_flight))
        sched_yield();
}

static void resume_unwinding(void)
{
    atomic_fetch_sub(&unwind_barrier, 1);
}

/* The table lock is not held across the real dlclose: a constructor that
 * runs inside dlopen (under the loader's lock) may call dlclose itself. */
int modules_dlclose(void *handle, int (*real_dlclose)(void *))
{
    pause_unwinding();
    int ret = real_dlclose(handle);
    pthread_mutex_lock(&table_lock);
    rescan_locked();
    pthread_mutex_unlock(&table_lock);
    resume_unwinding();
    return ret;
}

int modules_find_at(uintptr_t addr, uint64_t when_ns, struct module_view *out)
{
    pthread_mutex_lock(&table_lock);
    int found = -1;
    for (uint32_t i = 0; i < GRAVEYARD && i < graveyard_next && found; i++) {
        const struct module_view *v = &graveyard[i].v;
        if (graveyard[i].removed_ns > when_ns && v->lo <= addr && addr < v->hi) {
            *out = *v;
            found = 0;
        }
    }
    pthread_mutex_unlock(&table_lock);
    return found ? modules_find(addr, out) : 0;
}

int modules_add_alias(uintptr_t original, uintptr_t lo, uintptr_t hi, uintptr_t bias)
{
    struct module_view o;
    pthread_mutex_lock(&table_lock);
    int ok = !modules_find(original, &o) && naliases < MAX_ALIASES;
    if (ok) {
        aliases[naliases++] = (struct alias){o.lo, o.bias, lo, hi, bias};
        rescan_locked();
    }
    pthread_mutex_unlock(&table_lock);
    return ok ? 0 : -1;
}

void modules_resolve_at(const uint64_t *frames, uint32_t n, uint64_t when_ns, uint32_t *modules,
                        uint64_t *offsets)
{
    for (uint32_t i = 0; i < n; i++) {
        struct module_view m;
        set_frame(frames[i], modules_find_at(frames[i], when_ns, &m) ? NULL : &m, &modules[i],
                  &offsets[i]);
    }
}

uint32_t modules_visit_new(uint32_t after_id, module_visit_fn fn, void *arg)
{
    pthread_mutex_lock(&table_lock);
    uint32_t count = atomic_load(&table_count);
    for (uint32_t want = after_id + 1; want < next_id; want++)
        for (uint32_t j = 0; j < count; j++)
            if (table[j].v.id == want) {
                const struct module_entry *e = &table[j];
                struct module_description m = {
                    .id = e->v.id, .alias_of = e->alias_of, .lo = e->v.lo, .hi = e->v.hi,
                    .bias = e->v.bias, .build_id = e->build_id,
                    .build_id_len = e->build_id_len, .path = e->path,
                };
                fn(arg, &m);
            }
    uint32_t last = next_id - 1;
    pthread_mutex_unlock(&table_lock);
    return last;
}

uint32_t modules_take_removed(uint32_t *ids, uint32_t max)
{
    pthread_mutex_lock(&table_lock);
    uint32_t n = nremoved < max ? nremoved : max;
    memcpy(ids, removed, n * sizeof *ids);
    memmove(removed, removed + n, (nremoved - n) * sizeof *ids);
    nremoved -= n;
    pthread_mutex_unlock(&table_lock);
    return n;
}

/* No unwind may be running at fork: libunwind's internal lock would be
 * inherited held by a thread that does not exist in the child. */
void modules_fork_prepare(void)
{
    pthread_mutex_lock(&table_lock);
    pause_unwinding();
}

void modules_fork_parent(void)
{
    resume_unwinding();
    pthread_mutex_unlock(&table_lock);
}

void modules_fork_child(void)
{
    atomic_store(&unwind_barrier, 0);
    /* The child's thread has another id than the lock's owner: re-create. */
    pthread_mutex_t fresh = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
    table_lock = fresh;
    atomic_store(&unwinders_in_flight, 0);
}
