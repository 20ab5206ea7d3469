/*
 * compressed_sections.h - what the compressed sections of an ELF file say
 * they hold once decompressed, weighed against the size of the file.
 * libelf and libdw allocate and inflate whatever a section's header claims,
 * so a file of a few megabytes whose .debug_str claims gigabytes would cost
 * gigabytes and minutes; the claims are read before libdwfl sees the file.
 *
 * The claims are kept in two groups: the DWARF sections (.debug_*,
 * .zdebug_*), which only the inline chains and source lines need, and all
 * the others (symbol tables, which name functions). Together they may claim
 * at most STOKE_MAX_COMPRESSION_RATIO times the file's size, or
 * STOKE_MIN_DECOMPRESSED_LIMIT for a small file: compressed debug info
 * shrinks 2 to 13 times (Debian's debug files, zlib and zstd).
 *
 * Owns: reading the claims (the ELF compression header of SHF_COMPRESSED
 * sections, the "ZLIB" header of GNU-style compressed sections) and the
 * limit.
 * Never: decompresses anything, or decides what a caller does with a file
 * that claims too much.
 */
#ifndef STOKE_COMPRESSED_SECTIONS_H
#define STOKE_COMPRESSED_SECTIONS_H

#include <stddef.h>
#include <stdint.h>

#define STOKE_MAX_COMPRESSION_RATIO 32
#define STOKE_MIN_DECOMPRESSED_LIMIT (UINT64_C(64) << 20)

enum stoke_section_group {
    STOKE_SECTIONS_DWARF = 0, /* .debug_*, .zdebug_* */
    STOKE_SECTIONS_OTHER = 1, /* everything else libelf may decompress */
    STOKE_SECTION_GROUPS = 2,
};

#define STOKE_SECTION_NAME_MAX 64

struct stoke_compressed_claims {
    uint64_t file_size;
    uint64_t limit; /* the most all the file's sections may claim */
    uint64_t claimed[STOKE_SECTION_GROUPS]; /* bytes claimed, saturating */
    /* the section of each group that claims the most ("" for none) */
    char largest[STOKE_SECTION_GROUPS][STOKE_SECTION_NAME_MAX];
    uint64_t largest_claim[STOKE_SECTION_GROUPS];
};

/* Reads the claims of the ELF file open at fd (the descriptor stays open and
 * its offset is not used). A file libelf cannot read claims nothing. */
void stoke_read_compressed_claims(int fd, struct stoke_compressed_claims *c);

/* 1 when the sections libdwfl reads to name functions (the group
 * STOKE_SECTIONS_OTHER) fit under the limit. */
int stoke_symbol_claims_fit(const struct stoke_compressed_claims *c);

/* 1 when all the sections, DWARF included, fit under the limit. */
int stoke_all_claims_fit(const struct stoke_compressed_claims *c);

/* Describes what is over the limit, for a warning: "section .debug_str
 * claims 3072.0 MiB uncompressed, more than a file of 3.0 MiB can hold (at
 * most 96.1 MiB)", naming the largest section of the symbol tables when
 * they do not fit, else of the DWARF sections (and the total when no one
 * section is over the limit alone). */
void stoke_describe_claims(const struct stoke_compressed_claims *c, char *out, size_t len);

#endif
