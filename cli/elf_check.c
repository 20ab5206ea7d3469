/*
 * elf_check.c - decides, before running a program, whether LD_PRELOAD can
 * reach it: statically linked executables have no loader (no PT_INTERP), and
 * the loader ignores LD_PRELOAD for a secure exec (setuid or setgid to
 * another user or group, or file capabilities). Reads headers with libelf;
 * never modifies or runs the file.
 */
#include "elf_check.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

/* 1 if the ELF file has a PT_INTERP header, 0 if not, -1 if not ELF. */
static int has_interpreter(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int result = -1;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    size_t count;
    if (elf && elf_kind(elf) == ELF_K_ELF && elf_getphdrnum(elf, &count) == 0) {
        result = 0;
        for (size_t i = 0; i < count && !result; i++) {
            GElf_Phdr phdr;
            if (gelf_getphdr(elf, (int)i, &phdr) && phdr.p_type == PT_INTERP)
                result = 1;
        }
    }
    elf_end(elf);
    close(fd);
    return result;
}

/* Whether running the file changes the user's privileges, which makes the
 * loader run in secure mode. */
static enum preload_verdict secure_exec_verdict(const char *path)
{
    struct stat st;
    if (stat(path, &st))
        return PRELOAD_WORKS;
    if ((st.st_mode & S_ISUID) && st.st_uid != geteuid())
        return PRELOAD_SETUID;
    if ((st.st_mode & S_ISGID) && st.st_gid != getegid())
        return PRELOAD_SETGID;
    /* root holds every capability already: file capabilities add none */
    if (geteuid() != 0 && getxattr(path, "security.capability", NULL, 0) > 0)
        return PRELOAD_CAPABILITIES;
    return PRELOAD_WORKS;
}

enum preload_verdict check_preload(const char *path)
{
    if (has_interpreter(path) == 0)
        return PRELOAD_STATIC;
    return secure_exec_verdict(path);
}

const char *preload_problem(enum preload_verdict verdict)
{
    switch (verdict) {
    case PRELOAD_STATIC:
        return "is statically linked, so the agent cannot be preloaded";
    case PRELOAD_SETUID:
        return "is setuid to another user, so the loader ignores LD_PRELOAD";
    case PRELOAD_SETGID:
        return "is setgid to another group, so the loader ignores LD_PRELOAD";
    case PRELOAD_CAPABILITIES:
        return "has file capabilities, so the loader ignores LD_PRELOAD";
    case PRELOAD_WORKS:
        break;
    }
    return "";
}
