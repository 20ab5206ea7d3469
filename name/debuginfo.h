/*
 * debuginfo.h - one ELF file opened with elfutils' libdwfl, and the naming
 * of an ELF virtual address in it: the function, and the chain of functions
 * inlined at that address, each with the file and line that define it.
 *
 * Debug info is found the way gdb and perf find it: in the file itself, via
 * .gnu_debuglink, or under /usr/lib/debug/.build-id/. A file whose
 * compressed sections claim more than its size makes plausible
 * (compressed_sections.h) is used only in part: its functions are named
 * from its symbol table alone, or, when the symbol table is what claims
 * too much, not at all.
 *
 * Never: demangles, caches, or decides how an unnamed address is shown
 * (symbolize.c does all three).
 */
#ifndef STOKE_DEBUGINFO_H
#define STOKE_DEBUGINFO_H

#include <stddef.h>
#include <stdint.h>

struct stoke_debuginfo;

/* Opens the ELF file at path (fd >= 0: that open file instead, consumed
 * either way), laid out at its own virtual addresses. NULL when it is not a
 * readable ELF file. name is how it is known to libdwfl; path is also
 * required with an fd (it names the file in libdwfl). */
struct stoke_debuginfo *stoke_debuginfo_open(const char *name, const char *path, int fd);

/* How much of an open file names addresses. */
enum stoke_debuginfo_use {
    STOKE_DEBUGINFO_FULL = 0,         /* symbols and DWARF */
    STOKE_DEBUGINFO_SYMBOLS_ONLY = 1, /* its DWARF claims too much: symbols only */
    STOKE_DEBUGINFO_UNUSED = 2,       /* its symbol tables claim too much: nothing */
};

/* How much of the file is used; when not all of it, why in why[0..len)
 * (which section claims how much), for a warning. */
enum stoke_debuginfo_use stoke_debuginfo_use(const struct stoke_debuginfo *d, char *why,
                                             size_t len);

/* The GNU build-id of the file; returns its length (0 if it has none). */
size_t stoke_debuginfo_build_id(struct stoke_debuginfo *d, const uint8_t **id);

/* One function at an address: raw (possibly mangled) name (NULL for a
 * function DWARF gives no name), and the source file and line where the
 * function is defined (file "" and line 0 when unknown): the function's
 * own, so every sample of a function names the same frame. at_file and
 * at_line say where in it the address is: for the innermost function the
 * address's own line, for each function around an inlined one the line of
 * the call that was inlined (at_file NULL or "" and at_line 0 when
 * unknown). */
struct stoke_debuginfo_frame {
    const char *name;
    const char *file;
    unsigned line;
    const char *at_file;
    unsigned at_line;
};

/* Fills out[0..max) with the functions at ELF virtual address addr,
 * innermost (the deepest inlined function) first, the function that holds
 * the code last. Returns how many; 0 when nothing names the address. The
 * strings live as long as d. */
size_t stoke_debuginfo_lookup(struct stoke_debuginfo *d, uint64_t addr,
                              struct stoke_debuginfo_frame *out, size_t max);

/* Where ELF virtual address vaddr is in the file (through the PT_LOAD
 * segment that maps it): sets *offset and returns 0, or -1 when no segment
 * maps it. */
int stoke_debuginfo_file_offset(struct stoke_debuginfo *d, uint64_t vaddr, uint64_t *offset);

void stoke_debuginfo_close(struct stoke_debuginfo *d);

#endif
