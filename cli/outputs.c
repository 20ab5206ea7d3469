/*
 * outputs.c - puts reports into files through the writers of output/'s
 * registry. Owns where a report goes by default and what its title is;
 * files are created by report_file.c (never half-written, never through a
 * link). Never formats profile data itself.
 */
#define _GNU_SOURCE /* memrchr */
#include "outputs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "report_file.h"

void report_path_for(const char *input, const char *name, char *path, size_t len)
{
    int end = (int)strlen(input);
    while (end > 1 && input[end - 1] == '/')
        end--;
    struct stat st;
    if (stat(input, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(path, len, "%.*s/%s", end, input, name);
        return;
    }
    const char *slash = memrchr(input, '/', (size_t)end);
    if (slash)
        snprintf(path, len, "%.*s/%s", (int)(slash - input), input, name);
    else
        snprintf(path, len, "%s", name);
}

/* "comm (pid)" of the process with the most samples, and how many others. */
static void report_title(const struct stoke_profile *p, char *title, size_t len)
{
    const struct stoke_process_summary *top = NULL;
    for (size_t i = 0; i < p->nprocs; i++)
        if (!top || p->procs[i].samples > top->samples)
            top = &p->procs[i];
    if (!top)
        snprintf(title, len, "%s", STOKE_DEFAULT_TITLE);
    else if (p->nprocs == 1)
        snprintf(title, len, "%s (%u)", top->comm, top->pid);
    else
        snprintf(title, len, "%s (%u) and %zu other process%s", top->comm, top->pid,
                 p->nprocs - 1, p->nprocs == 2 ? "" : "es");
}

/* Writes r with writer to out, titled after its first tab's processes when
 * it has no title. */
static int write_titled(stoke_writer *writer, FILE *out, const struct stoke_report *r)
{
    char title[256];
    struct stoke_report titled = *r;
    if (!r->title && r->ntabs) {
        report_title(r->tabs[0].profile, title, sizeof title);
        titled.title = title;
    }
    return writer(out, &titled);
}

int write_report_file(int format, const struct stoke_report *r, const char *path, char *err,
                      size_t errlen)
{
    stoke_writer *writer = stoke_output_formats[format].write;
    if (!path) {
        if (write_titled(writer, stdout, r) == 0 && fflush(stdout) == 0)
            return 0;
        snprintf(err, errlen, "cannot write to standard output: %s", strerror(errno));
        return -1;
    }
    struct report_file file;
    if (report_file_open(&file, path, err, errlen))
        return -1;
    int failed = write_titled(writer, file.out, r) != 0 || fflush(file.out) != 0;
    return report_file_close(&file, failed, err, errlen);
}

int write_profile_file(int format, const struct stoke_profile *p, size_t value_index,
                       const char *path, char *err, size_t errlen)
{
    struct stoke_report_tab tab;
    const struct stoke_report report = stoke_report_of(p, value_index, &tab);
    return write_report_file(format, &report, path, err, errlen);
}
