/*
 * load_output.c - writes and reads DIR/load.txt; see load_output.h.
 */
#include "load_output.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "report_file.h"

#define LOAD_OUTPUT_READ_MAX (2 << 20)

static void path_in(const char *dir, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, LOAD_OUTPUT_FILE);
}

int load_output_save(const char *dir, const char *text, size_t len, size_t dropped)
{
    char path[PATH_MAX];
    path_in(dir, path, sizeof path);
    struct report_file file;
    char err[PATH_MAX + 256];
    if (report_file_open(&file, path, err, sizeof err)) {
        fprintf(stderr, "stoke: %s; the report goes on without the load command's output\n",
                err);
        return -1;
    }
    if (len)
        fwrite(text, 1, len, file.out);
    if (dropped)
        fprintf(file.out, "\n[stoke: %zu more bytes of output not kept]\n", dropped);
    if (report_file_close(&file, ferror(file.out), err, sizeof err)) {
        fprintf(stderr, "stoke: %s\n", err);
        return -1;
    }
    return 0;
}

char *load_output_read(const char *dir)
{
    char path[PATH_MAX];
    path_in(dir, path, sizeof path);
    struct stat st;
    if (stat(path, &st) || !S_ISREG(st.st_mode))
        return NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = st.st_size < LOAD_OUTPUT_READ_MAX ? (size_t)st.st_size : LOAD_OUTPUT_READ_MAX;
    char *text = stoke_xmalloc(cap + 1);
    size_t n = fread(text, 1, cap, f);
    fclose(f);
    text[n] = '\0';
    return text;
}
