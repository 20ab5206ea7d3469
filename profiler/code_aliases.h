/*
 * code_aliases.h - finds code that a loaded object's file maps a second
 * time, outside the object's own range: node 20 maps V8's embedded builtins
 * again next to its JIT code (so calls between them stay short), from
 * /usr/bin/node, and runs them there. Such a mapping is added to the
 * module table as an alias of the object (modules_add_alias), so its
 * frames are named like the object's own instead of as unknown addresses.
 *
 * The mappings are read from /proc/self/maps: when the writer meets an
 * address outside every module, at most once a second, and less often
 * while nothing new turns up. Writer thread only.
 */
#ifndef STOKE_AGENT_CODE_ALIASES_H
#define STOKE_AGENT_CODE_ALIASES_H

#include <stdint.h>

/* Forgets when the last look was (at the writer's start, in a fork child). */
void code_aliases_reset(void);

/* An address outside every module was met at now_ns (CLOCK_MONOTONIC):
 * looks for new aliases when it is time. Returns 1 when one was added
 * (resolve the address again). */
int code_aliases_look(uint64_t now_ns);

#endif
