/*
 * modules.h - the agent's own table of loaded ELF objects.
 *
 * The sampling handler must never take the loader lock (dl_iterate_phdr
 * does, and a sample landing inside dlopen would deadlock), so the handler
 * looks code and unwind tables up here instead. The table is filled as
 * the agent starts, around dlclose, and by the writer when it sees the
 * loader's counters move; it is read lock-free under a sequence counter.
 */
#ifndef STOKE_AGENT_MODULES_H
#define STOKE_AGENT_MODULES_H

#include <stdint.h>

#define MODULE_MAX_SEGMENTS 8
#define MODULE_MAX_BUILD_ID 32

/* What the handler and writer need of one module, copied out of the table. */
struct module_view {
    uint32_t id;
    uintptr_t bias;           /* load bias: address = bias + ELF vaddr */
    uintptr_t lo, hi;         /* whole mapped range */
    uint32_t nseg;
    uintptr_t seg_lo[MODULE_MAX_SEGMENTS], seg_hi[MODULE_MAX_SEGMENTS];
    uintptr_t eh_frame_hdr;   /* 0 if the object has no .eh_frame_hdr */
    uintptr_t eh_table;       /* its binary search table */
    uint64_t eh_fde_count;
};

/* Fills the table from the loader, once at start.
 * Context: program. */
void modules_init(void);

/* Rescans when the loader's load/unload counters moved since the last scan.
 * Context: writer. */
void modules_refresh(void);

/* The module containing addr (0 and *out filled), or -1. Lock-free.
 * Context: any. */
int modules_find(uintptr_t addr, struct module_view *out);

/* The mapped segment [*lo, *hi) of a known module that holds
 * [addr, addr+len): 0, or -1 when none does.
 * Context: any. */
int modules_segment_of(uintptr_t addr, uintptr_t len, uintptr_t *lo, uintptr_t *hi);

/* 1 when addr lies in the range of a known module (what modules_find
 * would say, without copying the module out).
 * Context: any. */
int modules_contains(uintptr_t addr);

/* The module that held addr at time when_ns (CLOCK_MONOTONIC), also if it
 * was unloaded since.
 * Context: writer. */
int modules_find_at(uintptr_t addr, uint64_t when_ns, struct module_view *out);

/* The module id and offset of each of frames[0..n), as a trace names a
 * frame: outside every module, STOKE_MODULE_NONE and the address itself.
 * Context: any. */
void modules_resolve(const uint64_t *frames, uint32_t n, uint32_t *modules, uint64_t *offsets);

/* The same for frames sampled at time when_ns, whose module may have been
 * unloaded since (modules_find_at).
 * Context: writer. */
void modules_resolve_at(const uint64_t *frames, uint32_t n, uint64_t when_ns, uint32_t *modules,
                        uint64_t *offsets);

/* Brackets an unwind's use of module memory. modules_enter returns 0 when
 * unwinding is allowed, -1 while a dlclose is unmapping code (then skip the
 * sample, and do not call modules_leave).
 * Context: any. */
int modules_enter(void);
void modules_leave(void);

/* The agent's dlclose: waits until no handler reads module memory, then
 * lets the loader unload and rescans.
 * Context: program. */
int modules_dlclose(void *handle, int (*real_dlclose)(void *));

/* Adds [lo, hi) as a second mapping of the code of the
 * module that holds address original (node maps V8's embedded builtins
 * again next to its JIT code): a module of its own, with the original's
 * file, and bias such that address - bias is the same ELF virtual address.
 * It has no unwind table of its own (walks go by frame pointers there).
 * Returns 0, or -1 when original is in no module or the table is full.
 * Context: writer. */
int modules_add_alias(uintptr_t original, uintptr_t lo, uintptr_t hi, uintptr_t bias);

/* What a MAP record says of one module (alias_of: 0, or the id of the
 * module it maps again). */
struct module_description {
    uint32_t id, alias_of;
    uintptr_t lo, hi, bias;
    const uint8_t *build_id;
    uint32_t build_id_len;
    const char *path;
};

/* Describes the modules with id > after_id in id order; and the ids
 * removed since the last call.
 * Context: writer. */
typedef void (*module_visit_fn)(void *arg, const struct module_description *m);
uint32_t modules_visit_new(uint32_t after_id, module_visit_fn fn, void *arg);
uint32_t modules_take_removed(uint32_t *ids, uint32_t max);

/* fork support: the child keeps the table; the lock must be consistent.
 * Context: program. */
void modules_fork_prepare(void);
void modules_fork_parent(void);
void modules_fork_child(void);

#endif
