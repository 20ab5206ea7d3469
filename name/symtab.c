/*
 * symtab.c - the sorted function symbol index; see symtab.h.
 *
 * Owns: the names shown for symbols (version suffixes dropped), choosing
 * one name among aliases at the same address (global over weak over local,
 * then the one with fewer leading underscores), and the extent of symbols
 * without a size (up to the next symbol).
 * Never: names an address outside every function symbol.
 */
#include "symtab.h"

#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "arena.h"

struct function_symbol {
    uint64_t start, end;
    const char *name;
    int rank; /* higher wins among aliases */
};

struct stoke_symtab {
    struct function_symbol *symbols; /* sorted by start, one per start */
    size_t n;
    struct stoke_arena names;        /* names cut short of a version */
};

/* "memcpy@GLIBC_2.2.5" and "f@@V2" name memcpy and f: the symbol version is
 * the linker's business, not the user's. */
static const char *without_version(struct stoke_symtab *t, const char *name)
{
    const char *at = strchr(name, '@');
    return at && at > name ? stoke_arena_strndup(&t->names, name, (size_t)(at - name)) : name;
}

static int binding_rank(unsigned char info)
{
    switch (GELF_ST_BIND(info)) {
    case STB_GLOBAL: return 2;
    case STB_WEAK: return 1;
    default: return 0;
    }
}

static int alias_rank(const char *name, unsigned char info)
{
    size_t underscores = strspn(name, "_");
    return binding_rank(info) * 16 - (int)(underscores < 15 ? underscores : 15);
}

static int is_function(const GElf_Sym *sym)
{
    int type = GELF_ST_TYPE(sym->st_info);
    return (type == STT_FUNC || type == STT_GNU_IFUNC) && sym->st_shndx != SHN_UNDEF;
}

static int by_start_then_rank(const void *a, const void *b)
{
    const struct function_symbol *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return y->rank - x->rank;
}

/* Keeps the best-ranked alias per start; gives sizeless symbols the room up
 * to the next symbol. */
static void dedup_and_close(struct stoke_symtab *t)
{
    size_t kept = 0;
    for (size_t i = 0; i < t->n; i++)
        if (kept == 0 || t->symbols[kept - 1].start != t->symbols[i].start)
            t->symbols[kept++] = t->symbols[i];
    t->n = kept;
    for (size_t i = 0; i < t->n; i++)
        if (t->symbols[i].end == t->symbols[i].start)
            t->symbols[i].end = i + 1 < t->n ? t->symbols[i + 1].start : t->symbols[i].start + 1;
}

struct stoke_symtab *stoke_symtab_build(Dwfl_Module *module)
{
    struct stoke_symtab *t = stoke_xcalloc(1, sizeof *t);
    int count = dwfl_module_getsymtab(module);
    size_t cap = 0;
    for (int i = 1; i < count; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        const char *name = dwfl_module_getsym_info(module, i, &sym, &addr, NULL, NULL, NULL);
        if (!name || !*name || !is_function(&sym))
            continue;
        t->symbols = stoke_grow(t->symbols, &cap, t->n + 1, sizeof *t->symbols);
        name = without_version(t, name);
        t->symbols[t->n++] = (struct function_symbol){addr, addr + sym.st_size, name,
                                                      alias_rank(name, sym.st_info)};
    }
    if (t->n) /* a file without function symbols has no array to sort */
        qsort(t->symbols, t->n, sizeof *t->symbols, by_start_then_rank);
    dedup_and_close(t);
    return t;
}

const char *stoke_symtab_lookup(const struct stoke_symtab *t, uint64_t addr)
{
    size_t lo = 0, hi = t->n; /* find the last symbol starting at or before addr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->symbols[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || addr >= t->symbols[lo - 1].end)
        return NULL;
    return t->symbols[lo - 1].name;
}

void stoke_symtab_free(struct stoke_symtab *t)
{
    if (!t)
        return;
    free(t->symbols);
    stoke_arena_free(&t->names);
    free(t);
}
