/*
 * load_snapshots.c - writes and reads DIR/load-snapshots.txt; see
 * load_snapshots.h. Never accepts a name with a '/' in it: the file names
 * snapshots of its own directory only.
 */
#include "load_snapshots.h"

#include <stdio.h>
#include <string.h>

#include "report_file.h"

static void path_in(const char *dir, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, LOAD_SNAPSHOTS_FILE);
}

int load_snapshots_save(const char *dir, const struct load_snapshots *s)
{
    char path[PATH_MAX], err[PATH_MAX + 256];
    struct report_file file;
    path_in(dir, path, sizeof path);
    if (report_file_open(&file, path, err, sizeof err)) {
        fprintf(stderr, "stoke: %s; the report shows no growth during the load\n", err);
        return -1;
    }
    fprintf(file.out, "start %s\nend %s\n", s->start, s->end);
    if (report_file_close(&file, ferror(file.out), err, sizeof err)) {
        fprintf(stderr, "stoke: %s\n", err);
        return -1;
    }
    return 0;
}

/* Copies the rest of line after "key " into name; 1 when it did. */
static int read_name(const char *line, const char *key, char *name, size_t len)
{
    size_t n = strlen(key);
    if (strncmp(line, key, n) || line[n] != ' ')
        return 0;
    const char *value = line + n + 1;
    size_t value_len = strcspn(value, "\n");
    if (!value_len || value_len >= len || memchr(value, '/', value_len))
        return 0;
    memcpy(name, value, value_len);
    name[value_len] = '\0';
    return 1;
}

int load_snapshots_read(const char *dir, struct load_snapshots *s)
{
    char path[PATH_MAX], line[NAME_MAX + 16];
    *s = (struct load_snapshots){0};
    path_in(dir, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (!read_name(line, "start", s->start, sizeof s->start))
            read_name(line, "end", s->end, sizeof s->end);
    fclose(f);
    if (s->start[0] && s->end[0])
        return 0;
    *s = (struct load_snapshots){0};
    return -1;
}
