/*
 * make_trace.c - writes stoke trace files for the unit tests, so the
 * offline side can be tested without the agent: whole traces, and the bad
 * ones a user may hand to `stoke report`.
 *
 *   make_trace KIND OUT [INFO]
 *
 * KIND: valid | truncated | corrupted | garbled | mismatch | nosamples |
 *       foreign | newer | empty | headeronly
 *   valid      three zstd frames: definitions; 11 samples of thread 4242;
 *              6 samples of thread 4243 and the END record
 *   truncated  valid, cut in the middle of its last frame
 *   corrupted  valid with the last frame's zstd magic smashed
 *   garbled    valid with bytes in the middle of the last frame flipped
 *   mismatch   valid plus a module whose build-id is not its file's
 *   nosamples  valid's definitions and an END record, but no sample (a
 *              process that ended before the first tick)
 *   foreign    a text file; newer: format major version + 1;
 *   empty      zero bytes; headeronly: a header and no frames
 * INFO is the output of sym_target (real addresses to symbolize); without it
 * the addresses are made up.
 *
 *   make_trace heap OUT SEQ TRIGGER [UNTRACKED]
 *
 * writes heap snapshot SEQ (1, 2, ...) of process demo (4242), TRIGGER one
 * of signal | api | exit | peak, with UNTRACKED allocations the agent could
 * not record (default 0). Its allocation stacks are JIT addresses (module
 * 0) that a perf-4242.map next to OUT names (see heap_functions), each
 * frame a return address (STOKE_STACK_CALLERS). With s = SEQ, as
 * live_bytes live_objects alloc_bytes alloc_objects:
 *   main;run;leak_a     s MiB, 16s, s MiB, 16s
 *   main;run;churn_b    4096, 1, 200s MiB, 51200s
 *   main;keep_c         30 MiB, 30, 30 MiB, 30 (its leaf return address is
 *                       the first byte of late_d: named keep_c only when
 *                       symbolized at offset - 1)
 *   main;run;late_d     (s-1) x 512 KiB, 8(s-1), the same (only when s >= 2)
 *   main;early_e        100, 1, 100, 1 (only when s == 1)
 *
 *   make_trace process OUT PID HEAP_INTERVAL HEAP_SIGNAL MINOR [taken]
 *
 * writes the first frame of process PID's trace as the agent writes it when
 * the process starts: a header of format 1.MINOR and the PROCESS record,
 * with the heap settings when MINOR is 2 or more (a trace still being
 * written, for `stoke heap`); with "taken", then a HEAP_SIGNAL record of 0
 * (the program took the signal over).
 *
 *   make_trace notes OUT COUNT
 *
 * writes a trace of process demo (4242) holding COUNT NOTE records ("note
 * 1" to "note COUNT", warnings), then 5 samples of one JIT stack: a flood
 * of messages in a small file.
 *
 *   make_trace bench OUT SAMPLES STACKS BINARY...
 *
 * writes SAMPLES samples over STACKS distinct stacks of depth 8..31 made of
 * addresses of functions in the given ELF files (a benchmark input), and
 * prints the file size and how many distinct addresses the stacks use.
 *
 * Never: used by stoke itself; it is a test tool.
 */
#include <gelf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>
#include "stoke_format.h"

#define PID 4242
#define MAX_FRAMES 64

/* --- writing records and frames ------------------------------------------- */

struct writer {
    FILE *out;
    ZSTD_CCtx *cctx;
    uint8_t *frame;          /* records of the frame being built */
    size_t frame_len, frame_cap;
    uint8_t *rec;            /* payload of the record being built */
    size_t rec_len, rec_cap;
    long last_frame_start;   /* file offset of the last frame written */
};

static void *grow(void *p, size_t *cap, size_t need)
{
    if (need <= *cap)
        return p;
    while (*cap < need)
        *cap = *cap ? *cap * 2 : 4096;
    p = realloc(p, *cap);
    if (!p) {
        perror("make_trace");
        exit(1);
    }
    return p;
}

static void put_u(struct writer *w, uint64_t v)
{
    w->rec = grow(w->rec, &w->rec_cap, w->rec_len + 10);
    w->rec_len += stoke_put_u(w->rec + w->rec_len, v);
}

static void put_s(struct writer *w, int64_t v)
{
    w->rec = grow(w->rec, &w->rec_cap, w->rec_len + 10);
    w->rec_len += stoke_put_s(w->rec + w->rec_len, v);
}

static void put_bytes(struct writer *w, const void *bytes, size_t len)
{
    put_u(w, len);
    w->rec = grow(w->rec, &w->rec_cap, w->rec_len + len);
    if (len)
        memcpy(w->rec + w->rec_len, bytes, len);
    w->rec_len += len;
}

static void put_str(struct writer *w, const char *s)
{
    put_bytes(w, s, strlen(s));
}

static void end_record(struct writer *w, unsigned type)
{
    w->frame = grow(w->frame, &w->frame_cap, w->frame_len + 11 + w->rec_len);
    w->frame[w->frame_len++] = (uint8_t)type;
    w->frame_len += stoke_put_u(w->frame + w->frame_len, w->rec_len);
    memcpy(w->frame + w->frame_len, w->rec, w->rec_len);
    w->frame_len += w->rec_len;
    w->rec_len = 0;
}

static void flush_frame(struct writer *w)
{
    size_t bound = ZSTD_compressBound(w->frame_len);
    uint8_t *z = malloc(bound);
    size_t n = ZSTD_compress2(w->cctx, z, bound, w->frame, w->frame_len);
    if (!z || ZSTD_isError(n)) {
        fprintf(stderr, "make_trace: compression failed\n");
        exit(1);
    }
    w->last_frame_start = ftell(w->out);
    fwrite(z, 1, n, w->out);
    free(z);
    w->frame_len = 0;
}

static void write_version_header(FILE *out, unsigned major, unsigned minor)
{
    uint8_t h[STOKE_FILE_HEADER_LEN] = {0};
    memcpy(h, STOKE_MAGIC, STOKE_MAGIC_LEN);
    h[8] = (uint8_t)major;
    h[9] = (uint8_t)(major >> 8);
    h[10] = (uint8_t)minor;
    h[11] = (uint8_t)(minor >> 8);
    fwrite(h, 1, sizeof h, out);
}

static void write_header(FILE *out, unsigned major)
{
    write_version_header(out, major, STOKE_FORMAT_MINOR);
}

static void start_writer_of_version(struct writer *w, const char *path, unsigned minor)
{
    memset(w, 0, sizeof *w);
    w->out = fopen(path, "wb");
    if (!w->out) {
        perror(path);
        exit(1);
    }
    w->cctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1);
    write_version_header(w->out, STOKE_FORMAT_MAJOR, minor);
}

static void start_writer(struct writer *w, const char *path)
{
    start_writer_of_version(w, path, STOKE_FORMAT_MINOR);
}

static long finish_writer(struct writer *w)
{
    long size = ftell(w->out);
    fclose(w->out);
    ZSTD_freeCCtx(w->cctx);
    free(w->frame);
    free(w->rec);
    return size;
}

/* --- records -------------------------------------------------------------- */

/* The PROCESS record of process pid; heap (interval, signal) adds the
 * heap settings of format 1.2 (NULL: none). */
/* heap: the 1.2 fields (or NULL), cwd: the 1.3 field (or NULL, then heap
 * must be NULL too or the record ends with the heap fields). */
static void rec_process_of(struct writer *w, uint64_t pid, const char *exe, uint64_t period_ns,
                           const uint64_t *heap, const char *cwd)
{
    put_u(w, pid);
    put_u(w, 1);
    put_u(w, 1700000000000000000ull);
    put_u(w, 123456789);
    put_u(w, STOKE_CLOCK_CPU);
    put_u(w, STOKE_ENGINE_PERF_TASK_CLOCK);
    put_u(w, 997);
    put_u(w, period_ns);
    put_str(w, "demo");
    put_str(w, exe);
    put_bytes(w, "demo\0--fast", 11);
    if (heap) {
        put_u(w, heap[0]);
        put_u(w, heap[1]);
    }
    if (heap && cwd)
        put_str(w, cwd);
    end_record(w, STOKE_REC_PROCESS);
}

static void rec_process(struct writer *w, const char *exe, uint64_t period_ns)
{
    rec_process_of(w, PID, exe, period_ns, NULL, NULL);
}

static void rec_map(struct writer *w, uint64_t id, const char *path, const uint8_t *build_id,
                    size_t build_id_len)
{
    uint64_t start = 0x7f0000000000ull + id * 0x1000000ull;
    put_u(w, id);
    put_u(w, start);
    put_u(w, start + 0x100000);
    put_u(w, start);
    put_bytes(w, build_id, build_id_len);
    put_str(w, path);
    put_u(w, 0);
    end_record(w, STOKE_REC_MAP);
}

static void rec_thread(struct writer *w, uint64_t tid, const char *name)
{
    put_u(w, tid);
    put_str(w, name);
    put_u(w, 0);
    end_record(w, STOKE_REC_THREAD);
}

struct code_address {
    uint64_t module, offset;
};

static void rec_stack(struct writer *w, uint64_t id, uint64_t flags,
                      const struct code_address *frames, size_t n)
{
    put_u(w, id);
    put_u(w, flags);
    put_u(w, n);
    for (size_t i = 0; i < n; i++) {
        int same = i > 0 && frames[i].module == frames[i - 1].module;
        put_u(w, frames[i].module);
        put_s(w, (int64_t)(frames[i].offset - (same ? frames[i - 1].offset : 0)));
    }
    end_record(w, STOKE_REC_STACK);
}

/* One SAMPLES record: samples[i] is a stack id, all of weight weights[i]. */
static void rec_samples(struct writer *w, uint64_t tid, const uint32_t *stacks,
                        const uint32_t *weights, size_t n)
{
    put_u(w, tid);
    put_u(w, 1000);
    put_u(w, n);
    for (size_t i = 0; i < n; i++) {
        put_u(w, stacks[i]);
        put_u(w, 1000);
        put_u(w, weights[i] - 1);
    }
    end_record(w, STOKE_REC_SAMPLES);
}

static void rec_end(struct writer *w, uint64_t taken, uint64_t lost)
{
    put_u(w, taken);
    put_u(w, lost);
    put_u(w, 12345);
    put_u(w, 500000);
    put_u(w, 2);
    end_record(w, STOKE_REC_END);
}

/* --- reading ELF files ---------------------------------------------------- */

static size_t read_build_id(const char *path, uint8_t *id, size_t max)
{
    int fd = open(path, O_RDONLY);
    Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
    Elf_Scn *scn = NULL;
    size_t len = 0;
    while (elf && !len && (scn = elf_nextscn(elf, scn))) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        GElf_Nhdr nhdr;
        size_t off = 0, name_off, desc_off, next;
        while (data && !len && (next = gelf_getnote(data, off, &nhdr, &name_off, &desc_off))) {
            if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_descsz <= max) {
                len = nhdr.n_descsz;
                memcpy(id, (uint8_t *)data->d_buf + desc_off, len);
            }
            off = next;
        }
    }
    if (elf)
        elf_end(elf);
    if (fd >= 0)
        close(fd);
    return len;
}

/* Function start addresses (ELF virtual addresses) of an ELF file. */
static size_t function_addresses(const char *path, uint64_t *out, size_t max)
{
    int fd = open(path, O_RDONLY);
    Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
    Elf_Scn *scn = NULL;
    size_t n = 0;
    while (elf && (scn = elf_nextscn(elf, scn))) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || (shdr.sh_type != SHT_SYMTAB && shdr.sh_type != SHT_DYNSYM))
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        GElf_Sym sym;
        for (size_t i = 0; data && i < shdr.sh_size / shdr.sh_entsize && n < max; i++)
            if (gelf_getsym(data, (int)i, &sym) && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
                sym.st_value && sym.st_size > 4)
                out[n++] = sym.st_value + sym.st_size / 2;
    }
    if (elf)
        elf_end(elf);
    if (fd >= 0)
        close(fd);
    return n;
}

/* --- the test scenario ---------------------------------------------------- */

struct target_info {
    char exe[4096], libc[4096];
    uint64_t stack[3], libc_offset, vdso_offset;
};

static void read_info(const char *path, struct target_info *t)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    char line[8192];
    strcpy(t->exe, "/nonexistent/demo");
    strcpy(t->libc, "/nonexistent/libc.so.6");
    t->stack[0] = 0x1100, t->stack[1] = 0x1234, t->stack[2] = 0x1300;
    t->libc_offset = 0x5000, t->vdso_offset = 0x900;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long a, b, c;
        char word[4096];
        if (sscanf(line, "exe %4095s", word) == 1)
            strcpy(t->exe, word);
        else if (sscanf(line, "stack %lx %lx %lx", &a, &b, &c) == 3)
            t->stack[0] = a, t->stack[1] = b, t->stack[2] = c;
        else if (sscanf(line, "libc %4095s %lx", word, &a) == 2)
            strcpy(t->libc, word), t->libc_offset = a;
        else if (sscanf(line, "vdso %lx", &a) == 1)
            t->vdso_offset = a;
    }
    if (f)
        fclose(f);
}

static void scenario_definitions(struct writer *w, const struct target_info *t, int mismatch)
{
    uint8_t id[64];
    rec_process(w, t->exe, 1003009);
    rec_map(w, 1, t->exe, id, read_build_id(t->exe, id, sizeof id));
    rec_map(w, 2, "/nonexistent/libgone.so", NULL, 0);
    rec_map(w, 3, t->libc, id, read_build_id(t->libc, id, sizeof id));
    rec_map(w, 4, "[vdso]", NULL, 0);
    rec_thread(w, PID, "demo");
    rec_thread(w, PID + 1, "worker");
    put_u(w, 0);
    put_str(w, "sampling with perf task-clock");
    end_record(w, STOKE_REC_NOTE);
    put_str(w, "a record type from the future");
    end_record(w, 200);
    const uint64_t *s = t->stack;
    struct code_address main_stack[] = {{1, s[0]}, {1, s[1]}, {1, s[2]}};
    struct code_address jit[] = {{0, 0x7f0000001010}, {0, 0x7f0000002030}, {0, 0x7f0000009999},
                                 {1, s[2]}};
    struct code_address gone[] = {{2, 0x1234}, {1, s[2]}};
    struct code_address libc[] = {{3, t->libc_offset}, {1, s[1]}, {1, s[2]}};
    struct code_address vdso[] = {{4, t->vdso_offset}, {1, s[2]}};
    rec_stack(w, 0, 0, main_stack, 3);
    rec_stack(w, 1, 0, jit, 4);
    rec_stack(w, 2, 0, gone, 2);
    rec_stack(w, 3, 0, libc, 3);
    rec_stack(w, 4, 0, vdso, 2);
    rec_stack(w, 5, STOKE_STACK_TRUNCATED, main_stack, 1);
    if (mismatch) {
        static const uint8_t wrong[] = {0xde, 0xad, 0xbe, 0xef};
        struct code_address changed[] = {{5, s[0]}};
        rec_map(w, 5, t->exe, wrong, sizeof wrong);
        rec_stack(w, 6, 0, changed, 1);
    }
}

/* Frame 2: 11 samples of thread 4242; frame 3: 6 of thread 4243 and END. */
static void scenario_samples(struct writer *w, int mismatch)
{
    uint32_t main_ids[] = {0, 0, 0, 0, 0, 0, 0, 3, 3, 4, 5, 6};
    uint32_t ones[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    rec_samples(w, PID, main_ids, ones, mismatch ? 12 : 11);
    flush_frame(w);
    uint32_t worker_ids[] = {1, 1, 1, 2, 2, 99};
    uint32_t worker_weights[] = {1, 1, 1, 3, 3, 1};
    rec_samples(w, PID + 1, worker_ids, worker_weights, 6);
    rec_end(w, 17, 2);
}

static long write_scenario(const char *out, const char *info_path, int mismatch, long *last_frame)
{
    struct writer w;
    struct target_info t;
    read_info(info_path, &t);
    start_writer(&w, out);
    scenario_definitions(&w, &t, mismatch);
    flush_frame(&w);
    scenario_samples(&w, mismatch);
    flush_frame(&w);
    *last_frame = w.last_frame_start;
    return finish_writer(&w);
}

static void write_without_samples(const char *out, const char *info_path)
{
    struct writer w;
    struct target_info t;
    read_info(info_path, &t);
    start_writer(&w, out);
    scenario_definitions(&w, &t, 0);
    rec_end(&w, 0, 0);
    flush_frame(&w);
    finish_writer(&w);
}

/* --- heap snapshots ------------------------------------------------------- */

/* Where the JIT functions of the snapshots start (0x100 bytes each), in
 * the order of the perf map the tests write. */
enum heap_function { MAIN, RUN, LEAK_A, CHURN_B, KEEP_C, LATE_D, EARLY_E };
#define HEAP_CODE 0x7f0000010000ull
#define MiB (1024ull * 1024)

static uint64_t inside(enum heap_function f, uint64_t offset)
{
    return HEAP_CODE + (uint64_t)f * 0x100 + offset;
}

struct heap_stack {
    struct code_address frames[3];
    size_t n;
    uint64_t values[4]; /* live_bytes, live_objects, alloc_bytes, alloc_objects */
    int present;
};

static void heap_stacks(uint64_t s, struct heap_stack out[5])
{
    struct heap_stack stacks[5] = {
        {{{0, inside(LEAK_A, 0x10)}, {0, inside(RUN, 0x10)}, {0, inside(MAIN, 0x10)}}, 3,
         {s * MiB, 16 * s, s * MiB, 16 * s}, 1},
        {{{0, inside(CHURN_B, 0x10)}, {0, inside(RUN, 0x20)}, {0, inside(MAIN, 0x10)}}, 3,
         {4096, 1, 200 * s * MiB, 51200 * s}, 1},
        {{{0, inside(LATE_D, 0)}, {0, inside(MAIN, 0x20)}}, 2, {30 * MiB, 30, 30 * MiB, 30}, 1},
        {{{0, inside(LATE_D, 0x10)}, {0, inside(RUN, 0x10)}, {0, inside(MAIN, 0x10)}}, 3,
         {(s - 1) * MiB / 2, 8 * (s - 1), (s - 1) * MiB / 2, 8 * (s - 1)}, s >= 2},
        {{{0, inside(EARLY_E, 0x10)}, {0, inside(MAIN, 0x10)}}, 2, {100, 1, 100, 1}, s == 1},
    };
    memcpy(out, stacks, sizeof stacks);
}

static int parse_trigger(const char *name)
{
    static const char *const names[] = {"signal", "api", "exit", "peak"};
    static const int triggers[] = {STOKE_HEAP_SIGNAL, STOKE_HEAP_API, STOKE_HEAP_EXIT,
                                   STOKE_HEAP_PEAK};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return triggers[i];
    return 0;
}

static void rec_heap(struct writer *w, uint64_t seq, int trigger, const uint64_t totals[4],
                     uint64_t untracked)
{
    put_u(w, seq);
    put_u(w, (uint64_t)trigger);
    put_u(w, seq * 1000000);
    put_u(w, 1700000000000000000ull + seq * 1000000000ull);
    put_u(w, 524288);
    for (int i = 0; i < 4; i++)
        put_u(w, totals[i]);
    put_u(w, untracked);
    end_record(w, STOKE_REC_HEAP);
}

static int heap_snapshot(const char *out, uint64_t seq, const char *trigger_name,
                         uint64_t untracked)
{
    int trigger = parse_trigger(trigger_name);
    if (!seq || !trigger) {
        fprintf(stderr, "make_trace heap: SEQ from 1, TRIGGER signal|api|exit|peak\n");
        return 2;
    }
    struct heap_stack stacks[5];
    uint64_t totals[4] = {0};
    struct writer w;
    heap_stacks(seq, stacks);
    start_writer(&w, out);
    rec_process(&w, "/nonexistent/demo", 0);
    for (uint64_t id = 0; id < 5; id++) {
        rec_stack(&w, id, STOKE_STACK_CALLERS, stacks[id].frames, stacks[id].n);
        for (int v = 0; v < 4 && stacks[id].present; v++)
            totals[v] += stacks[id].values[v];
    }
    rec_heap(&w, seq, trigger, totals, untracked);
    for (uint64_t id = 0; id < 5; id++) {
        if (!stacks[id].present)
            continue;
        put_u(&w, id);
        for (int v = 0; v < 4; v++)
            put_u(&w, stacks[id].values[v]);
        end_record(&w, STOKE_REC_HEAP_STACK);
    }
    flush_frame(&w);
    finish_writer(&w);
    return 0;
}

/* --- damage --------------------------------------------------------------- */

static void overwrite(const char *path, long offset, const void *bytes, size_t len)
{
    FILE *f = fopen(path, "r+b");
    if (!f || fseek(f, offset, SEEK_SET) != 0 || fwrite(bytes, 1, len, f) != len) {
        perror(path);
        exit(1);
    }
    fclose(f);
}

static void write_text(const char *path, const void *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, len, f) != len) {
        perror(path);
        exit(1);
    }
    fclose(f);
}

/* Prints "bytes_lost N" on stdout: what the reader must report. */
static int damaged(const char *kind, const char *out, const char *info)
{
    long last, size = write_scenario(out, info, 0, &last);
    if (strcmp(kind, "truncated") == 0) {
        long cut = last + (size - last) / 2;
        if (truncate(out, cut) != 0) {
            perror(out);
            return 1;
        }
        printf("bytes_lost %ld\n", cut - last);
    } else if (strcmp(kind, "corrupted") == 0) {
        overwrite(out, last, "JUNK", 4);
        printf("bytes_lost %ld\n", size - last);
    } else {
        static const uint8_t noise[] = {0x55, 0xaa, 0x55, 0xaa, 0x55, 0xaa, 0x55, 0xaa};
        overwrite(out, last + (size - last) / 2, noise, sizeof noise);
        printf("bytes_lost %ld\n", size - last);
    }
    return 0;
}

/* --- JIT names held by the trace ------------------------------------------- */

/* node in /app: JIT code sampled before the trace names it (as the JVM
 * names its code only at exit), a function in two tiers, a dependency, node
 * core, a builtin, a start address whose later line wins, and code that a
 * later, longer line covers. */
static int jit_names(const char *out)
{
    static const char *const lines[] = {
        "7f0000001000 100 JS:*render /app/lib/page.js:20:15\n"
        "7f0000002000 100 JS:^render /app/lib/page.js:20:15\n"
        "7f0000007000 40 JS:~small /app/a.js:1:1\n"
        "7f0000007040 40 JS:~small2 /app/a.js:2:1\n",
        "7f0000003000 100 JS:~handle /app/node_modules/express/lib/router/layer.js:86:49\n"
        "7f0000004000 100 JS:~emit node:events:517:28\n"
        "7f0000005000 100 Builtin:LoadIC\n",
        "7f0000006000 100 JS:*old /app/old.js:1:1\n"
        "7f0000006000 100 JS:*new /app/new.js:2:2\n"
        "7f0000006f80 200 JS:*big /app/b.js:5:5\n",
    };
    struct writer w;
    uint32_t stacks[] = {0, 1, 2}, weights[] = {3, 2, 4};
    struct code_address optimized[] = {{0, 0x7f0000001010}, {0, 0x7f0000003010},
                                       {0, 0x7f0000004010}},
                        baseline[] = {{0, 0x7f0000002010}, {0, 0x7f0000003010},
                                      {0, 0x7f0000004010}},
                        reused[] = {{0, 0x7f0000005010}, {0, 0x7f0000006010},
                                    {0, 0x7f0000007050}};
    start_writer(&w, out);
    rec_process_of(&w, PID, "/usr/bin/node", 1003009, (const uint64_t[]){0, 0}, "/app");
    rec_stack(&w, 0, 0, optimized, 3);
    rec_stack(&w, 1, 0, baseline, 3);
    rec_stack(&w, 2, 0, reused, 3);
    rec_samples(&w, PID, stacks, weights, 3);
    flush_frame(&w);
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        put_u(&w, 1000 * (i + 1));
        put_str(&w, lines[i]);
        end_record(&w, STOKE_REC_JIT_MAP);
    }
    rec_end(&w, 9, 0);
    flush_frame(&w);
    finish_writer(&w);
    return 0;
}

/* --- a flood of notes ------------------------------------------------------ */

static int note_flood(const char *out, long count)
{
    struct writer w;
    char text[64];
    uint32_t stack[] = {0}, weight[] = {5};
    struct code_address jit[] = {{0, 0x7f0000001010}};
    start_writer(&w, out);
    rec_process(&w, "/nonexistent/demo", 1003009);
    for (long i = 1; i <= count; i++) {
        snprintf(text, sizeof text, "note %ld", i);
        put_u(&w, 1);
        put_str(&w, text);
        end_record(&w, STOKE_REC_NOTE);
        if (i % 10000 == 0)
            flush_frame(&w);
    }
    rec_stack(&w, 0, 0, jit, 1);
    rec_samples(&w, PID, stack, weight, 1);
    rec_end(&w, 5, 0);
    flush_frame(&w);
    printf("bytes %ld\n", finish_writer(&w));
    return 0;
}

/* --- benchmark input ------------------------------------------------------ */

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static int bench(const char *out, long samples, long nstacks, char **binaries, int nbinaries)
{
    enum { MAX_ADDRESSES = 1 << 16 };
    static uint64_t addresses[MAX_ADDRESSES];
    static uint8_t module_of[MAX_ADDRESSES], used[MAX_ADDRESSES];
    size_t naddresses = 0, distinct = 0;
    struct writer w;
    uint64_t rng = 88172645463325252ull;
    uint8_t id[64];
    start_writer(&w, out);
    rec_process(&w, binaries[0], 1003009);
    for (int b = 0; b < nbinaries; b++) {
        rec_map(&w, (uint64_t)b + 1, binaries[b], id, read_build_id(binaries[b], id, sizeof id));
        size_t n = function_addresses(binaries[b], addresses + naddresses, MAX_ADDRESSES - naddresses);
        memset(module_of + naddresses, b + 1, n);
        naddresses += n;
    }
    if (!naddresses) {
        fprintf(stderr, "make_trace: no functions found in the binaries\n");
        return 1;
    }
    rec_thread(&w, PID, "demo");
    for (long s = 0; s < nstacks; s++) {
        struct code_address frames[MAX_FRAMES];
        size_t depth = 8 + next_random(&rng) % 24;
        for (size_t i = 0; i < depth; i++) {
            size_t a = next_random(&rng) % naddresses;
            frames[i] = (struct code_address){module_of[a], addresses[a]};
            distinct += !used[a];
            used[a] = 1;
        }
        rec_stack(&w, (uint64_t)s, 0, frames, depth);
    }
    flush_frame(&w);
    enum { BATCH = 1000 };
    uint32_t ids[BATCH], ones[BATCH];
    for (long done = 0; done < samples;) {
        size_t n = samples - done < BATCH ? (size_t)(samples - done) : BATCH;
        for (size_t i = 0; i < n; i++)
            ids[i] = (uint32_t)(next_random(&rng) % (uint64_t)nstacks), ones[i] = 1;
        rec_samples(&w, PID + done / BATCH % 4, ids, ones, n);
        done += (long)n;
        if (done % (100 * BATCH) == 0)
            flush_frame(&w);
    }
    rec_end(&w, (uint64_t)samples, 0);
    flush_frame(&w);
    printf("bytes %ld distinct_addresses %zu\n", finish_writer(&w), distinct);
    return 0;
}

/* The first frame of a running process's trace, as the agent writes it
 * when the process starts: its PROCESS record, with the heap settings
 * from format 1.2 on. */
static int process_start(const char *out, uint64_t pid, uint64_t interval, uint64_t signal,
                         unsigned minor, int signal_taken)
{
    struct writer w;
    const uint64_t heap[2] = {interval, signal};
    start_writer_of_version(&w, out, minor);
    rec_process_of(&w, pid, "/usr/bin/demo", 1003009, minor >= 2 ? heap : NULL, NULL);
    flush_frame(&w);
    if (signal_taken) {
        put_u(&w, 0);
        end_record(&w, STOKE_REC_HEAP_SIGNAL);
        flush_frame(&w);
    }
    finish_writer(&w);
    return 0;
}

/* --- main ----------------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr, "usage: make_trace valid|truncated|corrupted|garbled|mismatch|nosamples|"
                    "foreign|newer|empty|headeronly OUT [INFO]\n"
                    "       make_trace heap OUT SEQ signal|api|exit|peak [UNTRACKED]\n"
                    "       make_trace process OUT PID HEAP_INTERVAL HEAP_SIGNAL MINOR [taken]\n"
                    "       make_trace notes OUT COUNT\n"
                    "       make_trace jitmap OUT\n"
                    "       make_trace bench OUT SAMPLES STACKS BINARY...\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    const char *kind = argv[1], *out = argv[2], *info = argc > 3 ? argv[3] : NULL;
    long last;
    elf_version(EV_CURRENT);
    if (strcmp(kind, "valid") == 0 || strcmp(kind, "mismatch") == 0) {
        write_scenario(out, info, strcmp(kind, "mismatch") == 0, &last);
        return 0;
    }
    if (strcmp(kind, "nosamples") == 0) {
        write_without_samples(out, info);
        return 0;
    }
    if (strcmp(kind, "truncated") == 0 || strcmp(kind, "corrupted") == 0 ||
        strcmp(kind, "garbled") == 0)
        return damaged(kind, out, info);
    if (strcmp(kind, "foreign") == 0) {
        write_text(out, "hello, this is not a trace\n", 27);
        return 0;
    }
    if (strcmp(kind, "empty") == 0) {
        write_text(out, "", 0);
        return 0;
    }
    if (strcmp(kind, "newer") == 0 || strcmp(kind, "headeronly") == 0) {
        FILE *f = fopen(out, "wb");
        if (!f)
            return perror(out), 1;
        write_header(f, STOKE_FORMAT_MAJOR + (strcmp(kind, "newer") == 0));
        fclose(f);
        return 0;
    }
    if (strcmp(kind, "heap") == 0 && argc > 4)
        return heap_snapshot(out, strtoull(argv[3], NULL, 10), argv[4],
                             argc > 5 ? strtoull(argv[5], NULL, 10) : 0);
    if (strcmp(kind, "process") == 0 && argc > 6)
        return process_start(out, strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10),
                             strtoull(argv[5], NULL, 10), (unsigned)atoi(argv[6]),
                             argc > 7 && !strcmp(argv[7], "taken"));
    if (strcmp(kind, "jitmap") == 0)
        return jit_names(out);
    if (strcmp(kind, "notes") == 0 && argc > 3)
        return note_flood(out, atol(argv[3]));
    if (strcmp(kind, "bench") == 0 && argc > 5)
        return bench(out, atol(argv[3]), atol(argv[4]), argv + 5, argc - 5);
    return usage();
}
