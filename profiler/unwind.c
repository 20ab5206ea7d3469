/*
 * unwind.c - libunwind accessors for unwinding the agent's own process from
 * a signal handler (see unwind.h). Every accessor is async-signal-safe: no
 * allocation, no locks, no loader calls. Memory is read in place only in
 * the interrupted thread's stack above its stack pointer and in known
 * module segments; anything else goes through safe_memory.h, so a corrupt
 * stack or a guard page ends the walk instead of faulting.
 */
#define _GNU_SOURCE
#include "unwind.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <libunwind.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch_x86_64.h"
#include "code_map.h"
#include "modules.h"
#include "safe_memory.h"
#include "stoke_format.h"

/* libunwind, loaded privately: its functions are reached through here. */
static struct {
    unw_addr_space_t (*create_addr_space)(unw_accessors_t *, int);
    int (*set_caching_policy)(unw_addr_space_t, unw_caching_policy_t);
    int (*init_remote)(unw_cursor_t *, unw_addr_space_t, void *);
    int (*step)(unw_cursor_t *);
    int (*get_reg)(unw_cursor_t *, unw_regnum_t, unw_word_t *);
    int (*is_signal_frame)(unw_cursor_t *); /* optional */
    /* exported (its ptrace support uses it) but not in its headers:
     * searches an .eh_frame_hdr table for ip */
    int (*search_unwind_table)(unw_addr_space_t, unw_word_t, unw_dyn_info_t *,
                               unw_proc_info_t *, int, void *);
} lib;

int (*unwind_getcontext)(ucontext_t *);

static unw_addr_space_t address_space;
static __thread int unwinding __attribute__((tls_model("initial-exec")));

int unwind_busy(void)
{
    return unwinding;
}

static int find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi,
                          int need_unwind_info, void *arg)
{
    struct module_view m;
    if (modules_find(ip, &m) || !m.eh_frame_hdr)
        return -UNW_ENOINFO;
    unw_dyn_info_t di;
    memset(&di, 0, sizeof di);
    di.start_ip = m.lo;
    di.end_ip = m.hi;
    di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
    di.u.rti.segbase = m.eh_frame_hdr;
    di.u.rti.table_data = m.eh_table;
    di.u.rti.table_len = m.eh_fde_count * 8 / sizeof(unw_word_t);
    return lib.search_unwind_table(as, ip, &di, pi, need_unwind_info, arg);
}

/* libunwind frees table-format unwind info itself; nothing of ours to free. */
static void put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
}

static int get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *addr, void *arg)
{
    return -UNW_ENOINFO;
}

/* One walk: where it starts, and the pages it read through safe_memory. */
struct walk_state {
    const struct unwind_start *start;
    struct safe_pages pages;
};

static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val, int write,
                      void *arg)
{
    struct walk_state *w = arg;
    const struct unwind_start *s = w->start;
    if (write)
        return -UNW_EINVAL;
    if (addr >= s->stack_lo && addr + sizeof *val <= s->stack_hi && addr + sizeof *val > addr) {
        const uint8_t *at = s->copy ? s->copy + (addr - s->stack_lo) : (const uint8_t *)addr;
        memcpy(val, at, sizeof *val);
        return 0;
    }
    if (modules_readable(addr, sizeof *val)) {
        memcpy(val, (const void *)addr, sizeof *val);
        return 0;
    }
    if (code_map_is_jit_code(addr)) /* only libunwind's test for a PLT entry asks */
        return -UNW_EINVAL;
    if (s->copy) /* a copy is all there is of the stack: it may have changed since */
        return -UNW_EINVAL;
    return safe_memory_read_word(&w->pages, addr, val) ? -UNW_EINVAL : 0;
}

/* ucontext gregs index of each DWARF register number 0..16 */
static const int greg_of_dwarf[17] = {
        [UNW_X86_64_RAX] = REG_RAX, [UNW_X86_64_RDX] = REG_RDX, [UNW_X86_64_RCX] = REG_RCX,
        [UNW_X86_64_RBX] = REG_RBX, [UNW_X86_64_RSI] = REG_RSI, [UNW_X86_64_RDI] = REG_RDI,
        [UNW_X86_64_RBP] = REG_RBP, [UNW_X86_64_RSP] = REG_RSP, [UNW_X86_64_R8] = REG_R8,
        [UNW_X86_64_R9] = REG_R9,   [UNW_X86_64_R10] = REG_R10, [UNW_X86_64_R11] = REG_R11,
        [UNW_X86_64_R12] = REG_R12, [UNW_X86_64_R13] = REG_R13, [UNW_X86_64_R14] = REG_R14,
        [UNW_X86_64_R15] = REG_R15, [UNW_X86_64_RIP] = REG_RIP,
};

void unwind_start_from_ucontext(struct unwind_start *s, const ucontext_t *uc)
{
    for (int r = 0; r <= UNW_X86_64_RIP; r++)
        s->regs[r] = (uint64_t)uc->uc_mcontext.gregs[greg_of_dwarf[r]];
    s->known = (1u << (UNW_X86_64_RIP + 1)) - 1;
    s->copy = NULL;
}

void unwind_bound_stack(struct unwind_start *s, uintptr_t lo, uintptr_t hi)
{
    uintptr_t sp = s->regs[UNW_X86_64_RSP];
    int inside = sp >= lo && sp < hi;
    s->stack_lo = inside ? sp : 0;
    s->stack_hi = inside ? hi : 0;
}

static int access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *val, int write,
                      void *arg)
{
    const struct unwind_start *s = ((const struct walk_state *)arg)->start;
    if (write || reg < 0 || reg > UNW_X86_64_RIP || !(s->known & (1u << reg)))
        return -UNW_EBADREG;
    *val = s->regs[reg];
    return 0;
}

static int access_fpreg(unw_addr_space_t as, unw_regnum_t reg, unw_fpreg_t *val, int write,
                        void *arg)
{
    return -UNW_EBADREG;
}

static int resume(unw_addr_space_t as, unw_cursor_t *c, void *arg)
{
    return -UNW_EINVAL;
}

static int get_proc_name(unw_addr_space_t as, unw_word_t addr, char *buf, size_t len,
                         unw_word_t *offp, void *arg)
{
    return -UNW_ENOINFO;
}

static unw_accessors_t accessors = {
    .find_proc_info = find_proc_info,
    .put_unwind_info = put_unwind_info,
    .get_dyn_info_list_addr = get_dyn_info_list_addr,
    .access_mem = access_mem,
    .access_reg = access_reg,
    .access_fpreg = access_fpreg,
    .resume = resume,
    .get_proc_name = get_proc_name,
};

static int load_libunwind(void)
{
    void *h = dlopen("libunwind-x86_64.so.8", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return -1;
    lib.create_addr_space = dlsym(h, "_Ux86_64_create_addr_space");
    lib.set_caching_policy = dlsym(h, "_Ux86_64_set_caching_policy");
    lib.init_remote = dlsym(h, "_Ux86_64_init_remote");
    lib.step = dlsym(h, "_Ux86_64_step");
    lib.get_reg = dlsym(h, "_Ux86_64_get_reg");
    lib.is_signal_frame = dlsym(h, "_Ux86_64_is_signal_frame");
    lib.search_unwind_table = dlsym(h, "_Ux86_64_dwarf_search_unwind_table");
    unwind_getcontext = dlsym(h, "_Ux86_64_getcontext");
    return lib.create_addr_space && lib.set_caching_policy && lib.init_remote && lib.step &&
                   lib.get_reg && lib.search_unwind_table && unwind_getcontext
               ? 0
               : -1;
}

/* The descriptors below LOW_FDS that are open, as bits. */
#define LOW_FDS 32
static uint64_t open_low_fds(void)
{
    uint64_t open = 0;
    for (int fd = 0; fd < LOW_FDS; fd++)
        if (fcntl(fd, F_GETFD) >= 0)
            open |= UINT64_C(1) << fd;
    return open;
}

/* libunwind's first address space opens a pipe, which only its own
 * accessors of local memory use (to test addresses): the agent reads
 * memory through its own, so the pipe is closed at once, and the program's
 * first open() gets the number it would get without stoke. */
static void close_libunwind_pipe(uint64_t open_before)
{
    uint64_t opened = open_low_fds() & ~open_before;
    for (int fd = 0; fd < LOW_FDS; fd++) {
        struct stat st;
        if ((opened >> fd & 1) && !fstat(fd, &st) && S_ISFIFO(st.st_mode))
            close(fd);
    }
}

int unwind_init(void)
{
    if (load_libunwind())
        return -1;
    uint64_t open_before = open_low_fds();
    address_space = lib.create_addr_space(&accessors, 0);
    if (address_space) /* libunwind sets itself up here */
        lib.set_caching_policy(address_space, UNW_CACHE_PER_THREAD);
    close_libunwind_pipe(open_before);
    return address_space ? 0 : -1;
}

/* A return address is kept when it lies in a known module or in JIT code
 * (code_map.h); never in the stack being walked (a walk that went astray
 * through a register that was not a frame pointer reads stack addresses);
 * elsewhere only when the bytes before it end a call instruction, and the
 * code map is asked to look again. */
static int plausible_return(struct walk_state *w, uint64_t ip)
{
    if (modules_contains(ip - 1) || code_map_is_jit_code(ip - 1))
        return 1;
    if (ip >= w->start->stack_lo && ip < w->start->stack_hi)
        return 0;
    code_map_ask();
    uint8_t before[16]; /* the aligned words that hold [ip - 8, ip) */
    uintptr_t first = (ip - 8) & ~(uintptr_t)7;
    uint64_t word;
    for (int i = 0; i < 2; i++) {
        if (safe_memory_read_word(&w->pages, first + 8 * (uintptr_t)i, &word))
            return 0;
        memcpy(before + 8 * i, &word, sizeof word);
    }
    return arch_follows_call(before + (ip - 8 - first));
}

static uint32_t walk(struct walk_state *w, uint64_t *frames, uint64_t *slots, uint32_t max,
                     uint32_t *flags)
{
    uint32_t n = 0;
    if (slots)
        slots[n] = 0;
    frames[n++] = w->start->regs[UNW_X86_64_RIP];
    unw_cursor_t cursor;
    if (lib.init_remote(&cursor, address_space, w) < 0) {
        *flags = STOKE_STACK_PARTIAL;
        return n;
    }
    for (;;) {
        /* a frame a signal interrupted saved its pc in the signal frame, not
         * below its sp: no slot can be checked for it (slot 0) */
        int interrupted = slots && lib.is_signal_frame && lib.is_signal_frame(&cursor) > 0;
        int step = lib.step(&cursor);
        if (step <= 0) {
            if (step < 0)
                *flags |= STOKE_STACK_PARTIAL;
            return n;
        }
        if (n == max) {
            *flags |= STOKE_STACK_TRUNCATED;
            return n;
        }
        unw_word_t ip, sp;
        if (lib.get_reg(&cursor, UNW_REG_IP, &ip) < 0 || ip == 0)
            return n;
        if (!plausible_return(w, ip)) {
            *flags |= STOKE_STACK_PARTIAL;
            return n;
        }
        if (slots) /* the call pushed the return address just below the caller's sp */
            slots[n] = interrupted || lib.get_reg(&cursor, UNW_REG_SP, &sp) < 0
                           ? 0
                           : sp - sizeof(uint64_t);
        frames[n++] = ip;
    }
}

uint32_t unwind_stack_slots(const struct unwind_start *s, uint64_t *frames, uint64_t *slots,
                            uint32_t max, uint32_t *flags)
{
    *flags = 0;
    if (unwinding)
        return 0;
    unwinding = 1;
    struct walk_state w;
    w.start = s;
    memset(w.pages.address, 0, sizeof w.pages.address);
    w.pages.next = w.pages.reads = 0;
    uint32_t n = walk(&w, frames, slots, max, flags);
    unwinding = 0;
    return n;
}

uint32_t unwind_stack(const struct unwind_start *s, uint64_t *frames, uint32_t max,
                      uint32_t *flags)
{
    return unwind_stack_slots(s, frames, NULL, max, flags);
}
