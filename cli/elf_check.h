/*
 * elf_check.h - tells whether the dynamic loader will preload the agent into
 * a program at all.
 */
#ifndef STOKE_CLI_ELF_CHECK_H
#define STOKE_CLI_ELF_CHECK_H

enum preload_verdict {
    PRELOAD_WORKS,          /* dynamically linked, or a script */
    PRELOAD_STATIC,         /* no program interpreter: no loader, no preload */
    PRELOAD_SETUID,         /* runs as another user: the loader's secure mode */
    PRELOAD_SETGID,         /* runs as another group: secure mode too */
    PRELOAD_CAPABILITIES,   /* file capabilities: secure mode too */
};

/* Inspects the executable at path (already known to exist). Files that are
 * not ELF (scripts) are PRELOAD_WORKS: their interpreter is checked when it
 * runs. */
enum preload_verdict check_preload(const char *path);

/* A one-line explanation of a verdict other than PRELOAD_WORKS. */
const char *preload_problem(enum preload_verdict verdict);

#endif
