/*
 * blocked_sampler.c - see blocked_sampler.h. Normal context (the writer
 * thread); the stack copy is one static buffer because only the writer
 * calls it.
 */
#define _GNU_SOURCE
#include "blocked_sampler.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/procfs.h"
#include "sampling/modules.h"
#include "sampling/unwind.h"

#define STACK_COPY_MAX (64 * 1024)

static uint8_t stack_copy[STACK_COPY_MAX];

/* Reads the stack and instruction pointers of a thread blocked in a system
 * call. Returns 0, or -1 when the thread is running or gone. */
static int read_wait_point(struct thread_state *t, uint64_t *sp, uint64_t *pc)
{
    char path[64], line[256];
    if (t->syscall_file.fd < 0) {
        snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)t->tid);
        if (procfs_keep(&t->syscall_file, path))
            return -1;
    }
    size_t n = procfs_reread(&t->syscall_file, line, sizeof line - 1);
    if (!n)
        return -1;
    line[n] = 0;
    long nr;
    uint64_t arg[6];
    if (sscanf(line, "%ld %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64
                     " %" SCNx64 " %" SCNx64 " %" SCNx64,
               &nr, &arg[0], &arg[1], &arg[2], &arg[3], &arg[4], &arg[5], sp, pc) != 9)
        return -1; /* "running", or not in a system call */
    return nr >= 0 ? 0 : -1;
}

static size_t copy_stack(uint64_t sp, uintptr_t stack_hi)
{
    if (sp >= stack_hi)
        return 0;
    size_t len = stack_hi - sp < STACK_COPY_MAX ? stack_hi - sp : STACK_COPY_MAX;
    struct iovec local = {stack_copy, len}, remote = {(void *)sp, len};
    ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    return n > 0 ? (size_t)n : 0;
}

uint32_t blocked_sample(struct thread_state *t)
{
    uint64_t sp, pc, sp_after, pc_after;
    if (read_wait_point(t, &sp, &pc))
        return 0;
    if (t->blocked_n && sp == t->blocked_sp && pc == t->blocked_pc)
        return t->blocked_n; /* still waiting where it was */
    t->blocked_n = 0;
    size_t len = copy_stack(sp, t->stack_hi);
    if (!len || read_wait_point(t, &sp_after, &pc_after) || sp_after != sp ||
        pc_after != pc)
        return 0; /* woke up meanwhile: the copy may be torn */
    struct unwind_start from = {.known = 0};
    from.regs[7] = sp;  /* DWARF rsp */
    from.regs[16] = pc; /* DWARF rip */
    from.known = 1u << 7 | 1u << 16;
    from.stack_lo = sp;
    from.stack_hi = sp + len;
    from.copy = stack_copy;
    if (modules_enter())
        return 0;
    t->blocked_n = unwind_stack(&from, t->blocked_frames, STOKE_MAX_FRAMES, &t->blocked_flags);
    modules_leave();
    t->blocked_sp = sp;
    t->blocked_pc = pc;
    return t->blocked_n;
}
