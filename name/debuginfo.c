/*
 * debuginfo.c - naming addresses with elfutils' libdwfl; see debuginfo.h.
 *
 * Owns: the libdwfl session of one file; how much of the file it may read
 * (its compressed sections' claims are checked before libdwfl sees it);
 * the walk of DWARF scopes that expands inline chains; where each function
 * is defined and which line each address and inlined call is at, with
 * source paths made whole by source_paths.c (symbol names: symtab.c).
 * Never: reads the symbol table or DWARF by hand (libdwfl/libdw do), lets
 * libdwfl near a section the check refused, or keeps state between lookups
 * other than what libdwfl caches.
 */
#include "debuginfo.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "alloc.h"
#include "compressed_sections.h"
#include "regular_file.h"
#include "source_paths.h"
#include "symtab.h"

struct stoke_debuginfo {
    Dwfl *dwfl;
    Dwfl_Module *module;
    struct stoke_symtab *symbols; /* built on the first lookup */
    enum stoke_debuginfo_use use;
    struct stoke_compressed_claims claims;
    struct stoke_source_paths sources; /* paths made whole (source_paths.h) */
};

static char *debuginfo_path; /* NULL: libdwfl's default search path */

/* The separate debug files libdwfl's standard search finds are not checked
 * as the file itself is: the search keeps the handle it opened to validate
 * a file in the module, and uses it whatever the callback then returns. */

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
};

/* What the file's compressed sections allow libdwfl to read. */
static enum stoke_debuginfo_use use_allowed(const struct stoke_compressed_claims *claims)
{
    if (!stoke_symbol_claims_fit(claims))
        return STOKE_DEBUGINFO_UNUSED;
    return stoke_all_claims_fit(claims) ? STOKE_DEBUGINFO_FULL : STOKE_DEBUGINFO_SYMBOLS_ONLY;
}

struct stoke_debuginfo *stoke_debuginfo_open(const char *name, const char *path, int fd)
{
    struct stoke_compressed_claims claims;
    if (fd < 0)
        fd = stoke_open_regular(path);
    if (fd < 0)
        return NULL;
    stoke_read_compressed_claims(fd, &claims);
    Dwfl *dwfl = dwfl_begin(&callbacks);
    if (!dwfl) {
        close(fd);
        return NULL;
    }
    dwfl_report_begin(dwfl);
    /* base 0 relative to p_vaddr: module addresses are ELF virtual addresses */
    Dwfl_Module *module = dwfl_report_elf(dwfl, name, path, fd, 0, true);
    dwfl_report_end(dwfl, NULL, NULL);
    if (!module) {
        dwfl_end(dwfl);
        close(fd); /* libdwfl keeps a descriptor only with the module it made */
        return NULL;
    }
    struct stoke_debuginfo *d = stoke_xcalloc(1, sizeof *d);
    d->dwfl = dwfl;
    d->module = module;
    d->claims = claims;
    d->use = use_allowed(&claims);
    return d;
}

enum stoke_debuginfo_use stoke_debuginfo_use(const struct stoke_debuginfo *d, char *why,
                                             size_t len)
{
    if (d->use != STOKE_DEBUGINFO_FULL)
        stoke_describe_claims(&d->claims, why, len);
    return d->use;
}

size_t stoke_debuginfo_build_id(struct stoke_debuginfo *d, const uint8_t **id)
{
    GElf_Addr vaddr;
    Dwarf_Addr bias;
    dwfl_module_getelf(d->module, &bias); /* loads the ELF so the id is known */
    int len = dwfl_module_build_id(d->module, id, &vaddr);
    return len > 0 ? (size_t)len : 0;
}

int stoke_debuginfo_file_offset(struct stoke_debuginfo *d, uint64_t vaddr, uint64_t *offset)
{
    Dwarf_Addr bias;
    Elf *elf = dwfl_module_getelf(d->module, &bias);
    size_t n;
    if (!elf || elf_getphdrnum(elf, &n) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr &&
            vaddr - ph.p_vaddr < ph.p_filesz) {
            *offset = ph.p_offset + (vaddr - ph.p_vaddr);
            return 0;
        }
    }
    return -1;
}

void stoke_debuginfo_close(struct stoke_debuginfo *d)
{
    if (!d)
        return;
    stoke_symtab_free(d->symbols);
    stoke_source_paths_free(&d->sources);
    dwfl_end(d->dwfl);
    free(d);
}

/* --- DWARF ---------------------------------------------------------------- */

/* The compilation directory of unit cu, NULL when unknown. */
static const char *cu_dir(Dwarf_CU *cu)
{
    Dwarf_Die die;
    Dwarf_Attribute attr;
    if (!cu || !dwarf_cu_die(cu, &die, NULL, NULL, NULL, NULL, NULL, NULL))
        return NULL;
    return dwarf_formstring(dwarf_attr(&die, DW_AT_comp_dir, &attr));
}

/* The compilation directory of die's unit, NULL when unknown. */
static const char *unit_dir(Dwarf_Die *die)
{
    Dwarf_Die cu;
    Dwarf_Attribute attr;
    if (!dwarf_diecu(die, &cu, NULL, NULL))
        return NULL;
    return dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &attr));
}

static int is_function_scope(Dwarf_Die *die)
{
    int tag = dwarf_tag(die);
    return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

/* The linkage (mangled) name when there is one, else the plain name; both
 * followed through abstract origins and specifications. */
static const char *dwarf_function_name(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
    if (!name)
        name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
    return name ? name : dwarf_diename(die);
}

/* Where the function is defined (through abstract origins and
 * specifications): a function keeps one location wherever it is sampled, so
 * it stays one frame. */
static void definition(struct stoke_debuginfo *d, Dwarf_Die *die, const char **file,
                       unsigned *line)
{
    int lineno = 0;
    Dwarf_Attribute attr; /* the unit its file is named in: its abstract origin's, maybe */
    const char *dir = dwarf_attr_integrate(die, DW_AT_decl_file, &attr) ? cu_dir(attr.cu) : NULL;
    *file = stoke_source_path(&d->sources, dir, dwarf_decl_file(die));
    *line = dwarf_decl_line(die, &lineno) == 0 && lineno > 0 ? (unsigned)lineno : 0;
}

/* The DIEs whose ranges hold pc, outermost first, down the concrete tree. */
struct scope_path {
    Dwarf_Die *dies;
    size_t n, cap;
};

/* Beyond this many nested namespaces, classes and imported units the walk
 * stops (a cycle of imports in a damaged file). */
#define MAX_CONTAINER_DEPTH 64

/* A DIE that may hold code in its children without covering it itself
 * (C++ namespaces and classes, Fortran modules, an imported partial unit):
 * the DIE whose children to search, in *inside. */
static int container(Dwarf_Die *die, Dwarf_Die *inside)
{
    Dwarf_Attribute import;
    switch (dwarf_tag(die)) {
    case DW_TAG_namespace:
    case DW_TAG_module:
    case DW_TAG_class_type:
    case DW_TAG_structure_type:
    case DW_TAG_union_type:
    case DW_TAG_interface_type:
        *inside = *die;
        return 1;
    case DW_TAG_imported_unit:
        return dwarf_formref_die(dwarf_attr(die, DW_AT_import, &import), inside) != NULL;
    default:
        return 0;
    }
}

/* Appends to path the DIEs under parent whose ranges hold pc, down to the
 * innermost. The concrete tree only: dwarf_getscopes also looks for an
 * inlined instance's abstract definition in the instance's own unit, and
 * link-time optimization puts it in another; dwarf_getscopes then returns
 * no scopes and loses what it allocated. Children that cover pc are looked
 * at before containers are entered. Returns 1 when one was found. */
static int scopes_under(Dwarf_Die *parent, Dwarf_Addr pc, struct scope_path *path,
                        unsigned depth)
{
    Dwarf_Die child, inside;
    if (dwarf_child(parent, &child) != 0)
        return 0;
    Dwarf_Die first = child;
    do {
        if (dwarf_haspc(&child, pc) == 1) {
            path->dies = stoke_grow(path->dies, &path->cap, path->n + 1, sizeof *path->dies);
            path->dies[path->n++] = child;
            scopes_under(&child, pc, path, depth);
            return 1;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    if (depth >= MAX_CONTAINER_DEPTH)
        return 0;
    child = first;
    do {
        if (container(&child, &inside) && scopes_under(&inside, pc, path, depth + 1))
            return 1;
    } while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

/* The source file of an inlined call (DW_AT_call_file, an index into its
 * unit's file table); "" when unknown. */
static const char *call_file(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    Dwarf_Word index;
    Dwarf_Die cu;
    Dwarf_Files *files;
    size_t nfiles;
    if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &index) != 0 ||
        !dwarf_diecu(die, &cu, NULL, NULL) || dwarf_getsrcfiles(&cu, &files, &nfiles) != 0 ||
        index >= nfiles)
        return "";
    const char *name = dwarf_filesrc(files, index, NULL, NULL);
    return name && strcmp(name, "???") != 0 ? name : ""; /* "???": index 0 before DWARF 5 */
}

/* The line of an inlined call (DW_AT_call_line), 0 when unknown. */
static unsigned call_line(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    Dwarf_Word line;
    if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &line) != 0 ||
        line > UINT_MAX)
        return 0;
    return (unsigned)line;
}

/* Expands the function scopes at addr, innermost first, each with the line
 * it is at: the innermost's is left for the line table, an outer one's is
 * where the function inside it was inlined. Sets *complete when the chain
 * reached the function that holds the code. */
static size_t inline_chain(struct stoke_debuginfo *d, uint64_t addr,
                           struct stoke_debuginfo_frame *out, size_t max, int *complete)
{
    Dwarf_Addr bias;
    Dwarf_Die *cudie = dwfl_module_addrdie(d->module, addr, &bias);
    struct scope_path path = {0};
    if (cudie)
        scopes_under(cudie, addr - bias, &path, 0);
    size_t n = 0;
    Dwarf_Die *inner = NULL; /* the function scope found before, inside this one */
    *complete = 0;
    for (size_t i = path.n; i-- > 0 && n < max;) {
        Dwarf_Die *scope = &path.dies[i];
        if (!is_function_scope(scope))
            continue;
        out[n].name = dwarf_function_name(scope);
        definition(d, scope, &out[n].file, &out[n].line);
        out[n].at_file = "";
        out[n].at_line = 0;
        if (n > 0) {
            out[n].at_file = stoke_source_path(&d->sources, unit_dir(inner), call_file(inner));
            out[n].at_line = call_line(inner);
        }
        inner = scope;
        n++;
        if (dwarf_tag(scope) == DW_TAG_subprogram) {
            *complete = 1;
            break;
        }
    }
    free(path.dies);
    return n;
}

/* --- lookup --------------------------------------------------------------- */

/* Sets f's at_file and at_line to addr's own line from the line table,
 * when it has one. */
static void address_line(struct stoke_debuginfo *d, uint64_t addr,
                         struct stoke_debuginfo_frame *f)
{
    Dwfl_Line *line = dwfl_module_getsrc(d->module, addr);
    int lineno = 0;
    const char *file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
    if (!file || lineno <= 0)
        return;
    f->at_file = stoke_source_path(&d->sources, dwfl_line_comp_dir(line), file);
    f->at_line = (unsigned)lineno;
}

size_t stoke_debuginfo_lookup(struct stoke_debuginfo *d, uint64_t addr,
                              struct stoke_debuginfo_frame *out, size_t max)
{
    int complete = 0;
    size_t n = 0;
    if (max == 0 || d->use == STOKE_DEBUGINFO_UNUSED)
        return 0;
    if (!d->symbols)
        d->symbols = stoke_symtab_build(d->module);
    const char *symbol = stoke_symtab_lookup(d->symbols, addr);
    if (d->use == STOKE_DEBUGINFO_FULL)
        n = inline_chain(d, addr, out, max, &complete);
    if (symbol && n == 0)
        out[n++] = (struct stoke_debuginfo_frame){symbol, "", 0, "", 0};
    else if (symbol && complete)
        out[n - 1].name = symbol; /* the symbol table also names clones and cold parts */
    if (n > 0 && d->use == STOKE_DEBUGINFO_FULL)
        address_line(d, addr, &out[0]);
    return n;
}
