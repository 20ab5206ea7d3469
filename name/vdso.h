/*
 * vdso.h - the kernel's vDSO as a file: it is not on disk, but every
 * process (this one too) has it mapped, and the kernel that ran the
 * profiled program usually is the one running stoke.
 *
 * Never: decides whether the image matches a trace (the caller compares
 * build-ids).
 */
#ifndef STOKE_VDSO_H
#define STOKE_VDSO_H

/* Returns a file descriptor holding a copy of this process's vDSO image,
 * or -1. */
int stoke_vdso_open(void);

/* 1 if a module path from a MAP record names the vDSO. */
int stoke_is_vdso_path(const char *path);

#endif
