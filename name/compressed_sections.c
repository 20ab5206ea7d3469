/*
 * compressed_sections.c - the claims of an ELF file's compressed sections;
 * see compressed_sections.h.
 *
 * Owns: walking the section headers through libelf, the two header forms,
 * the limit, and the wording of a file that claims too much.
 * Never: calls elf_compress or elf_compress_gnu, or reads a section's data
 * beyond its header.
 */
#include "compressed_sections.h"

#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define GNU_HEADER_LEN 12 /* "ZLIB", then the size as 8 bytes big-endian */

static uint64_t saturating_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static enum stoke_section_group group_of(const char *name)
{
    return starts_with(name, ".debug_") || starts_with(name, ".zdebug_") ? STOKE_SECTIONS_DWARF
                                                                          : STOKE_SECTIONS_OTHER;
}

static uint64_t read_be64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | b[i];
    return v;
}

/* What section scn claims to hold once decompressed; 0 when it is not
 * compressed (or its header cannot be read, which libelf refuses too). */
static uint64_t claim_of(Elf_Scn *scn, const GElf_Shdr *shdr)
{
    if (shdr->sh_type == SHT_NOBITS || shdr->sh_type == SHT_NULL)
        return 0;
    if (shdr->sh_flags & SHF_COMPRESSED) {
        GElf_Chdr chdr;
        return gelf_getchdr(scn, &chdr) ? chdr.ch_size : 0;
    }
    Elf_Data *raw = elf_rawdata(scn, NULL);
    if (!raw || !raw->d_buf || raw->d_size < GNU_HEADER_LEN || memcmp(raw->d_buf, "ZLIB", 4) != 0)
        return 0;
    return read_be64((const unsigned char *)raw->d_buf + 4);
}

static void add_claim(struct stoke_compressed_claims *c, const char *name, uint64_t claim)
{
    enum stoke_section_group g = group_of(name);
    c->claimed[g] = saturating_add(c->claimed[g], claim);
    if (claim > c->largest_claim[g]) {
        c->largest_claim[g] = claim;
        snprintf(c->largest[g], sizeof c->largest[g], "%s", name);
    }
}

static void read_sections(Elf *elf, struct stoke_compressed_claims *c)
{
    size_t names;
    if (elf_getshdrstrndx(elf, &names) != 0)
        return;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr))
            continue;
        uint64_t claim = claim_of(scn, &shdr);
        const char *name = claim ? elf_strptr(elf, names, shdr.sh_name) : NULL;
        if (claim)
            add_claim(c, name ? name : "(unnamed)", claim);
    }
}

static uint64_t limit_for(uint64_t file_size)
{
    uint64_t by_ratio = file_size > UINT64_MAX / STOKE_MAX_COMPRESSION_RATIO
                            ? UINT64_MAX
                            : file_size * STOKE_MAX_COMPRESSION_RATIO;
    return by_ratio > STOKE_MIN_DECOMPRESSED_LIMIT ? by_ratio : STOKE_MIN_DECOMPRESSED_LIMIT;
}

void stoke_read_compressed_claims(int fd, struct stoke_compressed_claims *c)
{
    struct stat st;
    memset(c, 0, sizeof *c);
    c->file_size = fstat(fd, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
    c->limit = limit_for(c->file_size);
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (elf && elf_kind(elf) == ELF_K_ELF)
        read_sections(elf, c);
    elf_end(elf);
}

int stoke_symbol_claims_fit(const struct stoke_compressed_claims *c)
{
    return c->claimed[STOKE_SECTIONS_OTHER] <= c->limit;
}

int stoke_all_claims_fit(const struct stoke_compressed_claims *c)
{
    return saturating_add(c->claimed[STOKE_SECTIONS_DWARF], c->claimed[STOKE_SECTIONS_OTHER]) <=
           c->limit;
}

static double mib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0);
}

void stoke_describe_claims(const struct stoke_compressed_claims *c, char *out, size_t len)
{
    enum stoke_section_group g =
        stoke_symbol_claims_fit(c) ? STOKE_SECTIONS_DWARF : STOKE_SECTIONS_OTHER;
    uint64_t total = g == STOKE_SECTIONS_OTHER
                         ? c->claimed[g]
                         : saturating_add(c->claimed[STOKE_SECTIONS_DWARF],
                                          c->claimed[STOKE_SECTIONS_OTHER]);
    if (c->largest_claim[g] > c->limit)
        snprintf(out, len, "section %s claims %.1f MiB uncompressed", c->largest[g],
                 mib(c->largest_claim[g]));
    else
        snprintf(out, len,
                 "its compressed sections claim %.1f MiB uncompressed in all (the largest, "
                 "%s, %.1f MiB)",
                 mib(total), c->largest[g], mib(c->largest_claim[g]));
    size_t used = strlen(out);
    snprintf(out + used, len - used, ", more than a file of %.1f MiB can hold (at most %.1f MiB)",
             mib(c->file_size), mib(c->limit));
}
