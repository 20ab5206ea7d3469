/*
 * sandboxed.c - a program that locks itself into a seccomp sandbox before
 * its work, as sandboxed parsers and services do:
 *
 *   strict      SECCOMP_MODE_STRICT through prctl: from then on only read,
 *               write, exit and sigreturn (and no time stamp counter, so no
 *               vDSO clock); computes in compute_in_sandbox, writes its
 *               result with write(2), leaves through the exit system call
 *   strict_raw  the same, entered through syscall(SYS_seccomp)
 *   filter      no_new_privs, then a filter (prctl) that kills the process
 *               on any system call but the few a C program needs to
 *               compute, allocate and write; computes and allocates in
 *               compute_in_sandbox, writes its result, returns from main
 *
 * The output depends only on the work. usage: sandboxed strict|strict_raw|filter
 */
#define _GNU_SOURCE
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define STEPS 150000000ul

static __attribute__((noipa)) uint64_t compute_in_sandbox(int allocate)
{
    uint64_t x = 1;
    for (uint64_t i = 0; i < STEPS; i++) {
        x = x * 6364136223846793005ull + i;
        if (allocate && i % 4096 == 0) {
            char *p = malloc(32 + x % 4000);
            if (p) {
                p[0] = (char)x;
                x += (uint8_t)p[0];
                free(p);
            }
        }
    }
    return x;
}

/* What write(2), malloc and the exit path need, and nothing else. */
static const int allowed[] = {SYS_read, SYS_write, SYS_exit, SYS_exit_group, SYS_rt_sigreturn,
                              SYS_brk, SYS_mmap, SYS_munmap, SYS_mremap, SYS_madvise,
                              SYS_futex, SYS_newfstatat, SYS_fstat, SYS_getrandom};
#define ALLOWED (sizeof allowed / sizeof allowed[0])

static int install_filter(void)
{
    struct sock_filter code[4 + 2 * ALLOWED + 1];
    size_t n = 0;
    code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                             offsetof(struct seccomp_data, arch));
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                             offsetof(struct seccomp_data, nr));
    for (size_t i = 0; i < ALLOWED; i++) {
        code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, allowed[i], 0, 1);
        code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    }
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    struct sock_fprog program = {.len = (unsigned short)n, .filter = code};
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
           prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0);
}

/* "sandboxed <mode>: <hex>\n" with write(2) only. */
static void write_result(const char *mode, uint64_t x)
{
    char line[96];
    size_t n = 0;
    for (const char *p = "sandboxed "; *p; p++)
        line[n++] = *p;
    for (const char *p = mode; *p && n < 40; p++)
        line[n++] = *p;
    line[n++] = ':';
    line[n++] = ' ';
    for (int shift = 60; shift >= 0; shift -= 4)
        line[n++] = "0123456789abcdef"[(x >> shift) & 15];
    line[n++] = '\n';
    ssize_t written = write(1, line, n);
    (void)written;
}

static int strict(const char *mode, int raw)
{
    fflush(stdout);
    int entered = raw ? (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 0, NULL)
                      : prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT);
    if (entered) {
        perror("seccomp");
        return 1;
    }
    write_result(mode, compute_in_sandbox(0));
    syscall(SYS_exit, 0);
    return 1;
}

int main(int argc, char **argv)
{
    const char *mode = argc == 2 ? argv[1] : "";
    if (!strcmp(mode, "strict") || !strcmp(mode, "strict_raw"))
        return strict(mode, !strcmp(mode, "strict_raw"));
    if (strcmp(mode, "filter")) {
        fprintf(stderr, "usage: sandboxed strict|strict_raw|filter\n");
        return 2;
    }
    if (install_filter()) {
        perror("seccomp filter");
        return 1;
    }
    write_result(mode, compute_in_sandbox(1));
    return 0;
}
