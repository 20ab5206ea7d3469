/*
 * load_marks.c - writes and reads DIR/load-marks.txt; see load_marks.h.
 * The file is text, one "KEY VALUE" line each: start_ns, end_ns,
 * start_snapshot, end_snapshot. Never accepts a snapshot name with a '/' in
 * it: the file names snapshots of its own directory only.
 */
#include "load_marks.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_file.h"

static void path_in(const char *dir, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, LOAD_MARKS_FILE);
}

int load_marks_save(const char *dir, const struct load_marks *m)
{
    char path[PATH_MAX], err[PATH_MAX + 256];
    struct report_file file;
    path_in(dir, path, sizeof path);
    if (report_file_open(&file, path, err, sizeof err)) {
        fprintf(stderr, "stoke: %s; the report does not mark the load\n", err);
        return -1;
    }
    fprintf(file.out, "start_ns %" PRIu64 "\nend_ns %" PRIu64 "\n", m->start_ns, m->end_ns);
    if (m->start_snapshot[0])
        fprintf(file.out, "start_snapshot %s\n", m->start_snapshot);
    if (m->end_snapshot[0])
        fprintf(file.out, "end_snapshot %s\n", m->end_snapshot);
    if (report_file_close(&file, ferror(file.out), err, sizeof err)) {
        fprintf(stderr, "stoke: %s\n", err);
        return -1;
    }
    return 0;
}

/* The rest of line after "key ", its length in *len; NULL for another key. */
static const char *value_of(const char *line, const char *key, size_t *len)
{
    size_t n = strlen(key);
    if (strncmp(line, key, n) || line[n] != ' ')
        return NULL;
    *len = strcspn(line + n + 1, "\n");
    return line + n + 1;
}

/* Copies the snapshot name after "key " into name; 1 when it did. */
static int read_name(const char *line, const char *key, char *name, size_t len)
{
    size_t value_len;
    const char *value = value_of(line, key, &value_len);
    if (!value || !value_len || value_len >= len || memchr(value, '/', value_len))
        return 0;
    memcpy(name, value, value_len);
    name[value_len] = '\0';
    return 1;
}

/* Reads the time after "key " into *ns; 1 when it did. */
static int read_time(const char *line, const char *key, uint64_t *ns)
{
    size_t value_len;
    const char *value = value_of(line, key, &value_len);
    return value && sscanf(value, "%" SCNu64, ns) == 1;
}

static void read_line(const char *line, struct load_marks *m)
{
    if (!read_time(line, "start_ns", &m->start_ns) && !read_time(line, "end_ns", &m->end_ns) &&
        !read_name(line, "start_snapshot", m->start_snapshot, sizeof m->start_snapshot))
        read_name(line, "end_snapshot", m->end_snapshot, sizeof m->end_snapshot);
}

int load_marks_read(const char *dir, struct load_marks *m)
{
    char path[PATH_MAX], line[NAME_MAX + 32];
    *m = (struct load_marks){0};
    path_in(dir, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        read_line(line, m);
    fclose(f);
    if (m->start_ns && m->end_ns >= m->start_ns)
        return 0;
    *m = (struct load_marks){0};
    return -1;
}

int load_marks_have_snapshots(const struct load_marks *m)
{
    return m->start_snapshot[0] && m->end_snapshot[0];
}
