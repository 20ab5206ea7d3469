/*
 * rebuilt_target.c - a program the test of stored names builds itself,
 * records, then builds again at the same path with a line added at the top
 * (REBUILT_LINE): every function after it moves down a line and the
 * build-id changes. Its CPU time goes to alpha_phase, whose work is
 * mix_steps forced inline into it, and to beta_phase, 100 ms each.
 *
 * usage: rebuilt_target
 * Never reads input or writes files.
 */
#include <stdint.h>

#include "cpu_spin.h"

static volatile uint64_t sink;

static inline __attribute__((always_inline)) uint64_t mix_steps(uint64_t x, unsigned ms)
{
    return spin_cpu_ms(x, ms) ^ 0x5bd1e995u;
}

__attribute__((noipa)) uint64_t alpha_phase(unsigned ms)
{
    return mix_steps(ms, ms);
}

__attribute__((noipa)) uint64_t beta_phase(unsigned ms)
{
    return spin_cpu_ms(ms * 3u, ms) + 1;
}

int main(void)
{
    sink = alpha_phase(100);
    sink += beta_phase(100);
    return 0;
}
