/*
 * blocked_sampler.h - wall-clock samples of threads that sit blocked in a
 * system call, taken without signalling them.
 *
 * A signal would make a blocked poll, nanosleep or epoll_wait return EINTR,
 * so instead the writer thread reads where each blocked thread waits
 * (/proc/self/task/TID/syscall gives its stack and instruction pointers;
 * the file stays open while the thread lives, see common/procfs.h),
 * copies the top of its stack with process_vm_readv (which cannot fault)
 * and unwinds the copy. Running threads are covered by their CPU clock.
 */
#ifndef STOKE_AGENT_BLOCKED_SAMPLER_H
#define STOKE_AGENT_BLOCKED_SAMPLER_H

#include <stdint.h>

#include "sampling/threads.h"

/* Unwinds t if it is blocked in a system call, into t->blocked_frames
 * (reused without unwinding again while it waits at the same place).
 * Returns the number of frames (0 when t is not blocked or changed state
 * meanwhile).
 * Context: writer. */
uint32_t blocked_sample(struct thread_state *t);

#endif
