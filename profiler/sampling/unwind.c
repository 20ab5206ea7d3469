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

/* One walk: the registers of the frame it is at (those of the start,
 * then, after frames walked by frame pointer, the frame's pc, sp and frame
 * pointer alone), and the pages it read through safe_memory. */
struct walk_state {
    struct unwind_start now;
    uintptr_t segment_lo, segment_hi; /* the module segment read last */
    struct safe_pages pages;
};

/* Whether [addr, addr + len) lies in a segment of a known module: the one
 * read last (libunwind reads a module's unwind tables word by word), else
 * the table's answer, remembered. Module memory stays mapped for the whole
 * walk (modules_enter). */
static int in_module_segment(struct walk_state *w, uintptr_t addr, uintptr_t len)
{
    if (addr >= w->segment_lo && addr + len <= w->segment_hi && addr + len > addr)
        return 1;
    return modules_segment_of(addr, len, &w->segment_lo, &w->segment_hi) == 0;
}

static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val, int write,
                      void *arg)
{
    struct walk_state *w = arg;
    const struct unwind_start *s = &w->now;
    if (write)
        return -UNW_EINVAL;
    if (addr >= s->stack_lo && addr + sizeof *val <= s->stack_hi && addr + sizeof *val > addr) {
        const uint8_t *at = s->copy ? s->copy + (addr - s->stack_lo) : (const uint8_t *)addr;
        memcpy(val, at, sizeof *val);
        return 0;
    }
    if (in_module_segment(w, addr, sizeof *val)) {
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
    const struct unwind_start *s = &((const struct walk_state *)arg)->now;
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
    if (ip >= w->now.stack_lo && ip < w->now.stack_hi)
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

/* Where a walk is: the frames so far, and where they go. */
struct frames_out {
    uint64_t *frames, *slots; /* slots may be NULL */
    uint32_t n, max;
    uint32_t *flags;
};

/* How a run of frames ended. */
enum run_end { RUN_ENDED, RUN_SWITCH };

/* Appends a return address read from slot (0: none); RUN_ENDED when the
 * stack is full or ip is no return address, else RUN_SWITCH. */
static enum run_end append(struct walk_state *w, struct frames_out *o, uint64_t ip,
                           uint64_t slot)
{
    if (o->n == o->max) {
        *o->flags |= STOKE_STACK_TRUNCATED;
        return RUN_ENDED;
    }
    if (!plausible_return(w, ip)) {
        *o->flags |= STOKE_STACK_PARTIAL;
        return RUN_ENDED;
    }
    if (o->slots)
        o->slots[o->n] = slot;
    o->frames[o->n++] = ip;
    return RUN_SWITCH;
}

/* Reads the stack word at addr, in the stack being walked only. */
static int stack_word(const struct walk_state *w, uint64_t addr, uint64_t *value)
{
    const struct unwind_start *s = &w->now;
    if (addr < s->stack_lo || addr + 8 > s->stack_hi || addr + 8 < addr || (addr & 7))
        return -1;
    memcpy(value, s->copy ? s->copy + (addr - s->stack_lo) : (const uint8_t *)addr, 8);
    return 0;
}

static const uint32_t FRAME_REGS =
    1u << UNW_X86_64_RIP | 1u << UNW_X86_64_RSP | 1u << UNW_X86_64_RBP;

/* JIT code has no unwind tables; V8's and HotSpot's frames (with
 * -XX:+PreserveFramePointer) keep a frame pointer: its chain is followed
 * directly, two stack reads a frame, while it stays in JIT code. */
static enum run_end jit_frames(struct walk_state *w, struct frames_out *o)
{
    uint64_t *regs = w->now.regs;
    for (;;) {
        uint64_t fp = regs[UNW_X86_64_RBP], caller_fp, ip;
        if (!(w->now.known & 1u << UNW_X86_64_RBP) || fp < regs[UNW_X86_64_RSP] ||
            stack_word(w, fp, &caller_fp) || stack_word(w, fp + 8, &ip)) {
            *o->flags |= STOKE_STACK_PARTIAL;
            return RUN_ENDED;
        }
        if (ip == 0 || append(w, o, ip, fp + 8) == RUN_ENDED)
            return RUN_ENDED;
        regs[UNW_X86_64_RIP] = ip;
        regs[UNW_X86_64_RSP] = fp + 16;
        regs[UNW_X86_64_RBP] = caller_fp;
        w->now.known = FRAME_REGS;
        if (!code_map_is_jit_code(ip - 1))
            return RUN_SWITCH;
    }
}

/* Everything else: libunwind, from the frame the walk is at, until a
 * frame in JIT code. */
static enum run_end unwound_frames(struct walk_state *w, struct frames_out *o)
{
    unw_cursor_t cursor;
    if (lib.init_remote(&cursor, address_space, w) < 0) {
        *o->flags |= STOKE_STACK_PARTIAL;
        return RUN_ENDED;
    }
    for (;;) {
        /* a frame a signal interrupted saved its pc in the signal frame, not
         * below its sp: no slot can be checked for it (slot 0) */
        int interrupted = o->slots && lib.is_signal_frame && lib.is_signal_frame(&cursor) > 0;
        int step = lib.step(&cursor);
        if (step <= 0) {
            if (step < 0)
                *o->flags |= STOKE_STACK_PARTIAL;
            return RUN_ENDED;
        }
        unw_word_t ip, sp, fp;
        if (lib.get_reg(&cursor, UNW_REG_IP, &ip) < 0 || ip == 0)
            return RUN_ENDED;
        int have_sp = lib.get_reg(&cursor, UNW_REG_SP, &sp) == 0;
        /* the call pushed the return address just below the caller's sp */
        if (append(w, o, ip, interrupted || !have_sp ? 0 : sp - sizeof(uint64_t)) == RUN_ENDED)
            return RUN_ENDED;
        if (have_sp && code_map_is_jit_code(ip - 1) &&
            lib.get_reg(&cursor, UNW_X86_64_RBP, &fp) == 0) {
            w->now.regs[UNW_X86_64_RIP] = ip;
            w->now.regs[UNW_X86_64_RSP] = sp;
            w->now.regs[UNW_X86_64_RBP] = fp;
            w->now.known = FRAME_REGS;
            return RUN_SWITCH;
        }
    }
}

static uint32_t walk(struct walk_state *w, uint64_t *frames, uint64_t *slots, uint32_t max,
                     uint32_t *flags)
{
    struct frames_out o = {frames, slots, 0, max, flags};
    if (slots)
        slots[0] = 0;
    frames[o.n++] = w->now.regs[UNW_X86_64_RIP];
    int in_jit = code_map_is_jit_code(frames[0]);
    while ((in_jit ? jit_frames(w, &o) : unwound_frames(w, &o)) == RUN_SWITCH)
        in_jit = !in_jit;
    return o.n;
}

uint32_t unwind_stack_slots(const struct unwind_start *s, uint64_t *frames, uint64_t *slots,
                            uint32_t max, uint32_t *flags)
{
    *flags = 0;
    if (unwinding)
        return 0;
    unwinding = 1;
    struct walk_state w;
    w.now = *s;
    w.segment_lo = w.segment_hi = 0;
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
