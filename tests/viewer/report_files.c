/*
 * report_files.c - writes test reports to files (see report_files.h).
 *
 * Owns: opening, closing and naming the file that failed.
 * Never: part of stoke itself.
 */
#include "report_files.h"

#include <stdio.h>

#include "folded.h"
#include "html.h"

static FILE *open_output(const char *path)
{
    FILE *out = fopen(path, "w");
    if (!out)
        perror(path);
    return out;
}

/* Closes out; -1 if writing (rc) or closing failed. */
static int close_output(FILE *out, const char *path, int rc)
{
    if (fclose(out) != 0 || rc < 0) {
        perror(path);
        return -1;
    }
    return 0;
}

int write_html_file(const char *path, const struct stoke_report_tab *tabs, size_t ntabs,
                    const char *title)
{
    const struct stoke_report r = {.tabs = tabs, .ntabs = ntabs, .title = title};
    return write_report_file(path, &r);
}

int write_report_file(const char *path, const struct stoke_report *r)
{
    FILE *out = open_output(path);
    return out ? close_output(out, path, stoke_write_html(out, r)) : -1;
}

int write_folded_file(const char *path, const struct stoke_profile *p, size_t value)
{
    struct stoke_report_tab tab;
    const struct stoke_report r = stoke_report_of(p, value, &tab);
    FILE *out = open_output(path);
    return out ? close_output(out, path, stoke_write_folded(out, &r)) : -1;
}
